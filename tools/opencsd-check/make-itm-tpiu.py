#!/usr/bin/env python3
"""Makes a TPIU port capture of an ITM source from a CoreSight formatted buffer, as a trace port analyser
records it: the buffer's 16-byte frames with a full-frame synchronization packet (FF FF FF 7F) before the
first frame and after every fourth, and half-word synchronization packets (FF 7F, the TPIU's idle filler), two
at a time as a 32-bit port sends them, after every third frame (unless a full-frame sync follows) and in the middle of every fifth (OpenCSD's
deformatter expects the frames at 32-bit boundaries of the capture). armtrace and OpenCSD (trc_pkt_lister -tpiu_hsync)
must take the same bytes of the source out of it as out of the buffer itself.

usage: make-itm-tpiu.py BUFFER OUT
"""
import sys

FSYNC = bytes([0xFF, 0xFF, 0xFF, 0x7F])
HSYNC = bytes([0xFF, 0x7F, 0xFF, 0x7F])

data = open(sys.argv[1], "rb").read()
frames = [data[i:i + 16] for i in range(0, len(data) - len(data) % 16, 16)]
out = bytearray()
for i, frame in enumerate(frames):
    if i % 4 == 0:
        out += FSYNC
    if i % 5 == 2:
        out += frame[:8] + HSYNC + frame[8:]
    else:
        out += frame
    if i % 3 == 1 and i % 4 != 3:
        out += HSYNC  # not right before a full-frame sync: OpenCSD takes that for a sync inside a frame
out += FSYNC
open(sys.argv[2], "wb").write(bytes(out))
