package io.armtrace.isa.disasm;

import io.armtrace.isa.Profile;
import io.armtrace.isa.InstructionClassifier;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/**
 * Arbitrary program-image bytes through the disassembler and the listing cache, in every state and
 * IT state: every instruction whose bytes are present gives text, nothing throws, and the cache's
 * text is the disassembler's. {@code mvn test} replays the stored inputs (regression mode);
 * {@code JAZZER_FUZZ=1} fuzzes.
 */
class DisassemblerFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void everyInstructionHasText(byte[] data) {
        if (data.length < 2) {
            return;
        }
        MemoryImage m = new MemoryImage().add(0x1000, data, "fuzz");
        for (Profile profile : Profile.values()) {
            Disassembler d = new Disassembler(profile);
            DisassemblyCache cache = new DisassemblyCache(d, m, SymbolTable.EMPTY);
            for (Isa isa : new Isa[] {Isa.A32, Isa.T32}) {
                long a = 0x1000;
                int it = data[0] & 0xFF;
                while (a < 0x1000 + data.length) {
                    Disassembler.Text t = d.disassemble(m, a, isa, it, null);
                    int size = isa == Isa.A32 ? 4 : InstructionClassifier.t32Size(m.u16(a) < 0 ? 0 : m.u16(a));
                    if (m.contains(a, size)) {
                        assertThat(t).isNotNull();
                        assertThat(t.mnemonic()).isNotEmpty();
                        assertThat(cache.text(a, isa, size)).isNotNull();
                    } else {
                        assertThat(t).isNull();
                    }
                    a += size;
                    it = InstructionClassifier.itAdvance(it);
                }
            }
        }
    }
}
