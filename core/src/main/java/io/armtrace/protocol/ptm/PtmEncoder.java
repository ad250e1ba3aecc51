package io.armtrace.protocol.ptm;

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
 * Synthesizes the PFT trace a PTM would write for a known execution (IHI 0035B chapters 2, 4 and 5):
 * atoms for waypoints, branch address packets for indirect branches the return stack does not predict,
 * waypoint updates before exceptions and before waypoints more than 4096 bytes from the last waypoint
 * target (4.10), exception branch address packets, periodic A-sync/I-sync, optional cycle counts,
 * timestamps, context ID and VMID.
 *
 * <p>The execution does not say how many cycles instructions took: in cycle-accurate mode each
 * instruction counts as one cycle. Timestamps count instructions.
 *
 * <p>What the trace cannot carry, by the protocol's design: whether a non-waypoint instruction passed
 * its condition (PFT traces only waypoints), including the last instruction before an exception,
 * which the waypoint update reports as reached whether or not it passed (4.5.5). A decoder reports
 * such instructions as executed. When the execution ends after non-waypoint code, the trace ends with
 * a waypoint update for it, as a PTM does when tracing stops. An executed SVC/SMC/BKPT that the
 * record does not follow with an exception (a user-mode record) is traced as that exception into
 * untraced code, and trace resumes with an I-sync at the next instruction.
 */
public final class PtmEncoder {

    /** Encoder options: name to one-line description. */
    /** The options {@code fromOptions} takes, from the one table of encoder options. */
    static final Map<String, String> OPTIONS = io.armtrace.protocol.EncodeOption.list(
            io.armtrace.protocol.EncodeOption.RETURN_STACK, "ETMCR[29], default on",
            io.armtrace.protocol.EncodeOption.RETURN_STACK_DEPTH, "default 15",
            io.armtrace.protocol.EncodeOption.CYCLE_ACCURATE, "default off",
            io.armtrace.protocol.EncodeOption.CONTEXT_ID_SIZE, "default 0",
            io.armtrace.protocol.EncodeOption.CONTEXT_ID, "default 0",
            io.armtrace.protocol.EncodeOption.VMID, "PFT 1.1",
            io.armtrace.protocol.EncodeOption.TIMESTAMPS, "default off",
            io.armtrace.protocol.EncodeOption.SYNC_PERIOD, "bytes of trace between periodic A-sync/I-sync, default 1024",
            io.armtrace.protocol.EncodeOption.BRANCH_BROADCAST, "default off",
            io.armtrace.protocol.EncodeOption.PFT, "default 1.1",
            io.armtrace.protocol.EncodeOption.TRACE_ID, "default 0x10");

    private boolean returnStack = true;
    private int returnStackDepth = 15;
    private boolean cycleAccurate;
    private int contextIdSize;
    private long contextId;
    private int vmid = -1;
    private boolean timestamps;
    private int syncPeriod = 1024;
    private boolean branchBroadcast;
    private int pftMinor = 1;
    private int traceId = 0x10;

    public PtmEncoder() {
    }

    public PtmEncoder returnStack(boolean on, int depth) {
        if (depth < 0 || depth > 15) {
            throw new IllegalArgumentException("return stack depth must be 0 to 15, was " + depth);
        }
        returnStack = on;
        returnStackDepth = depth;
        return this;
    }

    public PtmEncoder cycleAccurate(boolean on) {
        cycleAccurate = on;
        return this;
    }

    public PtmEncoder contextId(int sizeBytes, long value) {
        if (sizeBytes != 0 && sizeBytes != 1 && sizeBytes != 2 && sizeBytes != 4) {
            throw new IllegalArgumentException("context ID size must be 0, 1, 2 or 4 bytes, was " + sizeBytes);
        }
        contextIdSize = sizeBytes;
        contextId = value;
        return this;
    }

    public PtmEncoder vmid(int value) {
        vmid = value;
        return this;
    }

    public PtmEncoder timestamps(boolean on) {
        timestamps = on;
        return this;
    }

