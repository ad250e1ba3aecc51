package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.Isa;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PtmPacketReaderTest {

    /** A packet copied out of the reused one. */
    record P(PtmPacket.Type type, long offset, int length, long address, int bits, Isa isa, int reason,
             long cycles, int atomCount, int atomBits, int exception, boolean ns, long ctxt, long ts, int vmid) {
        static P of(PtmPacket k) {
            return new P(k.type, k.offset, k.length, k.address, k.addressBits, k.isa, k.reason, k.cycles,
                    k.atomCount, k.atomBits, k.exception, k.nonSecure, k.contextId, k.timestamp, k.vmid);
        }
    }

    static List<P> read(PtmConfig cfg, byte[] data, int chunk) {
        List<P> out = new ArrayList<>();
        PtmPacketReader r = new PtmPacketReader(cfg, k -> out.add(P.of(k)));
        for (int i = 0; i < data.length; i += chunk) {
            r.push(data, i, Math.min(chunk, data.length - i));
        }
        r.end();
        return out;
    }

    static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    static final PtmConfig PLAIN = new PtmConfig(0, 0x411CF312L, 0, 1);
    static final PtmConfig CC = new PtmConfig(0x10001000L, 0x411CF312L, 0x34C01AC2L, 0x13);

    @Test
    void asyncThenIsyncArmDebugExit() {
        // trace_cov_a15: A-sync, I-sync 0x80000558 ARM, reason debug exit (info byte 0x61)
        List<P> p = read(new PtmConfig(0x20000400L, 0x411CF312L, 0x34C01AC2L, 2),
                bytes(0, 0, 0, 0, 0, 0x80, 0x08, 0x58, 0x05, 0x00, 0x80, 0x61), 100);
        assertThat(p).hasSize(2);
        assertThat(p.get(0).type()).isEqualTo(PtmPacket.Type.A_SYNC);
        assertThat(p.get(0).length()).isEqualTo(6);
        P i = p.get(1);
        assertThat(i.type()).isEqualTo(PtmPacket.Type.I_SYNC);
        assertThat(i.offset()).isEqualTo(6);
        assertThat(i.address()).isEqualTo(0x80000558L);
        assertThat(i.isa()).isEqualTo(Isa.A32);
        assertThat(i.reason()).isEqualTo(3);
        assertThat(i.ns()).isFalse();
    }

    @Test
    void nonCycleAccurateAtomsOldestInHighestBit() {
        // trace_cov_a15 atoms: 0xd0 = ENEEE, 0xd2 = ENEEN, 0xe2 = NEEEN, 0x9c = NNE, 0x84 = E
        byte[] d = bytes(0, 0, 0, 0, 0, 0x80, 0xd0, 0xd2, 0xe2, 0x9c, 0x84, 0x8a);
        List<P> p = read(PLAIN, d, 3);
        assertThat(atoms(p.get(1))).isEqualTo("ENEEE");
        assertThat(atoms(p.get(2))).isEqualTo("ENEEN");
        assertThat(atoms(p.get(3))).isEqualTo("NEEEN");
        assertThat(atoms(p.get(4))).isEqualTo("NNE");
        assertThat(atoms(p.get(5))).isEqualTo("E");
        assertThat(atoms(p.get(6))).isEqualTo("EN"); // 1000 1010: two atoms, bit2 = E (oldest), bit1 = N
    }

    static String atoms(P p) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < p.atomCount(); i++) {
            sb.append((p.atomBits() >> i & 1) != 0 ? 'E' : 'N');
        }
        return sb.toString();
    }

    @Test
    void branchWithDebugHaltException() {
        // trace_cov_a15: [0x81 0x80 0x80 0x80 0x48 0x02] = address 0, ARM, exception 1 (debug halt), S
        List<P> p = read(PLAIN, bytes(0, 0, 0, 0, 0, 0x80, 0x08, 0x58, 0x05, 0x00, 0x80, 0x61,
                0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x2f), 1);
        P b = p.get(2);
        assertThat(b.type()).isEqualTo(PtmPacket.Type.BRANCH_ADDRESS);
        assertThat(b.length()).isEqualTo(6);
        assertThat(b.address()).isEqualTo(0);
        assertThat(b.isa()).isEqualTo(Isa.A32);
        assertThat(b.exception()).isEqualTo(1);
        // single byte 0x2f after it: 0x5c in the low bits of the previous address
        assertThat(p.get(3).address()).isEqualTo(0x5CL);
        assertThat(p.get(3).bits()).isEqualTo(8);
    }

    @Test
    void cycleAccuratePacketsFromTc2() {
        // TC2 0x13: I-sync (trace enable) with cycle count 51, atoms with counts, ARM branch with count 397
        byte[] d = bytes(0, 0, 0, 0, 0, 0x80,
                0x08, 0xdf, 0x8d, 0x01, 0xc0, 0x21, 0xcc, 0x03,
                0xe8, 0x20, 0xde, 0x01, 0xbc,
                0x8f, 0xea, 0xde, 0xdb, 0x0d, 0x74, 0x18,
                0x42, 0xcc, 0x97, 0xc6, 0xce, 0xaf, 0x90, 0x80, 0x80, 0x00, 0x00,
                0x76, 0x42, 0x48, 0x00);
        List<P> p = read(CC, d, 5);
        assertThat(p).extracting(P::type).containsExactly(PtmPacket.Type.A_SYNC, PtmPacket.Type.I_SYNC,
                PtmPacket.Type.ATOM, PtmPacket.Type.ATOM, PtmPacket.Type.ATOM, PtmPacket.Type.BRANCH_ADDRESS,
                PtmPacket.Type.TIMESTAMP, PtmPacket.Type.EXCEPTION_RETURN, PtmPacket.Type.TIMESTAMP);
        assertThat(p.get(1).address()).isEqualTo(0xc0018ddeL);
        assertThat(p.get(1).isa()).isEqualTo(Isa.T32);
        assertThat(p.get(1).cycles()).isEqualTo(51);
        assertThat(atoms(p.get(2)) + p.get(2).cycles()).isEqualTo("E522");
        assertThat(atoms(p.get(3)) + p.get(3).cycles()).isEqualTo("N23");
        assertThat(atoms(p.get(4)) + p.get(4).cycles()).isEqualTo("E15");
        assertThat(p.get(5).address()).isEqualTo(0xB6EF6A1CL);
        assertThat(p.get(5).isa()).isEqualTo(Isa.A32);
        assertThat(p.get(5).cycles()).isEqualTo(397);
        assertThat(p.get(6).ts()).isEqualTo(562537008076L);
        assertThat(p.get(6).length()).isEqualTo(11);
        assertThat(p.get(8).ts()).isEqualTo(0x82F9D18BC8L); // low 7 bits replaced by 0x48
    }

    @Test
    void oneByteBranchPlacesBits6To1PerInstructionSet() {
        // IHI 0035B 4.5.4: a one-byte branch 0x2B gives bits [6:1] = 0x15: ARM address bits [7:2],
        // Thumb bits [6:1], Jazelle bits [5:0]
        int[][] cases = {
            {0x00, 0x00, 0x80001054, 8}, // I-sync address 0x80001000 ARM
            {0x01, 0x00, 0x8000102A, 7}, // Thumb (address bit 0 set)
            {0x01, 0x04, 0x8000102A, 7}, // ThumbEE (alt ISA in the information byte)
            {0x00, 0x10, 0x80001015, 6}, // Jazelle (information byte bit 4)
        };
        for (int[] c : cases) {
            byte[] d = bytes(0, 0, 0, 0, 0, 0x80, 0x08, c[0], 0x10, 0x00, 0x80, c[1], 0x2B);
            for (int chunk : new int[] {1, 100}) {
                P b = read(PLAIN, d, chunk).get(2);
                assertThat(b.type()).isEqualTo(PtmPacket.Type.BRANCH_ADDRESS);
                assertThat(b.length()).isEqualTo(1);
                assertThat(b.address()).as("info 0x%x", c[1]).isEqualTo(c[2] & 0xFFFFFFFFL);
                assertThat(b.bits()).isEqualTo(c[3]);
            }
        }
    }

    @Test
    void atomsAndShortBranchesCarryNoFieldsOfEarlierPackets() {
        // I-sync ARM 0x80000558 with reason debug exit and context ID, atom E, one-byte branch, atom,
        // exception branch (debug halt, 6 bytes), atom, one-byte branch, atom: each packet shows only its
        // own fields and the current state
        PtmConfig ctx = new PtmConfig(0x4000L, 0x411CF312L, 0, 1); // 1 context ID byte (ETMCR[15:14] = 1)
        byte[] d = bytes(0, 0, 0, 0, 0, 0x80, 0x08, 0x58, 0x05, 0x00, 0x80, 0x69, 0x42,
                0x84, 0x2B, 0x84, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x84, 0x2B, 0x84);
        for (int chunk : new int[] {1, 3, 100}) {
            List<P> p = read(ctx, d, chunk);
            assertThat(p).extracting(P::type).containsExactly(PtmPacket.Type.A_SYNC, PtmPacket.Type.I_SYNC,
                    PtmPacket.Type.ATOM, PtmPacket.Type.BRANCH_ADDRESS, PtmPacket.Type.ATOM,
                    PtmPacket.Type.BRANCH_ADDRESS, PtmPacket.Type.ATOM, PtmPacket.Type.BRANCH_ADDRESS,
                    PtmPacket.Type.ATOM);
            assertThat(p.get(1).ctxt()).isEqualTo(0x42);
            assertThat(p.get(1).ns()).isTrue();
            for (int i : new int[] {2, 4, 6, 8}) {
                P a = p.get(i);
                assertThat(a.atomCount()).isEqualTo(1);
                assertThat(a.bits()).isZero();
                assertThat(a.exception()).isZero();
                assertThat(a.ctxt()).isEqualTo(-1);
                assertThat(a.cycles()).isEqualTo(-1);
                assertThat(a.address()).isEqualTo(p.get(i - 1).address());
                assertThat(a.ns()).isEqualTo(p.get(i - 1).ns());
            }
            assertThat(p.get(3).address()).isEqualTo(0x80000554L); // 0x80000558 bits [7:2] = 0x15
            assertThat(p.get(3).atomCount()).isZero();
            assertThat(p.get(3).ctxt()).isEqualTo(-1);
            assertThat(p.get(5).exception()).isEqualTo(1);
            assertThat(p.get(5).ns()).isFalse();
            assertThat(p.get(7).address()).isEqualTo(0x54L);
            assertThat(p.get(7).exception()).isZero();
            assertThat(p.get(7).bits()).isEqualTo(8);
            assertThat(p.get(7).atomCount()).isZero();
        }
    }

    @Test
    void contextIdVmidAndIsyncWithContext() {
        PtmConfig cfg = new PtmConfig(0x4000C000L | 0x10001000L, 0x411CF312L, 0, 1); // 4-byte ctxt, VMID, CC
        byte[] d = bytes(0, 0, 0, 0, 0, 0x80,
                0x08, 0x01, 0x10, 0x00, 0x80, 0x29, 0x08, 0x78, 0x56, 0x34, 0x12, // thumb, NS, reason 1, cc 2
                0x6E, 0xEF, 0xBE, 0xAD, 0xDE, 0x3C, 0x05, 0x0C, 0x66);
        List<P> p = read(cfg, d, 1);
        P i = p.get(1);
        assertThat(i.address()).isEqualTo(0x80001000L);
        assertThat(i.isa()).isEqualTo(Isa.T32);
        assertThat(i.ns()).isTrue();
        assertThat(i.cycles()).isEqualTo(2);
        assertThat(i.ctxt()).isEqualTo(0x12345678L);
        assertThat(p.get(2).ctxt()).isEqualTo(0xDEADBEEFL);
        assertThat(p.get(3).vmid()).isEqualTo(5);
        assertThat(p.get(4).type()).isEqualTo(PtmPacket.Type.TRIGGER);
        assertThat(p.get(5).type()).isEqualTo(PtmPacket.Type.IGNORE);
    }

    @Test
    void waypointUpdateThumbAddress() {
        // I-sync at 0x80001000 Thumb, then waypoint update 0x72 with two address bytes: addr[12:1]
        byte[] d = bytes(0, 0, 0, 0, 0, 0x80, 0x08, 0x01, 0x10, 0x00, 0x80, 0x21,
                0x72, 0x85, 0x22);
        List<P> p = read(PLAIN, d, 2);
        P w = p.get(2);
        assertThat(w.type()).isEqualTo(PtmPacket.Type.WAYPOINT_UPDATE);
        assertThat(w.length()).isEqualTo(3);
        // byte1 0x85: bits[6:1] = 0x04 -> addr bits 0x04; byte2 0x22 (last, 6 bits) -> 0x22 << 7
        assertThat(w.address()).isEqualTo(0x80000000L | 0x22L << 7 | 0x04);
        assertThat(w.isa()).isEqualTo(Isa.T32);
    }

    @Test
    void exceptionReturnIsReservedInPft10() {
        PtmConfig pft10 = new PtmConfig(0, 0x410CF300L, 0, 1);
        List<P> p = read(pft10, bytes(0, 0, 0, 0, 0, 0x80, 0x76, 0x84, 0, 0, 0, 0, 0, 0x80, 0x84), 4);
        assertThat(p).extracting(P::type).containsExactly(PtmPacket.Type.A_SYNC, PtmPacket.Type.BAD,
                PtmPacket.Type.NOT_SYNC, PtmPacket.Type.A_SYNC, PtmPacket.Type.ATOM);
        assertThat(p.get(1).offset()).isEqualTo(6);
        assertThat(p.get(2).offset()).isEqualTo(7);
        assertThat(p.get(3).offset()).isEqualTo(8);
    }

    @Test
    void grayCodedTimestampInPft10() {
        PtmConfig pft10 = new PtmConfig(0x10000000L, 0x410CF300L, 0x00400000L, 1);
        long value = 0x123456789AL;
        long gray = PtmPacketReader.binaryToGray(value);
        byte[] d = new byte[6 + 1 + 7];
        for (int i = 0; i < 5; i++) {
            d[i] = 0;
        }
        d[5] = (byte) 0x80;
        d[6] = 0x42;
        for (int i = 0; i < 6; i++) {
            d[7 + i] = (byte) ((gray >> (7 * i)) & 0x7F | 0x80);
        }
        d[13] = (byte) ((gray >> 42) & 0x3F);
        List<P> p = read(pft10, d, 3);
        assertThat(p.get(1).ts()).isEqualTo(value);
    }

    @Test
    void truncatedPacketAtEnd() {
        List<P> p = read(PLAIN, bytes(0, 0, 0, 0, 0, 0x80, 0x08, 0x01, 0x10), 2);
        assertThat(p.get(1).type()).isEqualTo(PtmPacket.Type.INCOMPLETE);
        assertThat(p.get(1).offset()).isEqualTo(6);
    }

    // --- TC2 0x13 against OpenCSD's packet listing -----------------------------------------------

    private static final Pattern LINE = Pattern.compile("^Idx:\\d+; ID:13;\\t([A-Z_]+) : [^;]*;(.*)$");

    /** The listing normalised to one comparable string per packet (type and decoded values). */
    static List<String> openCsdListing() throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(ConformanceData.dir("TC2").resolve("pkt_proc_logs/trc_pkt_lister_0x13.ppl"),
                StandardCharsets.ISO_8859_1)) {
            Matcher m = LINE.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String t = m.group(1);
            String rest = m.group(2);
            String cyc = find(rest, "Cycles=(\\d+)");
            switch (t) {
                case "NOTSYNC" -> {
                }
                case "ASYNC" -> out.add("ASYNC");
                case "ISYNC" -> out.add("ISYNC " + find(rest, "Addr=0x([0-9a-f]+)") + " "
                        + (rest.contains("Thumb2") ? "T32" : "A32") + " " + (rest.contains("(Periodic)") ? 0 : 1) + " " + cyc);
                case "ATOM" -> out.add("ATOM " + find(rest, " ([EN]+);") + " " + cyc);
                case "BRANCH_ADDRESS" -> out.add("BRANCH " + find(rest, "Addr=0x([0-9A-F]+)").toLowerCase() + " " + cyc);
                case "TIMESTAMP" -> out.add("TS " + find(rest, "\\((\\d+)\\)") + " " + cyc);
                case "ERET" -> out.add("ERET");
                default -> out.add(t);
            }
        }
        return out;
    }

    static String find(String s, String re) {
        Matcher m = Pattern.compile(re).matcher(s);
        return m.find() ? m.group(1) : "-";
    }

    static String norm(P p) {
        String cyc = p.cycles() < 0 ? "-" : Long.toString(p.cycles());
        return switch (p.type()) {
            case A_SYNC -> "ASYNC";
            case I_SYNC -> "ISYNC " + Long.toHexString(p.address()) + " " + p.isa() + " " + (p.reason() == 0 ? 0 : 1) + " " + cyc;
            case ATOM -> "ATOM " + atoms(p) + " " + cyc;
            case BRANCH_ADDRESS -> "BRANCH " + Long.toHexString(p.address()) + " " + cyc;
            case TIMESTAMP -> "TS " + p.ts() + " " + cyc;
            case EXCEPTION_RETURN -> "ERET";
            default -> p.type().name();
        };
    }

    @Test
    void tc2PacketsMatchOpenCsdListing() throws IOException {
        byte[] data = ConformanceData.tc2Ptm();
        List<String> expected = openCsdListing();
        for (int chunk : new int[] {1, 7, 4096}) {
            List<String> got = new ArrayList<>();
            for (P p : read(CC, data, chunk)) {
                if (p.type() != PtmPacket.Type.NOT_SYNC && p.type() != PtmPacket.Type.INCOMPLETE) {
                    got.add(norm(p));
                }
            }
            assertThat(expected).hasSizeGreaterThan(1700);
            assertThat(got).as("chunk %d", chunk).containsExactlyElementsOf(expected);
        }
    }
}
