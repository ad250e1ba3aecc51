package io.armtrace.protocol.etm2;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.TraceElement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded random execution of ARMv5TE code (ARM and Thumb) with its program image: straight-line code,
 * conditional instructions that fail, direct branches (B, BL, Bcc, Thumb BL/BLX pairs), indirect branches
 * (BX, LDR pc, POP {pc}), SWI, interrupts and exception returns. The image is written as the walk goes, so
 * every instruction the execution revisits behaves as its encoding says.
 */
final class SyntheticProgram {
    static final long ARM_BASE = 0x8000;
    static final long THUMB_BASE = 0x20000;
    static final int REGION = 0x1000;

    final MemoryImage image = new MemoryImage();
    final Execution execution;
    private final byte[] arm = new byte[REGION];
    private final byte[] thumb = new byte[REGION];
    private final byte[] vectors = new byte[0x20];
    private final Map<Long, Integer> kinds = new HashMap<>();
    private final Random rnd;
    private final Map<Long, long[]> branchInfo = new HashMap<>();
    private final java.util.Set<Long> targets = new java.util.HashSet<>();

    // instruction kinds of the walk
    private static final int PLAIN = 0, COND = 1, BRANCH = 2, INDIRECT = 3, SWI = 4, RETURN = 5, BL_PAIR = 6,
            BLX_PAIR = 7, CBRANCH = 8, SECOND_HALF = 9;

    SyntheticProgram(long seed, int steps) {
        rnd = new Random(seed);
        List<ExecutionEvent> ev = new ArrayList<>();
        ArrayDeque<long[]> returns = new ArrayDeque<>();
        long swiHandler = ARM_BASE + 0x800;
        long irqHandler = ARM_BASE + 0xC00;
        putArm(vectors, 0x08, branchArm(0x08, swiHandler, false, 14));
        putArm(vectors, 0x18, branchArm(0x18, irqHandler, false, 14));
        kinds.put(0x08L, BRANCH);
        kinds.put(0x18L, BRANCH);
        branchInfo.put(0x08L, new long[] {swiHandler, 14});
        branchInfo.put(0x18L, new long[] {irqHandler, 14});
        long pc = ARM_BASE;
        Isa isa = Isa.A32;
        for (int s = 0; s < steps; s++) {
            // interrupts arrive between instructions, now and then
            if (rnd.nextInt(97) == 0 && returns.size() < 8 && pc >= ARM_BASE) {
                ev.add(new ExecutionEvent.ExceptionTaken(6, pc, 0x18));
                returns.push(new long[] {pc, isa == Isa.T32 ? 1 : 0});
                pc = 0x18;
                isa = Isa.A32;
            }
            Integer k = kinds.get(pc);
            int kind = k != null ? k : choose(pc, isa, !returns.isEmpty());
            if (k == null) {
                write(pc, isa, kind);
            }
            long next;
            Isa nextIsa = isa;
            boolean executed = true;
            int size = isa == Isa.A32 ? 4 : 2;
            switch (kind) {
                case PLAIN -> next = pc + size;
                case COND -> {
                    executed = rnd.nextBoolean();
                    next = pc + size;
                }
                case BRANCH, CBRANCH -> {
                    long t = target(pc, isa);
                    boolean cond = condOf(pc, isa) != 14;
                    executed = !cond || rnd.nextInt(3) != 0;
                    next = executed ? t : pc + size;
                }
                case BL_PAIR, BLX_PAIR -> {
                    size = 4;
                    next = target(pc, isa);
                    nextIsa = kind == BLX_PAIR ? Isa.A32 : Isa.T32;
                }
                case INDIRECT -> {
                    if (rnd.nextInt(4) == 0) {
                        nextIsa = Isa.T32;
                        next = randomStart(Isa.T32);
                    } else {
                        nextIsa = rnd.nextBoolean() ? Isa.A32 : Isa.T32;
                        next = randomStart(nextIsa);
                    }
                }
                case SWI -> {
                    next = 0x08;
                    nextIsa = Isa.A32;
                }
                case RETURN -> {
                    if (!returns.isEmpty()) {
                        long[] r = returns.pop();
                        next = r[0];
                        nextIsa = r[1] == 1 ? Isa.T32 : Isa.A32;
                    } else {
                        nextIsa = Isa.A32;
                        next = randomStart(Isa.A32);
                    }
                }
                default -> throw new IllegalStateException("walked into the middle of an instruction at " + pc);
            }
            ev.add(new ExecutionEvent.Step(pc, isa, size, executed));
            if (kind == SWI) {
                ev.add(new ExecutionEvent.ExceptionTaken(2, pc + size, 0x08));
                returns.push(new long[] {pc + size, isa == Isa.T32 ? 1 : 0});
            }
            pc = next;
            isa = nextIsa;
        }
        image.add(0, vectors, "vectors");
        image.add(ARM_BASE, arm, "arm");
        image.add(THUMB_BASE, thumb, "thumb");
        execution = new Execution(ev);
    }

