package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.ASyncScanner;
import io.armtrace.protocol.ChunkedDecode;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.source.TraceData;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ETMv4 flow on the real captures: decoded in pieces as in one, and corrupt trace resynchronized. */
class Etm4FlowTest {

    private static DecodeInput input(String snapshot, int traceId, byte[] bytes) throws IOException {
        Snapshot snap = Snapshot.load(SharedData.dir("etm4/" + snapshot));
        SnapshotSource src = snap.source(traceId).orElseThrow();
        TraceData data = src.data();
        if (bytes != null) {
            data = TraceData.of("corrupted", bytes);
        }
        return new DecodeInput(traceId, src.registers(), src.image(), data, DecodeOptions.DEFAULT);
    }

    private static byte[] bytes(DecodeInput in) throws IOException {
        try (InputStream s = in.data().open()) {
            return s.readAllBytes();
        }
    }

    private static List<TraceElement> decode(TraceProtocol p, DecodeInput in) throws IOException {
        List<TraceElement> out = new ArrayList<>();
        p.decode(in, out::add);
        return out;
    }

    /**
     * juno-uname-001's snapshot lacks the images of the code it ran (kernel and libc), so its decode has no
     * instruction ranges: its elements are the exceptions, contexts and addresses outside the image, which
     * must come out the same in pieces too.
     */
    @ParameterizedTest(name = "{0} 0x{1} in chunks of {2} bytes")
    @CsvSource({
        "juno-uname-002, 16, 2048, true",
        "juno-uname-001, 10, 2048, false",
        "juno_r1_1, 10, 1024, true",
    })
    void chunkedDecodeEqualsWholeDecode(String snapshot, String id, long chunk, boolean ranges) throws IOException {
        DecodeInput in = input(snapshot, Integer.parseInt(id, 16), null);
        TraceProtocol p = Protocols.byName("etm4").orElseThrow();
        List<TraceElement> whole = decode(p, in);
        List<TraceElement> pieces = new ArrayList<>();
        ChunkedDecode.Split split = ChunkedDecode.decode(p, in, pieces::add, 2, chunk);
        assertThat(split.chunks()).as("chunks").isGreaterThan(2);
        assertThat(split.seams()).as("seams used").isPositive();
        long rangeCount = whole.stream().filter(e -> e instanceof InstructionRange).count();
        if (ranges) {
            assertThat(rangeCount).isPositive();
        } else {
            assertThat(rangeCount).isZero();
            assertThat(whole.stream().filter(e -> e instanceof io.armtrace.trace.NoImage).count()).as("code outside the image")
                    .isGreaterThan(1000);
            assertThat(whole.stream().filter(e -> e instanceof io.armtrace.trace.ExceptionEntry).count()).as("exceptions")
                    .isGreaterThan(10);
        }
        assertThat(pieces).isEqualTo(whole);
    }

    /**
     * A byte of the trace overwritten with a reserved header: the decode reports a gap at that byte and
     * from the next A-sync gives exactly what a decoder that starts there gives.
     */
    @ParameterizedTest(name = "{0} 0x{1}, byte {2}")
    @CsvSource({
        "juno-uname-002, 16, 5000",
        "juno-uname-002, 16, 20011",
        "juno_r1_1, 10, 3000",
    })
    void corruptTraceIsAGapThenResumesAtTheNextASync(String snapshot, String id, int atByte) throws IOException {
        TraceProtocol p = Protocols.byName("etm4").orElseThrow();
        DecodeInput good = input(snapshot, Integer.parseInt(id, 16), null);
        byte[] b = bytes(good);
        long[] header = {-1};
        p.packets(good, k -> {
            if (header[0] < 0 && k.offset() >= atByte) {
                header[0] = k.offset();
            }
        });
        int at = (int) header[0];
        b[at] = 0x0A; // a header reserved in ETMv4 (ETE's transaction start)
        DecodeInput bad = input(snapshot, Integer.parseInt(id, 16), b);
        List<TraceElement> got = decode(p, bad);
        long resync = -1;
        for (long s : ASyncScanner.scan(new ByteArrayInputStream(b), 1, 11)) {
            if (s > at) {
                resync = s;
                break;
            }
        }
        assertThat(resync).as("an A-sync after the damage").isPositive();
        int gap = -1;
        for (int i = 0; i < got.size(); i++) {
            if (got.get(i) instanceof Gap g && g.offset() == at) {
                gap = i;
                break;
            }
        }
        assertThat(gap).as("a gap at the damaged byte").isNotNegative();
        List<TraceElement> fresh = new ArrayList<>();
        p.decodeFrom(bad, resync, fresh::add, null);
        assertThat(fresh.stream().filter(e -> e instanceof InstructionRange).count()).isPositive();
        List<TraceElement> after = got.subList(got.size() - fresh.size(), got.size());
        assertThat(after).isEqualTo(fresh);
        // nothing between the gap and the resumed decode
        assertThat(got.size() - fresh.size()).isEqualTo(gap + 1);
    }

    /**
     * An exception's level is the one it was taken to: uname at EL0 on Linux takes every exception to EL1,
     * which the context after the exception says (the context before it, of the interrupted code, is EL0).
     */
    @org.junit.jupiter.api.Test
    void exceptionsCarryTheLevelTheyWereTakenTo() throws IOException {
        TraceProtocol p = Protocols.byName("etm4").orElseThrow();
        List<TraceElement> got = decode(p, input("juno-uname-002", 0x16, null));
        List<io.armtrace.trace.ExceptionEntry> exceptions = got.stream()
                .filter(e -> e instanceof io.armtrace.trace.ExceptionEntry).map(e -> (io.armtrace.trace.ExceptionEntry) e)
                .toList();
        assertThat(exceptions).hasSize(46).allSatisfy(x -> assertThat(x.exceptionLevel()).isEqualTo(1));
        assertThat(exceptions).filteredOn(x -> x.preferredReturn() < 0x8000000000L).as("taken from user code").isNotEmpty();
    }
}
