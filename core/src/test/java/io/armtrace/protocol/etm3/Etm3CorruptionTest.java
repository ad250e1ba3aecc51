package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ProgramImage;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Damaged TC2 streams (bytes flipped, deleted, inserted; a capture that starts mid-packet): the decoder
 * reports a gap at the damage, resynchronizes at the next A-sync and I-sync, and every instruction before
 * the damage and after the resynchronization point is still exactly what DS-5 lists.
 */
class Etm3CorruptionTest {

    record Decoded(List<Tc2.Ds5Insn> insns, List<Long> emittedAt, List<Gap> gaps) {
        /** Instructions of ranges emitted while the reader was at or before {@code offset}. */
        int before(long offset) {
            int n = 0;
            for (int i = 0; i < insns.size(); i++) {
                if (emittedAt.get(i) <= offset) {
                    n++;
                }
            }
            return n;
        }

        int after(long offset) {
            int n = 0;
            for (int i = 0; i < insns.size(); i++) {
                if (emittedAt.get(i) > offset) {
                    n++;
                }
            }
            return n;
        }
    }

    static Decoded decode(byte[] data, Etm3Config cfg, ProgramImage image) {
        List<Tc2.Ds5Insn> insns = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        List<Gap> gaps = new ArrayList<>();
        Etm3PacketReader[] reader = new Etm3PacketReader[1];
        ElementSink sink = e -> {
            if (e instanceof InstructionRange r) {
                List<TraceElement> one = List.of(e);
                for (Tc2.Ds5Insn i : Tc2ConformanceTest.expand(one, image.memory())) {
                    insns.add(i);
                    at.add(reader[0].position());
                }
            } else if (e instanceof Gap g) {
                gaps.add(g);
            }
        };
        Etm3Flow flow = new Etm3Flow(cfg, image, sink);
        reader[0] = new Etm3PacketReader(cfg, flow);
        reader[0].push(data, 0, data.length);
        reader[0].end();
        flow.end();
        return new Decoded(insns, at, gaps);
    }

    /** Offset of the first I-sync header after the first A-sync that starts at or after {@code from}. */
    static long resyncPoint(byte[] d, long from) {
        int zeros = 0;
        for (int i = (int) Math.max(0, from); i < d.length; i++) {
            int b = d[i] & 0xFF;
            if (b == 0) {
                zeros++;
                continue;
            }
            if (b == 0x80 && zeros >= 5) {
                // the I-sync follows the A-sync, possibly after a timestamp and cycle-accurate P-headers
                for (int k = i + 1; k < d.length; k++) {
                    int h = d[k] & 0xFF;
                    if (h == 0x08 || h == 0x70) {
                        return k + 20;
                    }
                }
                return d.length;
            }
            zeros = 0;
        }
        return d.length;
    }

    static int commonPrefix(List<Tc2.Ds5Insn> a, List<Tc2.Ds5Insn> b) {
        int n = 0;
        while (n < a.size() && n < b.size() && a.get(n).equals(b.get(n))) {
            n++;
        }
        return n;
    }

    static int commonSuffix(List<Tc2.Ds5Insn> a, List<Tc2.Ds5Insn> b) {
        int n = 0;
        while (n < a.size() && n < b.size() && a.get(a.size() - 1 - n).equals(b.get(b.size() - 1 - n))) {
            n++;
        }
        return n;
    }

    @ParameterizedTest
    @ValueSource(ints = {0x10, 0x11, 0x12})
    void damagedStreamsKeepEveryInstructionOutsideTheDamage(int traceId) throws Exception {
        Tc2.assumePresent();
        SnapshotSource s = Tc2.source(traceId);
        byte[] clean;
        try (InputStream in = s.data().open()) {
            clean = in.readAllBytes();
        }
        Etm3Config cfg = Etm3Protocol.config(io.armtrace.protocol.DecodeInput.of(s));
        ProgramImage image = s.image();
        Decoded ok = decode(clean, cfg, image);
        assertThat(ok.insns()).isEqualTo(Tc2.ds5(traceId));
        long firstSync = resyncPoint(clean, 0);
        Random rnd = new Random(traceId);
        int withGap = 0;
        for (int round = 0; round < 60; round++) {
            int at = (int) firstSync + rnd.nextInt(clean.length - (int) firstSync - 1);
            int kind = round % 3;
            byte[] bad;
            if (kind == 0) { // flip
                bad = clean.clone();
                bad[at] ^= (byte) (1 + rnd.nextInt(255));
            } else if (kind == 1) { // delete
                bad = new byte[clean.length - 1];
                System.arraycopy(clean, 0, bad, 0, at);
                System.arraycopy(clean, at + 1, bad, at, clean.length - at - 1);
            } else { // insert
                bad = new byte[clean.length + 1];
                System.arraycopy(clean, 0, bad, 0, at);
                bad[at] = (byte) rnd.nextInt(256);
                System.arraycopy(clean, at, bad, at + 1, clean.length - at);
            }
            Decoded d = decode(bad, cfg, image);
            long resync = resyncPoint(clean, at + 1);
            int mustKeepBefore = ok.before(at - 32);
            int mustKeepAfter = ok.after(resync);
            String what = String.format("%s at %d (resync %d)", new String[] {"flip", "delete", "insert"}[kind], at, resync);
            assertThat(commonPrefix(ok.insns(), d.insns())).as(what + ": prefix").isGreaterThanOrEqualTo(mustKeepBefore);
            assertThat(commonSuffix(ok.insns(), d.insns())).as(what + ": suffix").isGreaterThanOrEqualTo(mustKeepAfter);
            List<Gap> gaps = d.gaps().stream().filter(g -> g.offset() > 0).toList(); // 0: the capture's own start
            for (Gap g : gaps) {
                assertThat(g.offset()).as(what + ": gap offset").isBetween((long) at - 32, resync + 1);
            }
            if (!gaps.isEmpty()) {
                withGap++;
            }
        }
        assertThat(withGap).as("damage noticed").isGreaterThan(10);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 100, 777, 1500})
    void captureStartingMidPacket(int skip) throws Exception {
        Tc2.assumePresent();
        SnapshotSource s = Tc2.source(0x10);
        byte[] clean;
        try (InputStream in = s.data().open()) {
            clean = in.readAllBytes();
        }
        Etm3Config cfg = Etm3Protocol.config(io.armtrace.protocol.DecodeInput.of(s));
        Decoded ok = decode(clean, cfg, s.image());
        byte[] cut = java.util.Arrays.copyOfRange(clean, skip, clean.length);
        Decoded d = decode(cut, cfg, s.image());
        assertThat(d.gaps()).isNotEmpty();
        assertThat(d.gaps().get(0).offset()).isZero();
        long resync = resyncPoint(clean, skip);
        assertThat(commonSuffix(ok.insns(), d.insns())).isGreaterThanOrEqualTo(ok.after(resync));
    }
}
