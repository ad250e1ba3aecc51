package io.armtrace.groundtruth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.execution.ExecutionFormat;
import io.armtrace.execution.QemuPluginLog;
import io.armtrace.isa.Profile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Imports excerpts of real QEMU 7.2 logs (-d plugin,int,exec,cpu,nochain -singlestep, see
 * tools/groundtruth/generate.sh) and compares with events worked out by hand from the PSR values in
 * the excerpts and the programs' disassembly (arm-none-eabi-objdump -d).
 */
class QemuPluginLogTest {

    private static byte[] excerpt(String name) throws IOException {
        try (InputStream in = QemuPluginLogTest.class.getResourceAsStream("/groundtruth/excerpts/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    private static List<ExecutionEvent> importExcerpt(String name, Profile profile, boolean withCpuLog) throws IOException {
        byte[] log = excerpt(name);
        List<ExecutionEvent> out = new ArrayList<>();
        QemuPluginLog.Stats stats = QemuPluginLog.importLog(new ByteArrayInputStream(log), profile, null,
                withCpuLog ? new ByteArrayInputStream(log) : null, out::add);
        if (withCpuLog) {
            assertThat(stats.cpuUnmatched).as("instructions without a register record").isZero();
        }
        return out;
    }

    /** Events in the record format: the expectations below are written in it, by hand. */
    private static List<ExecutionEvent> events(String profile, String... lines) throws IOException {
        String text = "armtrace-execution 1 profile=" + profile + "\n" + String.join("\n", lines) + "\n";
        try (ExecutionFormat.Reader r = ExecutionFormat.reader(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)))) {
            return r.readAll().events();
        }
    }

    private static ExecutionEvent.Step step(List<ExecutionEvent> events, long address, int occurrence) {
        int seen = 0;
        for (ExecutionEvent e : events) {
            if (e instanceof ExecutionEvent.Step s && s.address() == address && seen++ == occurrence) {
                return s;
            }
        }
        throw new AssertionError("no occurrence " + occurrence + " of " + Long.toHexString(address));
    }

    /**
     * Cortex-M3, gcd() at 0x2784: {@code cmp r0, r1; ite gt; subgt r0, r0, r1; suble r1, r1, r0;
     * cmp; bne}. XPSR 0x2100cc00 before 0x278c: C set, IT = 0xCC (GT, two left): GT passes;
     * 0x2100d800 before 0x278e: IT = 0xD8 (LE): fails. With N set (0x8100cc00) it is the other way
     * round. A SysTick comes after the taken {@code bne} at 0x2792 (so the preferred return is its
     * target 0x2788); in the handler {@code bne.n} at 0x92 fails (XPSR 0x6100000f, Z set: the tick
     * count is a multiple of 4), so the handler pends PendSV, which tail-chains to SysTick's
     * {@code bx lr}: no return between the two, one return at the end.
     */
    @Test
    void cortexM3SysTickTailChainAndItBlocks() throws IOException {
        List<ExecutionEvent> expected = events("M",
                "I 00002790 T32 2 E", "I 00002792 T32 2 E",
                "I 00002788 T32 2 E", "I 0000278a T32 2 E", "I 0000278c T32 2 E", "I 0000278e T32 2 N",
                "I 00002790 T32 2 E", "I 00002792 T32 2 E",
                "X 15 00002788 00000088",
                "I 00000088 T32 2 E", "I 0000008a T32 2 E", "I 0000008c T32 2 E", "I 0000008e T32 2 E",
                "I 00000090 T32 2 E", "I 00000092 T32 2 N", "I 00000094 T32 4 E", "I 00000098 T32 4 E",
                "I 0000009c T32 4 E", "I 000000a0 T32 2 E",
                "X 14 00002788 000000a8",
                "I 000000a8 T32 2 E", "I 000000aa T32 2 E", "I 000000ac T32 2 E", "I 000000ae T32 2 E",
                "I 000000b0 T32 2 E",
                "R 00002788",
                "I 00002788 T32 2 E", "I 0000278a T32 2 E", "I 0000278c T32 2 E", "I 0000278e T32 2 N",
                "I 00002790 T32 2 E", "I 00002792 T32 2 E",
                "I 00002788 T32 2 E", "I 0000278a T32 2 E", "I 0000278c T32 2 E", "I 0000278e T32 2 N",
                "I 00002790 T32 2 E", "I 00002792 T32 2 E",
                "I 00002788 T32 2 E", "I 0000278a T32 2 E", "I 0000278c T32 2 N", "I 0000278e T32 2 E",
                "I 00002790 T32 2 E", "I 00002792 T32 2 E",
                "I 00002788 T32 2 E", "I 0000278a T32 2 E", "I 0000278c T32 2 N");
        assertThat(importExcerpt("m3-systick-it.log", Profile.M, true)).containsExactlyElementsOf(expected);
    }