    public PtmEncoder syncPeriod(int bytes) {
        if (bytes < 16) {
            throw new IllegalArgumentException("sync period must be at least 16 bytes, was " + bytes);
        }
        syncPeriod = bytes;
        return this;
    }

    public PtmEncoder branchBroadcast(boolean on) {
        branchBroadcast = on;
        return this;
    }

    public PtmEncoder pftVersion(int minor) {
        if (minor != 0 && minor != 1) {
            throw new IllegalArgumentException("PFT version must be 1.0 or 1.1");
        }
        pftMinor = minor;
        return this;
    }

    public PtmEncoder traceId(int id) {
        if (id < 1 || id > 0x6F) {
            throw new IllegalArgumentException("trace ID must be 0x01 to 0x6f, was 0x" + Integer.toHexString(id));
        }
        traceId = id;
        return this;
    }

    static PtmEncoder fromOptions(Map<String, String> options) {
        PtmEncoder e = new PtmEncoder();
        for (Map.Entry<String, String> o : options.entrySet()) {
            String v = o.getValue() == null ? "" : o.getValue().trim();
            switch (o.getKey()) {
                case "return-stack" -> e.returnStack = OptionValues.flag(o.getKey(), v);
                case "return-stack-depth" -> e.returnStack(e.returnStack, (int) number(o.getKey(), v));
                case "cycle-accurate" -> e.cycleAccurate = OptionValues.flag(o.getKey(), v);
                case "context-id-size" -> e.contextId((int) number(o.getKey(), v), e.contextId);
                case "context-id" -> e.contextId = number(o.getKey(), v);
                case "vmid" -> e.vmid = (int) (number(o.getKey(), v) & 0xFF);
                case "timestamps" -> e.timestamps = OptionValues.flag(o.getKey(), v);
                case "sync-period" -> e.syncPeriod((int) number(o.getKey(), v));
                case "branch-broadcast" -> e.branchBroadcast = OptionValues.flag(o.getKey(), v);
                case "pft" -> e.pftVersion(v.equals("1.0") ? 0 : v.equals("1.1") ? 1 : -1);
                case "trace-id" -> e.traceId((int) number(o.getKey(), v));
                default -> throw new IllegalArgumentException("Unknown PTM option --" + o.getKey() + "; known: "
                        + String.join(", ", OPTIONS.keySet()) + ".");
            }
        }
        return e;
    }


    private static long number(String name, String v) {
        try {
            return v.startsWith("0x") || v.startsWith("0X") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
        } catch (NumberFormatException x) {
            throw new IllegalArgumentException("Option --" + name + " takes a number, not '" + v + "'.");
        }
    }

    /** The configuration the registers describe. */
    public PtmConfig config() {
        long cr = 0;
        if (branchBroadcast) {
            cr |= PtmConfig.CR_BRANCH_BROADCAST;
        }
        if (cycleAccurate) {
            cr |= PtmConfig.CR_CYCLE_ACCURATE;
        }
        cr |= (long) (contextIdSize == 4 ? 3 : contextIdSize) << PtmConfig.CR_CONTEXT_ID_SHIFT;
        if (timestamps) {
            cr |= PtmConfig.CR_TIMESTAMP;
        }
        if (returnStack) {
            cr |= PtmConfig.CR_RETURN_STACK;
        }
        if (vmid >= 0 && pftMinor >= 1) {
            cr |= PtmConfig.CR_VMID;
        }
        long idr = pftMinor >= 1 ? 0x411CF312L : 0x410CF300L;
        long ccer = PtmConfig.CCER_TIMESTAMP | PtmConfig.CCER_RETURN_STACK;
        if (pftMinor >= 1) {
            ccer |= PtmConfig.CCER_VIRTUALIZATION | PtmConfig.CCER_TS_BINARY | PtmConfig.CCER_TS_64BIT;
        }
        return new PtmConfig(cr, idr, ccer, traceId);
    }

