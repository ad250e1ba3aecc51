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