    private int choose(long pc, Isa isa, boolean canReturn) {
        long base = isa == Isa.A32 ? ARM_BASE : THUMB_BASE;
        boolean nearEnd = pc + 16 >= base + REGION;
        while (true) {
            int r = rnd.nextInt(100);
            int kind;
            if (isa == Isa.A32) {
                kind = r < 50 ? PLAIN : r < 62 ? COND : r < 80 ? BRANCH : r < 90 ? INDIRECT : r < 94 ? SWI
                        : canReturn ? RETURN : PLAIN;
            } else {
                kind = r < 50 ? PLAIN : r < 62 ? CBRANCH : r < 72 ? BRANCH : r < 80 ? BL_PAIR : r < 85 ? BLX_PAIR
                        : r < 94 ? INDIRECT : r < 97 ? SWI : PLAIN;
            }
            if (nearEnd && (kind == PLAIN || kind == COND || kind == CBRANCH || kind == SWI)) {
                continue;
            }
            if ((kind == BL_PAIR || kind == BLX_PAIR) && (kinds.containsKey(pc + 2) || targets.contains(pc + 2)
                    || nearEnd)) {
                continue;
            }
            return kind;
        }
    }


    private long target(long pc, Isa isa) {
        return branchInfo.get(pc)[0];
    }

    private int condOf(long pc, Isa isa) {
        return (int) branchInfo.get(pc)[1];
    }

    private long randomStart(Isa isa) {
        long base = isa == Isa.A32 ? ARM_BASE : THUMB_BASE;
        int align = isa == Isa.A32 ? 4 : 2;
        while (true) {
            long a = base + (long) rnd.nextInt(REGION / align - 8) * align;
            Integer k = kinds.get(a);
            if ((k == null && !kinds.containsKey(a - 2)) || (k != null && k != SECOND_HALF)) {
                if (k == null && isa == Isa.T32 && kinds.containsKey(a - 2) && kinds.get(a - 2) >= BL_PAIR
                        && kinds.get(a - 2) <= BLX_PAIR) {
                    continue;
                }
                if (a >= 0x8800 && a < 0x8810 || a >= 0x8C00 && a < 0x8C10) {
                    continue; // keep the handler entries for the vectors
                }
                return a;
            }
        }
    }

