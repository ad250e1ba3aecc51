package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.Protocols;
import io.armtrace.source.Registers;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Program flow rules of IHI 0035B on a small hand-assembled A32 program. */
class PtmFlowTest {
    /*
     * 0x1000 MOV r0,r0        0x1100 MOV r0,r0
     * 0x1004 MOV r0,r0        0x1104 BX LR
     * 0x1008 BL 0x1100        0x1108 BLX r3
     * 0x100C B 0x1000         0x110C BX LR
     *                          0x1110 SVC #0
     *                          0x1114 BX LR
     */
    static final MemoryImage MEM;

    static {
        byte[] b = new byte[0x120];
        put(b, 0x000, 0xE1A00000);
        put(b, 0x004, 0xE1A00000);
        put(b, 0x008, 0xEB00003C);
        put(b, 0x00C, 0xEAFFFFFB);
        put(b, 0x100, 0xE1A00000);
        put(b, 0x104, 0xE12FFF1E);
        put(b, 0x108, 0xE12FFF33);
        put(b, 0x10C, 0xE12FFF1E);
        put(b, 0x110, 0xEF000000);
        put(b, 0x114, 0xE12FFF1E);
        MEM = new MemoryImage().add(0x1000, b, "prog");
    }

    static void put(byte[] b, int o, int v) {
        for (int i = 0; i < 4; i++) {
            b[o + i] = (byte) (v >> (8 * i));
        }
    }

    /** A small PFT writer for hand-made traces: full addresses, non-cycle-accurate atoms. */
    static final class Trace {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Trace isync(long a) {
            bytes(0, 0, 0, 0, 0, 0x80, 0x08, (int) a & 0xFE, (int) (a >> 8), (int) (a >> 16), (int) (a >> 24), 0x21);
            return this;
        }

        Trace atoms(String s) {
            int n = s.length();
            int h = n == 1 ? 0x80 : n == 2 ? 0x88 : n == 3 ? 0x90 : n == 4 ? 0xA0 : 0xC0;
            for (int i = 0; i < n; i++) {
                if (s.charAt(i) == 'N') {
                    h |= 1 << (n - i);
                }
            }
            return bytes(h);
        }

        Trace address(int header, long a, int exception) {
            if (header != 0) {
                bytes(header);
            }
            bytes((int) ((a >> 2) & 0x3F) << 1 | 0x81, (int) (a >> 8) & 0x7F | 0x80, (int) (a >> 15) & 0x7F | 0x80,
                    (int) (a >> 22) & 0x7F | 0x80, 0x08 | (int) (a >> 29) & 7 | (exception >= 0 ? 0x40 : 0));
            if (exception >= 0) {
                bytes(exception << 1);
            }
            return this;
        }

        Trace branch(long a) {
            return address(0, a, -1);
        }

        Trace exception(long vector, int number) {
            return address(0, vector, number);
        }

        Trace waypointUpdate(long a) {
            return address(0x72, a, -1);
        }

        Trace bytes(int... v) {
            for (int x : v) {
                out.write(x);
            }
            return this;
        }
    }

    static List<TraceElement> decode(boolean returnStack, Trace t) {
        PtmConfig cfg = new PtmConfig(returnStack ? PtmConfig.CR_RETURN_STACK : 0, 0x411CF312L, 0, 7);
        ElementCollector c = new ElementCollector();
        PtmFlow f = new PtmFlow(cfg, MEM, c);
        PtmPacketReader r = new PtmPacketReader(cfg, f);
        byte[] d = t.out.toByteArray();
        r.push(d, 0, d.length);
        r.end();
        return c.elements();
    }

    static List<String> ranges(List<TraceElement> l) {
        List<String> out = new ArrayList<>();
        for (TraceElement e : l) {
            if (e instanceof InstructionRange r) {
                out.add(Long.toHexString(r.start()) + "-" + Long.toHexString(r.lastAddress()) + (r.lastExecuted() ? "" : " N"));
            }
        }
        return out;
    }

    @Test
    void returnStackPredictsTheReturn() {
        List<TraceElement> l = decode(true, new Trace().isync(0x1000).atoms("EEE"));
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104", "100c-100c");
        assertThat(l.get(0)).isInstanceOf(TraceOn.class);
    }

    @Test
    void withoutReturnStackAnEAtomOnAnIndirectBranchIsAnError() {
        List<TraceElement> l = decode(false, new Trace().isync(0x1000).atoms("EE"));
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104");
        assertThat(l).filteredOn(e -> e instanceof DecodeError).hasSize(1);
        // a branch address packet gives the target instead: 4.5.4, implies E on the BX LR
        l = decode(false, new Trace().isync(0x1000).atoms("E").branch(0x100C).atoms("E"));
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104", "100c-100c");
        assertThat(l).filteredOn(e -> e instanceof DecodeError).isEmpty();
    }