    public EncodeOutput encode(Execution execution, ProgramImage image) {
        PtmConfig cfg = config();
        byte[] trace = new Run(cfg, image.memory()).run(execution.events());
        Registers regs = cfg.toRegisters().put("ETMSYNCFR", syncPeriod);
        return new EncodeOutput(trace, regs, pftMinor >= 1 ? "PTM1.1" : "PTM1.0");
    }

    /** Exception numbers of the execution record (A/R: vector offset / 4) as PFT numbers (Table 4.4). */
    static int pftException(int vector) {
        return switch (vector) {
            case 0 -> 8;  // reset
            case 1 -> 9;  // undefined instruction
            case 2 -> 10; // SVC
            case 3 -> 11; // prefetch abort
            case 4 -> 12; // data abort
            case 5 -> 3;  // hyp trap
            case 6 -> 14; // IRQ
            case 7 -> 15; // FIQ
            default -> 13; // generic
        };
    }

    /** PFT exception number of an exception-generating instruction (Table 4.4). */
    static int callException(Insn insn) {
        int op = insn.opcode;
        if (insn.isa == Isa.A32) {
            if ((op & 0x0F000000) == 0x0F000000) {
                return 10; // SVC
            }
            if ((op & 0x0FF000F0) == 0x01600070) {
                return 2; // SMC
            }
            return (op & 0x0FF000F0) == 0x01200070 ? 13 : 9; // BKPT: generic; UDF: undefined
        }
        if (insn.size == 2) {
            if ((op & 0xFF00) == 0xDF00) {
                return 10;
            }
            return (op & 0xFF00) == 0xBE00 ? 13 : 9;
        }
        return (op & 0xFFF0F000) == 0xF7F08000 ? 2 : 9;
    }

    /** One encoding pass; holds the PTM's state. */
    private final class Run {
        private final PtmConfig cfg;
        private final MemoryImage memory;
        private final InstructionClassifier classifier = new InstructionClassifier(Profile.AR);
        private final Insn insn = new Insn();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        // address compression register (IHI 0035B 4.5.4), as the decompressor keeps it
        private long lastAddr;
        private Isa lastIsa = Isa.A32;

        private int atomCount;
        private int atomBits; // bit i = atom i is N
        private long cycles;
        private long instructionCount;
        private long lastSync = Long.MIN_VALUE;
        private boolean started;

        /** Last waypoint target (4.10) and whether non-waypoint code ran since the last waypoint. */
        private long segStart;
        private boolean codeSinceWaypoint;
        private long lastStepAddr;
        private Isa lastStepIsa = Isa.A32;
        private long expectedNext = -1;

        // an executed waypoint whose destination is the next event
        private boolean pending;
        private long pAddr;
        private int pSize;
        private Isa pIsa;
        private WaypointKind pKind;
        private boolean pLink;
        private long pTarget;
        private Isa pTargetIsa;
        private boolean eretSeen;

        private final long[] stackAddr = new long[16];
        private final Isa[] stackIsa = new Isa[16];
        private int stackSize;

        Run(PtmConfig cfg, MemoryImage memory) {
            this.cfg = cfg;
            this.memory = memory;
        }

        byte[] run(List<ExecutionEvent> events) {
            for (int i = 0; i < events.size(); i++) {
                ExecutionEvent e = events.get(i);
                if (e instanceof ExecutionEvent.Step s) {
                    step(s, i + 1 < events.size() && events.get(i + 1) instanceof ExecutionEvent.ExceptionTaken);
                } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                    exception(x, nextStepIsa(events, i));
                } else if (e instanceof ExecutionEvent.ExceptionReturned) {
                    eretSeen = true;
                }
            }
            if (pending) {
                // the trace ends after an executed waypoint: its destination is not known
                if (pKind == WaypointKind.DIRECT_BRANCH && !branchBroadcast) {
                    atom(true);
                }
                pending = false;
            }
            flushAtoms();
            if (started && codeSinceWaypoint) {
                // trace stops: the code run since the last waypoint is reported with a waypoint update
                waypointUpdate(lastStepAddr, lastStepIsa);
            }
            return out.toByteArray();
        }

