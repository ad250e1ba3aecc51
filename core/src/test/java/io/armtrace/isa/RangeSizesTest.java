package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.InstructionSizes;
import io.armtrace.trace.Isa;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sizes a flow decoder gives its ranges: shared with the walker's block (the same object, no
 * allocation) while a range stays in one block or in code of one size, and listed otherwise; in every
 * case instruction i of the range has the size the classifier gives it.
 */
class RangeSizesTest {
    /** Random T32 code (16- and 32-bit instructions, some branches) walked in blocks of at most 64 bytes. */
    private static CodeWalker walker(Random rnd, byte[] code) {
        for (int i = 0; i < code.length; i += 2) {
            int hw = switch (rnd.nextInt(6)) {
                case 0 -> 0xF000; // 32-bit prefix (its second halfword is whatever follows)
                case 1 -> 0x4770; // BX lr: ends a block
                default -> 0x4600; // MOV r0, r0
            };
            code[i] = (byte) hw;
            code[i + 1] = (byte) (hw >> 8);
        }
        MemoryImage m = new MemoryImage().add(0x8000, code, "code");
        return new CodeWalker(m, new InstructionClassifier(Profile.AR), false, 64);
    }

    @Test
    void sizesAreTheClassifiersWhereverTheRangeRuns() {
        Random rnd = new Random(17);
        byte[] code = new byte[8192];
        CodeWalker w = walker(rnd, code);
        MemoryImage m = w.memory();
        InstructionClassifier c = new InstructionClassifier(Profile.AR);
        Insn insn = new Insn();
        RangeSizes sizes = new RangeSizes();
        for (int round = 0; round < 2000; round++) {
            sizes.clear();
            List<Integer> expected = new ArrayList<>();
            long a = 0x8000 + 2L * rnd.nextInt(3000);
            int pieces = 1 + rnd.nextInt(4);
            long start = -1;
            for (int p = 0; p < pieces; p++) {
                Block b = w.block(a, Isa.T32);
                if (b.count() == 0) {
                    break;
                }
                // the first piece may start inside its block; consecutive instructions, one at a time
                // (ETMv3) or several (PFT, MTB)
                int from = p == 0 ? rnd.nextInt(b.count()) : 0;
                int n = 1 + rnd.nextInt(b.count() - from);
                if (p == 0) {
                    start = b.addressOf(from);
                }
                if (rnd.nextBoolean()) {
                    for (int i = 0; i < n; i++) {
                        sizes.append(b, from + i, 1);
                    }
                } else {
                    sizes.append(b, from, n);
                }
                for (int i = 0; i < n; i++) {
                    expected.add(b.sizeOf(from + i));
                }
                a = b.addressOf(from + n - 1) + b.sizeOf(from + n - 1);
                if (from + n < b.count()) {
                    break; // a range goes on only from where it stopped
                }
            }
            if (expected.isEmpty()) {
                continue;
            }
            if (rnd.nextInt(4) == 0 && expected.size() > 1) {
                sizes.dropLast();
                expected.remove(expected.size() - 1);
            }
            assertThat(sizes.count()).isEqualTo(expected.size());
            InstructionSizes s = sizes.sizes();
            for (int i = 0; i < expected.size(); i++) {
                assertThat(s.size(sizes.index() + i)).isEqualTo(expected.get(i));
                assertThat(sizes.sizeOf(i)).isEqualTo(expected.get(i));
            }
            // and against the classifier, from the range's first address
            for (int i = 0; i < expected.size(); i++) {
                assertThat(c.classify(m, start, Isa.T32, 0, insn)).isTrue();
                assertThat(insn.size).isEqualTo(expected.get(i));
                start += insn.size;
            }
        }
    }

    @Test
    void aRangeInOneBlockSharesItsSizes() {
        Random rnd = new Random(5);
        CodeWalker w = walker(rnd, new byte[4096]);
        RangeSizes sizes = new RangeSizes();
        for (long a = 0x8000; a < 0x8800; a += 2) {
            Block b = w.block(a, Isa.T32);
            sizes.clear();
            for (int i = 1; i < b.count(); i++) {
                sizes.append(b, i, 1);
            }
            if (b.count() > 1) {
                assertThat(sizes.sizes()).isSameAs(b.sizes());
                if (!b.sizes().isUniform()) { // a uniform run has no index to keep
                    assertThat(sizes.index()).isEqualTo((short) 1);
                }
            }
        }
        // code of one size from two blocks: a shared uniform object, not a list
        InstructionSizes two = InstructionSizes.uniform(2);
        sizes.clear();
        sizes.append(two, 0, 3);
        sizes.appendOne(2);
        sizes.append(two, 7, 2);
        assertThat(sizes.sizes()).isSameAs(two);
        assertThat(sizes.count()).isEqualTo(6);
        sizes.appendOne(4);
        assertThat(sizes.sizes().isUniform()).isFalse();
        assertThat(sizes.sizes().offset(7)).isEqualTo(16);
    }
}
