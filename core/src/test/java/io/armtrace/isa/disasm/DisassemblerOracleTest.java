package io.armtrace.isa.disasm;

import io.armtrace.isa.Profile;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.InstructionOracleTest;
import io.armtrace.isa.InstructionOracleTest.Row;
import io.armtrace.isa.InstructionOracleTest.Table;
import io.armtrace.trace.Isa;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checks the disassembler against GNU objdump row by row on the ISA oracle tables (see
 * tools/isa-oracle): mnemonic (with condition, .w/.n and IT-block forms) and operands. The compiled
 * code tables must agree on every row; the encoding-space tables (random A32/T32 words, every T16
 * halfword) may differ on at most the rows docs/disassembly.md explains, class by class.
 */
class DisassemblerOracleTest {

    /**
     * The IT state before each row, from the classifier: rows are walked in order, a jump in the
     * addresses ends any IT block.
     */
    static int[] itStates(Table t) {
        MemoryImage image = InstructionOracleTest.image(t.rows());
        InstructionClassifier classifier = new InstructionClassifier(t.profile());
        Insn insn = new Insn();
        int[] states = new int[t.rows().size()];
        int it = 0;
        long next = -1;
        for (int i = 0; i < states.length; i++) {
            Row r = t.rows().get(i);
            if (r.address() != next) {
                it = 0;
            }
            states[i] = it;
            classifier.classify(image, r.address(), r.isa(), it, insn);
            it = insn.itStateAfter;
            if (r.isa() == Isa.T32 && r.size() == 2 && (r.opcode() & 0xFF00) == 0xBF00 && (r.opcode() & 0xF) != 0) {
                // an IT inside an IT block is UNPREDICTABLE; objdump (and a listing) start a new block there
                it = r.opcode() & 0xFF;
            }
            next = r.end();
        }
        return states;
    }

    /** objdump prints a direct branch target as 0x... when there are no symbols (raw binary input). */
    static String expectedOperands(Row r) {
        String ops = r.operands();
        if (r.target() >= 0) {
            ops = ops.replace("0x" + Long.toHexString(r.target()), Long.toHexString(r.target()));
        }
        return ops;
    }

    @ParameterizedTest(name = "{0}: at most {1} mnemonics and {2} operand lists differ")
    @CsvSource({"a9-arm, 0, 0", "a9-thumb, 0, 0", "m3, 0, 0", "m0plus, 0, 0", "arm926, 0, 0",
        "t16-all, 19, 19", "a32-random, 38, 58", "t32-random, 158, 217"})
    void agreesWithObjdump(String name, int mnemonicBudget, int operandBudget) throws IOException {
        Table t = InstructionOracleTest.load(name);
        int[] it = itStates(t);
        Disassembler d = new Disassembler(t.profile());
        int mnemonicDiffers = 0;
        int operandsDiffer = 0;
        List<String> examples = new ArrayList<>();
        for (int i = 0; i < it.length; i++) {
            Row r = t.rows().get(i);
            Disassembler.Text text = d.disassemble(r.opcode(), r.size(), r.isa(), r.address(), it[i], null);
            boolean mnemonicOk = text.mnemonic().equals(r.mnemonic());
            // the tables hold objdump's operands with every <...> removed (tools/isa-oracle/generate.py)
            boolean operandsOk = text.operands().replaceAll("\\s*<[^>]*>", "").equals(expectedOperands(r));
            if (!mnemonicOk) {
                mnemonicDiffers++;
            }
            if (!mnemonicOk || !operandsOk) {
                operandsDiffer++;
                if (examples.size() < 10) {
                    examples.add(String.format("%x %s %08x: objdump '%s %s', got '%s'", r.address(), r.isa(), r.opcode(),
                            r.mnemonic(), r.operands(), text));
                }
            }
        }
        System.out.printf("%s: %d rows, mnemonic differs on %d, mnemonic or operands on %d%n", name, it.length,
                mnemonicDiffers, operandsDiffer);
        assertThat(mnemonicDiffers).as("%s: rows whose mnemonic differs; first: %s", name, examples)
                .isLessThanOrEqualTo(mnemonicBudget);
        assertThat(operandsDiffer).as("%s: rows whose text differs; first: %s", name, examples)
                .isLessThanOrEqualTo(operandBudget);
    }

    private static MemoryImage code(long address, int... halfwords) {
        byte[] b = new byte[halfwords.length * 2];
        for (int i = 0; i < halfwords.length; i++) {
            b[2 * i] = (byte) halfwords[i];
            b[2 * i + 1] = (byte) (halfwords[i] >>> 8);
        }
        return new MemoryImage().add(address, b, "code");
    }