        private Isa nextStepIsa(List<ExecutionEvent> events, int i) {
            for (int j = i + 1; j < events.size(); j++) {
                if (events.get(j) instanceof ExecutionEvent.Step s) {
                    return s.isa();
                }
            }
            return Isa.A32;
        }

        private void step(ExecutionEvent.Step s, boolean exceptionFollows) {
            long a = s.address();
            if (pending) {
                resolve(a, s.isa());
            } else if (!started || a != expectedNext) {
                // start of trace or a discontinuity the record does not explain: synchronize here
                iSync(a, s.isa(), 1);
            } else if (!codeSinceWaypoint && out.size() - lastSync >= syncPeriod) {
                iSync(a, s.isa(), 0);
            }
            instructionCount++;
            cycles++;
            boolean known = classifier.classify(memory, a, s.isa(), 0, insn);
            WaypointKind kind = known ? insn.kind : WaypointKind.NONE;
            boolean atomWaypoint = kind == WaypointKind.DIRECT_BRANCH || kind == WaypointKind.INDIRECT_BRANCH
                    || kind == WaypointKind.EXCEPTION_RETURN || kind == WaypointKind.BARRIER;
            int size = known ? insn.size : s.size();
            if (atomWaypoint) {
                if (a - segStart > PtmFlow.WAYPOINT_BOUND && codeSinceWaypoint) {
                    // 4.10: the waypoint is more than 4096 bytes from the last waypoint target
                    flushAtoms();
                    waypointUpdate(lastStepAddr, lastStepIsa);
                }
                codeSinceWaypoint = false;
                if (!s.executed()) {
                    atom(false);
                    segStart = a + size;
                    expectedNext = a + size;
                } else {
                    pending = true;
                    pAddr = a;
                    pSize = size;
                    pIsa = s.isa();
                    pKind = kind;
                    pLink = insn.link;
                    pTarget = insn.target;
                    pTargetIsa = insn.targetIsa;
                    eretSeen = false;
                }
            } else {
                codeSinceWaypoint = true;
                expectedNext = a + size;
                if (kind == WaypointKind.EXCEPTION_CALL && s.executed() && !exceptionFollows) {
                    // The record goes on after an executed SVC/SMC/BKPT without the exception (a user-mode
                    // record: the kernel is not in it). The PTM traces the exception (5.3.3) and the
                    // untraced handler; trace resumes, as after filtering, with an I-sync.
                    flushAtoms();
                    waypointUpdate(a, s.isa());
                    branchPacket(0x8, Isa.A32, callException(insn));
                    codeSinceWaypoint = false;
                    expectedNext = -1;
                }
            }
            lastStepAddr = a;
            lastStepIsa = s.isa();
        }

        /** The executed waypoint at pAddr went to {@code target}. */
        private void resolve(long target, Isa targetIsa) {
            pending = false;
            segStart = target;
            expectedNext = target;
            switch (pKind) {
                case DIRECT_BRANCH -> {
                    if (target != pTarget) {
                        // passed its condition but did not branch (CBZ/CBNZ): not taken is an N atom
                        atom(false);
                        break;
                    }
                    if (branchBroadcast) {
                        branchPacket(target, targetIsa, -1);
                    } else {
                        atom(true);
                    }
                    if (pLink) {
                        push(pAddr + pSize, pIsa);
                    }
                }
                case INDIRECT_BRANCH, EXCEPTION_RETURN -> {
                    // 4.13: compare with the most recent entry before any push; exception returns are
                    // always traced with their address.
                    boolean eret = eretSeen || pKind == WaypointKind.EXCEPTION_RETURN;
                    if (returnStack && !branchBroadcast && !eret && stackSize > 0
                            && stackAddr[stackSize - 1] == target && stackIsa[stackSize - 1] == targetIsa) {
                        stackSize--;
                        atom(true);
                    } else {
                        branchPacket(target, targetIsa, -1);
                        if (eret && cfg.hasExceptionReturnPacket()) {
                            out.write(0x76);
                        }
                    }
                    if (pLink) {
                        push(pAddr + pSize, pIsa);
                    }
                }
                default -> atom(true); // ISB
            }
            eretSeen = false;
        }