    /**
     * Cortex-A9, Thumb gcd() as above, interrupted by the private timer IRQ: vector 0x18 (A32), the
     * handler calls the Thumb irq_tick() with {@code blx} (0xfa000017) and returns with
     * {@code subs pc, lr, #4} to the Thumb {@code bne} at 0x6001273e that had not executed yet.
     */
    @Test
    void cortexA9IrqWithInterworkingHandler() throws IOException {
        List<ExecutionEvent> expected = events("AR",
                "I 6001273e T32 2 E", "I 60012734 T32 2 E", "I 60012736 T32 2 E",
                "I 60012738 T32 2 E", "I 6001273a T32 2 N", "I 6001273c T32 2 E",
                "X 6 6001273e 60010018",
                "I 60010018 A32 4 E", "I 6001007c A32 4 E", "I 60010080 A32 4 E",
                "I 600100e4 T32 4 E", "I 600100e8 T32 4 E", "I 600100ec T32 4 E", "I 600100f0 T32 2 E",
                "I 600100f2 T32 4 E", "I 600100f6 T32 4 E", "I 600100fa T32 2 E", "I 600100fc T32 2 E",
                "I 600100fe T32 2 E", "I 60010100 T32 4 E", "I 60010104 T32 2 E",
                "I 60010084 A32 4 E", "I 60010088 A32 4 E",
                "R 6001273e",
                "I 6001273e T32 2 E");
        assertThat(importExcerpt("a9-thumb-irq-it.log", Profile.AR, true)).containsExactlyElementsOf(expected);
    }

    /**
     * ARM926, main(): {@code svc 0x1} at 0x21c enters the vector at 0x8 in SVC mode; the handler
     * returns with {@code ldm sp!, {r0-r3, r12, pc}^} (0xe8fd900f) to 0x220.
     */
    @Test
    void arm926SvcReturningByLdmWithCaret() throws IOException {
        List<ExecutionEvent> expected = events("AR",
                "I 00003228 A32 4 E", "I 0000322c A32 4 E", "I 00003230 A32 4 E", "I 00000218 A32 4 E",
                "I 0000021c A32 4 E",
                "X 2 00000220 00000008",
                "I 00000008 A32 4 E", "I 0000013c A32 4 E", "I 00000140 A32 4 E", "I 00000144 A32 4 E",
                "I 00000148 A32 4 E", "I 000001e8 A32 4 E", "I 000001ec A32 4 E", "I 000001f0 A32 4 E",
                "I 000001f4 A32 4 E", "I 000001f8 A32 4 E", "I 000001fc A32 4 E", "I 0000014c A32 4 E",
                "R 00000220",
                "I 00000220 A32 4 E", "I 00000224 A32 4 E");
        assertThat(importExcerpt("arm926-arm-svc.log", Profile.AR, true)).containsExactlyElementsOf(expected);
        // the plugin log alone gives the same events here: nothing in it is conditional
        assertThat(importExcerpt("arm926-arm-svc.log", Profile.AR, false)).containsExactlyElementsOf(expected);
    }

