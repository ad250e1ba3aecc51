package io.armtrace.bench;

import io.armtrace.protocol.ChunkedDecode;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.trace.ElementSink;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.ListingPieces;
import io.armtrace.view.TextWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The phases of decoding one source on several threads, in wall-clock seconds (best of N runs each), for
 * bench/jobs/run.sh:
 *
 * <pre>
 *   JobsPhases SNAPSHOT text|jsonl RUNS CHUNK_BYTES THREADS
 * </pre>
 *
 * decodes the snapshot's first source whose protocol splits: into a sink that drops the elements (decode),
 * into the listing on one thread (listing_1), and in pieces of CHUNK_BYTES on THREADS threads (listing_n),
 * the listing written to a stream that drops it. Prints one line of key=value: the three times, and for the
 * split run the calling thread's serial phases (scan: finding split points; probe: the chunks' first sync
 * points; join: copying kept bytes to the output) and the chunks and seams.
 */
public final class JobsPhases {
    private JobsPhases() {
    }

    public static void main(String[] args) throws IOException {
        Snapshot snapshot = Snapshot.load(Path.of(args[0]));
        boolean jsonl = args[1].equals("jsonl");
        int runs = Integer.parseInt(args[2]);
        long chunk = Long.parseLong(args[3]);
        int threads = Integer.parseInt(args[4]);
        SnapshotSource source = null;
        TraceProtocol protocol = null;
        for (SnapshotSource s : snapshot.sources()) {
            TraceProtocol p = Protocols.forDeviceType(s.type()).orElse(null);
            if (p != null && p.splits()) {
                source = s;
                protocol = p;
                break;
            }
        }
        if (source == null) {
            throw new IllegalArgumentException(args[0] + ": no source whose protocol splits");
        }
        DecodeInput input = DecodeInput.of(source);
        ListingPieces format = new ListingPieces(w -> jsonl ? new JsonlWriter(w, input.image(), false, true)
                : new TextWriter(w, input.image(), false, false), StandardCharsets.UTF_8);
        OutputStream nowhere = OutputStream.nullOutputStream();
        double decode = Double.MAX_VALUE;
        double one = Double.MAX_VALUE;
        double many = Double.MAX_VALUE;
        ChunkedDecode.Split best = null;
        for (int r = 0; r < runs; r++) {
            long t = System.nanoTime();
            long[] n = {0};
            protocol.decode(input, (ElementSink) e -> n[0]++);
            decode = Math.min(decode, (System.nanoTime() - t) / 1e9);
            t = System.nanoTime();
            ChunkedDecode.decode(protocol, input, format, nowhere, 1, 0);
            one = Math.min(one, (System.nanoTime() - t) / 1e9);
            t = System.nanoTime();
            ChunkedDecode.Split split = ChunkedDecode.decode(protocol, input, format, nowhere, threads, chunk);
            double s = (System.nanoTime() - t) / 1e9;
            if (s < many) {
                many = s;
                best = split;
            }
        }
        System.out.printf(Locale.ROOT, "decode=%.3f listing_1=%.3f listing_n=%.3f scan=%.3f probe=%.3f join=%.3f chunks=%d seams=%d%n",
                decode, one, many, best.phases().scanNanos() / 1e9, best.phases().probeNanos() / 1e9,
                best.phases().joinNanos() / 1e9, best.chunks(), best.seams());
    }
}
