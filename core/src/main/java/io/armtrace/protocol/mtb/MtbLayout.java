package io.armtrace.protocol.mtb;

/**
 * Where the active MTB buffer lies in a dump and in which order its packets were written.
 *
 * <p>The buffer is {@code bufferSize} bytes at byte {@code bufferOffset} of the dump; the next packet
 * would go to byte {@code pointer} of it. Packets in age order are the dump bytes
 * [{@code firstOffset}, +{@code firstLength}) followed by [{@code secondOffset}, +{@code secondLength}):
 * not wrapped, packets 0..POINTER-1; wrapped, POINTER..end then 0..POINTER-1 (the MTB writes an empty
 * ascending circular buffer). {@code note} explains an adjustment made to fit the dump (null if none);
 * {@code problem} says why the buffer cannot be read from the dump (null if it can).
 */
public record MtbLayout(long dumpLength, long bufferOffset, long bufferSize, long pointer, boolean wrapped,
                        String note, String problem) {

    public long firstOffset() {
        return wrapped ? bufferOffset + pointer : bufferOffset;
    }

    public long firstLength() {
        return wrapped ? bufferSize - pointer : pointer;
    }

    public long secondOffset() {
        return bufferOffset;
    }

    public long secondLength() {
        return wrapped ? pointer : 0;
    }

    /** Number of packets the buffer holds in age order. */
    public long packetCount() {
        return problem != null ? 0 : (firstLength() + secondLength()) / 8;
    }

    /** Dump offset of the {@code i}-th oldest packet. */
    public long offsetOfPacket(long i) {
        long b = i * 8;
        return b < firstLength() ? firstOffset() + b : secondOffset() + (b - firstLength());
    }

    static long ceilPowerOfTwo(long v) {
        return v <= 1 ? 1 : Long.highestOneBit(v - 1) << 1;
    }

    static MtbLayout of(MtbConfig c, long dumpLength) {
        long usable = dumpLength & ~7L;
        String note = null;
        if (usable <= 0) {
            return new MtbLayout(dumpLength, 0, 0, 0, false, null,
                    "the MTB dump holds " + dumpLength + " bytes, less than one 8-byte packet");
        }
        long base = c.base().orElse(0);
        long size;
        long bufferOffset;
        long region = ceilPowerOfTwo(usable);
        if (!c.hasMaster()) {
            size = usable;
            bufferOffset = 0;
            long ptr = (c.pointer() - base) & (region - 1);
            if (ptr >= size) {
                return new MtbLayout(dumpLength, 0, size, 0, false, null, String.format(
                        "POSITION 0x%08x points outside the %d-byte dump (give MASTER to place the buffer)",
                        c.position(), dumpLength));
            }
            return new MtbLayout(dumpLength, 0, size, ptr, c.wrapped(), "MASTER not given: the whole dump is the buffer",
                    null);
        }
        int mask = Math.min(c.mask(), MtbConfig.MAX_MASK);
        size = 1L << (mask + 4);
        if (c.mask() > MtbConfig.MAX_MASK) {
            note = "MASK " + c.mask() + " is larger than any MTB; taken as " + MtbConfig.MAX_MASK;
        }
        if (usable < size) {
            // MASK values above the implemented maximum act as the maximum: a dump of the whole MTB SRAM
            // that is smaller than 2^(MASK+4) is the largest buffer the device has.
            long fit = Long.highestOneBit(usable);
            note = String.format("the dump (%d bytes) is smaller than the %d-byte buffer MASK gives; "
                    + "its first %d bytes are taken as the buffer", dumpLength, size, fit);
            size = fit;
            bufferOffset = 0;
        } else if (usable == size) {
            bufferOffset = 0;
        } else {
            bufferOffset = ((c.pointer() & ~(size - 1)) - base) & (region - 1);
            if (bufferOffset + size > usable) {
                return new MtbLayout(dumpLength, bufferOffset, size, 0, false, note, String.format(
                        "the %d-byte buffer that POSITION 0x%08x and MASTER 0x%08x select lies at byte %d, beyond the "
                                + "end of the %d-byte dump (is BASE right?)", size, c.position(), c.master(),
                        bufferOffset, dumpLength));
            }
        }
        long ptr = c.pointer() & (size - 1);
        return new MtbLayout(dumpLength, bufferOffset, size, ptr, c.wrapped(), note, null);
    }
}