    /**
     * Spellings binutils 2.40 chooses (arm-none-eabi-objdump -d of these words, assembled with
     * arm-none-eabi-as from the source in the comments): a one-register STMDB/LDMIA on sp with write-back is
     * stmfd/ldmfd (push/pop only for two or more registers), VORR with identical sources stays vorr, and
     * the floating-point bit of the two-register comparisons with zero is bit 10.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "e92d0010|stmfd sp!, {r4}", "e8bd0010|ldmfd sp!, {r4}", "092d0010|stmfdeq sp!, {r4}",
        "e8bd8000|ldmfd sp!, {pc}", "e92d4000|stmfd sp!, {lr}", "08bd0001|ldmfdeq sp!, {r0}",
        "e92d4010|push {r4, lr}", "e8bd8010|pop {r4, pc}", "e9210010|stmdb r1!, {r4}", "e8b10010|ldm r1!, {r4}",
        "f2210111|vorr d0, d1, d1", "f2220152|vorr q0, q1, q1", "f3f903e0|vneg.s32 q8, q8",
        "f3f905e0|vcle.f32 q8, q8, #0", "f3b51182|vcle.s16 d1, d2, #0", "f3b93784|vneg.f32 d3, d4",
        "f3b12344|vabs.s8 q1, q2", "f3b90401|vcgt.f32 d0, d1, #0"})
    void aliasesAreSpeltAsBinutils240SpellsThem(String word, String objdump) {
        Disassembler.Text t = new Disassembler(Profile.AR).disassemble((int) Long.parseLong(word, 16), 4, Isa.A32,
                0x8000, 0, null);
        assertThat(t.toString()).isEqualTo(objdump);
    }

    @Test
    void branchTargetsCarryTheSymbolAndOffset() {
        // the a9-thumb table: "8002: f000 fd51  bl 8aa8" (objdump adds <name+off> from the ELF's symbols)
        MemoryImage m = code(0x8002, 0xF000, 0xFD51);
        SymbolTable symbols = SymbolTable.of(List.of(new Symbol("main", 0x8aa0, 0x100, true)), List.of());
        Disassembler d = new Disassembler(Profile.AR);
        assertThat(d.disassemble(m, 0x8002, Isa.T32, 0, symbols)).hasToString("bl 8aa8 <main+0x8>");
        assertThat(d.disassemble(m, 0x8002, Isa.T32)).hasToString("bl 8aa8");
        assertThat(d.disassemble(m, 0x9000, Isa.T32)).isNull();
    }

    @Test
    void listingFollowsItBlocksAndCachesPerItState() {
        // it eq; moveq r0, r1 (T16 MOV in an IT block loses its S); then the same halfword outside: movs
        MemoryImage m = code(0x100, 0xBF08, 0x0008, 0x0008);
        DisassemblyCache cache = new DisassemblyCache(new Disassembler(Profile.AR), m, SymbolTable.EMPTY);
        assertThat(cache.text(0x100, Isa.T32, 2)).isEqualTo("it      eq");
        assertThat(cache.text(0x102, Isa.T32, 2)).isEqualTo("moveq   r0, r1");
        assertThat(cache.text(0x104, Isa.T32, 2)).isEqualTo("movs    r0, r1");
        // a jump ends the IT block: the same address entered from elsewhere is outside it
        assertThat(cache.text(0x102, Isa.T32, 2)).isEqualTo("movs    r0, r1");
        assertThat(cache.text(0x100, Isa.T32, 2)).isEqualTo("it      eq");
        assertThat(cache.text(0x102, Isa.T32, 2)).isEqualTo("moveq   r0, r1");
    }

    @Test
    void anExceptionReturnIntoAnItBlockGetsTheBlocksCondition() {
        // ite gt; subgt r0, r0, r1; suble r1, r1, r0 (the gcd loop of the etm3-a9-thumb example, where
        // an interrupt is taken after the IT and returns to the SUB, with ITSTATE restored from the SPSR)
        MemoryImage m = code(0x100, 0xBFCC, 0x1A40, 0x1A09).addAll(code(0x400, 0x4770));
        DisassemblyCache cache = new DisassemblyCache(new Disassembler(Profile.AR), m, SymbolTable.EMPTY);
        assertThat(cache.text(0x100, Isa.T32, 2)).isEqualTo("ite     gt");
        assertThat(cache.text(0x400, Isa.T32, 2)).isEqualTo("bx      lr");
        assertThat(cache.text(0x102, Isa.T32, 2)).isEqualTo("subgt   r0, r0, r1");
        assertThat(cache.text(0x104, Isa.T32, 2)).isEqualTo("suble   r1, r1, r0");
    }

    @Test
    void theSameDisassemblerServesAllTables() {
        assertThat(Map.of("A32 on M profile", new Disassembler(Profile.M).disassemble(0xE1A00000, 4, Isa.A32, 0, 0, null)))
                .containsValue(new Disassembler.Text("<UNDEFINED>", ""));
    }
}