    /**
     * ARM926, ARM gcd(): {@code cmp; bxeq lr; cmp; subgt; suble; cmp; bne}. CPSR 0x2000015f (C only):
     * bxeq fails, subgt passes, suble fails, bne passes. In the last round CPSR 0x8000015f (N): subgt
     * fails, suble passes; then 0x6000015f (Z, C): bne fails and bx lr ends the function.
     */
    @Test
    void arm926ConditionalExecution() throws IOException {
        List<ExecutionEvent> got = importExcerpt("arm926-arm-gcd.log", Profile.AR, true);
        List<String> lines = new ArrayList<>(List.of("I 00002e34 A32 4 E", "I 00002e38 A32 4 N"));
        for (int i = 0; i < 11; i++) {
            lines.addAll(List.of("I 00002e3c A32 4 E", "I 00002e40 A32 4 E", "I 00002e44 A32 4 N",
                    "I 00002e48 A32 4 E", "I 00002e4c A32 4 E"));
        }
        lines.addAll(List.of("I 00002e3c A32 4 E", "I 00002e40 A32 4 N", "I 00002e44 A32 4 E",
                "I 00002e48 A32 4 E", "I 00002e4c A32 4 N", "I 00002e50 A32 4 E"));
        assertThat(got).containsExactlyElementsOf(events("AR", lines.toArray(String[]::new)));
    }

    /**
     * Without the register log, a conditional branch is judged by where execution went next (the
     * failed {@code bxeq lr} and the final {@code bne}), other conditional instructions count as
     * executed, and the ISA comes from size and alignment.
     */
    @Test
    void withoutRegisterLogOnlyBranchesAreJudged() throws IOException {
        List<ExecutionEvent> got = importExcerpt("arm926-arm-gcd.log", Profile.AR, false);
        assertThat(step(got, 0x2e38, 0).executed()).isFalse();
        assertThat(step(got, 0x2e4c, 0).executed()).isTrue();
        assertThat(step(got, 0x2e4c, 11).executed()).isFalse();
        assertThat(step(got, 0x2e44, 0).executed()).isTrue(); // really failed: needs the register log
        assertThat(step(got, 0x2e3c, 0).isa()).isEqualTo(io.armtrace.trace.Isa.A32);

        List<ExecutionEvent> m3 = importExcerpt("m3-systick-it.log", Profile.M, false);
        assertThat(m3).contains(new ExecutionEvent.ExceptionTaken(15, 0x2788, 0x88),
                new ExecutionEvent.ExceptionTaken(14, 0x2788, 0xa8), new ExecutionEvent.ExceptionReturned(0x2788));
        // without registers the failed bne.n at 0x92 still shows: the next instruction is 0x94
        assertThat(m3.stream().filter(e -> e instanceof ExecutionEvent.Step s && !s.executed()))
                .containsExactly(new ExecutionEvent.Step(0x92, io.armtrace.trace.Isa.T32, 2, false));
    }

    /**
     * The register log may be a file of its own (a second run of the same program): split an
     * excerpt into its plugin lines and its register lines, and the import is the same.
     */
    @Test
    void registerLogInAFileOfItsOwn() throws IOException {
        for (String name : List.of("a9-thumb-irq-it.log", "m3-systick-it.log", "arm926-arm-gcd.log")) {
            Profile profile = name.startsWith("m3") ? Profile.M : Profile.AR;
            StringBuilder plugin = new StringBuilder();
            StringBuilder cpu = new StringBuilder();
            for (String line : new String(excerpt(name), StandardCharsets.ISO_8859_1).split("\n")) {
                boolean registers = line.startsWith("Trace ") || line.startsWith("R0") || line.startsWith("R1")
                        || line.startsWith("PSR=") || line.startsWith("XPSR=");
                (registers ? cpu : plugin).append(line).append('\n');
            }
            List<ExecutionEvent> split = new ArrayList<>();
            QemuPluginLog.Stats stats = QemuPluginLog.importLog(
                    new ByteArrayInputStream(plugin.toString().getBytes(StandardCharsets.ISO_8859_1)), profile, null,
                    new ByteArrayInputStream(cpu.toString().getBytes(StandardCharsets.ISO_8859_1)), split::add);
            assertThat(stats.cpuUnmatched).isZero();
            assertThat(split).as(name).containsExactlyElementsOf(importExcerpt(name, profile, true));
        }
    }

