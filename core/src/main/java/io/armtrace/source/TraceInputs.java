package io.armtrace.source;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.RawImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a user names (a snapshot directory, or a raw trace file with its framing, trace IDs and extra
 * images) into the pieces of a decode job: the sources chosen, their registers, program images and trace
 * bytes. Which protocol decodes a source is not decided here (that is the protocol registry's question);
 * everything before it is, with the one-sentence refusals a user sees.
 */
public final class TraceInputs {
    private TraceInputs() {
    }

    /** How the bytes of a raw trace file are laid out. */
    public enum Framing {
        /** The file is one source's trace bytes. */
        PLAIN,
        /** A CoreSight formatted buffer or port capture (ETB/ETF/ETR frames, TPIU, DSTREAM). */
        FORMATTED,
        /** An orbuculum OFLOW capture (COBS frames of tagged streams). */
        OFLOW
    }

    /** A perf.data recording given as a raw trace file or to a reader of snapshots only: where it goes instead. */
    public static InputException perfData(Path file) {
        return new InputException(file + ": is a perf.data recording (Linux perf or simpleperf); give it as the input itself"
                + " (armtrace decode " + file + " --symdir DIR), and `armtrace info " + file + "` shows what it holds.");
    }

    /** Loads the snapshot in {@code dir}, refusing a perf.data recording or a plain file with one sentence. */
    public static Snapshot openSnapshot(Path dir, boolean confine) {
        if (io.armtrace.source.perf.PerfData.looksLikePerfData(dir)) {
            throw perfData(dir);
        }
        if (Files.isRegularFile(dir)) {
            throw new InputException(dir + ": is a file, not a snapshot directory; for a raw trace file use --trace "
                    + dir + " --protocol NAME.");
        }
        return Snapshot.load(dir, confine);
    }

    /**
     * The sources of {@code snap} with the trace IDs {@code ids} in that order (each once), or every source
     * when {@code ids} is empty. An ID the snapshot does not have is a mistake.
     */
    public static List<SnapshotSource> choose(Snapshot snap, Path dir, List<Integer> ids) {
        List<SnapshotSource> chosen = new ArrayList<>();
        if (ids.isEmpty()) {
            chosen.addAll(snap.sources());
            return chosen;
        }
        for (int id : ids) {
            SnapshotSource s = snap.source(id).orElseThrow(() -> new InputException(
                    dir + ": has no trace source with ID " + String.format("0x%02x", id) + "."));
            if (!chosen.contains(s)) {
                chosen.add(s);
            }
        }
        return chosen;
    }

    /** The device type of the core {@code s} traces ("Cortex-A57"), or null when the snapshot does not say. */
    public static String coreType(Snapshot snap, SnapshotSource s) {
        if (s.coreName() == null) {
            return null;
        }
        for (Snapshot.Device d : snap.devices()) {
            if (d.name().equalsIgnoreCase(s.coreName()) && "core".equalsIgnoreCase(d.deviceClass())) {
                return d.type();
            }
        }
        return null;
    }

    /**
     * The registers a decoder of snapshot source {@code s} reads: the halted core's PC (MTB completes the
     * newest run up to it) unless the source gives one, then {@code forCore} (what the core's type implies),
     * the source's own registers and {@code extra} (given by the user), later ones taking precedence.
     */
    public static Registers registers(SnapshotSource s, Registers forCore, Registers extra) {
        Registers r = new Registers();
        long pc = s.coreRegisters().get("PC", s.coreRegisters().get("R15", -1));
        if (pc >= 0 && !s.registers().has("PC")) {
            r.put("PC", pc);
        }
        return r.putAll(forCore).putAll(s.registers()).putAll(extra);
    }

    /**
     * A program image of its own for one decode: {@code base}'s memory (copied, so that adding to it leaves
     * {@code base} alone), symbols and lines, with the images {@code imageArguments} ({@code FILE} or
     * {@code FILE@ADDR}, as {@link RawImage#parseArgument} reads them) added.
     */
    public static ProgramImage image(ProgramImage base, List<String> imageArguments) {
        ProgramImage img = new ProgramImage(new MemoryImage().addAll(base.memory()), base.symbols(), base.lines());
        for (String arg : imageArguments) {
            img = RawImage.parseArgument(arg, img);
        }
        return img;
    }

    /** How a snapshot source is named in listings and messages: "ETM_0 (ETM3.5, trace ID 0x10)". */
    public static String label(SnapshotSource s) {
        return s.name() + " (" + s.type() + ", trace ID " + traceIdText(s.traceId()) + ")";
    }

    /** A trace ID as people read it: 0x10, or "none" for a source that has none (-1, e.g. MTB). */
    public static String traceIdText(int id) {
        return id < 0 ? "none" : String.format("0x%02x", id);
    }

    /**
     * Refuses a raw trace file that cannot be read more than once (a pipe: stats and packet
     * bytes beside packets read it again), is missing, or is a perf.data recording.
     */
    public static void checkTraceFile(Path trace) {
        String problem = io.armtrace.image.FileKind.problem(trace);
        if (problem != null) {
            throw new InputException(IniFile.shorten(problem) + ".");
        }
        if (io.armtrace.source.perf.PerfData.looksLikePerfData(trace)) {
            throw perfData(trace);
        }
    }

    /** A raw trace file's one source: its trace ID and bytes. */
    public record RawSource(int traceId, TraceData data) {
    }

    /**
     * The source of raw trace file {@code trace} laid out as {@code framing}: trace ID {@code id} (null when
     * not given: stream 1 of an OFLOW capture, a formatted file needs one, and plain trace takes the trace ID
     * register {@code ETMTRACEIDR} of {@code registers} or 0).
     */
    public static RawSource rawSource(Path trace, Framing framing, Integer id, Registers registers) throws IOException {
        switch (framing) {
            case OFLOW: {
                int stream = id == null ? 1 : id;
                return new RawSource(stream, TraceData.oflow(trace, stream));
            }
            case FORMATTED:
                if (id == null) {
                    throw new InputException("--formatted " + trace + ": say which trace ID to take with --source ID.");
                }
                return new RawSource(id, TraceData.formatted(trace, id, looksLikePortCapture(trace)));
            default:
                return new RawSource(id != null ? id
                        : registers.has("ETMTRACEIDR") ? (int) (registers.get("ETMTRACEIDR", 0) & 0x7F) : 0,
                        TraceData.of(trace));
        }
    }

    /** A port capture starts with (or contains early) a full-frame sync FF FF FF 7F; a memory buffer does not. */
    public static boolean looksLikePortCapture(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(64);
            for (int i = 0; i + 3 < head.length; i++) {
                if ((head[i] & 0xFF) == 0xFF && (head[i + 1] & 0xFF) == 0xFF && (head[i + 2] & 0xFF) == 0xFF
                        && head[i + 3] == 0x7F) {
                    return true;
                }
            }
            return false;
        }
    }
}
