package io.armtrace.source;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Trace unit register values by name (ETMCR, ETMIDR, ETMCCER, ETMTRACEIDR, POSITION, MASTER, ...),
 * as a snapshot's {@code [regs]} or the command line's {@code --reg NAME=VALUE} gives them. Names are
 * matched case-insensitively; a parenthesised suffix ({@code ETMCR(0x000)}) is ignored.
 */
public final class Registers {
    private final Map<String, Long> values = new LinkedHashMap<>();

    public static String normalize(String name) {
        String n = name.trim();
        int p = n.indexOf('(');
        if (p >= 0) {
            n = n.substring(0, p).trim();
        }
        return n.toUpperCase(Locale.ROOT);
    }

    public Registers put(String name, long value) {
        values.put(normalize(name), value);
        return this;
    }

    public Registers putAll(Registers other) {
        values.putAll(other.values);
        return this;
    }

    public boolean has(String name) {
        return values.containsKey(normalize(name));
    }

    /** The value of register {@code name}, or {@code otherwise} if it was not given. */
    public long get(String name, long otherwise) {
        Long v = values.get(normalize(name));
        return v == null ? otherwise : v;
    }

    /** Register names (normalized) and values in the order they were given. */
    public Map<String, Long> asMap() {
        return java.util.Collections.unmodifiableMap(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ", ").append(k).append("=0x").append(Long.toHexString(v)));
        return sb.toString();
    }
}
