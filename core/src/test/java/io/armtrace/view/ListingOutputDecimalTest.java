package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ListingOutput#decimal}: the digits {@link Long#toString(long)} gives, for every size of number and sign. */
class ListingOutputDecimalTest {
    @Test
    void decimalDigitsAreThoseOfLongToString() {
        byte[] b = new byte[64];
        Random random = new Random(11);
        long[] fixed = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L,
                Long.MAX_VALUE, -1, -9, -10, -99, -100, Integer.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (int i = 0; i < fixed.length + 100_000; i++) {
            long v = i < fixed.length ? fixed[i] : switch (i % 4) {
                case 0 -> random.nextInt(200) - 50;
                case 1 -> random.nextInt();
                case 2 -> random.nextLong();
                default -> random.nextLong() >> random.nextInt(64);
            };
            int at = i % 7;
            int end = ListingOutput.decimal(b, at, v);
            assertThat(new String(b, at, end - at, StandardCharsets.US_ASCII)).as("%d", v).isEqualTo(Long.toString(v));
        }
    }
}
