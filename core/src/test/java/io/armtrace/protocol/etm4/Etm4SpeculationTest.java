package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Registers;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Speculation resolved as IHI 0064's speculation rules and its Mispredict and Cancel packets describe it, on hand-built packet sequences: what is
 * committed comes out in order with its addresses and contexts, what is cancelled or mispredicted is gone
 * or corrected, and the speculation depth is kept.
 */
class Etm4SpeculationTest {

    /** A packet stream under construction. */
    static final class Trace {
        final ByteArrayOutputStream b = new ByteArrayOutputStream();

        Trace bytes(int... v) {
            for (int x : v) {
                b.write(x);
            }
            return this;
        }

        /** A-sync, trace info (with SPEC when spec &gt;= 0), trace on, and a 64-bit start address with context. */
        Trace start(int spec) {
            bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80);
            if (spec >= 0) {
                bytes(0x01, 0x05, 0x00, spec);
            } else {
                bytes(0x01, 0x01, 0x00);
            }
            bytes(0x04);
            // address with context, 64-bit IS0: 0x400000, AArch64 EL0 NS
            return bytes(0x85, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30);
        }

        /** Short address IS0 (9 bits: bits [8:2]). */
        Trace shortAddress(int low) {
            return bytes(0x95, (low >> 2) & 0x7F);
        }

