package io.armtrace.groundtruth;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Prints the characterisation table of the corpus (tools/groundtruth/README.md): run by
 * tools/groundtruth/generate.sh after it has rebuilt the fixtures.
 */
public final class Characterise {
    private Characterise() {
    }

    public static void main(String[] args) {
        System.out.println("| fixture | core | instructions | A32 | T32 | 32-bit T32 | condition failed | exceptions (number x count) | max call depth | code bytes run |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---|---:|---:|");
        for (String name : Corpus.names()) {
            System.out.println(row(name));
        }
        for (String name : Corpus.userModeNames()) {
            System.out.println(row(name));
        }
        System.out.println();
        System.out.println("| fixture | core | instructions | A64 | T32 | 32-bit T32 | condition failed | conditional branches taken / not taken | exceptions (number x count) | max call depth | code bytes run |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|");
        for (String name : Corpus.armv8Names()) {
            System.out.println(armv8Row(name));
        }
        for (String name : Corpus.armv8UserModeNames()) {
            System.out.println(armv8Row(name));
        }
    }

    /** Counts of one fixture, for both tables. */
    private static final class Counts {
        long steps;
        long a32;
        long a64;
        long t32;
        long t32Wide;
        long failed;
        long taken;
        long notTaken;
        final java.util.TreeMap<Integer, Integer> exceptions = new java.util.TreeMap<>();
        long codeBytes;
        int maxDepth;

        String exceptionList() {
            StringBuilder ex = new StringBuilder();
            exceptions.forEach((k, v) -> ex.append(ex.length() == 0 ? "" : ", ").append(k).append(" x ").append(v));
            return ex.toString();
        }
    }

    static String armv8Row(String name) {
        Counts c = count(name);
        return "| " + name + " | " + Corpus.core(name) + " | " + c.steps + " | " + c.a64 + " | " + c.t32 + " | " + c.t32Wide
                + " | " + c.failed + " | " + c.taken + " / " + c.notTaken + " | " + c.exceptionList() + " | " + c.maxDepth
                + " | " + c.codeBytes + " |";
    }

    static String row(String name) {
        Counts c = count(name);
        return "| " + name + " | " + Corpus.core(name) + " | " + c.steps + " | " + c.a32 + " | " + c.t32 + " | " + c.t32Wide
                + " | " + c.failed + " | " + c.exceptionList() + " | " + c.maxDepth + " | " + c.codeBytes + " |";
    }

    private static Counts count(String name) {
        MemoryImage mem = Corpus.image(name).memory();
        Counts c = new Counts();
        Set<Long> addresses = new HashSet<>();
        Deque<Long> returns = new ArrayDeque<>();
        java.util.List<ExecutionEvent> events = Corpus.execution(name).events();
        for (int i = 0; i < events.size(); i++) {
            ExecutionEvent e = events.get(i);
            if (e instanceof ExecutionEvent.ExceptionTaken x) {
                c.exceptions.merge(x.number(), 1, Integer::sum);
                continue;
            }
            if (!(e instanceof ExecutionEvent.Step s)) {
                continue;
            }
            c.steps++;
            if (s.isa() == Isa.A32) {
                c.a32++;
            } else if (s.isa() == Isa.A64) {
                c.a64++;
            } else {
                c.t32++;
                if (s.size() == 4) {
                    c.t32Wide++;
                }
            }
            if (!s.executed()) {
                c.failed++;
            }
            if (addresses.add(s.address())) {
                c.codeBytes += s.size();
            }
            if (isConditionalBranch(mem, s)) {
                long next = next(events, i);
                if (next != Long.MIN_VALUE) {
                    if (next == s.address() + s.size()) {
                        c.notTaken++;
                    } else {
                        c.taken++;
                    }
                }
            }
            // call depth: a call pushes its return address; reaching a pushed address pops to it
            if (returns.contains(s.address())) {
                while (!returns.isEmpty() && returns.pop() != s.address()) {
                    // unwound past frames that returned elsewhere (exception handlers, longjmp-like flow)
                }
            }
            if (s.executed() && isCall(mem, s)) {
                returns.push(s.address() + s.size());
                c.maxDepth = Math.max(c.maxDepth, returns.size());
            }
        }
        return c;
    }

    /** The next instruction's address, or the preferred return of an exception taken before it. */
    private static long next(java.util.List<ExecutionEvent> events, int i) {
        for (int j = i + 1; j < events.size(); j++) {
            ExecutionEvent e = events.get(j);
            if (e instanceof ExecutionEvent.Step s) {
                return s.address();
            }
            if (e instanceof ExecutionEvent.ExceptionTaken x) {
                return x.preferredReturn();
            }
        }
        return Long.MIN_VALUE;
    }

    /**
     * Branches that may or may not branch: A64 B.cond, CBZ/CBNZ, TBZ/TBNZ; T32 B&lt;c&gt; (outside IT
     * blocks: its own condition field), CBZ/CBNZ, and the Armv8.1-M loop branches WLS, WLSTP, LE, LETP.
     */
    static boolean isConditionalBranch(MemoryImage mem, ExecutionEvent.Step s) {
        if (s.isa() == Isa.A64) {
            String k = CorpusTest.a64Branch(mem.u32(s.address()));
            return "B.cond".equals(k) && (mem.u32(s.address()) & 0xF) < 14 || "CBZ/CBNZ".equals(k) || "TBZ/TBNZ".equals(k);
        }
        if (s.isa() != Isa.T32) {
            return false;
        }
        int hw1 = mem.u16(s.address());
        if (s.size() == 2) {
            return (hw1 & 0xF000) == 0xD000 && ((hw1 >> 8) & 0xF) < 14 || (hw1 & 0xF500) == 0xB100;
        }
        int hw2 = mem.u16(s.address() + 2);
        if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000 && ((hw1 >> 6) & 0xF) < 14) {
            return true;
        }
        String k = CorpusTest.loopOrBranchFuture(hw1, hw2);
        return "WLS".equals(k) || "WLSTP".equals(k) || "LE".equals(k) || "LETP".equals(k);
    }

    /** BL, BLX (immediate and register) in A32 and T32; BL, BLR in A64. */
    static boolean isCall(MemoryImage mem, ExecutionEvent.Step s) {
        if (s.isa() == Isa.A64) {
            String k = CorpusTest.a64Branch(mem.u32(s.address()));
            return "BL".equals(k) || "BLR".equals(k);
        }
        if (s.isa() == Isa.A32) {
            long w = mem.u32(s.address());
            return ((w & 0x0F00_0000L) == 0x0B00_0000L && (w >>> 28) != 15) // BL
                    || (w & 0xFE00_0000L) == 0xFA00_0000L                      // BLX imm
                    || (w & 0x0FFF_FFF0L) == 0x012F_FF30L;                     // BLX reg
        }
        int hw1 = mem.u16(s.address());
        if (s.size() == 2) {
            return (hw1 & 0xFF87) == 0x4780; // BLX reg
        }
        int hw2 = mem.u16(s.address() + 2);
        // BL (second halfword 11x1), BLX imm (11x0, bit 0 clear); not the Armv8.1-M loop and branch
        // future instructions in BLX's old space (11x0, bit 0 set)
        return (hw1 & 0xF800) == 0xF000 && (hw2 & 0xC000) == 0xC000 && ((hw2 & 0x1000) != 0 || (hw2 & 1) == 0);
    }

    static Profile profile(String name) {
        return Corpus.profile(name);
    }
}
