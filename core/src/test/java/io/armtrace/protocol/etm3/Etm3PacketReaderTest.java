package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.etm3.Etm3Packet.Kind;
import io.armtrace.trace.Isa;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bit-level cases from IHI 0014Q chapter 7's tables and figures. */
class Etm3PacketReaderTest {
    static final int[] ASYNC = {0, 0, 0, 0, 0, 0x80};
    static final long CR_CA = Etm3Config.CR_CYCLE_ACCURATE;

    /** What a test keeps of one packet. */
    record P(Kind kind, long offset, int length, String atoms, int cycles, long address, Isa isa, int exception,
             boolean cancel, boolean deprecated, int resume, long value, String text) {
    }

    static List<P> read(Etm3Config cfg, int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        List<P> out = new ArrayList<>();
        Etm3PacketReader r = new Etm3PacketReader(cfg, p -> out.add(new P(p.kind, p.offset, p.length,
                p.kind == Kind.P_HEADER ? p.atoms() : "", p.cycles, p.address, p.isa, p.exception, p.cancel,
                p.deprecatedException, p.resume,
                switch (p.kind) {
                    case CYCLE_COUNT -> p.cycleCount;
                    case TIMESTAMP -> p.timestamp;
                    case CONTEXT_ID -> p.contextId;
                    case VMID -> p.vmid;
                    case NORMAL_DATA -> p.dataValue;
                    case I_SYNC -> p.hasCycleCount ? p.cycleCount : p.lsipInstruction;
                    default -> 0;
                }, p.toString())));
        // one byte at a time: every packet crosses push boundaries
        for (int i = 0; i < b.length; i++) {
            r.push(b, i, 1);
        }
        r.end();
        return out;
    }

    static int[] cat(int[]... parts) {
        int n = 0;
        for (int[] p : parts) {
            n += p.length;
        }
        int[] out = new int[n];
        int k = 0;
        for (int[] p : parts) {
            for (int v : p) {
                out[k++] = v;
            }
        }
        return out;
    }

    static Etm3Config cfg(long cr) {
        return new Etm3Config(cr, Etm3Config.DEFAULT_ETMIDR, 0, 0x10, false);
    }

    static Etm3Config alt() {
        return new Etm3Config(0, Etm3Config.DEFAULT_ETMIDR | Etm3Config.IDR_ALT_BRANCH, 0, 0x10, false);
    }