    /** A register log from another run, which lacks an interrupt: only the handler goes unmatched. */
    @Test
    void registerLogOfADifferentRunResynchronises() throws IOException {
        String log = new String(excerpt("a9-thumb-irq-it.log"), StandardCharsets.ISO_8859_1);
        StringBuilder cpu = new StringBuilder();
        boolean inHandler = false;
        for (String line : log.split("\n")) {
            if (line.startsWith("Trace ")) {
                inHandler = line.contains("/600100") || line.contains("/600101"); // vectors and handlers
            }
            if (!inHandler && (line.startsWith("Trace ") || line.startsWith("PSR="))) {
                cpu.append(line).append('\n');
            }
        }
        List<ExecutionEvent> got = new ArrayList<>();
        QemuPluginLog.Stats stats = QemuPluginLog.importLog(new ByteArrayInputStream(excerpt("a9-thumb-irq-it.log")),
                Profile.AR, null, new ByteArrayInputStream(cpu.toString().getBytes(StandardCharsets.ISO_8859_1)), got::add);
        assertThat(stats.cpuUnmatched).isEqualTo(16); // the handler's instructions
        // the interrupted code still gets its flags: suble at 0x6001273a failed, the bne after the return passed
        assertThat(step(got, 0x6001273aL, 0).executed()).isFalse();
        assertThat(step(got, 0x6001273eL, 1).executed()).isTrue();
    }

    /** QEMU 7.2 can log a 16-bit Thumb instruction before a 1 KiB boundary with the next bytes too. */
    @Test
    void sizeComesFromTheFirstHalfword() throws IOException {
        String log = "I 000003fa 6 00ebd30083ea\nI 000003fc 4 d30083ea\nI 00000400 4 83ea0000\n";
        List<ExecutionEvent> out = new ArrayList<>();
        QemuPluginLog.importLog(new ByteArrayInputStream(log.getBytes(StandardCharsets.US_ASCII)), Profile.M, null, null, out::add);
        // 0xeb00: bits 15:11 = 0b11101, a 32-bit encoding; 0x00d3: 16-bit; 0xea83: 32-bit
        assertThat(out).containsExactly(
                new ExecutionEvent.Step(0x3fa, io.armtrace.trace.Isa.T32, 4, true),
                new ExecutionEvent.Step(0x3fc, io.armtrace.trace.Isa.T32, 2, true),
                new ExecutionEvent.Step(0x400, io.armtrace.trace.Isa.T32, 4, true));
    }

    /**
     * A Thumb-1 BL pair (0xf000 0xf9a0) whose halves QEMU logged separately, as it does where the
     * pair straddles a 1 KiB page on an ARMv5 core: one 32-bit instruction in the record.
     */
    @Test
    void thumbBlHalvesLoggedApartBecomeOneInstruction() throws IOException {
        String log = "I 000003fe 2 00f0\nI 00000400 2 a0f9\nI 00000742 2 7047\n";
        List<ExecutionEvent> out = new ArrayList<>();
        QemuPluginLog.Stats stats = QemuPluginLog.importLog(new ByteArrayInputStream(log.getBytes(StandardCharsets.US_ASCII)),
                Profile.AR, null, null, out::add);
        assertThat(out).containsExactly(
                new ExecutionEvent.Step(0x3fe, io.armtrace.trace.Isa.T32, 4, true),
                new ExecutionEvent.Step(0x742, io.armtrace.trace.Isa.T32, 2, true));
        assertThat(stats.mergedHalves).isEqualTo(1);
    }

