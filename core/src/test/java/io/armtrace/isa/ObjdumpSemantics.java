package io.armtrace.isa;


import io.armtrace.trace.WaypointKind;

/**
 * What GNU objdump's disassembly text says an instruction does to the PC: an interpretation of the
 * mnemonic and operands in the Arm assembler language (UAL), written independently of the classifier's
 * bit decoding so that the two can be compared.
 */
final class ObjdumpSemantics {
    private static final String[] CONDS = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt",
        "gt", "le", "al"};
    private static final String[] DATA_PROCESSING = {"mov", "mvn", "add", "sub", "rsb", "adc", "sbc", "rsc", "and",
        "orr", "eor", "bic", "lsl", "lsr", "asr", "ror", "rrx", "orn"};
    private static final String[] LDM_MODES = {"", "ia", "ib", "da", "db", "fd", "fa", "ea", "ed"};

    /** Kind the text implies. */
    WaypointKind kind;
    /** Condition 0-14 from the mnemonic's suffix (14 when it has none). */
    int cond = 14;
    /** True for BL and BLX. */
    boolean link;
    /** True if the instruction is a direct branch per its mnemonic (b, bl, blx imm, cbz, cbnz). */
    boolean direct;
    /** True if the text was recognised as a PC-writing or exception form and cond was parsed from it. */
    boolean condKnown;
    /** True for DMB and DSB, and the CP15 c7, c10, 4/5 operations. */
    boolean dataBarrier;
    /**
     * True if the text writes the PC in a form the architecture makes UNPREDICTABLE (for example
     * {@code ubfx pc, ...}, {@code mov.w pc, r0}, {@code mov pc, r0, lsl r1}): what such an encoding
     * does is not defined, so there is nothing to compare.
     */
    boolean unpredictable;

    private ObjdumpSemantics() {
    }

    /** Condition code for a suffix, -1 if it is not one ("hs"/"lo" are aliases of cs/cc). */
    static int condCode(String s) {
        if (s.isEmpty()) {
            return 14;
        }
        if (s.equals("hs")) {
            return 2;
        }
        if (s.equals("lo")) {
            return 3;
        }
        for (int i = 0; i < CONDS.length; i++) {
            if (CONDS[i].equals(s)) {
                return i;
            }
        }
        return -1;
    }

    /** The condition if {@code m} is {@code base} followed by an optional condition suffix, else -1. */
    static int withCond(String m, String base) {
        return m.startsWith(base) ? condCode(m.substring(base.length())) : -1;
    }

    static ObjdumpSemantics of(String mnemonic, String operands, boolean hasTarget) {
        return of(mnemonic, operands, hasTarget, false);
    }

    /** @param t32Wide true for a 32-bit T32 instruction, where data processing into the pc is UNPREDICTABLE */
    static ObjdumpSemantics of(String mnemonic, String operands, boolean hasTarget, boolean t32Wide) {
        ObjdumpSemantics s = new ObjdumpSemantics();
        s.kind = WaypointKind.NONE;
        String m = mnemonic.toLowerCase();
        if (m.endsWith(".w") || m.endsWith(".n")) {
            m = m.substring(0, m.length() - 2);
        }
        String ops = operands.trim();
        int comma = ops.indexOf(',');
        String first = (comma < 0 ? ops : ops.substring(0, comma)).trim();

        int c;
        // direct branches: objdump prints the target address as the last operand
        if (hasTarget) {
            for (String base : new String[] {"blx", "bl", "b"}) {
                if ((c = withCond(m, base)) >= 0) {
                    return s.set(WaypointKind.DIRECT_BRANCH, c, !base.equals("b"), true);
                }
            }
            if (m.equals("cbz") || m.equals("cbnz")) {
                return s.set(WaypointKind.DIRECT_BRANCH, 14, false, true);
            }
        }
        for (String base : new String[] {"bxj", "blxns", "bxns", "blx", "bx"}) {
            if ((c = withCond(m, base)) >= 0) {
                return s.set(WaypointKind.INDIRECT_BRANCH, c, base.startsWith("blx"), false);
            }
        }
        if ((c = withCond(m, "tbb")) >= 0 || (c = withCond(m, "tbh")) >= 0) {
            return s.set(WaypointKind.INDIRECT_BRANCH, c, false, false);
        }
        for (String base : new String[] {"svc", "swi", "smc", "hvc"}) {
            if ((c = withCond(m, base)) >= 0) {
                return s.set(WaypointKind.EXCEPTION_CALL, c, false, false);
            }
        }
        if (m.equals("bkpt") || m.equals("udf")) {
            return s.set(WaypointKind.EXCEPTION_CALL, 14, false, false);
        }
        if ((c = withCond(m, "eret")) >= 0) {
            return s.set(WaypointKind.EXCEPTION_RETURN, c, false, false);
        }
        if (m.startsWith("rfe")) {
            return s.set(WaypointKind.EXCEPTION_RETURN, 14, false, false);
        }
        if ((c = withCond(m, "isb")) >= 0) {
            return s.set(WaypointKind.BARRIER, c, false, false);
        }
        // MCR p15, 0, Rt, c7, c5, 4: the CP15 ISB (objdump: "mcr 15, 0, r0, cr7, cr5, {4}")
        if ((c = withCond(m, "mcr")) >= 0 && ops.replace(" ", "").matches("p?15,0,\\w+,cr7,cr5,\\{4\\}")) {
            return s.set(WaypointKind.BARRIER, c, false, false);
        }
        if ((c = withCond(m, "dmb")) >= 0 || (c = withCond(m, "dsb")) >= 0
                || ((c = withCond(m, "mcr")) >= 0 && ops.replace(" ", "").matches("p?15,0,\\w+,cr7,cr10,\\{[45]\\}"))) {
            s.dataBarrier = true;
            return s;
        }
        boolean listHasPc = ops.contains("{") && listContainsPc(ops);
        if ((c = withCond(m, "pop")) >= 0 || (c = ldmCond(m)) >= 0) {
            if (listHasPc) {
                return s.set(ops.endsWith("^") ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH, c, false,
                        false);
            }
            return s;
        }
        if (!first.equals("pc")) {
            return s;
        }
        // from here on: the destination register is the PC
        if ((c = withCond(m, "ldr")) >= 0) {
            return s.set(WaypointKind.INDIRECT_BRANCH, c, false, false);
        }
        for (String base : DATA_PROCESSING) {
            boolean plain = (c = withCond(m, base)) >= 0;
            boolean flags = !plain && (c = withCond(m, base + "s")) >= 0;
            if (!plain && !flags) {
                continue;
            }
            if (t32Wide) {
                // T32: only SUBS pc, lr, #imm writes the PC (B9.3.19); the rest is UNPREDICTABLE
                if (flags && base.equals("sub") && ops.replace(" ", "").startsWith("pc,lr,#")) {
                    return s.set(WaypointKind.EXCEPTION_RETURN, c, false, false);
                }
                break;
            }
            if (ops.matches(".*,\\s*(lsl|lsr|asr|ror)\\s+[a-z].*")) {
                break; // A32 register-shifted register with Rd = pc: UNPREDICTABLE (A8.8.106 etc.)
            }
            // SUBS pc, lr / MOVS pc, lr...: the flag-setting forms copy the SPSR to the CPSR
            return s.set(flags ? WaypointKind.EXCEPTION_RETURN : WaypointKind.INDIRECT_BRANCH, c, false, false);
        }
        for (String base : new String[] {"cmp", "cmn", "tst", "teq", "str", "push", "stm", "pld", "pli", "mcr"}) {
            if (m.startsWith(base)) {
                return s; // reads the PC, does not write it
            }
        }
        s.unpredictable = true;
        return s;
    }

    private ObjdumpSemantics set(WaypointKind k, int c, boolean link, boolean direct) {
        this.kind = k;
        this.cond = c;
        this.link = link;
        this.direct = direct;
        this.condKnown = true;
        return this;
    }

    /** Condition of an LDM mnemonic in UAL (ldm{mode}{cond}) or pre-UAL (ldm{cond}{mode}) order, else -1. */
    static int ldmCond(String m) {
        if (!m.startsWith("ldm")) {
            return -1;
        }
        String rest = m.substring(3);
        for (String mode : LDM_MODES) {
            if (rest.startsWith(mode)) {
                int c = condCode(rest.substring(mode.length()));
                if (c >= 0) {
                    return c;
                }
            }
            if (rest.endsWith(mode)) {
                int c = condCode(rest.substring(0, rest.length() - mode.length()));
                if (c >= 0) {
                    return c;
                }
            }
        }
        return -1;
    }

    static boolean listContainsPc(String ops) {
        int open = ops.indexOf('{');
        int close = ops.indexOf('}', open);
        if (open < 0 || close < 0) {
            return false;
        }
        for (String r : ops.substring(open + 1, close).split(",")) {
            if (r.trim().equals("pc")) {
                return true;
            }
        }
        return false;
    }
}