        private void push(long a, Isa i) {
            if (!returnStack || returnStackDepth == 0) {
                return;
            }
            if (stackSize == returnStackDepth) {
                // full: the oldest entry is discarded
                System.arraycopy(stackAddr, 1, stackAddr, 0, stackSize - 1);
                System.arraycopy(stackIsa, 1, stackIsa, 0, stackSize - 1);
                stackSize--;
            }
            stackAddr[stackSize] = a;
            stackIsa[stackSize] = i;
            stackSize++;
        }

        private void exception(ExecutionEvent.ExceptionTaken x, Isa handlerIsa) {
            if (!started) {
                return;
            }
            if (pending) {
                // the waypoint's destination is where the exception returns to
                resolve(x.preferredReturn(), pIsa);
            }
            flushAtoms();
            if (codeSinceWaypoint) {
                // 5.2.1: the last instruction executed is upgraded to a waypoint
                waypointUpdate(lastStepAddr, lastStepIsa);
            }
            branchPacket(x.handler(), handlerIsa, pftException(x.number()));
            segStart = x.handler();
            expectedNext = x.handler();
            codeSinceWaypoint = false;
        }

        private void iSync(long a, Isa isa, int reason) {
            flushAtoms();
            for (int i = 0; i < 5; i++) {
                out.write(0);
            }
            out.write(0x80);
            out.write(0x08);
            out.write((int) (a & 0xFE) | (isa == Isa.T32 || isa == Isa.THUMB_EE ? 1 : 0));
            out.write((int) (a >> 8) & 0xFF);
            out.write((int) (a >> 16) & 0xFF);
            out.write((int) (a >> 24) & 0xFF);
            out.write(0x01 | reason << 5 | (isa == Isa.THUMB_EE ? 0x04 : 0));
            if (cycleAccurate && reason != 0) {
                cycleCount();
            }
            for (int i = 0; i < contextIdSize; i++) {
                out.write((int) (contextId >> (8 * i)) & 0xFF);
            }
            if (!started && vmid >= 0 && pftMinor >= 1) {
                out.write(0x3C);
                out.write(vmid);
            }
            if (timestamps) {
                timestamp(instructionCount);
            }
            lastAddr = a;
            lastIsa = isa;
            stackSize = 0; // 4.13: I-sync clears the return stack
            segStart = a;
            expectedNext = a;
            codeSinceWaypoint = false;
            started = true;
            lastSync = out.size();
        }

        private void timestamp(long value) {
            out.write(0x42);
            long v = cfg.timestampBinary() ? value : PtmPacketReader.binaryToGray(value);
            int max = cfg.timestamp64() ? 9 : 7;
            for (int i = 0; i < max; i++) {
                if (i == max - 1) {
                    out.write((int) (v >>> (7 * i)) & (cfg.timestamp64() ? 0xFF : 0x3F));
                } else {
                    out.write((int) (v >>> (7 * i)) & 0x7F | 0x80);
                }
            }
            if (cycleAccurate) {
                cycleCount();
            }
        }

        private void atom(boolean e) {
            if (cycleAccurate) {
                // 4.5.3: one atom per packet, with the cycles since the last count
                long c = cycles;
                cycles = 0;
                int h = 0x80 | (e ? 0 : 2) | (int) (c & 0xF) << 2;
                if (c > 0xF) {
                    out.write(h | 0x40);
                    writeCountTail(c >>> 4);
                } else {
                    out.write(h);
                }
                return;
            }
            if (!e) {
                atomBits |= 1 << atomCount;
            }
            atomCount++;
            if (atomCount == 5) {
                flushAtoms();
            }
        }