    private static List<ExecutionEvent> importText(Profile profile, String... lines) throws IOException {
        List<ExecutionEvent> out = new ArrayList<>();
        String log = String.join("\n", lines) + "\n";
        QemuPluginLog.importLog(new ByteArrayInputStream(log.getBytes(StandardCharsets.US_ASCII)), profile, null, null, out::add);
        return out;
    }

    /**
     * An IRQ taken right after the return from another (lines as QEMU 7.2 writes them): the first
     * exception returned to where the second one returns, and both say so.
     */
    @Test
    void irqRightAfterAnExceptionReturn() throws IOException {
        List<ExecutionEvent> got = importText(Profile.AR,
                "I 00001000 4 0000a0e1",
                "Taking exception 5 [IRQ] on CPU 0",
                "I 00000018 4 170000ea",
                "I 00000070 4 04f05ee2",
                "Exception return from AArch32 irq to sys PC 0x1004",
                "Taking exception 5 [IRQ] on CPU 0",
                "I 00000018 4 170000ea",
                "I 00000070 4 04f05ee2",
                "Exception return from AArch32 irq to sys PC 0x1004",
                "I 00001004 4 0000a0e1");
        assertThat(got).containsExactlyElementsOf(events("AR",
                "I 00001000 A32 4 E", "X 6 00001004 00000018", "I 00000018 A32 4 E", "I 00000070 A32 4 E",
                "R 00001004", "X 6 00001004 00000018", "I 00000018 A32 4 E", "I 00000070 A32 4 E",
                "R 00001004", "I 00001004 A32 4 E"));
    }

    /**
     * An undefined instruction (udf #0, 0xe7f000f0) whose handler returns past it with
     * {@code movs pc, lr}: the preferred return is the undefined instruction itself (ARM DDI 0406C
     * B1.9.6), the return resumes after it.
     */
    @Test
    void undefinedInstructionReturnsPastItself() throws IOException {
        List<ExecutionEvent> got = importText(Profile.AR,
                "I 00001000 4 f000f0e7",
                "Taking exception 1 [Undefined Instruction] on CPU 0",
                "...from EL1 to EL1",
                "I 00000004 4 0ef0b0e1",
                "Exception return from AArch32 und to sys PC 0x1004",
                "I 00001004 4 0000a0e1");
        assertThat(got).containsExactlyElementsOf(events("AR",
                "I 00001000 A32 4 E", "X 1 00001000 00000004", "I 00000004 A32 4 E", "R 00001004",
                "I 00001004 A32 4 E"));
    }

    /**
     * M profile tail-chaining, as QEMU 7.2 logs it (no "Taking exception" line): SysTick's return goes
     * straight into the pending PendSV, and there is no R between.
     */
    @Test
    void tailChainedExceptionHasNoReturnBetween() throws IOException {
        List<ExecutionEvent> got = importText(Profile.M,
                "I 00000100 2 00bf",
                "Taking exception 5 [IRQ] on CPU 0",
                "...taking pending nonsecure exception 15",
                "...loaded new PC 0x85",
                "I 00000084 2 7047",
                "Taking exception 8 [QEMU v7M exception exit] on CPU 0",
                "Exception return: magic PC fffffff9 previous exception 15",
                "...tailchaining to pending exception",
                "...taking pending nonsecure exception 14",
                "...loading from element 14 of non-secure vector table at 0x38",
                "...loaded new PC 0x91",
                "I 00000090 2 7047",
                "Taking exception 8 [QEMU v7M exception exit] on CPU 0",
                "Exception return: magic PC fffffff9 previous exception 14",
                "...successful exception return",
                "I 00000102 2 00bf");
        assertThat(got).containsExactlyElementsOf(events("M",
                "I 00000100 T32 2 E", "X 15 00000102 00000084", "I 00000084 T32 2 E",
                "X 14 00000102 00000090", "I 00000090 T32 2 E", "R 00000102", "I 00000102 T32 2 E"));
    }

