package io.armtrace.view;

/**
 * The execution counts of LCOV tracefiles and folded stacks, as {@code merge} reads and adds them: a count is
 * a decimal number in ASCII digits, never negative (what geninfo and flamegraph.pl write), and a sum that
 * does not fit a 64-bit count is refused rather than wrapped around to a negative number.
 */
final class Counts {
    private Counts() {
    }

    /** A count or number that is not one: negative, not decimal ASCII digits, or larger than allowed. */
    static final class Malformed extends IllegalArgumentException {
        Malformed(String message) {
            super(message);
        }
    }

    /** Two counts whose sum is more than a 64-bit count holds. */
    static final class Overflow extends IllegalArgumentException {
        Overflow(String message) {
            super(message);
        }
    }

    /** {@code text} as a non-negative decimal number of at most {@code max}; {@code what} names it in the error. */
    static long parse(String text, long max, String what) {
        if (text.isEmpty()) {
            throw new Malformed("the " + what + " is missing.");
        }
        if (text.charAt(0) == '-') {
            throw new Malformed("the " + what + " is negative; counts and line numbers are 0 or more.");
        }
        long v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new Malformed("the " + what + " is not a decimal number in ASCII digits.");
            }
            if (v > (max - (c - '0')) / 10) {
                throw new Malformed("the " + what + " is larger than " + max + ".");
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** {@code a + b}, refused when the sum does not fit. */
    static long add(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            throw new Overflow("adding " + b + " to the " + a + " of the files before makes more than a 64-bit count ("
                    + Long.MAX_VALUE + ") holds.");
        }
        return sum;
    }
}
