package io.armtrace.isa.disasm;

import io.armtrace.isa.Profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.trace.Isa;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Program images are input: whatever bytes they hold, the disassembler returns text and never throws.
 * Seeded random encodings in every state and IT state (fixed seed, so a failure reproduces).
 */
class DisassemblerRandomTest {
    @Test
    void everyEncodingGivesText() {
        SplittableRandom rnd = new SplittableRandom(20261125);
        Disassembler[] ds = {new Disassembler(Profile.AR), new Disassembler(Profile.M)};
        for (int i = 0; i < 100_000; i++) {
            int w = rnd.nextInt();
            int it = rnd.nextInt(4) == 0 ? rnd.nextInt(256) : 0;
            long address = rnd.nextLong() & 0xFFFFFFFEL;
            for (Disassembler d : ds) {
                assertThat(d.disassemble(w, 4, Isa.A32, address & ~3L, 0, null)).isNotNull();
                assertThat(d.disassemble(w & 0xFFFF, 2, Isa.T32, address, it, null)).isNotNull();
                assertThat(d.disassemble(w | 0xE8000000, 4, Isa.T32, address, it, null)).isNotNull();
            }
        }
        // every 16-bit T32 halfword in every IT state of the first slot
        Disassembler d = ds[0];
        for (int hw = 0; hw < 0x10000; hw++) {
            assertThat(d.disassemble(hw, 2, Isa.T32, 0x1000, (hw & 0xF0) | 8, null).mnemonic()).isNotEmpty();
        }
    }
}
