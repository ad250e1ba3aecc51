package io.armtrace.spark;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.api.TraceSource;
import io.armtrace.source.InputException;
import io.armtrace.trace.ElementSink;
import io.armtrace.view.Coverage;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.Profile;
import io.armtrace.view.SourceFiles;
import io.armtrace.view.TraceAnalysis;
import io.armtrace.protocol.Protocols;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.view.FoldedStacks;
import io.armtrace.view.LcovTracefile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;

/**
 * Decodes a fleet of captures on Apache Spark: every capture of a directory (a local path or any Hadoop
 * file system URI, e.g. {@code s3a://bucket/captures}) is decoded on an executor exactly as the command
 * line decodes it, and the coverage and profile of all captures are added up.
 *
 * <p>A capture is a snapshot directory (a subdirectory holding {@code snapshot.ini}): DS-5/OpenCSD
 * snapshots, and MTB dumps described as a snapshot with an MTB device (docs/mtb.md). For each capture
 * {@code NAME} the job writes, under the output directory:
 * <ul>
 * <li>{@code captures/NAME.jsonl}: {@code armtrace decode NAME --format jsonl} (every trace source);</li>
 * </ul>
 * and over all captures:
 * <ul>
 * <li>{@code coverage.info}: {@code armtrace merge --lcov} of {@code armtrace coverage NAME --source ID --lcov}
 * for every decodable trace source of every capture (counts summed per line, function and branch);</li>
 * <li>{@code profile.folded}: {@code armtrace merge --folded} of {@code armtrace profile NAME --folded} of
 * every capture (counts summed per call path).</li>
 * </ul>
 * Each capture is decoded once, through the library API ({@link Decoder}), one capture per task and each
 * on one thread, into the same views the command line writes with, so the results are byte for byte those
 * of the command line run capture by capture.
 *
 * <p>A capture that cannot be decoded (a damaged snapshot) does not stop the
 * job: {@code status.tsv} has one line per capture, {@code NAME<TAB>ok} or {@code NAME<TAB>error<TAB>}
 * the sentence that says why, with the capture's input path in it (not the executor's copy), and the
 * other captures' results are written and added up as usual.
 */
public final class FleetDecode {
    private FleetDecode() {
    }

    /** {@code FleetDecode [MASTER] INPUT OUTPUT}: MASTER (e.g. {@code local[*]}) when not run by spark-submit. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: FleetDecode [MASTER] INPUT_DIR OUTPUT_DIR");
            System.exit(2);
        }
        SparkConf conf = new SparkConf().setAppName("armtrace fleet decode");
        if (args.length == 3) {
            conf.setMaster(args[0]);
        }
        String input = args[args.length - 2];
        String output = args[args.length - 1];
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            Summary s = run(sc, input, output);
            System.out.println(s.captures() + " captures decoded to " + output
                    + (s.failed() > 0 ? "; " + s.failed() + " could not be decoded (see " + output + "/status.tsv)" : ""));
        } catch (IllegalArgumentException e) {
            System.err.println("FleetDecode: " + e.getMessage());
            System.exit(2);
        }
    }

    /** What a run did: captures decoded, and of them those that failed (status.tsv says why). */
    public record Summary(int captures, int failed) {
    }

    /**
     * The result of one capture that goes back to the driver: its tracefiles and folded stacks, or
     * {@code error}, the reason it could not be decoded (null when it was).
     */
    record CaptureResult(String name, List<String> lcov, String folded, String error) implements Serializable {
    }

