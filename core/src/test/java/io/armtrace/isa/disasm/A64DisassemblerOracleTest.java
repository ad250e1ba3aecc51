package io.armtrace.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.InstructionOracleTest;
import io.armtrace.isa.InstructionOracleTest.Row;
import io.armtrace.isa.InstructionOracleTest.Table;
import io.armtrace.isa.Profile;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import io.armtrace.view.TextWriter;
import io.armtrace.image.ProgramImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checks the A64 disassembler against {@code aarch64-linux-gnu-objdump -d} (binutils 2.40) row by row
 * on the A64 oracle tables (tools/isa-oracle/generate_a64.py): mnemonic and operands as text. The
 * compiled-code tables must agree on every row. In the encoding-space table (60,000 random words,
 * objdump's undefined ones included as rows) every word outside SVE and SME must agree too; SVE and
 * SME, which the compiled code here does not use beyond the forms glibc's memcpy and memset hold,
 * are counted per class with the upper bounds docs/disassembly.md explains.
 */
class A64DisassemblerOracleTest {

    /** The class of an encoding for the figures: SVE (op0 = 0010), SME (op0 = 0000, bit 31 set), other. */
    static String encodingClass(int w) {
        int op0 = (w >>> 25) & 0xF;
        if (op0 == 2) {
            return "SVE";
        }
        if (op0 == 0 && w < 0) {
            return "SME";
        }
        return "other";
    }

    /** objdump's text with symbols removed; in raw binary input objdump writes addresses with 0x. */
    static String expected(Row r) {
        if (r.mnemonic().equals("undefined")) {
            return "<UNDEFINED>";
        }
        String ops = r.operands();
        if (r.target() >= 0 || r.target() < -1) {
            ops = ops.replace("0x" + Long.toHexString(r.target()), Long.toHexString(r.target()));
        }
        return ops.isEmpty() ? r.mnemonic() : r.mnemonic() + " " + ops;
    }

    @ParameterizedTest(name = "{0}: at most {1} SVE and {2} SME rows differ, none other")
    @CsvSource({"a64-O2, 0, 0", "a64-O0, 0, 0", "a64-O3, 0, 0", "a64-v85, 0, 0", "a64-sve, 0, 0", "a64-sve2, 0, 0",
        "a64-random, 1335, 287"})
    void agreesWithObjdump(String name, int sveBudget, int smeBudget) throws IOException {
        Table t = InstructionOracleTest.load(name);
        Disassembler d = new Disassembler(t.profile());
        Map<String, int[]> byClass = new TreeMap<>(); // rows, differing rows
        List<String> examples = new ArrayList<>();
        for (Row r : t.rows()) {
            String got = d.disassemble(r.opcode(), 4, Isa.A64, r.address(), 0, null).toString();
            String c = encodingClass(r.opcode());
            int[] n = byClass.computeIfAbsent(c, k -> new int[2]);
            n[0]++;
            if (!got.equals(expected(r))) {
                n[1]++;
                if (c.equals("other") && examples.size() < 10) {
                    examples.add(String.format("%x %08x: objdump '%s', got '%s'", r.address(), r.opcode(), expected(r), got));
                }
            }
        }
        StringBuilder figures = new StringBuilder();
        byClass.forEach((c, n) -> figures.append(String.format(" %s %d rows, %d differ;", c, n[0], n[1])));
        System.out.printf("%s:%s%n", name, figures);
        assertThat(byClass.getOrDefault("other", new int[2])[1]).as("%s: rows outside SVE/SME that differ: %s", name, examples)
                .isZero();
        assertThat(byClass.getOrDefault("SVE", new int[2])[1]).as("%s: SVE rows that differ", name).isLessThanOrEqualTo(sveBudget);
        assertThat(byClass.getOrDefault("SME", new int[2])[1]).as("%s: SME rows that differ", name).isLessThanOrEqualTo(smeBudget);
        assertThat(t.rows().size()).isGreaterThan(600);
    }

    private static MemoryImage words(long address, int... words) {
        byte[] b = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            for (int k = 0; k < 4; k++) {
                b[4 * i + k] = (byte) (words[i] >>> (8 * k));
            }
        }
        return new MemoryImage().add(address, b, "code");
    }

    @Test
    void branchTargetsCarryTheSymbolAndOffset() {
        // from the a64-O2 table: "4002a4: 94000118  bl 400704 <call_weak_fn>", "4003a0: b4000061 cbz x1, 4003ac"
        MemoryImage m = words(0x4002a4, 0x94000118).addAll(words(0x4003a0, 0xb4000061));
        SymbolTable symbols = SymbolTable.of(List.of(new Symbol("call_weak_fn", 0x400704, 0x14, false),
                new Symbol("abort", 0x400340, 0x80, false)), List.of());
        Disassembler d = new Disassembler(Profile.AR);
        assertThat(d.disassemble(m, 0x4002a4, Isa.A64, 0, symbols)).hasToString("bl 400704 <call_weak_fn>");
        assertThat(d.disassemble(m, 0x4003a0, Isa.A64, 0, symbols)).hasToString("cbz x1, 4003ac <abort+0x6c>");
        assertThat(d.disassemble(m, 0x4002a4, Isa.A64)).hasToString("bl 400704");
        assertThat(d.disassemble(m, 0x4002a8, Isa.A64)).isNull();
        assertThat(new Disassembler(Profile.M).disassemble(m, 0x4002a4, Isa.A64)).hasToString("<UNDEFINED>");
    }

    @Test
    void aListingOfAnA64RangeIsObjdumpsText() throws IOException {
        // the longest run of contiguous instructions of the a64-O2 table as an image, listed with --insn:
        // each line's disassembly column is objdump's text for that address (mnemonic padded to 8 columns)
        Table t = InstructionOracleTest.load("a64-O2");
        List<Row> run = new ArrayList<>();
        List<Row> current = new ArrayList<>();
        for (Row r : t.rows()) {
            if (!current.isEmpty() && current.get(current.size() - 1).end() != r.address()) {
                current = new ArrayList<>();
            }
            current.add(r);
            if (current.size() > run.size()) {
                run = current;
            }
        }
        assertThat(run.size()).isGreaterThanOrEqualTo(80);
        MemoryImage m = InstructionOracleTest.image(run);
        Row first = run.get(0);
        Row last = run.get(run.size() - 1);
        StringWriter out = new StringWriter();
        TextWriter w = new TextWriter(new PrintWriter(out), new ProgramImage(m, SymbolTable.EMPTY), true, false, Profile.AR);
        // a range as a decoder reports it: straight through, the last instruction a branch
        w.accept(new InstructionRange(0, first.address(), last.end(), run.size(), Isa.A64, last.address(),
                WaypointKind.DIRECT_BRANCH, true));
        w.end();
        String[] lines = out.toString().split("\n");
        assertThat(lines).hasSize(run.size());
        for (int i = 0; i < run.size(); i++) {
            Row r = run.get(i);
            String text = r.operands().isEmpty() ? r.mnemonic()
                    : String.format("%-7s %s", r.mnemonic(), expected(r).substring(r.mnemonic().length() + 1));
            assertThat(lines[i]).as("line %d", i).contains(String.format("%x  A64 %08x  ", r.address(), r.opcode()))
                    .contains("  " + text);
        }
    }
}
