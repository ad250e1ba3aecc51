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
 * Each {@code Trace} line names the PC of the block about to run, and the dump after it the state
 * before its instruction. A block entered but stopped before its instruction ran (icount, I/O
 * recompilation) leaves a record that matches no executed instruction; {@link #find} skips such
 * records by matching PCs in order.
 */
final class CpuStateLog {
    /** Register state before one instruction. */
    record State(long pc, long psr) {
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
        long pc = -1;
        String s;
        while ((s = in.readLine()) != null) {
            if (s.startsWith("Trace ")) {
                int open = s.indexOf('[');
                int slash = open < 0 ? -1 : s.indexOf('/', open);
                pc = slash < 0 ? -1 : QemuPluginLog.parseHex(s, slash + 1);
            } else if (pc >= 0 && (s.startsWith("PSR=") || s.startsWith("XPSR="))) {
                long psr = QemuPluginLog.parseHex(s, s.indexOf('=') + 1);
                return new State(pc, psr);
            }
        }
        return null;
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
