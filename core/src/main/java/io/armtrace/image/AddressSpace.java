package io.armtrace.image;

import java.util.Locale;

/**
 * An address space that code is read from: the exception level and security state a processor runs in,
 * and the process (context ID) that owns the memory. Any part may be left open ({@link #ANY_LEVEL},
 * {@link Security#ANY}, {@link #ANY_CONTEXT}): a space with an open part covers every value of it, as a
 * snapshot's memory dump without a {@code space} key serves every space.
 *
 * <p>The names follow OpenCSD's snapshot format, whose {@code [dump]} sections may carry a
 * {@code space=} key: {@code EL1N}, {@code EL2}, {@code EL3}, {@code EL1S}, {@code S}, {@code N},
 * {@code ANY}, and {@code EL0N}/{@code EL0S}, {@code ROOT} and {@code R} (Realm) of later Arm architectures.
 */
public record AddressSpace(int exceptionLevel, Security security, long contextId) {
    /** An exception level left open. */
    public static final int ANY_LEVEL = -1;
    /** A context ID left open. */
    public static final long ANY_CONTEXT = -1;
    /** Every space: the one space of a single program image. */
    public static final AddressSpace ANY = new AddressSpace(ANY_LEVEL, Security.ANY, ANY_CONTEXT);

    /** The security state of a space (Arm's Secure, Non-secure, and the Root and Realm states of RME). */
    public enum Security { ANY, SECURE, NON_SECURE, ROOT, REALM }

    public AddressSpace {
        if (exceptionLevel < ANY_LEVEL || exceptionLevel > 3) {
            throw new IllegalArgumentException("exception level " + exceptionLevel + " is not EL0 to EL3");
        }
        if (security == null) {
            throw new IllegalArgumentException("security state missing (use Security.ANY)");
        }
        if (contextId < ANY_CONTEXT) {
            throw new IllegalArgumentException("context ID " + contextId + " is negative");
        }
    }

    /** This space narrowed to one process. */
    public AddressSpace withContextId(long id) {
        return new AddressSpace(exceptionLevel, security, id);
    }

    /**
     * True if memory mapped for this space serves {@code code} running in {@code other}: each part of this
     * space is open or equal to that of {@code other}.
     */
    public boolean covers(AddressSpace other) {
        return (exceptionLevel == ANY_LEVEL || exceptionLevel == other.exceptionLevel)
                && (security == Security.ANY || security == other.security)
                && (contextId == ANY_CONTEXT || contextId == other.contextId);
    }

    /**
     * The space a snapshot's {@code space=} value names, or null when it names none that armtrace knows.
     * Case does not matter; a missing or empty value is {@link #ANY}.
     */
    public static AddressSpace parse(String name) {
        if (name == null || name.isBlank()) {
            return ANY;
        }
        String s = name.trim().toUpperCase(Locale.ROOT);
        switch (s) {
            case "ANY":
                return ANY;
            case "S":
                return new AddressSpace(ANY_LEVEL, Security.SECURE, ANY_CONTEXT);
            case "N":
                return new AddressSpace(ANY_LEVEL, Security.NON_SECURE, ANY_CONTEXT);
            case "ROOT":
                return new AddressSpace(3, Security.ROOT, ANY_CONTEXT);
            case "R":
                return new AddressSpace(ANY_LEVEL, Security.REALM, ANY_CONTEXT);
            case "EL3":
                // EL3 is always Secure (or Root with RME); OpenCSD names it without a state
                return new AddressSpace(3, Security.ANY, ANY_CONTEXT);
            default:
                break;
        }
        if (s.length() == 3 || s.length() == 4) {
            if (s.startsWith("EL") && s.charAt(2) >= '0' && s.charAt(2) <= '2') {
                int el = s.charAt(2) - '0';
                if (s.length() == 3) {
                    return new AddressSpace(el, Security.ANY, ANY_CONTEXT);
                }
                switch (s.charAt(3)) {
                    case 'S':
                        return new AddressSpace(el, Security.SECURE, ANY_CONTEXT);
                    case 'N':
                        return new AddressSpace(el, Security.NON_SECURE, ANY_CONTEXT);
                    case 'R':
                        return new AddressSpace(el, Security.REALM, ANY_CONTEXT);
                    default:
                        return null;
                }
            }
        }
        return null;
    }

    @Override
    public String toString() {
        if (equals(ANY)) {
            return "ANY";
        }
        StringBuilder b = new StringBuilder();
        b.append(exceptionLevel == ANY_LEVEL ? "EL*" : "EL" + exceptionLevel);
        b.append(switch (security) {
            case ANY -> "";
            case SECURE -> "S";
            case NON_SECURE -> "N";
            case ROOT -> " root";
            case REALM -> "R";
        });
        if (contextId != ANY_CONTEXT) {
            b.append(" context 0x").append(Long.toHexString(contextId));
        }
        return b.toString();
    }
}
