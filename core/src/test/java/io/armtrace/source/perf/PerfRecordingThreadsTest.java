package io.armtrace.source.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.api.DecodeOptions;
import io.armtrace.api.Decoder;
import io.armtrace.api.TraceSource;
import io.armtrace.cli.Main;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.image.ElfImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.RunningThread;
import io.armtrace.trace.TraceElement;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings in which two processes map different programs at the same address (the corpus' AArch64
 * programs built at -O2 and -O0): each AUX fragment's ETMv4 trace starts at that address in one process.
 * Where the trace unit traces the context ID (the thread ID, as Linux writes CONTEXTIDR), each process's code
 * decodes with its own program, exactly as the same trace decodes with that program alone, and every line
 * carries the pid, tid, cpu and time the recording gives it; where it does not, the thread comes from the
 * ITRACE_START and SWITCH_CPU_WIDE records at the AUX record's time.
 */
class PerfRecordingThreadsTest {
    static final long CID = 1 << 6;

    @TempDir
    Path tmp;

    /** A-sync, Trace Info, Trace On, an address with context (EL0, AArch64, Non-secure; context ID if given), one E atom. */
    static byte[] trace(long address, long contextId) {
        return trace(address, contextId, 0);
    }

    static byte[] trace(long address, long contextId, int el) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 11; i++) {
            out.write(0);
        }
        out.write(0x80);
        out.write(0x01);
        out.write(0x00);
        out.write(0x04);
        out.write(0x85); // address with context, 64-bit, IS0
        out.write((int) (address >>> 2) & 0x7F);
        out.write((int) (address >>> 9) & 0x7F);
        for (int i = 2; i < 8; i++) {
            out.write((int) (address >>> (8 * i)) & 0xFF);
        }
        out.write(el | 0x30 | (contextId >= 0 ? 0x80 : 0)); // EL, SF, NS, C
        if (contextId >= 0) {
            for (int i = 0; i < 4; i++) {
                out.write((int) (contextId >>> (8 * i)) & 0xFF);
            }
        }
        out.write(0xF7); // E
        return out.toByteArray();
    }

    private static Registers registers(long configr) {
        long[] u = PerfDataWriter.etm4(0, configr, 0x10);
        String[] names = {"TRCCONFIGR", "TRCTRACEIDR", "TRCIDR0", "TRCIDR1", "TRCIDR2", "TRCIDR8", "TRCAUTHSTATUS"};
        Registers r = new Registers();
        for (int i = 0; i < names.length; i++) {
            r.put(names[i], u[3 + i]);
        }
        return r;
    }

    /** The ranges of {@code trace} decoded with {@code elf} alone (no recording). */
    private static List<InstructionRange> alone(byte[] trace, Path elf, long configr) throws Exception {
        TraceProtocol p = Protocols.byName("etm4").orElseThrow();
        List<InstructionRange> out = new ArrayList<>();
        p.decode(new DecodeInput(0x10, registers(configr), ElfImage.load(elf), TraceData.of("t", trace),
                io.armtrace.protocol.DecodeOptions.DEFAULT), e -> {
                    if (e instanceof InstructionRange r) {
                        out.add(r);
                    }
                });
        return out;
    }

    private Path[] programs() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path a = bin.resolve("fast");
        Path b = bin.resolve("slow");
        Files.write(a, Corpus.elfBytes("linux-a64"));
        Files.write(b, Corpus.elfBytes("linux-a64-O0"));
        return new Path[] {a, b};
    }

    private static ElfImage.Segment text(Path elf) throws Exception {
        return ElfImage.describe(elf).segments().stream().filter(ElfImage.Segment::isLoad).findFirst().orElseThrow();
    }

    @Test
    void eachProcessDecodesWithItsOwnProgramAndEveryLineSaysWhichThread() throws Exception {
        Path[] elf = programs();
        ElfImage.Segment ta = text(elf[0]);
        ElfImage.Segment tb = text(elf[1]);
        // an address in both programs' code from which their first ranges differ
        long x = -1;
        for (long a = Math.max(ta.vaddr(), tb.vaddr()); a < Math.min(ta.vaddr() + ta.fileSize(), tb.vaddr() + tb.fileSize()); a += 4) {
            List<InstructionRange> ra = alone(trace(a, 100), elf[0], 0x10C1);
            if (!ra.isEmpty() && !ra.equals(alone(trace(a, 200), elf[1], 0x10C1))) {
                x = a;
                break;
            }
        }
        assertThat(x).as("an address where the programs differ").isPositive();
        byte[] first = trace(x, 100);
        byte[] second = trace(x, 201);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(PerfDataWriter.etm4(0, 0x10C1, 0x10)))
                .comm(100, 100, "fast", true, 10, 0)
                .comm(200, 200, "slow", true, 11, 1)
                .fork(200, 200, 201, 200, 12, 1)
                .mmap2(100, 100, ta.vaddr(), (ta.memSize() + 0xFFF) & ~0xFFFL, ta.offset(), 5, "/usr/bin/fast", null, 20, 0)
                .mmap2(200, 200, tb.vaddr(), (tb.memSize() + 0xFFF) & ~0xFFFL, tb.offset(), 5, "/usr/bin/slow", null, 21, 1)
                .aux(0, first.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 100, 100, 3_000_000_030L, 0)
                .auxtrace(0, first, 0, 0, -1, 0)
                .aux(first.length, second.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 201, 201, 3_000_000_040L, 0)
                .auxtrace(first.length, second, 0, 0, -1, 0);
        Path file = tmp.resolve("two.data");
        w.write(file);

        Decoder d = Decoder.openRecording(file, List.of(elf[0].getParent()), DecodeOptions.builder().build());
        TraceSource src = d.sources().get(0);
        RunningThread thread = src.runningThread();
        List<InstructionRange> ranges = new ArrayList<>();
        List<long[]> columns = new ArrayList<>();
        int[] breaks = {0};
        src.decode(thread.feed(e -> {
            if (e instanceof Gap g && g.reason().startsWith("trace break")) {
                breaks[0]++;
            }
            if (e instanceof InstructionRange r) {
                ranges.add(r);
                columns.add(new long[] {thread.pid(), thread.tid(), thread.cpu(), thread.time(), breaks[0]});
            }
        }));
        List<InstructionRange> expected = new ArrayList<>(alone(first, elf[0], 0x10C1));
        int fromFirst = expected.size();
        expected.addAll(alone(second, elf[1], 0x10C1));
        assertThat(ranges).isEqualTo(expected);
        for (int i = 0; i < columns.size(); i++) {
            assertThat(columns.get(i)).containsExactly(i < fromFirst
                    ? new long[] {100, 100, 0, 3_000_000_030L, 0} : new long[] {200, 201, 0, 3_000_000_040L, 1});
        }

        // the command line: text columns and JSONL fields
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"decode", file.toString(), "--symdir", elf[0].getParent().toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines.get(0)).isEqualTo("    pid     tid cpu             time");
        assertThat(lines.stream().filter(l -> l.contains(" insn A64 ") || l.contains("range")).count()).isPositive();
        assertThat(lines).anyMatch(l -> l.startsWith("    100     100   0      3.000000030  "))
                .anyMatch(l -> l.startsWith("    200     201   0      3.000000040  "));
        out = new StringWriter();
        code = Main.run(new String[] {"decode", file.toString(), "--symdir", elf[0].getParent().toString(), "--format", "jsonl"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        List<String> insns = out.toString().lines().filter(l -> l.startsWith("{\"type\":\"insn\"")).toList();
        assertThat(insns).isNotEmpty();
        assertThat(insns.get(0)).endsWith(",\"pid\":100,\"tid\":100,\"cpu\":0,\"time\":3000000030}");
        assertThat(insns.get(insns.size() - 1)).endsWith(",\"pid\":200,\"tid\":201,\"cpu\":0,\"time\":3000000040}");

        // AutoFDO per binary: each program's section counts its own process's code only, as the same trace
        // profiled with that program alone (the two programs lie at the same addresses)
        for (int k = 0; k < 2; k++) {
            Path afdo = tmp.resolve("p" + k + ".afdo");
            code = Main.run(new String[] {"autofdo", file.toString(), "--symdir", elf[0].getParent().toString(), "--binary",
                k == 0 ? "fast" : "slow", "-o", afdo.toString()}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            assertThat(code).as(err.toString()).isZero();
            List<String> counts = Files.readAllLines(afdo).stream().filter(l -> !l.startsWith("//")).toList();
            assertThat(counts).as("binary %d", k).isEqualTo(aloneProfile(k == 0 ? first : second, elf[k], 0x10C1))
                    .isNotEqualTo(aloneProfile(k == 0 ? second : first, elf[1 - k], 0x10C1));
        }
    }

    /** The AutoFDO counts (without the comment lines) of {@code trace} decoded with {@code elf} alone. */
    private static List<String> aloneProfile(byte[] trace, Path elf, long configr) throws Exception {
        TraceProtocol p = Protocols.byName("etm4").orElseThrow();
        io.armtrace.image.ProgramImage image = ElfImage.load(elf);
        io.armtrace.view.AutoFdoProfile profile = new io.armtrace.view.AutoFdoProfile();
        io.armtrace.trace.ElementSink sink = profile.stream(image.memory());
        p.decode(new DecodeInput(0x10, registers(configr), image, TraceData.of("t", trace), io.armtrace.protocol.DecodeOptions.DEFAULT),
                sink);
        sink.end();
        StringWriter w = new StringWriter();
        PrintWriter pw = new PrintWriter(w);
        profile.write(pw);
        pw.flush();
        return w.toString().lines().filter(l -> !l.startsWith("//")).toList();
    }

    /**
     * The kernel: --vmlinux's code placed where the kernel mapping says it ran (moved by the difference between
     * the mapping's start and the file's symbol it is named after, as address space layout randomisation moves
     * the kernel), --kallsyms naming its addresses; without --vmlinux, one warning naming the flag.
     */
    @Test
    void theKernelImageIsMovedToWhereTheKernelRanAndKallsymsNamesIt() throws Exception {
        Path[] elf = programs();
        Path vmlinux = elf[0];
        io.armtrace.image.Symbol start = ElfImage.load(vmlinux).symbols().find("_start");
        assertThat(start).isNotNull();
        long shift = 0x7f5a_0000_0000L;
        long x = start.address();
        byte[] t = trace(x + shift, 0, 1);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(PerfDataWriter.etm4(0, 0x10C1, 0x10)))
                .mmap(-1, 0, x + shift, 0x100000, x + shift, "[kernel.kallsyms]_start", 0, 0)
                .aux(0, t.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, -1, 0, 30, 0)
                .auxtrace(0, t, 0, 0, -1, 0);
        Path file = tmp.resolve("kernel.data");
        w.write(file);
        Path kallsyms = tmp.resolve("kallsyms");
        Files.writeString(kallsyms, String.format("%016x T _text%n%016x t kernel_entry_point%n%016x D some_data%n",
                x + shift - 0x1000, x + shift, x + shift + 0x800));

        List<InstructionRange> expected = alone(trace(x, 0, 1), vmlinux, 0x10C1);
        assertThat(expected).isNotEmpty();
        Decoder d = Decoder.openRecording(file, List.of(), vmlinux, kallsyms, DecodeOptions.builder().build());
        List<InstructionRange> got = new ArrayList<>();
        d.decode(e -> {
            if (e instanceof InstructionRange r) {
                got.add(r);
            }
        });
        assertThat(got).hasSameSizeAs(expected);
        for (int i = 0; i < got.size(); i++) {
            InstructionRange g = got.get(i);
            InstructionRange e = expected.get(i);
            assertThat(new long[] {g.start() - shift, g.end() - shift, g.count()}).containsExactly(e.start(), e.end(), e.count());
            assertThat(g.lastKind()).isEqualTo(e.lastKind());
        }
        assertThat(d.sources().get(0).image().symbols().nameFor(x + shift).name()).isEqualTo("kernel_entry_point");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"decode", file.toString(), "--vmlinux", vmlinux.toString(), "--kallsyms", kallsyms.toString()},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).contains("<kernel_entry_point>");

        // without --vmlinux: said once, with the flag that supplies it; the kernel's code gives no_image elements
        out = new StringWriter();
        err = new StringWriter();
        code = Main.run(new String[] {"decode", file.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString().lines().toList()).containsExactly("armtrace: warning: " + file
                + ": the kernel's code ([kernel.kallsyms]_start) was not given (give --vmlinux FILE, the kernel's ELF file);"
                + " its code gives no_image elements.");
        assertThat(out.toString()).contains("no image at");

        // a kallsyms copied without permission lists every address as 0: one sentence, exit 2
        Files.writeString(kallsyms, "0000000000000000 T _text\n0000000000000000 t kernel_entry_point\n");
        out = new StringWriter();
        err = new StringWriter();
        code = Main.run(new String[] {"decode", file.toString(), "--kallsyms", kallsyms.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly("armtrace: " + kallsyms + ": lists every symbol at address 0, as the"
                + " kernel shows /proc/kallsyms to users without permission; copy it as root (or with kernel.kptr_restrict=0).");
    }

    /**
     * A trace unit that timestamps with the architectural counter (TS_SOURCE 1): the time of what follows a
     * timestamp is the counter value in perf's clock by TIME_CONV (perf's tsc_to_perf_time: with shift 1,
     * multiplier 3 and zero 500, counter 1000 is 500 + (1000 >> 1) * 3 = 2000); before it, the AUX record's time.
     */
    @Test
    void traceTimestampsBecomeTheRecordingsTimeThroughTimeConv() throws Exception {
        Path[] elf = programs();
        ElfImage.Segment ta = text(elf[0]);
        byte[] plain = trace(ta.vaddr() + 0x40, 100);
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        t.write(plain, 0, 15); // A-sync, Trace Info, Trace On
        t.write(0x02); // timestamp 1000: 7 bits a byte, low first
        t.write(0xE8);
        t.write(0x07);
        t.write(plain, 15, plain.length - 15);
        byte[] trace = t.toByteArray();
        long configr = 0x10C1 | 1 << 11; // TS
        long[] u = PerfDataWriter.etm4(0, configr, 0x10);
        long[] unit = java.util.Arrays.copyOf(u, u.length + 1);
        unit[2] = 8;
        unit[unit.length - 1] = 1; // TS_SOURCE: the architectural counter
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(unit))
                .timeConv(1, 3, 500)
                .comm(100, 100, "fast", true, 10, 0)
                .mmap2(100, 100, ta.vaddr(), (ta.memSize() + 0xFFF) & ~0xFFFL, ta.offset(), 5, "/usr/bin/fast", null, 1, 0)
                .aux(0, trace.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 100, 100, 9000, 0)
                .auxtrace(0, trace, 0, 0, -1, 0);
        Path file = tmp.resolve("timestamps.data");
        w.write(file);
        Decoder d = Decoder.openRecording(file, List.of(elf[0].getParent()), DecodeOptions.builder().build());
        TraceSource src = d.sources().get(0);
        RunningThread thread = src.runningThread();
        List<String> seen = new ArrayList<>();
        src.decode(thread.feed(e -> seen.add(e.getClass().getSimpleName() + " " + thread.tid() + " at " + thread.time())));
        // (the thread is unknown until the context ID comes: no ITRACE_START or SWITCH record names one)
        assertThat(seen).containsSubsequence("TraceOn -1 at 9000", "Timestamp -1 at 2000", "Context 100 at 2000",
                "InstructionRange 100 at 2000");
    }

    @Test
    void withoutContextIdsTheSwitchRecordsSayWhichThreadRan() throws Exception {
        Path[] elf = programs();
        ElfImage.Segment ta = text(elf[0]);
        byte[] t = trace(ta.vaddr() + 0x40, -1);
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(PerfDataWriter.etm4(2, 0x1081, 0x10)))
                .comm(100, 100, "fast", true, 10, 2)
                .comm(300, 300, "other", true, 11, 2)
                .mmap2(100, 100, ta.vaddr(), (ta.memSize() + 0xFFF) & ~0xFFFL, ta.offset(), 5, "/usr/bin/fast", null, 1, 2)
                .itraceStart(100, 100, 5, 2)
                .aux(0, t.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 100, 100, 30, 2)
                .auxtrace(0, t, 0, 2, -1, 2)
                .switchCpuWide(true, 100, 100, 300, 302, 35, 2)
                .aux(t.length, t.length, PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, 300, 302, 40, 2)
                .auxtrace(t.length, t, 0, 2, -1, 2);
        Path file = tmp.resolve("switches.data");
        w.write(file);
        Decoder d = Decoder.openRecording(file, List.of(elf[0].getParent()), DecodeOptions.builder().build());
        TraceSource src = d.sources().get(0);
        RunningThread thread = src.runningThread();
        List<String> seen = new ArrayList<>();
        src.decode(thread.feed(e -> {
            if (e instanceof InstructionRange) {
                seen.add(thread.pid() + "/" + thread.tid() + " cpu " + thread.cpu() + " at " + thread.time());
            }
        }));
        List<InstructionRange> one = alone(t, elf[0], 0x1081);
        assertThat(one).isNotEmpty();
        List<String> expected = new ArrayList<>();
        one.forEach(r -> expected.add("100/100 cpu 2 at 30"));
        one.forEach(r -> expected.add("300/302 cpu 2 at 40"));
        assertThat(seen).isEqualTo(expected);
    }
}