    /** Imports an excerpt with its own register log under {@code header}; returns the events and the counts. */
    private static QemuPluginLog.Stats importExcerpt(String name, ExecutionFormat.Header header, List<ExecutionEvent> out)
            throws IOException {
        byte[] log = excerpt(name);
        QemuPluginLog.Stats stats = QemuPluginLog.importLog(new ByteArrayInputStream(log), header, null,
                new ByteArrayInputStream(log), out::add);
        assertThat(stats.cpuUnmatched).as("instructions without a register record").isZero();
        return stats;
    }

    /** {@code count} consecutive executed A64 instructions from {@code start}, as record lines. */
    private static String[] a64Run(long start, int count) {
        String[] lines = new String[count];
        for (int i = 0; i < count; i++) {
            lines[i] = "I " + Long.toHexString(start + 4L * i) + " A64 4 E";
        }
        return lines;
    }

    private static String[] concat(Object... parts) {
        List<String> all = new ArrayList<>();
        for (Object p : parts) {
            if (p instanceof String[] a) {
                all.addAll(List.of(a));
            } else {
                all.add((String) p);
            }
        }
        return all.toArray(new String[0]);
    }

    private static final ExecutionFormat.Header USER_A64 = new ExecutionFormat.Header(Profile.AR, "cortex-a57", 0,
            ExecutionFormat.Security.NON_SECURE);

    /**
     * qemu-aarch64, classify(4) of linux-a64 at 0x400854 (aarch64-linux-gnu-objdump -d): the
     * {@code b.eq} at 0x400860 fails (PSTATE 0x20000000 before it: Z clear), {@code tbnz w1, #2}
     * at 0x400864 goes to 0x40088c (w1 = 4: no condition code, so E), the {@code b.eq} at 0x400894
     * and 0x4008a0 fail (PSTATE 0x80000000), {@code csel w0, w1, w0, eq} at 0x4008b0 executes
     * (as every A64 instruction but B.cond does), {@code ret}.
     */
    @Test
    void aarch64UserModeBcondFailsOnItsFlagsAndNothingElseFails() throws IOException {
        String[] expected = {
            "I 400854 A64 4 E", "I 400858 A64 4 E", "I 40085c A64 4 E", "I 400860 A64 4 N",
            "I 400864 A64 4 E", "I 40088c A64 4 E", "I 400890 A64 4 E", "I 400894 A64 4 N",
            "I 400898 A64 4 E", "I 40089c A64 4 E", "I 4008a0 A64 4 N", "I 4008a4 A64 4 E",
            "I 4008a8 A64 4 E", "I 4008ac A64 4 E", "I 4008b0 A64 4 E", "I 4008b4 A64 4 E"};
        List<ExecutionEvent> got = new ArrayList<>();
        QemuPluginLog.Stats stats = importExcerpt("linux-a64-classify.log", USER_A64, got);
        assertThat(got).containsExactlyElementsOf(events("AR", expected));
        assertThat(stats.isaFromCpu).isEqualTo(16);
        assertThat(stats.elMismatches).isZero();
        // without the register log the ISA comes from the ELF's $x mapping symbol and each B.cond is
        // judged by the next address: here the same
        io.armtrace.image.ProgramImage symbolsOnly = new io.armtrace.image.ProgramImage(new io.armtrace.image.MemoryImage(),
                io.armtrace.image.SymbolTable.of(List.of(), List.of(new long[] {0x400000, io.armtrace.image.SymbolTable.MAP_A64})));
        List<ExecutionEvent> plain = new ArrayList<>();
        QemuPluginLog.Stats fromSymbols = QemuPluginLog.importLog(new ByteArrayInputStream(excerpt("linux-a64-classify.log")),
                USER_A64, symbolsOnly, null, plain::add);
        assertThat(plain).isEqualTo(got);
        assertThat(fromSymbols.isaFromSymbols).isEqualTo(16);
        // the register log says EL0: a record claiming EL1 is contradicted at every instruction
        QemuPluginLog.Stats wrong = importExcerpt("linux-a64-classify.log",
                new ExecutionFormat.Header(Profile.AR, "cortex-a57", 1, null), new ArrayList<>());
        assertThat(wrong.elMismatches).isEqualTo(16);
        assertThat(wrong.consistent(true)).isFalse();
    }

