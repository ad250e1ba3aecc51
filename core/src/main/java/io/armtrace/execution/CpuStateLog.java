package io.armtrace.execution;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Reads the register log QEMU writes with {@code -d exec,cpu,nochain} when every translation block
 * holds one instruction ({@code qemu-arm -singlestep}, {@code qemu-system-arm -singlestep}):
 *
 * <pre>
 * Trace 0: 0x7f866800b780 [00000000/600102a0/00000370/ff020201] work
 * R00=0000b21a R01=0000000f R02=0000000f R03=00000004
 * ...
 * PSR=600001d3 -ZC- A S svc32          (A/R profile; M profile: XPSR=...)
 * </pre>
 *
 * In AArch64 state ({@code qemu-aarch64}, {@code qemu-system-aarch64}) the dump lists X00-X30 and SP
 * and ends in {@code PSTATE=60000345 -ZC- EL1h}: NZCV in bits 31:28 as in the CPSR, the exception
 * level in bits 3:2 (Arm DDI 0487, SPSR_ELx M[3:2]). Where the core has two security states QEMU
 * names the current one, as {@code S} or {@code NS} before the mode ({@code XPSR=61000000 -ZC- T S
 * thread} on Armv8-M, {@code PSTATE=... NS EL1h} on A profile with EL3).
 *
 * Each {@code Trace} line names the PC of the block about to run, and the dump after it the state
 * before its instruction. A block entered but stopped before its instruction ran (icount, I/O
 * recompilation) leaves a record that matches no executed instruction; {@link #find} skips such
 * records by matching PCs in order.
 */
final class CpuStateLog {
    /**
     * Register state before one instruction: the PC, the PSR (CPSR, XPSR or PSTATE), whether the core
     * was in AArch64 state, its exception level (AArch64 only, else -1) and security state (1 Secure,
     * 0 Non-secure, -1 where the dump does not say).
     */
    record State(long pc, long psr, boolean a64, int el, int secure) {
    }

    private final BufferedReader in;
    private final ArrayDeque<State> ahead = new ArrayDeque<>();
    private boolean eof;

    CpuStateLog(InputStream in) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1), 1 << 16);
    }

    /**
     * The next record with this PC among the next {@code lookahead} records; the records before it
     * are dropped. Null (and nothing dropped) when none matches.
     */
    State find(long pc, int lookahead) throws IOException {
        while (ahead.size() < lookahead && !eof) {
            State s = readRecord();
            if (s == null) {
                eof = true;
            } else {
                ahead.addLast(s);
            }
        }
        int skip = 0;
        for (Iterator<State> it = ahead.iterator(); it.hasNext(); skip++) {
            State s = it.next();
            if (s.pc() == pc) {
                for (int i = 0; i < skip; i++) {
                    ahead.removeFirst();
                }
                return ahead.removeFirst();
            }
        }
        return null;
    }

    private State readRecord() throws IOException {
        long pc = 0;
        boolean havePc = false; // upper-half AArch64 addresses are negative as longs: no -1 sentinel
        String s;
        while ((s = in.readLine()) != null) {
            if (s.startsWith("Trace ")) {
                int open = s.indexOf('[');
                int slash = open < 0 ? -1 : s.indexOf('/', open);
                havePc = slash >= 0;
                pc = havePc ? QemuPluginLog.parseHex(s, slash + 1) : 0;
            } else if (havePc && (s.startsWith("PSR=") || s.startsWith("XPSR="))) {
                long psr = QemuPluginLog.parseHex(s, s.indexOf('=') + 1);
                return new State(pc, psr, false, -1, securityWord(s));
            } else if (havePc && s.startsWith("PSTATE=")) {
                long psr = QemuPluginLog.parseHex(s, "PSTATE=".length());
                return new State(pc, psr, true, (int) ((psr >>> 2) & 3), securityWord(s));
            }
        }
        return null;
    }

    /** 1 for a word {@code S}, 0 for {@code NS} among the words after the PSR value, else -1. */
    private static int securityWord(String s) {
        int i = s.indexOf(' ');
        while (i >= 0 && i < s.length()) {
            int start = i + 1;
            int end = s.indexOf(' ', start);
            if (end < 0) {
                end = s.length();
            }
            if (end - start == 1 && s.charAt(start) == 'S') {
                return 1;
            }
            if (end - start == 2 && s.charAt(start) == 'N' && s.charAt(start + 1) == 'S') {
                return 0;
            }
            i = end;
        }
        return -1;
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