        byte[] toBytes() {
            return b.toByteArray();
        }
    }

    static List<String> run(long maxSpec, Trace t) {
        return run(new Registers().put("TRCIDR8", maxSpec), false, t);
    }

    static List<String> run(Registers r, boolean ete, Trace t) {
        Etm4Config c = Etm4Config.of(r, ete);
        List<String> out = new ArrayList<>();
        Etm4Speculation s = new Etm4Speculation(c, e -> out.add(e.toString()));
        Etm4PacketReader reader = new Etm4PacketReader(c, s);
        byte[] bytes = t.toBytes();
        reader.push(bytes, 0, bytes.length);
        reader.end();
        s.end();
        return out;
    }

    static final List<String> START = List.of("TRACE_INFO", "TRACE_ON", "CONTEXT AArch64 EL0 NS", "ADDRESS 0x400000 IS0");

    static List<String> after(String... elements) {
        List<String> l = new ArrayList<>(START);
        l.addAll(List.of(elements));
        return l;
    }

    @Test
    void withoutSpeculationEveryElementIsCommittedAtOnce() {
        // TRCIDR8 = 0: atoms E E N (format 3, 0xFB), address, atom N
        assertThat(run(0, new Trace().start(-1).bytes(0xFB).shortAddress(0x40).bytes(0xF6)))
                .isEqualTo(after("ATOM E", "ATOM E", "ATOM N", "ADDRESS 0x400040 IS0", "ATOM N"));
    }

    @Test
    void commitReleasesTheOldestElementsWithTheAddressesBetweenThem() {
        Trace t = new Trace().start(-1).bytes(0xFB).shortAddress(0x40).bytes(0xF7)
                .bytes(0x2D, 2); // commit 2
        assertThat(run(16, t)).isEqualTo(after("ATOM E", "ATOM E"));
        t.bytes(0x2D, 2);
        assertThat(run(16, t)).isEqualTo(after("ATOM E", "ATOM E", "ATOM N", "ADDRESS 0x400040 IS0", "ATOM E"));
    }

    @Test
    void uncommittedElementsAtTheEndNeverAppearButTimestampsBeforeThemDo() {
        Trace t = new Trace().start(-1).bytes(0x02, 0x05).bytes(0xF7).bytes(0x02, 0x06);
        // the first timestamp precedes every uncommitted element; the second follows one and is given at the end
        assertThat(run(16, t)).isEqualTo(after("TIMESTAMP 0x5", "TIMESTAMP 0x6"));
    }

    @Test
    void cancelRemovesTheNewestP0ElementsAndTheirAddressesButKeepsTimestamps() {
        // E E N, address, timestamp, E; cancel 2 (format 1): the last E and the N go, with the address
        Trace t = new Trace().start(-1).bytes(0xFB).shortAddress(0x40).bytes(0x02, 0x07).bytes(0xF7)
                .bytes(0x2E, 2).bytes(0x2D, 2);
        assertThat(run(16, t)).isEqualTo(after("ATOM E", "ATOM E", "TIMESTAMP 0x7"));
    }

    @Test
    void mispredictInvertsTheNewestAtomAndDropsTheAddressesAfterIt() {
        // E E (format 2, 0xDB), address; mispredict; commit 2
        Trace t = new Trace().start(-1).bytes(0xDB).shortAddress(0x80).bytes(0x30).bytes(0x2D, 2);
        assertThat(run(16, t)).isEqualTo(after("ATOM E", "ATOM N"));
    }

    @Test
    void theAtomsOfAMispredictOrCancelPacketComeBeforeItsCancelAndMispredict() {
        // N; cancel format 2 with A = E (0x35): E is added, one P0 element cancelled (that E), the N mispredicted
        Trace t = new Trace().start(-1).bytes(0xF6).bytes(0x35).bytes(0x2D, 1);
        assertThat(run(16, t)).isEqualTo(after("ATOM E"));
        // E; mispredict packet with A = EE (0x32): E E E, then the newest becomes N
        t = new Trace().start(-1).bytes(0xF7).bytes(0x32).bytes(0x2D, 3);
        assertThat(run(16, t)).isEqualTo(after("ATOM E", "ATOM E", "ATOM N"));
        // E E N; cancel format 3 (0x3A: no atom, cancel 3) then E
        t = new Trace().start(-1).bytes(0xFB).bytes(0x3A).bytes(0xF7).bytes(0x2D, 1);
        assertThat(run(16, t)).isEqualTo(after("ATOM E"));
    }

    @Test
    void theSpeculationDepthIsKept() {
        // TRCIDR8 = 2: the third uncommitted atom commits the first
        Trace t = new Trace().start(-1).bytes(0xF7, 0xF6, 0xF7);
        assertThat(run(2, t)).isEqualTo(after("ATOM E"));
        // a 24-atom packet with depth 2 commits all but the last two
        t = new Trace().start(-1).bytes(0xF4); // 23 E then N
        List<String> out = run(2, t);
        assertThat(out.stream().filter(s -> s.startsWith("ATOM")).count()).isEqualTo(22);
    }

    @Test
    void theTraceInfoSpecFieldCountsElementsBeforeTheTraceThatCommitsAndCancelsAccountForFirst() {
        // SPEC = 2: two P0 elements before the trace info are uncommitted; commit 3 commits them and one E
        Trace t = new Trace().start(2).bytes(0xF7, 0xF6).bytes(0x2D, 3);
        assertThat(run(16, t)).isEqualTo(after("ATOM E"));
        // cancel 3 with SPEC = 2 and one traced atom: the atom and both unseen elements go
        t = new Trace().start(2).bytes(0xF7).bytes(0x2E, 3).bytes(0xF6).bytes(0x2D, 1);
        assertThat(run(16, t)).isEqualTo(after("ATOM N"));
    }

    @Test
    void anExceptionCarriesTheReturnAddressThatFollowsItAndTheContextOfThatAddressComesFirst() {
        // IRQ (0x0E, E0 = 1), address with context (return address 0x400100, AArch64 EL0 NS), then the vector
        Trace t = new Trace().start(-1).bytes(0xF7).bytes(0x06, 0x1D)
                .bytes(0x85, 0x40, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30)
                .bytes(0x9D, 0x20, 0x01, 0x08, 0x00, 0xC0, 0xFF, 0xFF, 0xFF) // 0xFFFFFFC000080280
                .bytes(0xF7);
        assertThat(run(0, t)).isEqualTo(after("ATOM E", "CONTEXT AArch64 EL0 NS",
                "EXCEPTION type=0xe return=0x400100 IS0", "ADDRESS 0xffffffc000080280 IS0", "ATOM E"));
        // speculative: a commit that reaches the exception before its address waits for the address
        t = new Trace().start(-1).bytes(0x06, 0x5C).bytes(0x2D, 1).bytes(0x95, 0x10);
        assertThat(run(16, t)).isEqualTo(after("EXCEPTION type=0xe return=0x400040 IS0 at-target"));
    }

    @Test
    void discardAndOverflowDropUncommittedElementsAndTraceResumesAfterATraceInfo() {
        Trace t = new Trace().start(-1).bytes(0xF7).bytes(0x02, 0x09).bytes(0x00, 0x05) // E, timestamp, overflow
                .bytes(0xF7) // ignored until a trace info
                .bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x01, 0x00, 0x04).shortAddress(0x20).bytes(0xF6);
        assertThat(run(16, t)).isEqualTo(after("TIMESTAMP 0x9", "OVERFLOW", "TRACE_INFO", "TRACE_ON after overflow",
                "ADDRESS 0x20 IS0"));
        t = new Trace().start(-1).bytes(0xF7).bytes(0x00, 0x03).bytes(0x01, 0x01, 0x00).bytes(0xF6).bytes(0x2D, 1);
        assertThat(run(16, t)).isEqualTo(after("DISCARD", "TRACE_INFO", "ATOM N"));
    }

    @Test
    void corruptTraceIsAGapAtItsOffsetAndDecodingResumesAtTheNextSync() {
        Trace t = new Trace().start(-1).bytes(0xF7).bytes(0x08).bytes(0xF7, 0xF6) // reserved header 0x08 at offset 27
                .bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x01, 0x00).shortAddress(0x44).bytes(0xF6);
        assertThat(run(0, t)).isEqualTo(after("ATOM E", "GAP reserved packet header", "TRACE_INFO",
                "ADDRESS 0x44 IS0", "ATOM N"));
        assertThat(run(0, new Trace().bytes(0x11, 0x22).start(-1)).get(0))
                .isEqualTo("GAP no synchronization: 2 bytes before an A-sync");
        // a packet cut by the end of the trace
        assertThat(run(0, new Trace().start(-1).bytes(0x9D, 0x01))).last().isEqualTo("GAP trace ends inside a packet");
    }

    @Test
    void qElementsTakeTheirAddressFromThePacketOrTheAddressAfterIt() {
        Registers r = new Registers().put("TRCIDR0", 0x28000EA1L | 3L << 15).put("TRCIDR8", 0);
        // Q with a short IS0 address (0xA5) and count 7; Q with count 9 only (0xAC), then its address
        Trace t = new Trace().start(-1).bytes(0xA5, 0x10, 0x07).bytes(0xAC, 0x09).shortAddress(0x80);
        assertThat(run(r, false, t)).isEqualTo(after("Q count=7 0x400040", "Q count=9 0x400080"));
    }

    @Test
    void eteTransactionStartsAreP0ElementsUnlessCommtransSaysOtherwise() {
        Registers r = new Registers().put("TRCIDR8", 4).put("TRCDEVARCH", 0x47715A13L);
        // transaction start, E, transaction commit; commit 1 commits only the transaction start
        Trace t = new Trace().start(-1).bytes(0x0A, 0xF7, 0x0B).bytes(0x2D, 1);
        assertThat(run(r, true, t)).isEqualTo(after("TRANSACTION_START"));
        r.put("TRCIDR0", 0x28000EA1L | 1L << 30); // COMMTRANS: not a P0 element
        assertThat(run(r, true, t)).isEqualTo(after("TRANSACTION_START", "ATOM E", "TRANSACTION_COMMIT"));
    }

    @Test
    void eteSourceAddressesAndPeResetsAreP0Elements() {
        Registers r = new Registers().put("TRCIDR8", 4).put("TRCDEVARCH", 0x47715A13L);
        Trace t = new Trace().start(-1).bytes(0xB4, 0x10).bytes(0x06, 0x00, 0x00).bytes(0x2D, 1);
        assertThat(run(r, true, t)).isEqualTo(after("SOURCE_ADDRESS 0x400040 IS0"));
        t.bytes(0x2D, 1);
        assertThat(run(r, true, t)).isEqualTo(after("SOURCE_ADDRESS 0x400040 IS0", "PE_RESET"));
    }

    @Test
    void aLongRunWithoutCommitsStaysInBoundedMemory() {
        // a speculation depth no trace unit has: the ring gives the oldest out rather than grow
        Trace t = new Trace().start(-1);
        for (int i = 0; i < 10_000; i++) {
            t.bytes(0xF7, 0x02, 0x01);
        }
        List<String> out = run(0xFFFFFFFFL, t);
        assertThat(out.stream().filter(s -> s.equals("ATOM E")).count()).isGreaterThan(7000);
    }
}