    @Test
    void nonCycleAccuratePHeadersOfExample71() {
        // IHI 0014Q Example 7.1: b11001000 = E E N (format 1), b10001010 = N E (format 2)
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0xC8, 0x8A, 0x80, 0xBC}));
        assertThat(ps).extracting(P::kind).containsExactly(Kind.A_SYNC, Kind.P_HEADER, Kind.P_HEADER, Kind.P_HEADER,
                Kind.P_HEADER);
        assertThat(ps).extracting(P::atoms).containsExactly("", "EEN", "NE", "", "EEEEEEEEEEEEEEE");
    }

    @Test
    void reservedNonCycleAccuratePHeaderLosesSyncUntilTheNextASync() {
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x84, 0x92, 0x84, 0x84}, ASYNC, new int[] {0x84}));
        assertThat(ps).extracting(P::kind).containsExactly(Kind.A_SYNC, Kind.P_HEADER, Kind.MALFORMED, Kind.UNSYNCED,
                Kind.A_SYNC, Kind.P_HEADER);
        assertThat(ps.get(2).offset()).isEqualTo(7);
        assertThat(ps.get(3).offset()).isEqualTo(8);
        assertThat(ps.get(3).length()).isEqualTo(2);
        assertThat(ps.get(4).offset()).isEqualTo(10);
    }

    @Test
    void cycleAccuratePHeaderFormats() {
        // IHI 0014Q Table 7.3: format 0 b10000000 (W); format 1 b1N0EEE00 (WE.. WN); format 2 b1000FF10 (W + 2 atoms);
        // format 3 b1E1WWW00 (1-8 W, 0-1 E); format 4 b1001xF10 (one atom, no W)
        List<P> ps = read(cfg(CR_CA), cat(ASYNC, new int[] {0x80, 0xC8, 0x8A, 0xE4, 0xBC, 0x96, 0x92}));
        assertThat(ps.subList(1, ps.size())).extracting(P::atoms).containsExactly("", "EEN", "NE", "E", "", "N", "E");
        assertThat(ps.subList(1, ps.size())).extracting(P::cycles).containsExactly(1, 3, 1, 2, 8, 0, 0);
    }

    /** I-sync: header, context ID, information byte, address with T in bit 0 (IHI 0014Q 7.4.4). */
    @Test
    void iSyncGivesAddressIsaAndReason() {
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x08, 0x20, 0x5D, 0x11, 0x02, 0xC0}));
        P s = ps.get(1);
        assertThat(s.kind()).isEqualTo(Kind.I_SYNC);
        assertThat(s.address()).isEqualTo(0xC002115CL);
        assertThat(s.isa()).isEqualTo(Isa.T32);
        assertThat(s.text()).contains("reason=1");
    }

    @Test
    void iSyncWithCycleCountAndContextId() {
        Etm3Config c = cfg(CR_CA | 3L << Etm3Config.CR_CONTEXT_ID_SHIFT);
        List<P> ps = read(c, cat(ASYNC, new int[] {0x70, 0x85, 0x01, 0x78, 0x56, 0x34, 0x12, 0x40, 0x00, 0x10, 0x00, 0x80}));
        P s = ps.get(1);
        assertThat(s.value()).isEqualTo(5 + 128);
        assertThat(s.address()).isEqualTo(0x80001000L);
        assertThat(s.isa()).isEqualTo(Isa.A32);
        assertThat(s.text()).contains("reason=2").contains("ctxid=0x12345678");
    }

    @Test
    void loadStoreInProgressISyncCarriesTheNextAddressCompressed() {
        // LSiP: information byte bit 7; the follow-up address is a branch-format address relative to the I-sync's
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x08, 0xA0, 0x00, 0x10, 0x00, 0x00, 0x09}));
        P s = ps.get(1);
        assertThat(s.kind()).isEqualTo(Kind.I_SYNC);
        assertThat(s.value()).isEqualTo(0x1000); // the load/store instruction
        assertThat(s.address()).isEqualTo(0x1010); // A[7:2] = b000100
        assertThat(s.length()).isEqualTo(7);
    }

    @Test
    void loadStoreInProgressAddressIsFollowedByNoExceptionBytes() {
        // IHI 0014Q 7.4.4: the LSiP address has the branch address format, one to five bytes ended by the first
        // without a continuation bit; here byte 5 has the bit (6) that in a branch packet announces Exception
        // Information bytes, which an I-sync does not carry: the packet ends there and keeps its own NS bit (0x88:
        // LSiP, NS), and the byte after it is a packet of its own.
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x08, 0x88, 0x01, 0x00, 0x00, 0x80,
                0x81, 0x80, 0x80, 0x80, 0x58, 0x84}));
        P s = ps.get(1);
        assertThat(s.kind()).isEqualTo(Kind.I_SYNC);
        assertThat(s.length()).isEqualTo(11);
        assertThat(s.value()).isEqualTo(0x80000000L);
        assertThat(s.address()).isEqualTo(0x80000000L);
        assertThat(s.text()).contains(" NS").doesNotContain("excp");
        assertThat(ps.get(2).kind()).isEqualTo(Kind.P_HEADER);
        assertThat(ps.get(2).offset()).isEqualTo(17);
    }

    static final int[] ISYNC_THUMB_80000000 = {0x08, 0x20, 0x01, 0x00, 0x00, 0x80};

    @Test
    void oneByteThumbBranchReplacesAddressBits6To1() {
        List<P> ps = read(cfg(0), cat(ASYNC, ISYNC_THUMB_80000000, new int[] {0x0B}));
        assertThat(ps.get(2).kind()).isEqualTo(Kind.BRANCH);
        assertThat(ps.get(2).address()).isEqualTo(0x8000000AL);
        assertThat(ps.get(2).isa()).isEqualTo(Isa.T32);
    }

    @Test
    void fiveByteBranchToArmWithExceptionInformationByte() {
        // Original encoding, byte 5 = b0C001xxx with C = 1: Exception Information Byte 0 follows; Excp = b1110 IRQ
        List<P> ps = read(cfg(0), cat(ASYNC, ISYNC_THUMB_80000000, new int[] {0x8D, 0x80, 0x81, 0x80, 0x4E, 0x1C, 0x84}));
        P b = ps.get(2);
        assertThat(b.kind()).isEqualTo(Kind.BRANCH);
        assertThat(b.address()).isEqualTo(0xC0008018L);
        assertThat(b.isa()).isEqualTo(Isa.A32);
        assertThat(b.exception()).isEqualTo(14);
        assertThat(b.cancel()).isFalse();
        assertThat(ps.get(3).kind()).isEqualTo(Kind.P_HEADER);
    }

    @Test
    void deprecatedByte5ExceptionWithCancel() {
        // Table 7.6: b11EEExxx = exception in ARM state that cancels the last instruction; EEE b001 = IRQ
        List<P> ps = read(cfg(0), cat(ASYNC, ISYNC_THUMB_80000000, new int[] {0x8D, 0x80, 0x81, 0x80, 0xCE, 0x84}));
        P b = ps.get(2);
        assertThat(b.deprecated()).isTrue();
        assertThat(b.exception()).isEqualTo(16 + 1);
        assertThat(b.cancel()).isTrue();
        assertThat(b.address()).isEqualTo(0xC0008018L);
        assertThat(b.isa()).isEqualTo(Isa.A32);
        assertThat(b.length()).isEqualTo(5);
    }

    @Test
    void alternativeEncodingCompressesExceptionBranches() {
        // Table 7.8: in bytes 2-4, bit 7 = 0 and bit 6 = 1 ends the address and announces exception information
        int[] isync = {0x08, 0x20, 0x01, 0x10, 0x00, 0x00}; // 0x00001000, Thumb
        int[] branch = {0x85, 0x60, 0x14}; // -> 0x1004, Excp = b1010 SVC
        List<P> ps = read(alt(), cat(ASYNC, isync, branch));
        P b = ps.get(2);
        assertThat(b.kind()).isEqualTo(Kind.BRANCH);
        assertThat(b.address()).isEqualTo(0x1004);
        assertThat(b.exception()).isEqualTo(10);
        assertThat(b.length()).isEqualTo(3);
        // The same bytes in the original encoding: a two-byte branch, then 0x14, a data header: an error.
        List<P> orig = read(cfg(0), cat(ASYNC, isync, branch));
        assertThat(orig.get(2).length()).isEqualTo(2);
        assertThat(orig.get(3).kind()).isEqualTo(Kind.MALFORMED);
    }

    @Test
    void alternativeEncodingLastByteHoldsSixBits() {
        int[] isync = {0x08, 0x20, 0x01, 0x10, 0x00, 0x00}; // 0x00001000, Thumb
        List<P> ps = read(alt(), cat(ASYNC, isync, new int[] {0x81, 0x3F}));
        // A[6:1] = 0, A[12:7] = b111111 -> 0x1F80 (bit 13 kept from 0x1000: 0)
        assertThat(ps.get(2).address()).isEqualTo(0x1F80);
    }

    @Test
    void allThreeExceptionInformationBytesOfAnArmv7mCore() {
        // Figure 7.29: bytes 0, 1 and 2: Excp[8:0] = 0x1FF (IRQ495), Resume = 3
        Etm3Config m = new Etm3Config(0, Etm3Config.DEFAULT_ETMIDR, 0, 0x10, true);
        int[] isync = {0x08, 0x20, 0x01, 0x10, 0x00, 0x00};
        int[] branch = {0x81, 0x80, 0x80, 0x80, 0x50, 0x9E, 0x9F, 0x43};
        List<P> ps = read(m, cat(ASYNC, isync, branch));
        P b = ps.get(2);
        assertThat(b.exception()).isEqualTo(0x1FF);
        assertThat(b.resume()).isEqualTo(3);
        assertThat(b.length()).isEqualTo(8);
        assertThat(Etm3Exceptions.mNumber(0x1FF)).isEqualTo(0x1FF);
        assertThat(Etm3Exceptions.mName(Etm3Exceptions.mNumber(0x1FF))).isEqualTo("IRQ495");
        assertThat(Etm3Exceptions.mName(Etm3Exceptions.mNumber(8))).isEqualTo("IRQ0");
        assertThat(Etm3Exceptions.mName(Etm3Exceptions.mNumber(0x13))).isEqualTo("HardFault");
    }

    @Test
    void cycleCountTimestampContextIdVmidAndSinglesByteHeaders() {
        Etm3Config c = new Etm3Config(Etm3Config.CR_TIMESTAMP | 2L << Etm3Config.CR_CONTEXT_ID_SHIFT | Etm3Config.CR_VMID,
                Etm3Config.DEFAULT_ETMIDR, 0, 0x10, false);
        List<P> ps = read(c, cat(ASYNC, new int[] {0x04, 0x81, 0x01, 0x42, 0x85, 0x01, 0x46, 0x07, 0x6E, 0x34, 0x12,
                0x3C, 0x05, 0x0C, 0x66, 0x76, 0x7E}));
        assertThat(ps).extracting(P::kind).containsExactly(Kind.A_SYNC, Kind.CYCLE_COUNT, Kind.TIMESTAMP,
                Kind.TIMESTAMP, Kind.CONTEXT_ID, Kind.VMID, Kind.TRIGGER, Kind.IGNORE, Kind.EXCEPTION_EXIT,
                Kind.EXCEPTION_ENTRY);
        assertThat(ps).extracting(P::value).containsExactly(0L, 129L, 0x85L, 0x87L, 0x1234L, 5L, 0L, 0L, 0L, 0L);
    }

    @Test
    void dataPacketsParseToTheirFullLength() {
        Etm3Config c = cfg(Etm3Config.CR_DATA_ADDRESS | Etm3Config.CR_DATA_VALUE);
        // normal data b00A0SS10 with address and one value byte; OOO data b0TT0SS00 tag 1, 2 bytes;
        // placeholder b01A1TT00 with address; value not traced b011A1010 with address; store failed; suppressed
        List<P> ps = read(c, cat(ASYNC, new int[] {0x26, 0x90, 0x01, 0xAB, 0x28, 0x11, 0x22, 0x74, 0x05, 0x7A, 0x06,
                0x50, 0x62, 0x84}));
        assertThat(ps).extracting(P::kind).containsExactly(Kind.A_SYNC, Kind.NORMAL_DATA, Kind.OUT_OF_ORDER_DATA,
                Kind.OUT_OF_ORDER_PLACEHOLDER, Kind.VALUE_NOT_TRACED, Kind.STORE_FAILED, Kind.DATA_SUPPRESSED,
                Kind.P_HEADER);
        assertThat(ps.get(1).value()).isEqualTo(0xAB);
        assertThat(ps.get(1).text()).contains("addr=0x00000090");
        assertThat(ps).extracting(P::length).containsExactly(6, 4, 3, 2, 2, 1, 1, 1);
    }

    @Test
    void dataHeaderWithoutDataTracingIsAnError() {
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x26, 0x84}));
        assertThat(ps.get(1).kind()).isEqualTo(Kind.MALFORMED);
        assertThat(ps.get(1).text()).contains("data tracing is off");
    }

    @Test
    void garbageBeforeTheFirstASyncAndLongZeroRuns() {
        List<P> ps = read(cfg(0), 0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x84, 0, 0, 0, 0, 0, 0, 0x80, 0x84);
        assertThat(ps).extracting(P::kind).containsExactly(Kind.UNSYNCED, Kind.A_SYNC, Kind.P_HEADER, Kind.A_SYNC,
                Kind.P_HEADER);
        assertThat(ps.get(0).length()).isEqualTo(2);
        assertThat(ps.get(1).offset()).isEqualTo(2);
        assertThat(ps.get(1).length()).isEqualTo(8);
        assertThat(ps.get(3).length()).isEqualTo(7);
    }

    @Test
    void truncatedPacketAtTheEnd() {
        List<P> ps = read(cfg(0), cat(ASYNC, new int[] {0x08, 0x20, 0x01}));
        assertThat(ps.get(1).kind()).isEqualTo(Kind.MALFORMED);
        assertThat(ps.get(1).offset()).isEqualTo(6);
        assertThat(ps.get(1).length()).isEqualTo(3);
    }
}
