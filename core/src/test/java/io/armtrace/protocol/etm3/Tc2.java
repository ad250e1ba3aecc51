package io.armtrace.protocol.etm3;

import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The TC2 conformance capture (Cortex-A7 ETMv3.5 sources 0x10-0x12) read for tests: its sources through
 * {@link Snapshot}, and DS-5's instruction-level decode of each.
 */
final class Tc2 {
    static final Path DIR = io.armtrace.testdata.SharedData.tc2();

    private Tc2() {
    }

    static void assumePresent() {
        // The data is part of the repository: SharedData.tc2() has already failed if it is missing.
    }

    /** The trace source with trace ID {@code traceId}, as the snapshot describes it. */
    static SnapshotSource source(int traceId) {
        return Snapshot.load(DIR).source(traceId).orElseThrow();
    }

    /** That source's deformatted trace bytes. */
    static byte[] stream(int traceId) throws IOException {
        try (InputStream in = source(traceId).data().open()) {
            return in.readAllBytes();
        }
    }

    /** One instruction of a DS-5 dump. */
    record Ds5Insn(long address, boolean executed) {
    }

    /** The instructions of {@code ds5-dumps/etmv3_0xID.txt} with a known address, in order. */
    static List<Ds5Insn> ds5(int traceId) throws IOException {
        List<Ds5Insn> out = new ArrayList<>();
        Path p = DIR.resolve(String.format("ds5-dumps/etmv3_0x%x.txt", traceId));
        for (String line : Files.readAllLines(p)) {
            String[] c = line.split("\t", -1);
            if (c.length < 8 || !c[0].equals("Instruction")) {
                continue;
            }
            String a = c[2];
            if (!a.startsWith("S:0x") && !a.startsWith("N:0x")) {
                continue;
            }
            out.add(new Ds5Insn(Long.parseLong(a.substring(4), 16), !c[7].trim().equals("fail")));
        }
        return out;
    }
}
