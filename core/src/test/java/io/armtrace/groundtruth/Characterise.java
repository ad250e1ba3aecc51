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
    }

    static String row(String name) {
        MemoryImage mem = Corpus.image(name).memory();
        long steps = 0;
        long a32 = 0;
        long t32 = 0;
        long t32Wide = 0;
        long failed = 0;
        java.util.TreeMap<Integer, Integer> exceptions = new java.util.TreeMap<>();
        Set<Long> addresses = new HashSet<>();
        long codeBytes = 0;
        Deque<Long> returns = new ArrayDeque<>();
        int maxDepth = 0;
        for (ExecutionEvent e : Corpus.execution(name).events()) {
            if (e instanceof ExecutionEvent.ExceptionTaken x) {
                exceptions.merge(x.number(), 1, Integer::sum);
                continue;
            }
            if (!(e instanceof ExecutionEvent.Step s)) {
                continue;
            }
            steps++;
            if (s.isa() == Isa.A32) {
                a32++;
            } else {
                t32++;
                if (s.size() == 4) {
                    t32Wide++;
                }
            }
            if (!s.executed()) {
                failed++;
            }
            if (addresses.add(s.address())) {
                codeBytes += s.size();
            }
            // call depth: a call pushes its return address; reaching a pushed address pops to it
            if (returns.contains(s.address())) {
                while (!returns.isEmpty() && returns.pop() != s.address()) {
                    // unwound past frames that returned elsewhere (exception handlers, longjmp-like flow)
                }
            }
            if (s.executed() && isCall(mem, s)) {
                returns.push(s.address() + s.size());
                maxDepth = Math.max(maxDepth, returns.size());
            }
        }
        StringBuilder ex = new StringBuilder();
        exceptions.forEach((k, v) -> ex.append(ex.length() == 0 ? "" : ", ").append(k).append(" x ").append(v));
        return "| " + name + " | " + Corpus.core(name) + " | " + steps + " | " + a32 + " | " + t32 + " | " + t32Wide
                + " | " + failed + " | " + ex + " | " + maxDepth + " | " + codeBytes + " |";
    }

    /** BL, BLX (immediate and register) in A32 and T32. */
    static boolean isCall(MemoryImage mem, ExecutionEvent.Step s) {
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
        return (hw1 & 0xF800) == 0xF000 && (hw2 & 0xC000) == 0xC000; // BL, BLX imm
    }

    static Profile profile(String name) {
        return Corpus.profile(name);
    }
}
