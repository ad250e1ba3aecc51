package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link PairCounts} against a plain map, through its growth, with keys anywhere in 64 bits (0 and -1 too). */
class PairCountsTest {

    @Test
    void countsAsAPlainMapDoes() {
        for (int seed = 1; seed <= 6; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int distinct = 1 + rnd.nextInt(20_000);
            long[][] pool = new long[distinct][];
            for (int i = 0; i < distinct; i++) {
                long a = switch (i % 5) {
                    case 0 -> 0;
                    case 1 -> -1L;
                    case 2 -> rnd.nextLong();
                    default -> 0x400000 + 4L * rnd.nextInt(1 << 16);
                };
                // pairs that share a first key, or have the keys swapped
                long b = i % 7 == 0 && i > 0 ? pool[i - 1][0] : a + 4L * rnd.nextInt(64);
                pool[i] = new long[] {a, b};
            }
            PairCounts counts = new PairCounts();
            Map<List<Long>, Long> expected = new HashMap<>();
            for (int i = 0; i < 200_000; i++) {
                long[] p = pool[rnd.nextInt(i % 3 == 0 ? distinct : Math.min(distinct, 50))];
                counts.add(p[0], p[1]);
                expected.merge(List.of(p[0], p[1]), 1L, Long::sum);
            }
            Map<List<Long>, Long> got = new HashMap<>();
            counts.forEach((a, b, n) -> assertThat(got.put(List.of(a, b), n)).isNull());
            assertThat(got).as("seed %d", seed).isEqualTo(expected);
            assertThat(counts.size()).isEqualTo(expected.size());
            assertThat(counts.isEmpty()).isFalse();
        }
        assertThat(new PairCounts().isEmpty()).isTrue();
    }
}