    private static final ExecutionFormat.Header A53_EL0 = new ExecutionFormat.Header(Profile.AR, "cortex-a53", 0,
            ExecutionFormat.Security.NON_SECURE);

    /**
     * qemu-system-aarch64, a53-el1: {@code svc #1} at EL0 (0x40200020). QEMU logs ESR 0x15/0x56000001
     * (EC 0x15, SVC from AArch64), ELR 0x40200024 and the target EL1, PC 0xffffff8040005400: vector
     * offset 0x400 (synchronous from a lower EL in AArch64), number 8. In sync_handler
     * {@code b.eq} at ...586c passes (PSTATE 0x600003c5: Z set), {@code b.eq} at ...5898 fails
     * (0x800003c5), {@code cbnz w0} at ...58b0 goes to ...58c0; the ERET at ...57b8 and QEMU's
     * "Exception return from AArch64 EL1 to AArch64 EL0 PC 0x40200024" give the R.
     */
    @Test
    void aarch64SvcFromEl0ToAnUpperHalfKernelAndBack() throws IOException {
        long k = 0xffffff8040000000L;
        String[] expected = concat("I 40203378 A64 4 E", "I 4020001c A64 4 E", "I 40200020 A64 4 E",
                "X 8 40200024 ffffff8040005400 el=1 ec=0x15",
                a64Run(k + 0x5400, 14), a64Run(k + 0x5860, 4), "I ffffff8040005890 A64 4 E",
                "I ffffff8040005894 A64 4 E", "I ffffff8040005898 A64 4 N", a64Run(k + 0x589c, 6),
                "I ffffff80400058c0 A64 4 E", "I ffffff8040005438 A64 4 E", a64Run(k + 0x5788, 13),
                "R 40200024 el=0", "I 40200024 A64 4 E", "I 40200028 A64 4 E");
        List<ExecutionEvent> got = new ArrayList<>();
        QemuPluginLog.Stats stats = importExcerpt("a53-el0-svc.log", A53_EL0, got);
        assertThat(got).containsExactlyElementsOf(events("AR", expected));
        assertThat(stats.elMismatches).isZero();
        assertThat(stats.resumeMismatches).isZero();
        assertThat(stats.exceptions).isEqualTo(1);
        assertThat(stats.returns).isEqualTo(1);
    }

