package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.TraceElement;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Etm4Flow} takes the committed atoms of a packet in one call ({@link Etm4ElementListener#atoms}) and
 * skips the rest of them together once one cannot be placed. On the real captures that must give exactly the
 * elements of one {@link Etm4Flow#element} call per atom (the interface's default), which is the flow the
 * conformance tests against OpenCSD and DS-5 established: every element of both decodes, in order, compared
 * as values (their hash codes, one per element, and the instruction counts).
 */
class Etm4AtomBatchTest {

    @ParameterizedTest(name = "{0}")
    // a55-test-tpiu has no code image: every atom there is skipped
    @ValueSource(strings = {"juno_r1_1", "juno-uname-002", "bugfix-exact-match", "a55-test-tpiu"})
    void oneCallPerPacketDecodesAsOneCallPerAtom(String name) throws IOException {
        Snapshot snap = Snapshot.load(SharedData.dir("etm4/" + name));
        long total = 0;
        int sources = 0;
        for (SnapshotSource src : snap.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            if (!(p instanceof Etm4Protocol etm4) || src.bufferFile() == null) {
                continue;
            }
            sources++;
            // the whole decode, as armtrace runs it: atoms in bulk
            Fingerprint bulk = new Fingerprint();
            DecodeInput in = new DecodeInput(src.traceId(), Etm4FlowConformanceTest.registers(p, src, snap), src.image(),
                    src.data(), DecodeOptions.DEFAULT, snap.codeMemory(src));
            p.decode(in, bulk);
            // the same stages with a listener that only has element(): one call per atom
            Fingerprint single = new Fingerprint();
            Etm4Config config = etm4.config(Etm4FlowConformanceTest.registers(p, src, snap), src.traceId());
            Etm4Flow flow = new Etm4Flow(config, snap.codeMemory(src), single);
            Etm4ElementListener perAtom = flow::element;
            Etm4Speculation spec = new Etm4Speculation(config, perAtom);
            Etm4PacketReader reader = new Etm4PacketReader(config, spec);
            byte[] bytes;
            try (InputStream s = src.data().open()) {
                bytes = s.readAllBytes();
            }
            for (int i = 0; i < bytes.length; i += 4096) {
                reader.push(bytes, i, Math.min(4096, bytes.length - i));
            }
            reader.end();
            spec.end();
            flow.end();
            String what = name + String.format(" 0x%02x", src.traceId());
            assertThat(bulk.count).as(what + ": elements").isEqualTo(single.count);
            assertThat(bulk.instructions).as(what + ": instructions").isEqualTo(single.instructions);
            int at = Arrays.mismatch(bulk.hashes, 0, bulk.count, single.hashes, 0, single.count);
            assertThat(at).as(what + ": first element that differs").isEqualTo(-1);
            total += bulk.count;
        }
        assertThat(sources).as(name + ": ETMv4 sources").isPositive();
        assertThat(total).as(name + ": elements").isPositive();
    }

    /** The element stream as one hash code per element (records: by value). */
    private static final class Fingerprint implements ElementSink {
        int[] hashes = new int[1 << 12];
        int count;
        long instructions;

        @Override
        public void accept(TraceElement e) {
            if (count == hashes.length) {
                hashes = Arrays.copyOf(hashes, count * 2);
            }
            hashes[count++] = e.hashCode();
            if (e instanceof InstructionRange r) {
                instructions += r.count();
            }
        }
    }
}