    /** Decodes every capture of {@code input} into {@code output}. */
    public static Summary run(JavaSparkContext sc, String input, String output) throws IOException {
        Configuration hadoop = sc.hadoopConfiguration();
        Path in = new Path(input);
        FileSystem fs = in.getFileSystem(hadoop);
        if (!fs.getFileStatus(in).isDirectory()) {
            throw new IllegalArgumentException(input + " is not a directory of captures.");
        }
        List<String> captures = new ArrayList<>();
        for (FileStatus st : fs.listStatus(in)) {
            if (st.isDirectory() && fs.exists(new Path(st.getPath(), "snapshot.ini"))) {
                captures.add(st.getPath().getName());
            }
        }
        captures.sort(Comparator.naturalOrder());
        if (captures.isEmpty()) {
            throw new IllegalArgumentException(input + " holds no capture (a directory with a snapshot.ini).");
        }
        Map<String, String> settings = new HashMap<>();
        hadoop.forEach(e -> settings.put(e.getKey(), e.getValue()));
        List<CaptureResult> results = sc.parallelize(captures, captures.size())
                .map(new DecodeCapture(in.toString(), output, settings)).collect();

        LcovTracefile lcov = new LcovTracefile();
        FoldedStacks folded = new FoldedStacks();
        StringBuilder status = new StringBuilder();
        int failed = 0;
        for (CaptureResult r : results) {
            if (r.error() != null) {
                failed++;
                status.append(r.name()).append("\terror\t").append(r.error().replace('\t', ' ').replace('\n', ' '))
                        .append('\n');
                continue;
            }
            status.append(r.name()).append("\tok\n");
            for (int i = 0; i < r.lcov().size(); i++) {
                lcov.add(new StringReader(r.lcov().get(i)), r.name() + " tracefile " + i);
            }
            folded.add(new StringReader(r.folded()), r.name());
        }
        Path out = new Path(output);
        FileSystem ofs = out.getFileSystem(hadoop);
        ofs.setWriteChecksum(false); // no .crc files beside the results on a local file system
        StringWriter info = new StringWriter();
        lcov.write(new PrintWriter(info), "armtrace");
        write(ofs, new Path(out, "coverage.info"), info.toString());
        StringWriter stacks = new StringWriter();
        folded.write(new PrintWriter(stacks));
        write(ofs, new Path(out, "profile.folded"), stacks.toString());
        write(ofs, new Path(out, "status.tsv"), status.toString());
        return new Summary(results.size(), failed);
    }