        /** Writes the pending atoms as one atom packet: oldest atom in the highest atom bit, 1 = N. */
        private void flushAtoms() {
            if (atomCount == 0) {
                return;
            }
            int bits = 0;
            for (int i = 0; i < atomCount; i++) {
                if ((atomBits >> i & 1) != 0) {
                    bits |= 1 << (atomCount - i);
                }
            }
            int h = switch (atomCount) {
                case 1 -> 0x80;
                case 2 -> 0x88;
                case 3 -> 0x90;
                case 4 -> 0xA0;
                default -> 0xC0;
            };
            out.write(h | bits);
            atomCount = 0;
            atomBits = 0;
        }

        private void cycleCount() {
            long c = cycles;
            cycles = 0;
            int first = (int) (c & 0xF) << 2;
            if (c > 0xF) {
                out.write(first | 0x40);
                writeCountTail(c >>> 4);
            } else {
                out.write(first);
            }
        }

        private void writeCountTail(long rest) {
            // up to four more bytes of 7 bits; the count saturates at 32 bits
            long r = Math.min(rest, 0xFFFFFFFL);
            for (int i = 0; i < 4; i++) {
                int b = (int) (r & 0x7F);
                r >>>= 7;
                if (r != 0 && i < 3) {
                    out.write(b | 0x80);
                } else {
                    out.write(b);
                    return;
                }
            }
        }

        private void waypointUpdate(long a, Isa isa) {
            out.write(0x72);
            addressSection(a, isa, false);
        }

        /** Branch address packet; {@code exception} is the PFT exception number or -1. */
        private void branchPacket(long target, Isa isa, int exception) {
            flushAtoms();
            addressSection(target, isa, exception >= 0);
            if (exception >= 0) {
                int e1 = (exception & 0xF) << 1 | (exception > 0xF ? 0x80 : 0);
                out.write(e1);
                if (exception > 0xF) {
                    out.write(exception >> 4 & 0x1F);
                }
            }
            if (cycleAccurate) {
                cycleCount();
            }
        }

        /**
         * Writes a compressed address (IHI 0035B 4.5.4): only as many bytes as needed to change the bits
         * that differ from the last address, all five when the ISA changes.
         */
        private void addressSection(long target, Isa isa, boolean exceptionFollows) {
            int s = isa == Isa.A32 ? 2 : 1;
            long a = (target & 0xFFFFFFFFL) >>> s;
            long prev = (lastAddr & 0xFFFFFFFFL) >>> s;
            int k;
            if (isa != lastIsa) {
                k = 5;
            } else {
                long diff = a ^ prev;
                if (diff == 0 && !exceptionFollows) {
                    k = 1;
                } else if (diff >>> 6 == 0 && !exceptionFollows) {
                    k = 1;
                } else if (diff >>> 12 == 0) {
                    k = 2;
                } else if (diff >>> 19 == 0) {
                    k = 3;
                } else if (diff >>> 26 == 0) {
                    k = 4;
                } else {
                    k = 5;
                }
            }
            int b0 = (int) (a & 0x3F) << 1 | 1; // bit 0 marks a branch address header
            if (k == 1) {
                out.write(b0);
            } else {
                out.write(b0 | 0x80);
                int shift = 6;
                for (int i = 1; i < k; i++) {
                    if (i == 4) {
                        int v;
                        if (isa == Isa.A32) {
                            v = 0x08 | (int) (a >>> shift) & 0x07;
                        } else {
                            v = 0x10 | (int) (a >>> shift) & 0x0F;
                        }
                        out.write(v | (exceptionFollows ? 0x40 : 0));
                    } else if (i == k - 1) {
                        out.write((int) (a >>> shift) & 0x3F | (exceptionFollows ? 0x40 : 0));
                    } else {
                        out.write((int) (a >>> shift) & 0x7F | 0x80);
                    }
                    shift += 7;
                }
            }
            lastAddr = target;
            lastIsa = isa;
        }
    }
}
