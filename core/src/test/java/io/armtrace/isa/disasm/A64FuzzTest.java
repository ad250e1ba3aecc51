package io.armtrace.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.Block;
import io.armtrace.isa.CodeWalker;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.util.List;

/**
 * Arbitrary program-image bytes as A64 code, anywhere in the 64-bit address space, through the
 * classifier, the code walker and the disassembler (with symbols, and through the listing cache):
 * every word gives text, nothing throws, direct targets lie within the reach of their encodings,
 * and blocks stay within the walker's byte bound. {@code mvn test} replays the stored inputs;
 * {@code JAZZER_FUZZ=1} (tools/fuzz/run-all.sh) fuzzes.
 */
class A64FuzzTest {

    @FuzzTest(maxDuration = "10s")
    void everyWordIsClassifiedAndHasText(byte[] data) {
        if (data.length < 12) {
            return;
        }
        long base = 0;
        for (int i = 0; i < 8; i++) {
            base = base << 8 | (data[i] & 0xFF);
        }
        base &= ~3L;
        if (base > -4096L && base < 0) {
            base -= 8192; // keep the image itself from wrapping past the top of the address space
        }
        byte[] code = java.util.Arrays.copyOfRange(data, 8, data.length);
        MemoryImage m = new MemoryImage().add(base, code, "fuzz");
        SymbolTable symbols = SymbolTable.of(List.of(new Symbol("f", base, code.length, false)), List.of());
        InstructionClassifier classifier = new InstructionClassifier(Profile.AR);
        Disassembler d = new Disassembler(Profile.AR);
        DisassemblyCache cache = new DisassemblyCache(d, m, symbols);
        Insn insn = new Insn();
        // by offsets from the base: near 2^63 an address plus 4 is negative as a signed number
        for (long off = 0; off + 4 <= code.length; off += 4) {
            long a = base + off;
            assertThat(classifier.classify(m, a, Isa.A64, 0, insn)).isTrue();
            assertThat(insn.size).isEqualTo(4);
            if (insn.kind == WaypointKind.DIRECT_BRANCH) {
                long offset = insn.target - a;
                assertThat(offset).isBetween(-(1L << 27), (1L << 27) - 4); // B/BL reach the farthest
            } else {
                assertThat(insn.target).isEqualTo(-1);
            }
            Disassembler.Text t = d.disassemble(m, a, Isa.A64, 0, symbols);
            assertThat(t).isNotNull();
            assertThat(t.mnemonic()).isNotEmpty();
            assertThat(cache.text(a, Isa.A64, 4)).isEqualTo(DisassemblyCache.listing(t));
        }
        assertThat(d.disassemble(m, base + code.length, Isa.A64, 0, symbols)).isNull();
        CodeWalker walker = new CodeWalker(m, classifier, true, false, true, 64, 16);
        for (long a = base; Long.compareUnsigned(a - base, code.length) < 0; ) {
            Block b = walker.block(a, Isa.A64);
            assertThat(b.byteLength()).isBetween(0, 64);
            if (b.count() == 0) {
                break;
            }
            a = b.nextAddress();
        }
    }
}
