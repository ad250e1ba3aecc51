package io.armtrace.protocol.etm2;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.RangeSizes;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.Isa;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import io.armtrace.trace.WaypointKind;

/**
 * The instruction flow of ETMv1/ETMv2 trace: one instruction per instruction PIPESTAT (IE, ID, IN, DN, BE,
 * BD), walked through the program image. Direct branches traced as IE go to the target the instruction
 * encodes; BE/BD and a branch address on a DW cycle take the traced address (IHI 0014Q 5.1, 6.1, 6.7.1).
 * Decoding starts at the first sync point (a TFO in ETMv2, a full branch address in either version) and
 * after any loss waits for the next one. Element offsets are cycle numbers of the capture.
 */
final class Etm2Flow implements Etm2CycleRing.Listener {
    private final Etm2Config cfg;
    private final MemoryImage mem;
    private final ElementSink sink;
    private final int source;
    private final Insn insn = new Insn();

    private boolean synced;
    private long pc;
    private Isa isa = Isa.A32;
    /** The first half of a Thumb BL/BLX pair has had its PIPESTAT; the pair completes with the next one. */
    private boolean blFirstHalf;
    private long contextId = -1;

    // the open instruction range
    private long rStart;
    private long rEnd;
    private int rCount;
    private CallKind rCall = CallKind.NONE;
    /** The sizes of the open range's instructions. */
    private final RangeSizes rSizes = new RangeSizes();
    private Isa rIsa = Isa.A32;
    private long rLast;
    private WaypointKind rKind = WaypointKind.NONE;
    private boolean rExecuted;
    private long lastInsnCycle = -1;
    private long countBase = -1;
    private long instructions;

    Etm2Flow(Etm2Config cfg, MemoryImage mem, ElementSink sink, int source) {
        this.cfg = cfg;
        this.mem = mem;
        this.sink = sink;
        this.source = source;
    }

    long instructions() {
        return instructions;
    }

    @Override
    public void cycle(long cycle, int status, long target, Isa tIsa, boolean cancel, boolean known) {
        if (!known) {
            lose(cycle, status == Etm2CycleRing.BE || status == Etm2CycleRing.BD
                    ? "branch address could not be read" : "trace packets could not be read");
            return;
        }
        switch (status) {
            case Etm2CycleRing.IE, Etm2CycleRing.ID -> instruction(cycle, true, -1, null, false);
            case Etm2CycleRing.IN, Etm2CycleRing.DN -> instruction(cycle, false, -1, null, false);
            case Etm2CycleRing.BE, Etm2CycleRing.BD -> {
                if (!synced) {
                    if (target >= 0) {
                        resync(cycle, target, tIsa, TraceOn.Reason.SYNC);
                    }
                    return;
                }
                instruction(cycle, true, target, tIsa, cancel);
            }
            case Etm2CycleRing.DW -> {
                if (target < 0) {
                    return;
                }
                // IHI 0014Q 6.7.1: a branch address on a wait cycle belongs to the most recent instruction
                if (!synced) {
                    resync(cycle, target, tIsa, TraceOn.Reason.SYNC);
                    return;
                }
                if (cancel) {
                    Isa was = rIsa;
                    long ret = rCount > 0 ? rLast : pc;
                    cancelLast();
                    exception(target, ret, true);
                    if (was != tIsa) {
                        flush();
                    }
                }
                pc = target;
                isa = tIsa;
                blFirstHalf = false;
            }
            default -> {
                // WT, TD: no instruction
            }
        }
    }

    private void instruction(long cycle, boolean executed, long target, Isa tIsa, boolean cancel) {
        if (!synced) {
            return;
        }
        if (!Etm2Code.classify(mem, pc, isa, insn)) {
            flush();
            sink.accept(new NoImage(source, pc, isa));
            synced = false;
            blFirstHalf = false;
            return;
        }
        boolean pair = insn.size == 4 && isa == Isa.T32;
        if (pair && !blFirstHalf && target < 0) {
            // the BL/BLX prefix has its own PIPESTAT; the pair is one instruction in the element stream
            blFirstHalf = true;
            return;
        }
        blFirstHalf = false;
        long addr = pc;
        if (target >= 0) {
            boolean vector = isVector(target) && tIsa == Isa.A32;
            // ETMv2 marks a cancelling exception with the E bit (Table 6.9); ETMv1 has no E bit, so a
            // branch to an exception vector from an instruction that cannot branch is a cancelled one.
            // (an instruction is taken as the branch's own when it branches there: a direct branch to this
            // target, or an exception-generating instruction to its own vector)
            boolean own = (insn.kind == WaypointKind.EXCEPTION_CALL && (target & 0x1F) == Etm2Code.exceptionVector(insn))
                    || (insn.kind == WaypointKind.DIRECT_BRANCH && insn.target == target);
            boolean cancelled = cancel || (cfg.version() == 1 && vector && !own);
            if (cancelled) {
                exception(target, addr, true);
            } else {
                add(cycle, addr, insn.size, isa, insn.kind == WaypointKind.NONE ? WaypointKind.INDIRECT_BRANCH
                        : insn.kind, callKind(insn), true);
                if (insn.kind == WaypointKind.EXCEPTION_CALL || (vector && insn.kind == WaypointKind.NONE)) {
                    exception(target, addr + insn.size, false);
                }
            }
            pc = target;
            isa = tIsa;
            return;
        }
        add(cycle, addr, insn.size, isa, insn.kind, callKind(insn), executed);
        if (executed && insn.kind == WaypointKind.DIRECT_BRANCH) {
            pc = insn.target;
            isa = insn.targetIsa;
        } else {
            pc = addr + insn.size;
        }
    }

