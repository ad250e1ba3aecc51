package io.armtrace.protocol.etm4;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.protocol.OptionValues;
import io.armtrace.source.Registers;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;

/**
 * Synthesizes the instruction trace of an ETMv4 unit on an Armv8-M or Armv8.1-M core (Cortex-M33, Cortex-M55)
 * for a known M-profile execution (IHI 0064, the packet chapters and the M-profile exception numbering):
 * A-sync, Trace Info, Trace On, a 32-bit Address with Context packet (IS1: T32), atoms for the P0 instructions
 * (branches, including the Armv8.1-M loop branches LE, LETP, WLS and WLSTP, and ISB), the target of every taken
 * indirect branch (exact match, short or long IS1 address), Exception packets with the M-profile exception
 * number and the preferred return address, and at an exception return (a BX, POP or LDR that loads an
 * EXC_RETURN value) an E atom, an Exception Return packet and the address execution resumes at.
 *
 * <p>A tail-chained exception (the record has no return between a handler's return instruction and the next
 * exception) is an E atom for the return instruction, then the Exception packet with the address 0xFFFFFFFE,
 * which tells a decoder that no instruction ran between the two.
 *
 * <p>The unit is configured without speculation, cycle counts, timestamps, Q elements or the return stack
 * (those options are refused for M-profile executions). Instructions after the execution's last P0 element are
 * not in the trace.
 */
final class Etm4MEncoder {

    // Registers of the unit described: those of a Cortex-M55's ETM (TRCIDR0 and TRCIDR2 as the Cortex-M55
    // capture in the conformance set has them: 32-bit instruction addresses, no context ID or VMID), ETMv4.2
    // or later so that header 0x05 is the Function Return packet on Armv8-M.
    static final long IDR0 = 0x280006E1L;
    static final long IDR1 = 0x4100F454L; // ETMv4.5
    static final long IDR2 = 0x00000004L;
    static final long AUTHSTATUS = 0x000000CCL;
    /** The address of a tail-chained exception's packet. */
    static final long TAIL_CHAIN = 0xFFFFFFFEL;

    private boolean exactMatch = true;
    private int syncPeriod = 1024;
    private int traceId = 0x10;
    private boolean nonSecure;

    static Etm4MEncoder fromOptions(Map<String, String> options) {
        Etm4MEncoder e = new Etm4MEncoder();
        for (Map.Entry<String, String> o : options.entrySet()) {
            String v = o.getValue() == null ? "" : o.getValue().trim();
            switch (o.getKey()) {
                case "profile" -> {
                    // chosen by the caller: M
                }
                case "exact-match" -> e.exactMatch = OptionValues.flag(o.getKey(), v);
                case "sync-period" -> {
                    long n = OptionValues.number(o.getKey(), v);
                    if (n < 16 || n > 1 << 30) {
                        throw new IllegalArgumentException("The sync period must be 16 to 2^30 bytes, not " + n + ".");
                    }
                    e.syncPeriod = (int) n;
                }
                case "trace-id" -> {
                    long id = OptionValues.number(o.getKey(), v);
                    if (id < 1 || id > 0x6F) {
                        throw new IllegalArgumentException("The trace ID must be 0x01 to 0x6f, not 0x" + Long.toHexString(id) + ".");
                    }
                    e.traceId = (int) id;
                }
                case "security" -> {
                    if (!v.equals("secure") && !v.equals("non-secure")) {
                        throw new IllegalArgumentException("Option --security takes secure or non-secure, not '" + v + "'.");
                    }
                    e.nonSecure = v.equals("non-secure");
                }
                case "el" -> {
                    if (OptionValues.number(o.getKey(), v) != 0) {
                        throw new IllegalArgumentException("An M-profile core has no exception levels: option --el takes 0 only.");
                    }
                }
                case "return-stack", "cycle-accurate", "timestamps" -> {
                    if (OptionValues.flag(o.getKey(), v)) {
                        throw new IllegalArgumentException("Option --" + o.getKey() + "=on is not available for M-profile "
                                + "executions: the ETMv4 encoder traces them with atoms, addresses and exceptions only.");
                    }
                }
                case "q-elements" -> {
                    if (OptionValues.number(o.getKey(), v) != 0) {
                        throw new IllegalArgumentException("Option --q-elements is not available for M-profile executions.");
                    }
                }
                default -> throw new IllegalArgumentException("Option --" + o.getKey()
                        + " is not available for M-profile executions; they take --exact-match, --sync-period, --trace-id "
                        + "and --security.");
            }
        }
        return e;
    }

