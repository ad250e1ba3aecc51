package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tukaani.xz.XZInputStream;

/**
 * The element stream of {@link Etm4Speculation} on the real captures, against the elements OpenCSD 1.8.0's
 * decoder printed ({@code OCSD_GEN_TRC_ELEM_...} lines of conformance/etm4/expected-opencsd-1.8.0): the same
 * exceptions (at the same packet, same number, same preferred return address), the same trace-on points,
 * contexts, timestamps and exception returns; and every instruction range OpenCSD made for an atom matches
 * one of armtrace's committed atoms at the same packet, E or N alike. OpenCSD gives no range for an atom
 * whose code is not in the memory image (it then skips atoms until the next address), so its atoms are
 * per packet a prefix of armtrace's; where the image holds all the code (bugfix-exact-match) the counts
 * are equal.
 */
class Etm4SpeculationConformanceTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // snapshot, listing, atoms armtrace commits, OpenCSD's atom ranges
        "a55-test-tpiu, a55-test-tpiu.ppl.xz, 621001, 0",
        "a57_single_step, a57_single_step.ppl, 0, 0",
        "armv8_1m_branches, armv8_1m_branches.ppl, 34, 34",
        // one atom more than OpenCSD: an atom after a trace info before any address, which OpenCSD skips
        "bugfix-exact-match, bugfix-exact-match.ppl.xz, 1740313, 1740312",
        // OpenCSD has no memory for most of these: its ranges are those of the code in the image
        "juno-uname-001, juno-uname-001.ppl.xz, 82675, 0",
        "juno-uname-002, juno-uname-002.ppl.xz, 135836, 5782",
        "juno_r1_1, juno_r1_1.ppl.xz, 59285, 6733",
        "test-file-mem-offsets, test-file-mem-offsets.ppl.xz, 135836, 5782",
    })
    void elementsMatchOpenCsdsDecode(String name, String listingFile, long ourAtoms, long theirAtomRanges)
            throws IOException {
        Path dir = SharedData.dir("etm4/" + name);
        Map<Integer, Decoded> theirs = readElements(SharedData.dir("etm4/expected-opencsd-1.8.0/" + listingFile));
        Snapshot snap = Snapshot.load(dir);
        List<String> problems = new ArrayList<>();
        long atoms = 0;
        long ranges = 0;
        for (SnapshotSource src : snap.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            if (!(p instanceof Etm4Protocol etm4) || src.bufferFile() == null) {
                continue;
            }
            int listed = src.bufferFormat() == io.armtrace.source.BufferFormat.SOURCE_DATA && theirs.size() == 1
                    ? theirs.keySet().iterator().next() : src.traceId();
            Decoded want = theirs.getOrDefault(listed, new Decoded());
            OpenCsdIndex ix = OpenCsdIndex.of(src.bufferFile(), src.bufferFormat(), src.traceId());
            Decoded got = new Decoded();
            Etm4Config config = etm4.config(new Registers().putAll(src.registers()), src.traceId());
            Etm4Speculation spec = new Etm4Speculation(config, e -> got.add(e, ix));
            Etm4PacketReader reader = new Etm4PacketReader(config, spec);
            byte[] bytes;
            try (InputStream in = src.data().open()) {
                bytes = in.readAllBytes();
            }
            reader.push(bytes, 0, bytes.length);
            reader.end();
            spec.end();
            String what = name + String.format(" 0x%02x", src.traceId());
            compare(problems, what + " exceptions", want.exceptions, got.exceptions);
            compare(problems, what + " trace on", want.traceOn, got.traceOn);
            compare(problems, what + " contexts", want.contexts, got.contexts);
            compare(problems, what + " timestamps", want.timestamps, got.timestamps);
            compare(problems, what + " exception returns", want.exceptionReturns, got.exceptionReturns);
            for (Map.Entry<Long, StringBuilder> r : want.atoms.entrySet()) {
                if (want.exceptionIdx.contains(r.getKey())) {
                    continue; // the range up to an exception's return address
                }
                StringBuilder mine = got.atoms.get(r.getKey());
                ranges += r.getValue().length();
                if (mine == null || !mine.toString().startsWith(r.getValue().toString())) {
                    if (problems.size() < 20) {
                        problems.add(what + " atoms at Idx " + r.getKey() + ": OpenCSD " + r.getValue() + ", armtrace " + mine);
                    }
                }
            }
            for (StringBuilder s : got.atoms.values()) {
                atoms += s.length();
            }
        }
        assertThat(problems).as(name + ": elements unlike OpenCSD's").isEmpty();
        assertThat(atoms).as(name + ": atoms committed").isEqualTo(ourAtoms);
        assertThat(ranges).as(name + ": OpenCSD's ranges for atoms, each matched").isEqualTo(theirAtomRanges);
    }

    private static void compare(List<String> problems, String what, List<String> want, List<String> got) {
        if (!want.equals(got) && problems.size() < 20) {
            int i = 0;
            while (i < Math.min(want.size(), got.size()) && want.get(i).equals(got.get(i))) {
                i++;
            }
            problems.add(what + " differ at #" + i + " of " + want.size() + "/" + got.size() + ": OpenCSD "
                    + (i < want.size() ? want.get(i) : "none") + ", armtrace " + (i < got.size() ? got.get(i) : "none"));
        }
    }

    /** One source's elements in a form both sides give: "Idx value ..." strings. */
    static final class Decoded {
        final List<String> exceptions = new ArrayList<>();
        final java.util.Set<Long> exceptionIdx = new java.util.HashSet<>();
        final List<String> traceOn = new ArrayList<>();
        final List<String> contexts = new ArrayList<>();
        final List<String> timestamps = new ArrayList<>();
        final List<String> exceptionReturns = new ArrayList<>();
        final Map<Long, StringBuilder> atoms = new TreeMap<>();
        /**
         * Contexts not yet followed by a P0 element. OpenCSD gives a context only when a later P0 element is
         * committed, and drops it at the end of the trace and at a discard, overflow or error; armtrace gives
         * it where it comes. Only the contexts some P0 element follows are compared.
         */
        final List<String> pendingContexts = new ArrayList<>();

        void add(Etm4Element e, OpenCsdIndex ix) {
            long idx = ix.idx(e.offset);
            switch (e.kind()) {
                case ATOM, EXCEPTION, Q, SOURCE_ADDRESS, PE_RESET -> {
                    contexts.addAll(pendingContexts);
                    pendingContexts.clear();
                }
                case OVERFLOW, DISCARD, GAP -> pendingContexts.clear();
                default -> {
                }
            }
            switch (e.kind()) {
                case ATOM -> atoms.computeIfAbsent(idx, k -> new StringBuilder()).append(e.executed ? 'E' : 'N');
                case EXCEPTION -> {
                    exceptions.add(idx + " 0x" + Integer.toHexString(e.exceptionType) + " 0x" + Long.toHexString(e.address));
                    exceptionIdx.add(idx);
                }
                case TRACE_ON -> traceOn.add(Long.toString(idx));
                case CONTEXT -> pendingContexts.add(idx + " EL" + e.el + (e.nonSecure ? "N" : "S") + (e.aarch64 ? " 64" : " 32"));
                case TIMESTAMP -> timestamps.add(idx + " 0x" + Long.toHexString(e.timestamp));
                case EXCEPTION_RETURN -> exceptionReturns.add(Long.toString(idx));
                default -> {
                }
            }
        }
    }

    private static final Pattern ELEMENT = Pattern.compile("Idx:(\\d+); ID:([0-9a-f]+); OCSD_GEN_TRC_ELEM_([A-Z_]+)\\((.*)\\)");
    private static final Pattern RANGE_END = Pattern.compile("\\(ISA=[^)]*\\) ([EN]) ");
    private static final Pattern EXCEPTION = Pattern.compile("pref ret addr:0x([0-9a-f]+)[^;]*;.*excep num \\(0x([0-9a-f]+)\\)");
    private static final Pattern CONTEXT = Pattern.compile("EL(\\d)([NS]); (64|32)-bit");
    private static final Pattern TS = Pattern.compile("TS=0x([0-9a-f]+)");

    static Map<Integer, Decoded> readElements(Path file) throws IOException {
        Map<Integer, Decoded> byId = new HashMap<>();
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".xz") ? new XZInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1), 1 << 16)) {
            String s;
            while ((s = r.readLine()) != null) {
                if (!s.contains("OCSD_GEN_TRC_ELEM_")) {
                    continue;
                }
                Matcher m = ELEMENT.matcher(s);
                if (!m.find()) {
                    continue;
                }
                long idx = Long.parseLong(m.group(1));
                Decoded d = byId.computeIfAbsent(Integer.parseInt(m.group(2), 16), k -> new Decoded());
                String body = m.group(4);
                Matcher b;
                switch (m.group(3)) {
                    case "INSTR_RANGE" -> {
                        if ((b = RANGE_END.matcher(body)).find()) {
                            d.atoms.computeIfAbsent(idx, k -> new StringBuilder()).append(b.group(1));
                        }
                    }
                    case "EXCEPTION" -> {
                        if ((b = EXCEPTION.matcher(body)).find()) {
                            d.exceptions.add(idx + " 0x" + Integer.toHexString(Integer.parseInt(b.group(2), 16)) + " 0x"
                                    + Long.toHexString(Long.parseUnsignedLong(b.group(1), 16)));
                            d.exceptionIdx.add(idx);
                        }
                    }
                    case "TRACE_ON" -> d.traceOn.add(Long.toString(idx));
                    case "PE_CONTEXT" -> {
                        if ((b = CONTEXT.matcher(body)).find()) {
                            d.contexts.add(idx + " EL" + b.group(1) + b.group(2) + " " + b.group(3));
                        }
                    }
                    case "TIMESTAMP" -> {
                        if ((b = TS.matcher(body)).find()) {
                            d.timestamps.add(idx + " 0x" + Long.toHexString(Long.parseUnsignedLong(b.group(1), 16)));
                        }
                    }
                    case "EXCEPTION_RET" -> d.exceptionReturns.add(Long.toString(idx));
                    default -> {
                    }
                }
            }
        }
        return byId;
    }
}