    private static boolean isVector(long a) {
        return (a <= 0x1C || (a >= 0xFFFF0000L && a <= 0xFFFF001CL)) && (a & 3) == 0 && a != 0x14
                && a != 0xFFFF0014L;
    }

    private void exception(long vector, long preferredReturn, boolean cancelled) {
        flush();
        int number = (int) ((vector & 0x1F) >> 2);
        String name = switch (number) {
            case 0 -> "Reset";
            case 1 -> "Undefined";
            case 2 -> "SWI";
            case 3 -> "PrefetchAbort";
            case 4 -> "DataAbort";
            case 6 -> "IRQ";
            case 7 -> "FIQ";
            default -> "Exception";
        };
        if (!isVector(vector)) {
            number = -1;
            name = "Exception";
        }
        sink.accept(new ExceptionEntry(source, number, name, preferredReturn, cancelled));
    }

    @Override
    public void sync(long cycle, int reason, long address, Isa aIsa, boolean impliesInstruction) {
        TraceOn.Reason r = switch (reason) {
            case 1 -> TraceOn.Reason.TRACE_ENABLED;
            case 2 -> TraceOn.Reason.OVERFLOW;
            case 3 -> TraceOn.Reason.DEBUG_EXIT;
            default -> synced ? TraceOn.Reason.PERIODIC : TraceOn.Reason.SYNC;
        };
        if (synced && reason == 0) {
            if (address != pc || aIsa != isa) {
                sink.accept(new DecodeError(source, String.format(
                        "synchronization address 0x%08x differs from the decoded 0x%08x", address, pc), address, cycle));
                resync(cycle, address, aIsa, TraceOn.Reason.SYNC);
            }
        } else {
            resync(cycle, address, aIsa, r);
        }
        if (impliesInstruction) {
            // IHI 0014Q 6.5.2: a periodic TFO stands for an IE
            instruction(cycle, true, -1, null, false);
        }
    }

    private void resync(long cycle, long address, Isa aIsa, TraceOn.Reason reason) {
        flush();
        sink.accept(new TraceOn(source, reason, cycle));
        synced = true;
        pc = address;
        isa = aIsa;
        blFirstHalf = false;
        countBase = cycle;
    }

    @Override
    public void contextId(long cycle, long id) {
        if (id != contextId) {
            flush();
            contextId = id;
            sink.accept(new Context(source, id, -1, false, false));
        }
    }

    @Override
    public void trigger(long cycle) {
        flush();
        sink.accept(new Trigger(source, cycle));
    }

    @Override
    public void lost(long cycle, String reason) {
        lose(cycle, reason);
    }

    private void lose(long cycle, String reason) {
        if (synced) {
            flush();
            sink.accept(new Gap(source, reason, cycle));
        }
        synced = false;
        blFirstHalf = false;
    }

    @Override
    public void error(long cycle, String message) {
        flush();
        sink.accept(new DecodeError(source, message, -1, cycle));
    }

    void end() {
        flush();
        sink.end();
    }

    // ---- instruction ranges ------------------------------------------------------------------------

    private static CallKind callKind(Insn insn) {
        return insn.link ? CallKind.CALL : insn.ret ? CallKind.RETURN : CallKind.NONE;
    }

    private void add(long cycle, long addr, int size, Isa i, WaypointKind kind, CallKind call, boolean executed) {
        if (rCount > 0 && (addr != rEnd || i != rIsa || !rExecuted || rKind != WaypointKind.NONE)) {
            flush();
        }
        if (rCount == 0) {
            rStart = addr;
            rIsa = i;
            rSizes.clear();
        }
        rSizes.appendOne(size);
        rCall = call;
        rEnd = addr + size;
        rLast = addr;
        rKind = kind;
        rExecuted = executed;
        rCount++;
        instructions++;
        lastInsnCycle = cycle;
    }

    private void cancelLast() {
        if (rCount == 0) {
            return;
        }
        instructions--;
        if (rCount == 1) {
            rCount = 0;
            return;
        }
        rCount--;
        rSizes.dropLast();
        rCall = CallKind.NONE;
        rEnd = rLast;
        rLast = rEnd - rSizes.sizeOf(rCount - 1); // the instruction before the cancelled one, of its own size
        rKind = WaypointKind.NONE;
        rExecuted = true;
    }

    private void flush() {
        if (rCount == 0) {
            return;
        }
        sink.accept(new InstructionRange(source, rStart, rEnd, rCount, rIsa, rKind, rCall, rExecuted,
                rSizes.sizes(), rSizes.index()));
        rCount = 0;
        if (cfg.cycleAccurate() && lastInsnCycle >= 0 && countBase >= 0) {
            long n = lastInsnCycle + 1 - countBase;
            if (n > 0) {
                sink.accept(new CycleCount(source, n));
            }
            countBase = lastInsnCycle + 1;
        }
    }
}
