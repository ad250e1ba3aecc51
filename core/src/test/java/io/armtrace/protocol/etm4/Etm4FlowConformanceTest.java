package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.Context;
import io.armtrace.trace.ProcessorMode;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceElement;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tukaani.xz.XZInputStream;

/**
 * armtrace's instruction decode of the real ETMv4 captures against OpenCSD 1.8.0's
 * ({@code OCSD_GEN_TRC_ELEM_...} lines of conformance/etm4/expected-opencsd-1.8.0), per trace source and in
 * order: every instruction range (start, end, instruction count, E or N), every exception (number and
 * preferred return address), every address outside the memory image (OpenCSD's ADDR_NACC, armtrace's
 * NoImage) and every context that some instruction range or exception follows (OpenCSD gives a context only
 * then). Differences are listed in docs/etm4.md; there are none on these captures.
 */
class Etm4FlowConformanceTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // snapshot, listing, OpenCSD's instruction ranges
        "a57_single_step, a57_single_step.ppl, 1",
        "armv8_1m_branches, armv8_1m_branches.ppl, 34",
        "bugfix-exact-match, bugfix-exact-match.ppl.xz, 1740344",
        "juno-uname-001, juno-uname-001.ppl.xz, 0",
        "juno-uname-002, juno-uname-002.ppl.xz, 5815",
        "juno_r1_1, juno_r1_1.ppl.xz, 6733",
        "test-file-mem-offsets, test-file-mem-offsets.ppl.xz, 5815",
    })
    void decodeMatchesOpenCsd(String name, String listingFile, long theirRanges) throws IOException {
        Map<Integer, List<String>> theirs = readOpenCsd(SharedData.dir("etm4/expected-opencsd-1.8.0/" + listingFile));
        Snapshot snap = Snapshot.load(SharedData.dir("etm4/" + name));
        List<String> problems = new ArrayList<>();
        long ranges = 0;
        int sources = 0;
        for (SnapshotSource src : snap.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            if (!(p instanceof Etm4Protocol) || src.bufferFile() == null) {
                continue;
            }
            sources++;
            List<String> want = theirs.getOrDefault(src.traceId(), List.of());
            List<String> got = decode(p, src, snap);
            compare(problems, name + String.format(" 0x%02x", src.traceId()), want, got);
            ranges += want.stream().filter(s -> s.startsWith("R ")).count();
        }
        assertThat(sources).as(name + ": ETMv4 sources").isPositive();
        assertThat(problems).as(name + ": decode unlike OpenCSD's").isEmpty();
        assertThat(ranges).as(name + ": OpenCSD's instruction ranges, each matched").isEqualTo(theirRanges);
    }

    static Registers registers(TraceProtocol p, SnapshotSource src, Snapshot snap) {
        Registers r = new Registers();
        for (Snapshot.Device d : snap.devices()) {
            if (d.name().equalsIgnoreCase(String.valueOf(src.coreName()))) {
                r.putAll(p.registersForCore(d.type()));
            }
        }
        return r.putAll(src.registers());
    }

    /** The source decoded, as the comparison's lines. */
    static List<String> decode(TraceProtocol p, SnapshotSource src, Snapshot snap) throws IOException {
        List<String> out = new ArrayList<>();
        List<String> pendingContexts = new ArrayList<>();
        // code per address space, as the snapshot's dumps name them (a57_single_step's are EL2's): the flow reads
        // the memory of the space each context packet names
        DecodeInput in = new DecodeInput(src.traceId(), registers(p, src, snap), src.image(), src.data(),
                DecodeOptions.DEFAULT, snap.codeMemory(src));
        p.decode(in, new io.armtrace.trace.ElementSink() {
            @Override
            public void accept(TraceElement e) {
                String line = line(e);
                if (e instanceof Context) {
                    pendingContexts.add(line);
                } else if (line != null) {
                    out.addAll(pendingContexts);
                    pendingContexts.clear();
                    out.add(line);
                } else if (e instanceof io.armtrace.trace.Gap) {
                    pendingContexts.clear();
                }
            }

            @Override
            public void end() {
            }
        });
        return out;
    }

    static String line(TraceElement e) {
        if (e instanceof InstructionRange r) {
            return "R 0x" + Long.toHexString(r.start()) + " 0x" + Long.toHexString(r.end()) + " " + r.count() + " "
                    + (r.lastExecuted() ? "E" : "N");
        }
        if (e instanceof ExceptionEntry x) {
            return "X 0x" + Integer.toHexString(x.number()) + " 0x" + Long.toHexString(x.preferredReturn());
        }
        if (e instanceof NoImage n) {
            return "NACC 0x" + Long.toHexString(n.address());
        }
        if (e instanceof Context c) {
            // M-profile: OpenCSD prints the context's level field, which the ETM of an M-profile core uses for
            // Thread mode (0) and Handler mode (3); armtrace gives the mode and no level
            int level = c.mode() == ProcessorMode.THREAD ? 0 : c.mode() == ProcessorMode.HANDLER ? 3 : c.exceptionLevel();
            return "C EL" + level + (c.nonSecure() ? "N" : "S") + (c.aarch64() ? " 64" : " 32");
        }
        return null;
    }

    private static void compare(List<String> problems, String what, List<String> want, List<String> got) {
        if (want.equals(got)) {
            return;
        }
        int i = 0;
        while (i < Math.min(want.size(), got.size()) && want.get(i).equals(got.get(i))) {
            i++;
        }
        StringBuilder sb = new StringBuilder(what + " differs at #" + i + " of " + want.size() + "/" + got.size() + ":");
        for (int k = Math.max(0, i - 3); k < i + 4; k++) {
            sb.append("\n  ").append(k < want.size() ? want.get(k) : "-").append("   |   ")
                    .append(k < got.size() ? got.get(k) : "-");
        }
        problems.add(sb.toString());
    }

    private static final Pattern ELEMENT = Pattern.compile("Idx:(\\d+); ID:([0-9a-f]+); OCSD_GEN_TRC_ELEM_([A-Z_]+)\\((.*)\\)");
    private static final Pattern RANGE = Pattern.compile("exec range=0x([0-9a-f]+):\\[0x([0-9a-f]+)\\] num_i\\((\\d+)\\).*\\(ISA=[^)]*\\) ([EN]) ");
    private static final Pattern EXCEPTION = Pattern.compile("pref ret addr:0x([0-9a-f]+)[^;]*;.*excep num \\(0x([0-9a-f]+)\\)");
    private static final Pattern NACC = Pattern.compile("^ ?0x([0-9a-f]+)");
    private static final Pattern CONTEXT = Pattern.compile("EL(\\d)([NS]); (64|32)-bit");

    /** OpenCSD's decode per trace ID, as the comparison's lines. */
    static Map<Integer, List<String>> readOpenCsd(Path file) throws IOException {
        Map<Integer, List<String>> byId = new HashMap<>();
        Map<Integer, List<String>> pending = new HashMap<>();
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
                int id = Integer.parseInt(m.group(2), 16);
                List<String> d = byId.computeIfAbsent(id, k -> new ArrayList<>());
                List<String> ctx = pending.computeIfAbsent(id, k -> new ArrayList<>());
                String body = m.group(4);
                Matcher b;
                String line = null;
                switch (m.group(3)) {
                    case "INSTR_RANGE" -> {
                        if ((b = RANGE.matcher(body)).find()) {
                            line = "R 0x" + Long.toHexString(Long.parseUnsignedLong(b.group(1), 16)) + " 0x"
                                    + Long.toHexString(Long.parseUnsignedLong(b.group(2), 16)) + " " + b.group(3) + " "
                                    + b.group(4);
                        }
                    }
                    case "EXCEPTION" -> {
                        if ((b = EXCEPTION.matcher(body)).find()) {
                            line = "X 0x" + Integer.toHexString(Integer.parseInt(b.group(2), 16)) + " 0x"
                                    + Long.toHexString(Long.parseUnsignedLong(b.group(1), 16));
                        }
                    }
                    case "ADDR_NACC" -> {
                        if ((b = NACC.matcher(body)).find()) {
                            line = "NACC 0x" + Long.toHexString(Long.parseUnsignedLong(b.group(1), 16));
                        }
                    }
                    case "PE_CONTEXT" -> {
                        if ((b = CONTEXT.matcher(body)).find()) {
                            ctx.add("C EL" + b.group(1) + b.group(2) + " " + b.group(3));
                        }
                    }
                    case "NO_SYNC" -> ctx.clear();
                    default -> {
                    }
                }
                if (line != null) {
                    d.addAll(ctx);
                    ctx.clear();
                    d.add(line);
                }
            }
        }
        return byId;
    }
}
