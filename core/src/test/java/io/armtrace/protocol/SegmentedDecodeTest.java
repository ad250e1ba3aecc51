package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceSegments;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Trace with breaks, on the TC2 hardware capture (ETMv3.5, source 0x10): cut in two with a break between,
 * the decoder resets at the break, reports a gap there, and from the next sync point on decodes exactly
 * what the unbroken trace gives from there.
 */
class SegmentedDecodeTest {
    @Test
    void aBreakIsAResetWithAGapAndOffsetsStayGlobal() throws Exception {
        SnapshotSource s = Snapshot.load(SharedData.tc2()).source(0x10).orElseThrow();
        TraceProtocol p = Protocols.forDeviceType(s.type()).orElseThrow();
        byte[] all;
        try (InputStream in = s.data().open()) {
            all = in.readAllBytes();
        }
        DecodeInput input = DecodeInput.of(s);
        ElementCollector whole = new ElementCollector();
        p.decode(input, whole);

        // one segment from 0 is the plain decode
        ElementCollector one = new ElementCollector();
        p.decode(input, TraceSegments.of(s.data()), one);
        assertThat(one.elements()).isEqualTo(whole.elements());

        int cut = all.length / 2;
        TraceSegments two = new TraceSegments.Builder()
                .add("first", Arrays.copyOfRange(all, 0, cut), null)
                .add("second", Arrays.copyOfRange(all, cut, all.length), "AUX buffer lost")
                .build();
        ElementCollector broken = new ElementCollector();
        p.decode(input, two, broken);
        List<TraceElement> b = broken.elements();
        int at = b.indexOf(new Gap(s.traceId(), "trace break: AUX buffer lost", cut));
        assertThat(at).as("gap at the break").isPositive();

        // after the break the decoder waits for a sync point: its first trace-on is at or after the cut, and
        // from there on its elements are those of the unbroken decode
        TraceOn resumed = (TraceOn) b.subList(at, b.size()).stream().filter(e -> e instanceof TraceOn).findFirst()
                .orElseThrow();
        assertThat(resumed.offset()).isGreaterThanOrEqualTo(cut);
        List<TraceElement> w = whole.elements();
        // a reset decoder learns the context anew (the unbroken one knew it and reported a cycle count there);
        // from the first instruction on, the elements are the unbroken decode's
        List<TraceElement> resync = b.subList(b.indexOf(resumed) + 1, b.size());
        assertThat(resync.get(0)).isInstanceOf(io.armtrace.trace.Context.class);
        List<TraceElement> afterBreak = resync.subList(1, resync.size());
        assertThat(afterBreak.get(0)).isInstanceOf(InstructionRange.class);
        assertThat(afterBreak).hasSizeGreaterThan(100).isEqualTo(w.subList(w.size() - afterBreak.size(), w.size()));
        // before the break: what the first half decodes alone, nothing of the second half
        assertThat(b.subList(0, at)).allMatch(e -> !(e instanceof Gap g) || g.offset() < cut);
        assertThat(b.subList(0, at).stream().filter(e -> e instanceof InstructionRange).count()).isPositive();
    }
}
