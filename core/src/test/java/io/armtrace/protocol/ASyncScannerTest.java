package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The split scan skips the bytes between split points: it must choose the A-syncs that a scan of every byte
 * chooses (the first A-sync, {@code zeros} 0x00 then 0x80, starting at least {@code spacing} bytes after the
 * last one chosen, or after 0), on streams dense with zero runs of every length.
 */
class ASyncScannerTest {
    /** Every byte looked at: the zeros of a run are counted from its start. */
    private static long[] everyByte(byte[] b, long spacing, int zeros) {
        long[] found = new long[b.length];
        int n = 0;
        long next = spacing;
        int run = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                run++;
                continue;
            }
            if ((b[i] & 0xFF) == 0x80 && run >= zeros && i - zeros >= next) {
                found[n++] = i - zeros;
                next = i - zeros + spacing;
            }
            run = 0;
        }
        return Arrays.copyOf(found, n);
    }

    @Test
    void skippingChoosesTheSplitPointsOfAFullScan() throws IOException {
        Random random = new Random(7);
        int checked = 0;
        for (int round = 0; round < 200; round++) {
            byte[] b = new byte[1 + random.nextInt(200_000)];
            for (int i = 0; i < b.length; i++) {
                int r = random.nextInt(10);
                b[i] = (byte) (r < 5 ? 0 : r < 8 ? 0x80 : random.nextInt(256));
            }
            int zeros = random.nextBoolean() ? 5 : 11;
            long spacing = 1 + random.nextInt(random.nextBoolean() ? 64 : 100_000);
            long[] expected = everyByte(b, spacing, zeros);
            assertThat(ASyncScanner.scan(new ByteArrayInputStream(b), spacing, zeros))
                    .as("round %d: %d bytes, spacing %d", round, b.length, spacing).containsExactly(expected);
            checked += expected.length;
        }
        assertThat(checked).isGreaterThan(1000);
    }
}