    @Test
    void compareBeforePushOnBlxRegister() {
        // BL 0x1100 pushes 0x100C; a branch to 0x1108 (BLX r3) predicted by the stack pops 0x100C and then
        // pushes 0x110C; the BX LR at 0x1104... here: BL, then the indirect BLX at 0x1108 via packet
        List<TraceElement> l = decode(true, new Trace().isync(0x1000).atoms("E") // BL: push 0x100C
                .branch(0x1108)       // BX LR at 0x1104 traced with an address (no pop): now at 0x1108
                .atoms("E")           // BLX r3 hit: pops 0x100C, then pushes 0x110C
                .atoms("E")           // at 0x100C: B 0x1000
                .atoms("E")           // BL again: push 0x100C (stack: 0x110C, 0x100C)
                .atoms("E")           // BX LR hit: pop 0x100C
                .atoms("E")           // B 0x1000
                .atoms("E").atoms("E")); // BL push, BX LR pop
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104", "1108-1108", "100c-100c", "1000-1008",
                "1100-1104", "100c-100c", "1000-1008", "1100-1104");
        assertThat(l).filteredOn(e -> e instanceof DecodeError).isEmpty();
    }

    @Test
    void afterADirectBranchOrAnNAtomTheNextBlockIsFoundThroughALinkOnTheBlockBefore() {
        // BL 0x1100 (taken: a link), BX LR by the return stack (indirect: the table), B 0x1000 (taken: a link), 50
        // times; then BL, and the BX LR once to 0x110C by a branch packet, and that BX LR by the return stack
        int loops = 50;
        Trace t = new Trace().isync(0x1000);
        for (int i = 0; i < loops; i++) {
            t.atoms("EEE");
        }
        t.atoms("E").branch(0x110C).atoms("E");
        PtmConfig cfg = new PtmConfig(PtmConfig.CR_RETURN_STACK, 0x411CF312L, 0, 7);
        MemoryImage memory = MEM.keeping();
        ElementCollector c = new ElementCollector();
        PtmPacketReader r = new PtmPacketReader(cfg, new PtmFlow(cfg, memory, c));
        byte[] d = t.out.toByteArray();
        r.push(d, 0, d.length);
        r.end();

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < loops; i++) {
            expected.addAll(List.of("1000-1008", "1100-1104", "100c-100c"));
        }
        expected.addAll(List.of("1000-1008", "1100-1104", "110c-110c"));
        assertThat(ranges(c.elements())).containsExactlyElementsOf(expected);
        assertThat(c.elements()).filteredOn(e -> e instanceof DecodeError).isEmpty();
        // the walker the flow used: the keeping copy gives it back
        CodeWalker w = CodeWalker.on(memory, Profile.AR, true, false, false, PtmFlow.BLOCK_BYTES,
                CodeWalker.DEFAULT_CACHE_BLOCKS);
        assertThat(w.cacheMisses()).as("blocks walked: 0x1000, 0x1100, 0x100C, 0x110C").isEqualTo(4);
        // the table answers for 0x100C after each return from the second pass on, and for 0x1000 after the first B
        // (its link not made yet)
        assertThat(w.cacheHits()).as("lookups answered by the table").isEqualTo(loops);
        // the BL's target from the second pass on, the B's from the third on and after the last pass, and the last
        // BL's
        assertThat(w.linkHits()).as("blocks found through a link").isEqualTo(2 * (loops - 1) + 1);
    }

    @Test
    void iSyncClearsTheReturnStack() {
        List<TraceElement> l = decode(true, new Trace().isync(0x1000).atoms("E").isync(0x1100).atoms("E"));
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104");
        assertThat(l).filteredOn(e -> e instanceof DecodeError).hasSize(1);
    }

    @Test
    void exceptionsLeaveTheReturnStackAndGiveThePreferredReturn() {
        // BL (push 0x100C), then at 0x1100 an IRQ after the MOV: waypoint update 0x1100, exception to
        // 0x18; the handler returns with a branch to 0x1104; the BX LR there still pops 0x100C.
        List<TraceElement> l = decode(true, new Trace().isync(0x1000).atoms("E").waypointUpdate(0x1100)
                .exception(0x18, 14).isync(0x1000).isync(0x1000)); // (I-syncs only to end cleanly)
        List<ExceptionEntry> x = l.stream().filter(e -> e instanceof ExceptionEntry).map(e -> (ExceptionEntry) e).toList();
        assertThat(x).hasSize(1);
        assertThat(x.get(0).number()).isEqualTo(14);
        assertThat(x.get(0).name()).isEqualTo("IRQ");
        assertThat(x.get(0).preferredReturn()).isEqualTo(0x1104);
        assertThat(ranges(l)).startsWith("1000-1008", "1100-1100");

        // same, but the handler (not in the image at 0x18) comes back by a branch packet to 0x1104
        l = decode(true, new Trace().isync(0x1000).atoms("E").waypointUpdate(0x1100).exception(0x18, 14)
                .branch(0x1104).bytes(0x76).atoms("E"));
        assertThat(l).filteredOn(e -> e instanceof ExceptionReturn).hasSize(1);
        assertThat(((ExceptionReturn) l.stream().filter(e -> e instanceof ExceptionReturn).findFirst().orElseThrow()).target())
                .isEqualTo(0x1104);
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1100", "1104-1104");
        // the stack survived the exception: the BX LR at 0x1104 went to 0x100C
        l = decode(true, new Trace().isync(0x1000).atoms("E").waypointUpdate(0x1100).exception(0x18, 14)
                .branch(0x1104).atoms("EE"));
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1100", "1104-1104", "100c-100c");
    }

    @Test
    void svcIsTracedByWaypointUpdateAndAFailedOneIsWalkedOver() {
        // at 0x1110 SVC executed: waypoint update to the SVC, exception 10 (SVC), preferred return 0x1114
        List<TraceElement> l = decode(false, new Trace().isync(0x1110).waypointUpdate(0x1110).exception(0x8, 10));
        ExceptionEntry x = (ExceptionEntry) l.stream().filter(e -> e instanceof ExceptionEntry).findFirst().orElseThrow();
        assertThat(x.preferredReturn()).isEqualTo(0x1114);
        InstructionRange r = (InstructionRange) l.stream().filter(e -> e instanceof InstructionRange).findFirst().orElseThrow();
        assertThat(r.lastKind()).isEqualTo(WaypointKind.EXCEPTION_CALL);
        // an atom walk passes a condition-failed SVC: it ends a range as not executed
        l = decode(false, new Trace().isync(0x1110).branch(0x1000));
        assertThat(ranges(l)).containsExactly("1110-1110 N", "1114-1114");
    }

    @Test
    void codeOutsideTheImageIsNoImageThenWaitForAnAddress() {
        List<TraceElement> l = decode(false, new Trace().isync(0x1000).atoms("E").branch(0x5000).atoms("EEE")
                .branch(0x1000).atoms("E"));
        assertThat(l).filteredOn(e -> e instanceof NoImage).hasSize(1);
        assertThat(((NoImage) l.stream().filter(e -> e instanceof NoImage).findFirst().orElseThrow()).address()).isEqualTo(0x5000);
        // 0x5000's branch (implied E) and its atoms are skipped; the packet to 0x1000 resumes decoding
        assertThat(ranges(l)).containsExactly("1000-1008", "1100-1104", "1000-1008");
    }

    @Test
    void protocolRegistryAndDescription() {
        var p = Protocols.forDeviceType("PTM1.1").orElseThrow();
        assertThat(p).isInstanceOf(PtmProtocol.class);
        assertThat(Protocols.forDeviceType("PFT1.0").orElseThrow()).isSameAs(p);
        assertThat(Protocols.byName("ptm").orElseThrow()).isSameAs(p);
        assertThat(p.handlesDeviceType("ETM3.5")).isFalse();
        List<String> d = p.describe(new Registers().put("ETMCR", 0x2000C000L | 0x1000 | 0x100 | 0x10000000L)
                .put("ETMIDR", 0x411CF312L).put("ETMCCER", 0x34C01AC2L).put("ETMTRACEIDR", 0x13));
        assertThat(String.join("\n", d)).contains("PFT 1.1", "Return stack: enabled", "Cycle-accurate: yes",
                "Branch broadcast: yes", "Context ID size: 4 bytes", "Timestamps: enabled, 64-bit, binary");
        d = p.describe(new Registers().put("ETMCR", 0).put("ETMIDR", 0x410CF300L));
        assertThat(String.join("\n", d)).contains("PFT 1.0", "Return stack: disabled", "Timestamps: disabled",
                "Context ID size: not traced");
    }

    @Test
    void dataBarriersAreWaypointsWhenEtmccerBit24IsSet() {
        // 0x2000 DMB SY; 0x2004 MOV r0,r0; 0x2008 B 0x2000
        byte[] b = new byte[12];
        put(b, 0, 0xF57FF05F);
        put(b, 4, 0xE1A00000);
        put(b, 8, 0xEAFFFFFC);
        MemoryImage mem = new MemoryImage().add(0x2000, b, "dmb");
        for (boolean bit24 : new boolean[] {false, true}) {
            PtmConfig cfg = new PtmConfig(0, 0x411CF312L, bit24 ? PtmConfig.CCER_DMB_DSB_WAYPOINT : 0, 7);
            ElementCollector c = new ElementCollector();
            PtmPacketReader r = new PtmPacketReader(cfg, new PtmFlow(cfg, mem, c));
            // with bit 24 the DMB takes an atom of its own: E (DMB), E (B) ; without it one E covers both
            byte[] d = (bit24 ? new Trace().isync(0x2000).atoms("EE") : new Trace().isync(0x2000).atoms("E")).out.toByteArray();
            r.push(d, 0, d.length);
            r.end();
            assertThat(c.elements()).filteredOn(e -> e instanceof DecodeError).isEmpty();
            assertThat(ranges(c.elements())).as("bit 24 = %s", bit24)
                    .containsExactly(bit24 ? new String[] {"2000-2000", "2004-2008"} : new String[] {"2000-2008"});
        }
    }
}
