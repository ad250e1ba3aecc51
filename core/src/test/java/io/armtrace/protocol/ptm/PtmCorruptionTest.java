package io.armtrace.protocol.ptm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Damaged trace: a gap at the damage, resynchronization at the next A-sync, the rest unchanged. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PtmCorruptionTest {

    /** An element and the offset of the packet that produced it. */
    record At(long offset, TraceElement element) {
    }

    static List<At> decode(PtmConfig cfg, MemoryImage mem, byte[] data) {
        List<At> out = new ArrayList<>();
        long[] cur = {-1};
        PtmFlow flow = new PtmFlow(cfg, mem, e -> out.add(new At(cur[0], e)));
        PtmPacketReader r = new PtmPacketReader(cfg, k -> {
            cur[0] = k.offset;
            flow.packet(k);
        });
        r.push(data, 0, data.length);
        r.end();
        return out;
    }

    static List<TraceElement> ranges(List<At> l, long from, long to) {
        List<TraceElement> out = new ArrayList<>();
        for (At a : l) {
            if (a.offset() >= from && a.offset() < to && a.element() instanceof InstructionRange) {
                out.add(a.element());
            }
        }
        return out;
    }

    /** Offsets of the A-sync packets of a stream. */
    static List<Long> asyncs(PtmConfig cfg, byte[] data) {
        List<Long> out = new ArrayList<>();
        PtmPacketReader r = new PtmPacketReader(cfg, k -> {
            if (k.type == PtmPacket.Type.A_SYNC) {
                out.add(k.offset);
            }
        });
        r.push(data, 0, data.length);
        r.end();
        return out;
    }

    @Test
    void reservedHeaderInTc2GivesGapAndResync() throws IOException {
        byte[] clean = ConformanceData.tc2Ptm();
        MemoryImage mem = ConformanceData.tc2Image();
        PtmConfig cfg = PtmPacketReaderTest.CC;
        List<At> good = decode(cfg, mem, clean);
        List<Long> syncs = asyncs(cfg, clean);
        assertThat(syncs.size()).isGreaterThanOrEqualTo(4);
        // damage the stream a little after the second A-sync: find a packet start there
        List<Long> starts = new ArrayList<>();
        PtmPacketReader r = new PtmPacketReader(cfg, k -> starts.add(k.offset));
        r.push(clean, 0, clean.length);
        long target = syncs.get(1) + 200;
        long damage = starts.stream().filter(o -> o >= target).findFirst().orElseThrow();
        byte[] bad = clean.clone();
        bad[(int) damage] = 0x02; // a reserved header (IHI 0035B Table 4.1)
        List<At> got = decode(cfg, mem, bad);

        // the first gap after the stream's first A-sync (the bytes before it are reported as a gap of their own)
        Gap gap = got.stream().map(At::element).filter(e -> e instanceof Gap).map(e -> (Gap) e)
                .filter(g -> g.offset() > syncs.get(0)).findFirst().orElseThrow();
        assertThat(gap.offset()).isEqualTo(damage);
        long resync = syncs.stream().filter(o -> o > damage).findFirst().orElseThrow();
        assertThat(ranges(got, 0, damage)).isEqualTo(ranges(good, 0, damage));
        assertThat(ranges(got, resync, Long.MAX_VALUE)).isEqualTo(ranges(good, resync, Long.MAX_VALUE));
        assertThat(ranges(got, damage, resync)).isEmpty();
        assertThat(ranges(good, resync, Long.MAX_VALUE)).hasSizeGreaterThan(100);
    }

    @Test
    void everyTruncationAndSingleByteFlipIsSurvived() throws IOException {
        byte[] clean = ConformanceData.tc2Ptm();
        MemoryImage mem = ConformanceData.tc2Image();
        PtmConfig cfg = PtmPacketReaderTest.CC;
        for (int cut = 0; cut < clean.length; cut += 37) {
            byte[] t = java.util.Arrays.copyOf(clean, cut);
            decode(cfg, mem, t);
        }
        Random rnd = new Random(1);
        for (int i = 0; i < 150; i++) {
            byte[] t = clean.clone();
            t[rnd.nextInt(t.length)] = (byte) rnd.nextInt(256);
            List<At> l = decode(cfg, mem, t);
            assertThat(l).isNotEmpty();
        }
    }

    /** Trace that points into zero-filled memory: an error at the 4096-byte bound, not an endless walk. */
    @Test
    void zeroFilledMemoryStopsAtTheBound() {
        MemoryImage mem = new MemoryImage().add(0x10000, new byte[1 << 20], "zeros");
        for (int thumb = 0; thumb < 2; thumb++) {
            byte[] d = {0, 0, 0, 0, 0, (byte) 0x80, 0x08, (byte) thumb, 0, 1, 0, 0x21, (byte) 0x84, (byte) 0x84,
                (byte) 0xC0, (byte) 0xC0};
            List<At> l = decode(new PtmConfig(0, 0x411CF312L, 0, 1), mem, d);
            List<TraceElement> errors = l.stream().map(At::element).filter(e -> e instanceof DecodeError).toList();
            assertThat(errors).hasSize(1);
            assertThat(((DecodeError) errors.get(0)).address()).isEqualTo(0x10000L);
            assertThat(l.stream().map(At::element).filter(e -> e instanceof InstructionRange)).isEmpty();
        }
    }

    /** A waypoint update far into zero memory is walked only up to its bound. */
    @Test
    void waypointUpdateIsBounded() {
        MemoryImage mem = new MemoryImage().add(0x10000, new byte[1 << 20], "zeros");
        // I-sync ARM at 0x10000, then a waypoint update to 0x000F0000 (5 address bytes, ARM)
        long a = 0x000F0000L >>> 2;
        byte[] d = {0, 0, 0, 0, 0, (byte) 0x80, 0x08, 0, 0, 1, 0, 0x21, 0x72,
            (byte) ((a & 0x3F) << 1 | 0x81), (byte) ((a >> 6) & 0x7F | 0x80), (byte) ((a >> 13) & 0x7F | 0x80),
            (byte) ((a >> 20) & 0x7F | 0x80), (byte) (0x08 | (a >> 27) & 7)};
        ElementCollector small = new ElementCollector();
        PtmConfig cfg = new PtmConfig(0, 0x411CF312L, 0, 1);
        PtmFlow f = new PtmFlow(cfg, mem, small, 4096);
        PtmPacketReader r = new PtmPacketReader(cfg, f);
        r.push(d, 0, d.length);
        r.end();
        assertThat(small.ofType(DecodeError.class)).hasSize(1);
        assertThat(small.ofType(InstructionRange.class)).isEmpty();
        // with the default bound it is walked: 0xE0000 bytes of zeros, all "executed" (ANDEQ r0, r0, r0)
        List<At> l = decode(cfg, mem, d);
        InstructionRange ir = (InstructionRange) l.stream().map(At::element).filter(e -> e instanceof InstructionRange)
                .findFirst().orElseThrow();
        assertThat(ir.count()).isEqualTo((0xF0000 - 0x10000) / 4 + 1);
    }

    /** Random garbage and mutated encoder output never throw, and output stays proportional to input. */
    @Test
    void garbageAndMutations() {
        PtmRoundTripTest.Program p = PtmRoundTripTest.program("a9-thumb");
        EncodeOutput enc = new PtmEncoder().cycleAccurate(true).timestamps(true).encode(p.execution(), p.image());
        PtmConfig cfg = PtmConfig.of(enc.registers(), 0);
        Random rnd = new Random(3);
        for (int round = 0; round < 200; round++) {
            byte[] d;
            if (round % 2 == 0) {
                d = new byte[1 + rnd.nextInt(2000)];
                rnd.nextBytes(d);
                System.arraycopy(new byte[] {0, 0, 0, 0, 0, (byte) 0x80, 8, 0, 0, 1, 0x60, 0x21, 0}, 0, d, 0,
                        Math.min(13, d.length));
            } else {
                d = enc.trace().clone();
                for (int k = 0; k < 1 + rnd.nextInt(10); k++) {
                    d[rnd.nextInt(d.length)] = (byte) rnd.nextInt(256);
                }
            }
            List<At> l = decode(cfg, p.image().memory(), d);
            assertThat((long) l.size()).isLessThan(1100L * d.length + 10);
            assertThat(l.stream().map(At::element).filter(e -> e instanceof NoImage).count()).isLessThanOrEqualTo(d.length);
        }
    }
}