    /** The registers that describe the unit, under the names OpenCSD's snapshots use. */
    Registers registers() {
        Registers r = new Registers();
        r.put("TRCCONFIGR", 0x1);
        r.put("TRCTRACEIDR", traceId);
        r.put("TRCAUTHSTATUS", AUTHSTATUS);
        r.put("TRCIDR0", IDR0);
        r.put("TRCIDR1", IDR1);
        r.put("TRCIDR2", IDR2);
        for (int i = 3; i <= 13; i++) {
            r.put("TRCIDR" + i, 0);
        }
        return r;
    }

    EncodeOutput encode(Execution execution, ProgramImage image) {
        byte[] trace = new Run(image.memory()).run(execution.events());
        return new EncodeOutput(trace, registers(), "ETM4");
    }

    /**
     * The Exception packet's type for an M-profile exception number (IHI 0064, Exception packet on M-profile
     * cores): numbers 1 to 23 (reset, NMI, faults, SVCall, PendSV, SysTick, external interrupts 0-7) as they
     * are; external interrupt 8 and up (exception 24 and up) as 0x208 onwards.
     */
    static int exceptionType(int number) {
        if (number >= 1 && number <= 23) {
            return number;
        }
        if (number >= 24 && number <= 16 + 0x1EF) {
            return 0x200 + number - 16;
        }
        throw new IllegalArgumentException("Exception number " + number + " has no ETMv4 M-profile exception type.");
    }

    /** One encoding pass: the trace unit's state. */
    private final class Run {
        private final MemoryImage memory;
        private final InstructionClassifier classifier = new InstructionClassifier(Profile.M);
        private final Insn insn = new Insn();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final long[] history = new long[3];

        private int atomCount;
        private int atomBits;

        private boolean started;
        private boolean needAddress;
        private boolean handlerAddress;
        private long expectedNext = -1;
        private boolean atRangeStart;
        private long lastSync;

        // an executed P0 instruction whose destination is the next event
        private boolean pending;
        private WaypointKind pKind;
        private long pTarget;
        private boolean returning;

        // preferred return addresses of the exceptions entered and not yet returned from, innermost last
        private final long[] open = new long[256];
        private int depth;

        Run(MemoryImage memory) {
            this.memory = memory;
        }

        byte[] run(List<ExecutionEvent> events) {
            for (ExecutionEvent e : events) {
                if (e instanceof ExecutionEvent.Step s) {
                    step(s);
                } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                    exception(x);
                } else if (e instanceof ExecutionEvent.ExceptionReturned) {
                    returning = pending;
                    if (depth > 0) {
                        depth--;
                    }
                }
            }
            if (pending) {
                pending = false;
                atom(true);
            }
            flushAtoms();
            return out.toByteArray();
        }

        private void step(ExecutionEvent.Step s) {
            if (s.isa() != Isa.T32) {
                throw new IllegalArgumentException("The execution has " + s.isa() + " code at 0x"
                        + Long.toHexString(s.address()) + "; an M-profile core runs T32 code only.");
            }
            long a = s.address();
            if (pending) {
                resolve(a);
            } else if (!started) {
                sync(a, true);
            } else if (handlerAddress) {
                flushAtoms();
                address(a, false);
            } else if (needAddress || a != expectedNext) {
                // trace resumes after a discontinuity the record does not explain
                flushAtoms();
                out.write(0x04); // Trace On
                address(a, true);
            } else if (atRangeStart && out.size() - lastSync >= syncPeriod) {
                sync(a, false);
            }
            if (!classifier.classify(memory, a, Isa.T32, 0, insn)) {
                throw new IllegalArgumentException("The execution runs code at 0x" + Long.toHexString(a)
                        + " that the program image does not hold.");
            }
            long next = a + insn.size;
            WaypointKind kind = insn.kind;
            boolean p0 = kind == WaypointKind.DIRECT_BRANCH || kind == WaypointKind.INDIRECT_BRANCH
                    || kind == WaypointKind.BARRIER;
            atRangeStart = false;
            expectedNext = next;
            if (!p0) {
                return;
            }
            if (!s.executed()) {
                atom(false); // a branch whose condition failed (IT block or B<c>)
                atRangeStart = true;
                return;
            }
            pending = true;
            pKind = kind;
            pTarget = insn.target;
        }

