package io.armtrace.protocol.etm3;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.Isa;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * A seeded random program and a random run through it: an A32 region and a T32 region (16- and 32-bit
 * encodings) of straight-line code, conditional instructions, direct branches (B, BL, BLX immediate
 * across ISAs, CBZ, B&lt;c&gt;), indirect branches (BX lr, POP {pc}) and exceptions with returns. The
 * execution is what a core would do; the image is what the decoder reads.
 */
final class SyntheticProgram {
    static final long ARM_BASE = 0x8000;
    static final long THUMB_BASE = 0x20000;

    final ProgramImage image;
    final Execution execution;

    private final Random rnd;
    private final boolean mProfile;
    private final List<Long> armStarts = new ArrayList<>();
    private final List<Long> thumbStarts = new ArrayList<>();
    private final byte[] arm;
    private final byte[] thumb;

    SyntheticProgram(long seed, boolean mProfile, int steps) {
        this.rnd = new Random(seed);
        this.mProfile = mProfile;
        int armWords = 512;
        arm = new byte[armWords * 4];
        for (int i = 0; i < armWords; i++) {
            armStarts.add(ARM_BASE + 4L * i);
        }
        // T32 layout first (sizes), so that branches can target instruction starts
        thumb = new byte[4096];
        List<Integer> sizes = new ArrayList<>();
        int off = 0;
        while (off + 4 <= thumb.length) {
            int sz = rnd.nextInt(4) == 0 || off + 8 > thumb.length ? 4 : 2;
            thumbStarts.add(THUMB_BASE + off);
            sizes.add(sz);
            off += sz;
        }
        if (!mProfile) {
            for (int i = 0; i < armWords; i++) {
                putArm(i, armInstruction(ARM_BASE + 4L * i));
            }
            long last = ARM_BASE + 4L * (armWords - 1);
            putArm(armWords - 1, 0xEA000000 | (int) ((ARM_BASE - last - 8) >> 2) & 0xFFFFFF);
        }
        for (int i = 0; i < thumbStarts.size(); i++) {
            long a = thumbStarts.get(i);
            int o = (int) (a - THUMB_BASE);
            if (sizes.get(i) == 2) {
                putHalf(o, thumb16(a, i));
            } else if (i == thumbStarts.size() - 1) {
                long d = THUMB_BASE - a - 4; // B.W back to the start: the region never falls off its end
                int sgn = (int) (d >>> 24) & 1;
                int j1 = 1 - (((int) (d >> 23) & 1) ^ sgn);
                int j2 = 1 - (((int) (d >> 22) & 1) ^ sgn);
                putHalf(o, 0xF000 | sgn << 10 | (int) (d >> 12) & 0x3FF);
                putHalf(o + 2, 0x9000 | j1 << 13 | j2 << 11 | (int) (d >> 1) & 0x7FF);
            } else {
                int[] w = thumb32(a);
                putHalf(o, w[0]);
                putHalf(o + 2, w[1]);
            }
        }
        MemoryImage mem = new MemoryImage();
        if (!mProfile) {
            mem.add(ARM_BASE, arm, "arm");
        }
        mem.add(THUMB_BASE, thumb, "thumb");
        image = ProgramImage.of(mem);
        execution = run(steps);
    }

    private void putArm(int i, int w) {
        for (int k = 0; k < 4; k++) {
            arm[4 * i + k] = (byte) (w >>> (8 * k));
        }
    }

    private void putHalf(int o, int hw) {
        thumb[o] = (byte) hw;
        thumb[o + 1] = (byte) (hw >>> 8);
    }

    private long anyStart(boolean wantThumb) {
        List<Long> l = wantThumb ? thumbStarts : armStarts;
        return l.get(rnd.nextInt(l.size()));
    }

    private int armInstruction(long a) {
        int r = rnd.nextInt(100);
        int cond = rnd.nextInt(4) == 0 ? rnd.nextInt(14) : 14;
        if (r < 55) {
            return cond << 28 | 0x00800000 | rnd.nextInt(8) << 16 | rnd.nextInt(8) << 12 | rnd.nextInt(8); // ADD
        }
        if (r < 70) { // B / BL
            long t = anyStart(false);
            int imm = (int) ((t - a - 8) >> 2) & 0xFFFFFF;
            return cond << 28 | 0x0A000000 | (rnd.nextBoolean() ? 1 << 24 : 0) | imm;
        }
        if (r < 78) { // BLX imm to Thumb
            long t = anyStart(true);
            long d = t - a - 8;
            int imm = (int) (d >> 2) & 0xFFFFFF;
            int h = (int) (d >> 1) & 1;
            return 0xFA000000 | h << 24 | imm;
        }
        if (r < 86) {
            return cond << 28 | 0x012FFF1E; // BX lr
        }
        if (r < 92) {
            return cond << 28 | 0x08BD8000 | rnd.nextInt(0x100); // POP {..., pc}
        }
        return cond << 28 | 0x05900000 | rnd.nextInt(8) << 16 | rnd.nextInt(8) << 12; // LDR
    }

