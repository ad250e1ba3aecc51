package io.armtrace.protocol.etm2;

import io.armtrace.trace.Isa;

/**
 * Branch address packet encodings of both protocol versions: the packet bytes and the compression that
 * outputs only the low-order bits that changed since the last address.
 *
 * <p>ETMv2 (IHI 0014Q 6.7.1, Table 6.9): the address is marked with a 1 above its top bit, shifted right by
 * two (ARM) or one (Thumb), given a closing 1 bit and cut into 7-bit pieces with bit 7 as the continue bit.
 * Here that 33-bit value is called the packed value: bit 0 is the closing 1; ARM has its marker at bit 31,
 * Thumb at bit 32, so a fifth byte reads b0E001XXX (ARM, E = cancelling exception) or b0001XXXX (Thumb).
 *
 * <p>ETMv1 (IHI 0014Q 5.5.4, Figure 5.1): the address itself, bit 0 set for Thumb, in 7-bit pieces; the fifth
 * packet holds address bits [31:28] in bits [3:0] and the reason code in bits [6:4].
 */
final class Etm2Address {
    private Etm2Address() {
    }

    /** ETMv2 packed value of {@code address} in state {@code isa}. */
    static long pack(long address, Isa isa) {
        address &= 0xFFFFFFFFL;
        if (isa == Isa.T32) {
            return 1L << 32 | (address & ~1L) | 1;
        }
        return 1L << 31 | (address >>> 2) << 1 | 1;
    }

    /** The address of a packed value, or -1 if it carries no valid marker. */
    static long unpackAddress(long packed) {
        if ((packed & 1L << 32) != 0) {
            return packed & 0xFFFFFFFEL;
        }
        if ((packed & 1L << 31) != 0) {
            return ((packed >>> 1) & 0x3FFFFFFFL) << 2;
        }
        return -1;
    }

    /** The state of a packed value: T32 if the marker is at bit 32, A32 if at bit 31. */
    static Isa unpackIsa(long packed) {
        return (packed & 1L << 32) != 0 ? Isa.T32 : Isa.A32;
    }

    /**
     * How many bytes an ETMv2 branch address needs when {@code previous} (packed, or -1 for none) was the
     * last one output: enough 7-bit pieces to cover every bit that changed; 5 when {@code full}.
     */
    static int bytesNeeded(long packed, long previous, boolean full) {
        if (full || previous < 0) {
            return 5;
        }
        long diff = packed ^ previous;
        if (diff == 0) {
            return 1;
        }
        int top = 63 - Long.numberOfLeadingZeros(diff);
        int n = top / 7 + 1;
        return Math.min(n, 5);
    }

    /** Writes {@code n} ETMv2 branch address bytes of {@code packed} to {@code out} at {@code off}. */
    static void writeV2(long packed, int n, boolean exception, byte[] out, int off) {
        for (int i = 0; i < n; i++) {
            int b = (int) (packed >>> (7 * i)) & 0x7F;
            if (i < n - 1) {
                b |= 0x80;
            } else if (i == 4 && exception) {
                b |= 0x40;
            }
            out[off + i] = (byte) b;
        }
    }

    /** True if {@code b} is a valid ETMv2 fifth address byte (Table 6.9); all other values are reserved. */
    static boolean validFifthByteV2(int b) {
        return (b & 0xB8) == 0x08 || (b & 0xF0) == 0x10;
    }

    /** ETMv1 address value: the address with bit 0 set in Thumb state. */
    static long v1Value(long address, Isa isa) {
        address &= 0xFFFFFFFFL;
        return isa == Isa.T32 ? (address & ~1L) | 1 : address & ~3L;
    }

    static int bytesNeededV1(long value, long previous, boolean full) {
        if (full || previous < 0) {
            return 5;
        }
        long diff = value ^ previous;
        if (diff == 0) {
            return 1;
        }
        int top = 63 - Long.numberOfLeadingZeros(diff);
        return Math.min(top / 7 + 1, 5);
    }

    /** Writes {@code n} ETMv1 address packets; a fifth packet carries {@code reason} in bits [6:4]. */
    static void writeV1(long value, int n, int reason, byte[] out, int off) {
        for (int i = 0; i < n; i++) {
            int b;
            if (i < 4) {
                b = (int) (value >>> (7 * i)) & 0x7F;
            } else {
                b = (int) (value >>> 28) & 0x0F | (reason & 7) << 4;
            }
            if (i < n - 1) {
                b |= 0x80;
            }
            out[off + i] = (byte) b;
        }
    }
}
