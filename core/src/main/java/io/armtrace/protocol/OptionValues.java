package io.armtrace.protocol;

import java.util.Locale;

/**
 * Values of encoder options as the command line gives them ({@code --name}, {@code --name=value}), read
 * the same way by every protocol: a bare flag, on, true, yes or 1 mean on; off, false, no or 0 mean off;
 * numbers are C literals. Anything else is a user mistake, said in one sentence.
 */
public final class OptionValues {
    private OptionValues() {
    }

    public static boolean flag(String option, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException("--" + option + " takes on or off, not '" + value + "'.");
        };
    }

    public static long number(String option, String value) {
        String v = value == null ? "" : value.trim();
        try {
            if (v.startsWith("0x") || v.startsWith("0X")) {
                return Long.parseUnsignedLong(v.substring(2), 16);
            }
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " needs a number, not '" + value + "'.");
        }
    }
}
