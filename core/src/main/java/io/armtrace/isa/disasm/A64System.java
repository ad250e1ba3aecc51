package io.armtrace.isa.disasm;

import static io.armtrace.isa.disasm.A64Disassembler.COND;
import static io.armtrace.isa.disasm.A64Disassembler.bit;
import static io.armtrace.isa.disasm.A64Disassembler.bits;
import static io.armtrace.isa.disasm.A64Disassembler.dec;
import static io.armtrace.isa.disasm.A64Disassembler.hex;
import static io.armtrace.isa.disasm.A64Disassembler.op;
import static io.armtrace.isa.disasm.A64Disassembler.r;
import static io.armtrace.isa.disasm.A64Disassembler.x;
import static io.armtrace.isa.disasm.A64Disassembler.xsp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A64 branches, exception-generating and system instructions (DDI 0487 C4.1.3): hints, barriers,
 * PSTATE access, SYS aliases (DC, IC, AT, TLBI), MRS/MSR with the system register names of
 * a64-system-names.txt (the architecture's names, in the set binutils 2.40 knows; see
 * tools/isa-oracle/a64_system_names.py).
 */
final class A64System {
    private A64System() {
    }

    private static final String[] HINTS = new String[0x28];
    private static final String[] BARRIER_OPTIONS = {null, "oshld", "oshst", "osh", null, "nshld", "nshst", "nsh",
        null, "ishld", "ishst", "ish", null, "ld", "st", "sy"};

    static {
        String[] h = {"nop", "yield", "wfe", "wfi", "sev", "sevl", null, "xpaclri", "pacia1716", null, "pacib1716", null,
            "autia1716", null, "autib1716", null, "esb", "psb\tcsync", "tsb\tcsync", null, "csdb", null, null, null,
            "paciaz", "paciasp", "pacibz", "pacibsp", "autiaz", "autiasp", "autibz", "autibsp", "bti", null, "bti\tc",
            null, "bti\tj", null, "bti\tjc", null};
        System.arraycopy(h, 0, HINTS, 0, h.length);
    }

    /** System register and SYS alias names, loaded on first use. */
    private static final class Names {
        static final Map<Integer, String> READ = new HashMap<>();
        static final Map<Integer, String> WRITE = new HashMap<>();
        static final Map<Integer, String[]> SYS = new HashMap<>();