    private void write(long pc, Isa isa, int kind) {
        kinds.put(pc, kind);
        if (isa == Isa.A32) {
            int op;
            switch (kind) {
                case PLAIN -> op = 0xE0800001 | rnd.nextInt(8) << 12;
                case COND -> op = rnd.nextInt(14) << 28 | 0x00800001 | rnd.nextInt(8) << 12;
                case BRANCH -> {
                    long t = randomStart(Isa.A32);
                    int cond = rnd.nextInt(3) == 0 ? 1 : 14;
                    op = branchArm(pc, t, rnd.nextBoolean(), cond);
                    branchInfo.put(pc, new long[] {t, cond});
                    targets.add(t);
                }
                case INDIRECT -> op = rnd.nextBoolean() ? 0xE12FFF10 | rnd.nextInt(15) : 0xE59FF000 | rnd.nextInt(64) << 2;
                case SWI -> op = 0xEF000000 | rnd.nextInt(1 << 24);
                case RETURN -> op = 0xE1B0F00E;
                default -> throw new IllegalStateException();
            }
            if (pc < 0x20) {
                putArm(vectors, (int) pc, op);
            } else {
                putArm(arm, (int) (pc - ARM_BASE), op);
            }
            return;
        }
        int off = (int) (pc - THUMB_BASE);
        switch (kind) {
            case PLAIN -> putThumb(off, 0x1C08 | rnd.nextInt(8));
            case CBRANCH -> {
                long t = thumbTarget(pc, 250);
                int cond = rnd.nextInt(14);
                putThumb(off, 0xD000 | cond << 8 | (int) (((t - pc - 4) >> 1) & 0xFF));
                branchInfo.put(pc, new long[] {t, cond});
                targets.add(t);
            }
            case BRANCH -> {
                long t = thumbTarget(pc, 2000);
                putThumb(off, 0xE000 | (int) (((t - pc - 4) >> 1) & 0x7FF));
                branchInfo.put(pc, new long[] {t, 14});
                targets.add(t);
            }
            case BL_PAIR, BLX_PAIR -> {
                long t = kind == BL_PAIR ? randomStart(Isa.T32) : randomStart(Isa.A32);
                long offv = t - (pc + 4);
                if (kind == BLX_PAIR) {
                    offv = t - ((pc + 4) & ~3L);
                }
                putThumb(off, 0xF000 | (int) ((offv >> 12) & 0x7FF));
                int low = (int) ((offv >> 1) & 0x7FF);
                putThumb(off + 2, (kind == BL_PAIR ? 0xF800 : 0xE800) | low);
                kinds.put(pc + 2, SECOND_HALF);
                long real = kind == BL_PAIR ? (pc + 4 + offv) : ((pc + 4 + offv) & ~3L);
                branchInfo.put(pc, new long[] {real, 14});
                targets.add(real);
            }
            case INDIRECT -> putThumb(off, rnd.nextBoolean() ? 0x4700 | rnd.nextInt(15) << 3 : 0xBD00 | rnd.nextInt(256));
            case SWI -> putThumb(off, 0xDF00 | rnd.nextInt(256));
            default -> throw new IllegalStateException();
        }
    }

    private long thumbTarget(long pc, int range) {
        for (int tries = 0; tries < 100; tries++) {
            long t = pc + 4 + (rnd.nextInt(range) - range / 2) * 2L;
            if (t < THUMB_BASE || t >= THUMB_BASE + REGION - 16) {
                continue;
            }
            Integer k = kinds.get(t);
            if (k != null && k == SECOND_HALF) {
                continue;
            }
            if (k == null && kinds.containsKey(t - 2) && kinds.get(t - 2) >= BL_PAIR && kinds.get(t - 2) <= BLX_PAIR) {
                continue;
            }
            return t;
        }
        return pc + 4 < THUMB_BASE + REGION - 16 && !kinds.containsKey(pc + 4) ? pc + 4 : pc;
    }

    static int branchArm(long pc, long target, boolean link, int cond) {
        int imm = (int) ((target - pc - 8) >> 2) & 0xFFFFFF;
        return cond << 28 | 0x0A000000 | (link ? 0x01000000 : 0) | imm;
    }

    private static void putArm(byte[] b, int off, int op) {
        b[off] = (byte) op;
        b[off + 1] = (byte) (op >> 8);
        b[off + 2] = (byte) (op >> 16);
        b[off + 3] = (byte) (op >> 24);
    }

    private void putThumb(int off, int hw) {
        thumb[off] = (byte) hw;
        thumb[off + 1] = (byte) (hw >> 8);
    }

    /** One executed (or condition-failed) instruction: what the round trip compares. */
    record Insn(long address, Isa isa, int size, boolean executed) {
    }

    static List<Insn> steps(Execution ex) {
        List<Insn> out = new ArrayList<>();
        for (ExecutionEvent.Step s : ex.steps()) {
            out.add(new Insn(s.address(), s.isa(), s.size(), s.executed()));
        }
        return out;
    }

    /** Expands instruction ranges by the sizes they carry (checked against the execution's by the callers). */
    static List<Insn> expand(List<TraceElement> elements) {
        List<Insn> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof InstructionRange r) {
                long a = r.start();
                for (int k = 0; k < r.count(); k++) {
                    boolean last = k == r.count() - 1;
                    int size = r.sizeOf(k);
                    out.add(new Insn(a, r.isa(), size, !last || r.lastExecuted()));
                    a += size;
                }
            }
        }
        return out;
    }
}