        /** The executed P0 instruction went to {@code target}. */
        private void resolve(long target) {
            pending = false;
            expectedNext = target;
            atRangeStart = true;
            if (pKind == WaypointKind.BARRIER) {
                atom(true);
                return;
            }
            if (pKind == WaypointKind.DIRECT_BRANCH) {
                // LE, LETP and WLS that did not branch, CBZ/CBNZ that fell through: N
                atom(target == pTarget);
                return;
            }
            atom(true);
            flushAtoms();
            if (returning) {
                returning = false;
                out.write(0x07); // Exception Return: the branch was an exception return
            }
            address(target, false);
        }

        private void exception(ExecutionEvent.ExceptionTaken x) {
            if (!started) {
                push(x.preferredReturn());
                return;
            }
            boolean atTarget = false;
            long ret = x.preferredReturn();
            if (pending && pKind == WaypointKind.INDIRECT_BRANCH && depth > 0 && open[depth - 1] == ret) {
                // tail-chained: the handler's return instruction ran, and the next exception replaced the return
                pending = false;
                atom(true);
                ret = TAIL_CHAIN;
            } else {
                if (pending) {
                    pending = false;
                    if (pKind == WaypointKind.DIRECT_BRANCH && ret != pTarget) {
                        atom(false);
                    } else {
                        atom(true);
                        atTarget = pKind == WaypointKind.INDIRECT_BRANCH;
                    }
                }
                push(ret);
            }
            returning = false;
            flushAtoms();
            int type = exceptionType(x.number());
            out.write(0x06);
            int b1 = (type & 0x1F) << 1 | (atTarget ? 0x40 : 0x01);
            if (type > 0x1F) {
                out.write(b1 | 0x80);
                out.write(type >> 5 & 0x1F);
            } else {
                out.write(b1);
            }
            address(ret, false);
            expectedNext = x.handler();
            needAddress = false;
            atRangeStart = true;
            handlerAddress = true;
        }

        /** Enters an exception; past 256 open ones (no core nests so deep) the oldest is forgotten. */
        private void push(long ret) {
            if (depth == open.length) {
                System.arraycopy(open, 1, open, 0, depth - 1);
                depth--;
            }
            open[depth++] = ret;
        }

        /** A-sync and Trace Info, then the address and context of the instruction at {@code a}. */
        private void sync(long a, boolean first) {
            flushAtoms();
            for (int i = 0; i < 11; i++) {
                out.write(0x00);
            }
            out.write(0x80);
            out.write(0x01); // Trace Info: no sections, all defaults
            out.write(0x00);
            history[0] = history[1] = history[2] = 0;
            if (first) {
                out.write(0x04); // Trace On
                started = true;
            }
            lastSync = out.size();
            address(a, true);
        }

        /** The T32 address {@code a} (IS1), with the context when {@code withContext}. */
        private void address(long a, boolean withContext) {
            handlerAddress = false;
            needAddress = false;
            if (withContext) {
                out.write(0x83); // Address with Context, 32-bit, IS1
                long32(a);
                out.write(nonSecure ? 0x20 : 0x00); // EL0, AArch32, NS
                pushHistory(a);
                return;
            }
            if (exactMatch) {
                for (int k = 0; k < 3; k++) {
                    if (history[k] == a) {
                        out.write(0x90 + k);
                        pushHistory(a);
                        return;
                    }
                }
            }
            long diff = a ^ history[0];
            if (diff >>> 8 == 0) {
                out.write(0x96); // short, IS1: bits [7:1]
                out.write((int) (a >>> 1) & 0x7F);
            } else if (diff >>> 16 == 0) {
                out.write(0x96); // short, IS1: bits [7:1] and [15:8]
                out.write((int) (a >>> 1) & 0x7F | 0x80);
                out.write((int) (a >>> 8) & 0xFF);
            } else {
                out.write(0x9B); // long, 32-bit, IS1
                long32(a);
            }
            pushHistory(a);
        }

        private void long32(long a) {
            out.write((int) (a >>> 1) & 0x7F);
            out.write((int) (a >>> 8) & 0xFF);
            out.write((int) (a >>> 16) & 0xFF);
            out.write((int) (a >>> 24) & 0xFF);
        }

        private void pushHistory(long a) {
            history[2] = history[1];
            history[1] = history[0];
            history[0] = a & ~1L;
        }

        private void atom(boolean e) {
            if (e) {
                atomBits |= 1 << atomCount;
            }
            atomCount++;
            if (atomCount == 24) {
                flushAtoms();
            }
        }

        /** Writes the atoms not yet written, in the formats that take the most of them (as {@link Etm4Encoder}). */
        private void flushAtoms() {
            Etm4Encoder.writeAtoms(out, atomBits, atomCount);
            atomCount = 0;
            atomBits = 0;
        }
    }
}