        static {
            try (InputStream in = A64System.class.getResourceAsStream("a64-system-names.txt")) {
                if (in == null) {
                    throw new IllegalStateException("a64-system-names.txt missing from the class path");
                }
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.isEmpty() || line.charAt(0) == '#') {
                        continue;
                    }
                    String[] f = line.split(" ");
                    int key = Integer.parseInt(f[1], 16);
                    switch (f[0]) {
                        case "r":
                            READ.put(key, f[2]);
                            break;
                        case "w":
                            WRITE.put(key, f[2]);
                            break;
                        default:
                            SYS.put(key, new String[] {f[2], f[3], f[4]});
                            break;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static String branchesExceptionsSystem(int w, long address, Disassembler.Names names) {
        if ((w & 0x7C000000) == 0x14000000) {
            long target = address + ((long) (w << 6) >> 4);
            return op(w < 0 ? "bl" : "b", names.target(target));
        }
        if ((w & 0xFF000000) == 0x54000000) {
            long target = address + ((long) (w << 8) >> 13 << 2);
            return op((bit(w, 4) ? "bc." : "b.") + COND[w & 15], names.target(target));
        }
        if ((w & 0x7E000000) == 0x34000000) {
            long target = address + ((long) (w << 8) >> 13 << 2);
            return op(bit(w, 24) ? "cbnz" : "cbz", r(bit(w, 31), w) + ", " + names.target(target));
        }
        if ((w & 0x7E000000) == 0x36000000) {
            long target = address + ((long) (w << 13) >> 18 << 2);
            int b = (w >>> 31) << 5 | bits(w, 23, 19);
            return op(bit(w, 24) ? "tbnz" : "tbz", r(bit(w, 31), w) + ", " + dec(b) + ", " + names.target(target));
        }
        if ((w & 0xFF000000) == 0xD4000000) {
            return exception(w);
        }
        if ((w & 0xFFC00000) == 0xD5000000) {
            return system(w);
        }
        if ((w & 0xFE000000) == 0xD6000000) {
            return branchRegister(w);
        }
        return null;
    }

    private static String exception(int w) {
        int opc = bits(w, 23, 21);
        int op2 = bits(w, 4, 2);
        int ll = w & 3;
        int imm = bits(w, 20, 5);
        if (op2 != 0) {
            return null;
        }
        switch (opc << 2 | ll) {
            case 1:
                return op("svc", hex(imm));
            case 2:
                return op("hvc", hex(imm));
            case 3:
                return op("smc", hex(imm));
            case 4:
                return op("brk", hex(imm));
            case 8:
                return op("hlt", hex(imm));
            case 0xC: // TCANCEL (FEAT_TME)
                return bit(w, 20) ? null : op("tcancel", hex(imm));
            case 21:
            case 22:
            case 23:
                return imm == 0 ? op("dcps" + ll, "").trim() : op("dcps" + ll, hex(imm));
            default:
                return null;
        }
    }

    private static String system(int w) {
        boolean l = bit(w, 21);
        int op0 = bits(w, 20, 19);
        int op1 = bits(w, 18, 16);
        int crn = bits(w, 15, 12);
        int crm = bits(w, 11, 8);
        int op2 = bits(w, 7, 5);
        int rt = w & 31;
        if (op0 == 0) {
            if (crn == 2 && op1 == 3 && rt == 31 && !l) { // hints
                int n = crm << 3 | op2;
                String h = n < HINTS.length ? HINTS[n] : null;
                if (h != null) {
                    return h;
                }
                return op("hint", hex(n));
            }
            String b = crn == 3 && op1 == 3 && !l ? barrier(crm, op2, rt) : null;
            if (b != null) {
                return b;
            }
            String p = crn == 4 && rt == 31 && !l ? pstate(op1, crm, op2) : null;
            if (p != null) {
                return p;
            }
            if (crn == 1 && op1 == 3 && crm == 0 && op2 <= 1 && !l) { // WFET, WFIT
                return op(op2 == 0 ? "wfet" : "wfit", x(rt));
            }
            String generic = "s0_" + op1 + "_c" + crn + "_c" + crm + "_" + op2;
            return l ? op("mrs", x(rt) + ", " + generic) : op("msr", generic + ", " + x(rt));
        }
        if (op0 == 1) {
            if (l) {
                return op("sysl", x(rt) + ", " + dec(op1) + ", C" + crn + ", C" + crm + ", " + dec(op2));
            }
            String[] alias = Names.SYS.get(op1 << 11 | crn << 7 | crm << 3 | op2);
            if (alias != null) {
                return alias[2].equals("1") ? op(alias[0], alias[1] + ", " + x(rt)) : op(alias[0], alias[1]);
            }
            return op("sys", dec(op1) + ", C" + crn + ", C" + crm + ", " + dec(op2) + (rt == 31 ? "" : ", " + x(rt)));
        }
        int key = (op0 & 1) << 14 | op1 << 11 | crn << 7 | crm << 3 | op2;
        String name = null;
        if (!l) {
            name = Names.WRITE.get(key);
        }
        if (name == null) {
            name = Names.READ.get(key);
        }
        if (name == null) {
            name = "s" + op0 + "_" + op1 + "_c" + crn + "_c" + crm + "_" + op2;
        }
        return l ? op("mrs", x(rt) + ", " + name) : op("msr", name + ", " + x(rt));
    }

    private static String barrier(int crm, int op2, int rt) {
        if (rt != 31) {
            return null;
        }
        switch (op2) {
            case 2:
                return crm == 15 ? "clrex" : op("clrex", hex(crm));
            case 4:
                if (crm == 0) {
                    return "ssbb";
                }
                if (crm == 4) {
                    return "pssbb";
                }
                return op("dsb", option(crm));
            case 5:
                return op("dmb", option(crm));
            case 6:
                return crm == 15 ? "isb" : op("isb", hex(crm));
            case 7:
                return crm == 0 ? "sb" : null;
            case 1:
                if ((crm & 3) == 2) { // DSB with the nXS qualifier (FEAT_XS)
                    String[] nxs = {"oshnxs", "nshnxs", "ishnxs", "synxs"};
                    return op("dsb", nxs[crm >>> 2]);
                }
                return null;
            case 3:
                return crm == 0 ? "tcommit" : null;
            default:
                return null;
        }
    }

    private static String option(int crm) {
        String o = BARRIER_OPTIONS[crm];
        return o != null ? o : String.format("#0x%02x", crm);
    }

    private static String pstate(int op1, int crm, int op2) {
        if (op1 == 0 && crm == 0 && op2 <= 2) {
            return new String[] {"cfinv", "xaflag", "axflag"}[op2];
        }
        String field = null;
        if (op1 == 0) {
            field = op2 == 3 ? "uao" : op2 == 4 ? "pan" : op2 == 5 ? "spsel" : null;
        } else if (op1 == 3) {
            field = op2 == 1 ? "ssbs" : op2 == 2 ? "dit" : op2 == 4 ? "tco" : op2 == 6 ? "daifset" : op2 == 7 ? "daifclr" : null;
            if (op2 == 3 && (crm & 0xE) != 0 && (crm & 0xE) <= 6) { // SVCR (FEAT_SME)
                String[] modes = {null, "svcrsm", "svcrza", "svcrsmza"};
                return op("msr", modes[crm >>> 1] + ", " + hex(crm & 1));
            }
        }
        if (field == null) {
            return null;
        }
        return op("msr", field + ", " + hex(crm));
    }

    private static String branchRegister(int w) {
        int opc = bits(w, 24, 21);
        int op2 = bits(w, 20, 16);
        int op3 = bits(w, 15, 10);
        int rn = bits(w, 9, 5);
        int op4 = w & 31;
        if (op2 != 31) {
            return null;
        }
        boolean plain = op3 == 0 && op4 == 0;
        boolean pacZero = (op3 & 0x3E) == 2 && op4 == 31;
        String key = bit(w, 10) ? "b" : "a";
        switch (opc) {
            case 0:
                if (plain) {
                    return op("br", x(rn));
                }
                return pacZero ? op("bra" + key + "z", x(rn)) : null;
            case 1:
                if (plain) {
                    return op("blr", x(rn));
                }
                return pacZero ? op("blra" + key + "z", x(rn)) : null;
            case 2:
                if (plain) {
                    return rn == 30 ? "ret" : op("ret", x(rn));
                }
                return pacZero && rn == 31 ? "reta" + key : null;
            case 4:
                if (rn != 31) {
                    return null;
                }
                return plain ? "eret" : pacZero ? "ereta" + key : null;
            case 5:
                return plain && rn == 31 ? "drps" : null;
            case 8:
                return (op3 & 0x3E) == 2 ? op("bra" + key, x(rn) + ", " + xsp(op4)) : null;
            case 9:
                return (op3 & 0x3E) == 2 ? op("blra" + key, x(rn) + ", " + xsp(op4)) : null;
            default:
                return null;
        }
    }
}
