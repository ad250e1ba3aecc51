package io.armtrace.cli;

import picocli.CommandLine;

/** A byte count with an optional K, M or G suffix (powers of 1024), for size options. */
final class ByteSize implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String v = value.trim().toUpperCase(java.util.Locale.ROOT);
        int shift = 0;
        if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
            shift = switch (v.charAt(v.length() - 1)) {
                case 'K' -> 10;
                case 'M' -> 20;
                default -> 30;
            };
            v = v.substring(0, v.length() - 1);
        }
        try {
            if (!v.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new NumberFormatException(); // ASCII digits only: no sign, no full-width digits
            }
            long n = Long.parseLong(v);
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
            throw new CommandLine.TypeConversionException("'" + shown + "' is not a size in bytes (e.g. 4096, 512K, 8M)");
        }
    }
}