    private int thumb16(long a, int idx) {
        int r = rnd.nextInt(100);
        if (r < 60) {
            return 0x1800 | rnd.nextInt(0x200); // ADDS r, r, r
        }
        if (r < 75) { // B<c> within reach
            for (int tries = 0; tries < 8; tries++) {
                long t = thumbStarts.get(Math.max(0, Math.min(thumbStarts.size() - 1, idx + rnd.nextInt(60) - 30)));
                long d = t - a - 4;
                if (d >= -256 && d <= 254) {
                    return 0xD000 | rnd.nextInt(14) << 8 | (int) (d >> 1) & 0xFF;
                }
            }
            return 0xBF00;
        }
        if (r < 82) { // CBZ forward
            for (int k = idx + 1; k < thumbStarts.size(); k++) {
                long d = thumbStarts.get(k) - a - 4;
                if (d > 126) {
                    break;
                }
                if (d >= 0 && rnd.nextInt(4) == 0) {
                    return 0xB100 | (int) (d & 0x40) << 3 | (int) (d & 0x3E) << 2 | rnd.nextInt(8);
                }
            }
            return 0xBF00;
        }
        if (r < 90) {
            return 0x4770; // BX lr
        }
        if (r < 95) {
            return 0xBD00 | rnd.nextInt(0x100); // POP {..., pc}
        }
        return 0x4600 | rnd.nextInt(0x100) & 0x7F; // MOV (not pc)
    }

    private int[] thumb32(long a) {
        int r = rnd.nextInt(100);
        if (r < 50) {
            return new int[] {0xF8D0 | rnd.nextInt(8), rnd.nextInt(8) << 12 | rnd.nextInt(0x1000)}; // LDR.W
        }
        boolean toArm = !mProfile && r >= 85;
        long t = anyStart(!toArm);
        long d;
        int kind;
        if (toArm) {
            d = t - ((a + 4) & ~3L);
            kind = 4; // BLX
        } else if (r < 70) {
            d = t - a - 4;
            kind = 5; // BL
        } else {
            d = t - a - 4;
            kind = 1; // B.W
        }
        int s = (int) (d >>> 24) & 1;
        int i1 = (int) (d >> 23) & 1;
        int i2 = (int) (d >> 22) & 1;
        int j1 = 1 - (i1 ^ s);
        int j2 = 1 - (i2 ^ s);
        int hw1 = 0xF000 | s << 10 | (int) (d >> 12) & 0x3FF;
        int hw2 = 0x8000 | kind << 12 | j1 << 13 | j2 << 11 | (int) (d >> 1) & 0x7FF;
        if (kind == 4) {
            hw2 &= ~1;
        }
        return new int[] {hw1, hw2};
    }

    // ---------------------------------------------------------------- running it

    private Execution run(int steps) {
        io.armtrace.isa.InstructionClassifier classifier =
                new io.armtrace.isa.InstructionClassifier(mProfile ? io.armtrace.isa.Profile.M : io.armtrace.isa.Profile.AR);
        io.armtrace.isa.Insn code = new io.armtrace.isa.Insn();
        List<ExecutionEvent> ev = new ArrayList<>();
        Deque<Long> returns = new ArrayDeque<>();
        Deque<Isa> returnIsas = new ArrayDeque<>();
        boolean thumbNow = mProfile || rnd.nextBoolean();
        long pc = anyStart(thumbNow);
        Isa isa = thumbNow ? Isa.T32 : Isa.A32;
        for (int k = 0; k < steps; k++) {
            if (!classifier.classify(image.memory(), pc, isa, 0, code)) {
                throw new IllegalStateException("ran off the image at " + Long.toHexString(pc));
            }
            boolean conditional = isa == Isa.A32 ? (image.memory().u32(pc) >>> 28) != 14
                    : (image.memory().u16(pc) & 0xF000) == 0xD000 || (image.memory().u16(pc) & 0xF500) == 0xB100;
            boolean executed = !conditional || rnd.nextInt(3) != 0;
            ev.add(new ExecutionEvent.Step(pc, isa, code.size, executed));
            long next = pc + code.size;
            Isa nextIsa = isa;
            if (executed) {
                switch (code.kind) {
                    case DIRECT_BRANCH -> {
                        next = code.target;
                        nextIsa = code.targetIsa;
                    }
                    case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                        boolean th = mProfile || rnd.nextBoolean();
                        next = anyStart(th);
                        nextIsa = th ? Isa.T32 : Isa.A32;
                    }
                    default -> {
                    }
                }
            }
            if (rnd.nextInt(100) < 2) {
                int number = mProfile ? new int[] {2, 3, 11, 14, 15, 16, 17, 23, 24, 40, 200}[rnd.nextInt(11)]
                        : new int[] {1, 2, 3, 4, 6, 7}[rnd.nextInt(6)];
                boolean th = mProfile || rnd.nextBoolean();
                long handler = anyStart(th);
                ev.add(new ExecutionEvent.ExceptionTaken(number, next, handler));
                returns.push(next);
                returnIsas.push(nextIsa);
                next = handler;
                nextIsa = th ? Isa.T32 : Isa.A32;
            } else if (!returns.isEmpty() && rnd.nextInt(100) < 3) {
                next = returns.pop();
                nextIsa = returnIsas.pop();
                ev.add(new ExecutionEvent.ExceptionReturned(next));
            }
            pc = next;
            isa = nextIsa;
        }
        return new Execution(ev);
    }
}