    /**
     * a53-el1: the timer's IRQ at EL0 comes right after {@code blr x22} at 0x402000ec (QEMU stopped
     * the block at its target, cmp_desc at 0x40200050, before it ran: "Stopped execution of TB
     * chain"), so the preferred return (ELR) is that target. Vector offset 0x480 (IRQ from a lower
     * EL in AArch64): number 9; no exception class for an interrupt. In irq_handler {@code b.ne} at
     * ...5820 fails (PSTATE 0x600003c5: the timer's INTID 27 was read).
     */
    @Test
    void aarch64IrqAfterATakenBranchReturnsToItsTarget() throws IOException {
        long k = 0xffffff8040000000L;
        String[] expected = concat("I 402000e8 A64 4 E", "I 402000ec A64 4 E",
                "X 9 40200050 ffffff8040005480 el=1",
                a64Run(k + 0x5480, 14), a64Run(k + 0x5810, 4), "I ffffff8040005820 A64 4 N", a64Run(k + 0x5824, 11),
                "I ffffff80400054b8 A64 4 E", a64Run(k + 0x5788, 13),
                "R 40200050 el=0", "I 40200050 A64 4 E", "I 40200054 A64 4 E");
        List<ExecutionEvent> got = new ArrayList<>();
        QemuPluginLog.Stats stats = importExcerpt("a53-el0-irq.log", A53_EL0, got);
        assertThat(got).containsExactlyElementsOf(events("AR", expected));
        assertThat(stats.elMismatches).isZero();
        // a record that starts at EL1 is contradicted by the two EL0 instructions before the IRQ
        // (from the X on, the levels come from QEMU's exception lines)
        QemuPluginLog.Stats wrong = importExcerpt("a53-el0-irq.log",
                new ExecutionFormat.Header(Profile.AR, "cortex-a53", 1, null), new ArrayList<>());
        assertThat(wrong.elMismatches).isEqualTo(2);
    }

    /**
     * mps2-an505, Cortex-M33 from reset: the register log names the Secure state ("T S
     * priv-thread"). {@code bcs.n} at 0x100000d4 passes (XPSR 0x61000000: C set, .data is empty),
     * {@code bcs.n} at 0x100000f8 fails (0x81000000).
     */
    @Test
    void armv8mSecureStateFromTheRegisterLog() throws IOException {
        String[] expected = {"I 100000cc T32 2 E", "I 100000ce T32 2 E", "I 100000d0 T32 2 E", "I 100000d2 T32 2 E",
            "I 100000d4 T32 2 E", "I 100000f2 T32 2 E", "I 100000f4 T32 2 E", "I 100000f6 T32 2 E",
            "I 100000f8 T32 2 N", "I 100000fa T32 2 E", "I 100000fc T32 2 E", "I 100000fe T32 2 E"};
        List<ExecutionEvent> got = new ArrayList<>();
        QemuPluginLog.Stats stats = importExcerpt("m33-reset.log",
                new ExecutionFormat.Header(Profile.M, "cortex-m33", -1, ExecutionFormat.Security.SECURE), got);
        assertThat(got).containsExactlyElementsOf(events("M", expected));
        assertThat(stats.securityMismatches).isZero();
        QemuPluginLog.Stats wrong = importExcerpt("m33-reset.log",
                new ExecutionFormat.Header(Profile.M, "cortex-m33", -1, ExecutionFormat.Security.NON_SECURE), new ArrayList<>());
        assertThat(wrong.securityMismatches).isEqualTo(12);
        assertThat(wrong.consistent(true)).isFalse();
    }

    /** Mutated logs: the import either works or stops with a FormatException naming the line. */
    @Test
    void mutatedLogsFailCleanly() throws IOException {
        byte[] good = excerpt("a9-thumb-irq-it.log");
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 300; round++) {
            byte[] b = good.clone();
            for (int k = 1 + random.nextInt(8); k > 0; k--) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            try {
                QemuPluginLog.importLog(new ByteArrayInputStream(b), Profile.AR, null, new ByteArrayInputStream(b), e -> { });
            } catch (ExecutionFormat.FormatException e) {
                assertThat(e.getMessage()).startsWith("line ");
            }
        }
    }

    @Test
    void malformedInstructionLineNamesTheLine() {
        String log = "I 00000100 2 0028\nI 00000102\n";
        assertThatThrownBy(() -> QemuPluginLog.importLog(new ByteArrayInputStream(log.getBytes(StandardCharsets.US_ASCII)),
                Profile.M, null, null, e -> { }))
                .isInstanceOf(ExecutionFormat.FormatException.class)
                .hasMessageContaining("line 2");
    }
}