    /** Writes to a temporary name and renames, so that a file that is there is complete. */
    private static void write(FileSystem fs, Path file, String text) throws IOException {
        Path tmp = new Path(file.getParent(), "." + file.getName() + ".tmp");
        try (FSDataOutputStream o = fs.create(tmp, true)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        fs.delete(file, false);
        if (!fs.rename(tmp, file)) {
            throw new IOException("cannot rename " + tmp + " to " + file);
        }
    }

    /** One capture on an executor: copied to local disk, decoded by the command line, results copied back. */
    static final class DecodeCapture implements Function<String, CaptureResult> {
        private final String input;
        private final String output;
        private final Map<String, String> settings;

        DecodeCapture(String input, String output, Map<String, String> settings) {
            this.input = input;
            this.output = output;
            this.settings = settings;
        }

        @Override
        public CaptureResult call(String name) throws IOException {
            Configuration conf = new Configuration(false);
            settings.forEach(conf::set);
            Path src = new Path(new Path(input), name);
            java.nio.file.Path work = Files.createTempDirectory("armtrace-capture");
            java.nio.file.Path dir = work.resolve(name);
            try {
                src.getFileSystem(conf).copyToLocalFile(false, src, new Path(work.toUri()), true);
                java.nio.file.Path jsonl = work.resolve("decode.jsonl");
                Decoded d = decode(dir, jsonl);
                // written only once the capture decoded completely
                Path out = new Path(new Path(output), "captures");
                FileSystem ofs = out.getFileSystem(conf);
                ofs.setWriteChecksum(false);
                ofs.copyFromLocalFile(false, true, new Path(jsonl.toUri()), new Path(out, name + ".jsonl"));
                return new CaptureResult(name, d.lcov(), d.folded(), null);
            } catch (IOException | RuntimeException e) {
                // the reason, with the input's path where the messages name the executor's copy
                String why = e instanceof InputException ? e.getMessage()
                        : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                return new CaptureResult(name, List.of(), "", why.replace(dir.toString(), src.toString())
                        .replace(work.toString(), src.getParent().toString()));
            } finally {
                deleteTree(work);
            }
        }
    }

    /** What one capture gives: an LCOV tracefile per source of program flow, and the folded stacks of them all. */
    record Decoded(List<String> lcov, String folded) {
    }

    /**
     * Decodes every source of the capture in {@code dir} once, through the library API, into what {@code
     * armtrace decode DIR --format jsonl} writes (to {@code jsonl}), and into the analysis that {@code armtrace
     * profile DIR --folded} and the {@link #coverageRuns coverage runs} make their outputs of: the outputs are
     * byte for byte theirs.
     */
    static Decoded decode(java.nio.file.Path dir, java.nio.file.Path jsonl) throws IOException {
        Decoder decoder = Decoder.openSnapshot(dir, DecodeOptions.DEFAULT);
        List<TraceSource> sources = decoder.sources();
        List<TraceSource> flow = sources.stream().filter(TraceSource::tracesProgramFlow).toList();
        if (flow.isEmpty()) {
            throw new InputException(dir + ": has only software trace (ITM, STM), which has no program flow "
                    + "to analyse; 'armtrace decode' lists it.");
        }
        List<TraceAnalysis> analyses = new ArrayList<>();
        try (Writer file = new io.armtrace.view.EncodingWriter(Files.newOutputStream(jsonl), StandardCharsets.UTF_8,
                1 << 16); PrintWriter out = new PrintWriter(file)) {
            for (TraceSource s : sources) {
                ElementSink writer = new JsonlWriter(out, s.image(), sources.size() > 1, false)
                        .annotate(false, s.protocol().profile(s.input().registers()));
                ElementSink sink = writer;
                if (s.tracesProgramFlow()) {
                    TraceAnalysis a = new TraceAnalysis(s.image());
                    analyses.add(a);
                    sink = e -> {
                        writer.accept(e);
                        a.accept(e);
                    };
                }
                s.protocol().decode(s.input(), sink);
                writer.end();
                if (s.tracesProgramFlow()) {
                    analyses.get(analyses.size() - 1).end();
                }
            }
            out.flush();
            if (out.checkError()) {
                throw new IOException(jsonl + ": could not be written");
            }
        }
        StringWriter folded = new StringWriter();
        PrintWriter f = new PrintWriter(folded);
        for (int i = 0; i < flow.size(); i++) {
            new Profile(analyses.get(i)).writeFolded(f, false, flow.size() > 1 ? "[" + flow.get(i).label() + "]" : null);
        }
        f.flush();
        List<String> lcov = new ArrayList<>();
        for (int i = 0; i < flow.size(); i++) {
            if (flow.get(i).input().data() == null) {
                continue;
            }
            StringWriter info = new StringWriter();
            PrintWriter w = new PrintWriter(info);
            new Coverage(analyses.get(i)).writeLcov(w, "armtrace", SourceFiles.asRecorded(Map.of(), List.of(), List.of()));
            w.flush();
            lcov.add(info.toString());
        }
        return new Decoded(lcov, folded.toString());
    }

    /**
     * The {@code armtrace coverage} runs of one capture: one per trace source of program flow that {@code
     * armtrace decode} decodes (a protocol armtrace knows, not software trace, and a trace buffer), as an LCOV
     * tracefile describes one program; without {@code --source} when there is only one. Source files are
     * named as the compiler recorded them ({@code --source-paths recorded}): the executors do not have the
     * sources; the merged tracefile is read where they are.
     */
    public static List<List<String>> coverageRuns(java.nio.file.Path capture, java.nio.file.Path lcov) {
        List<SnapshotSource> sources = Snapshot.load(capture).sources().stream()
                .filter(s -> Protocols.forDeviceType(s.type()).filter(p -> p.tracesProgramFlow()).isPresent()
                        && s.bufferFile() != null).toList();
        List<List<String>> runs = new ArrayList<>();
        if (sources.size() == 1) {
            runs.add(List.of("coverage", capture.toString(), "--lcov", lcov.toString(), "--source-paths", "recorded"));
        } else {
            for (SnapshotSource s : sources) {
                runs.add(List.of("coverage", capture.toString(), "--source", "0x" + Integer.toHexString(s.traceId()),
                        "--lcov", lcov.toString(), "--source-paths", "recorded"));
            }
        }
        return runs;
    }

    private static void deleteTree(java.nio.file.Path root) {
        try (var walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is not lost output
        }
    }
}
