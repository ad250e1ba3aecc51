package io.armtrace.protocol.mtb;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import io.armtrace.source.Registers;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Writes the MTB buffer and registers that a Micro Trace Buffer would hold after {@code execution}:
 * one packet per taken branch, per exception entry and two per exception return, into a circular
 * buffer of {@code bufferSize} bytes that sits at {@code bufferOffset} of an SRAM region of
 * {@code sramSize} bytes starting at bus address {@code base}.
 *
 * <p>Packets record non-sequential changes of the PC: a branch that lands on the next instruction (a
 * {@code MOV pc, r3} through a jump table whose entry is the following case) writes none. The program
 * image is used to recognise the returning instruction of a tail-chained exception.
 *
 * <p>Trace windows model the MTB's TSTART/TSTOP inputs driven by address comparators: when an
 * instruction at a {@code tstart} address executes, trace is enabled (the next packet has S = 1); when
 * one at a {@code tstop} address executes, it is disabled. A packet is written if trace is enabled
 * after the instruction that precedes it. {@code haltAfter} stops the core after that many
 * instructions (0 = run to the end): the branch or exception return of the last instruction still
 * writes its packets, an exception that would be taken next does not, and PC holds the next
 * instruction to execute.
 */
public final class MtbEncoder {

    /**
     * Encoder settings. {@code fillSeed} 0 leaves unused SRAM zero, otherwise fills it with noise.
     * {@code watermark} (0 = none) is a byte offset in the buffer: when POINTER reaches it, trace stops
     * for good (FLOW.WATERMARK with AUTOSTOP).
     */
    public record Options(int bufferSize, long sramSize, long bufferOffset, long base, long[] tstart, long[] tstop,
                          long haltAfter, boolean recordPc, int positionBits, long fillSeed, long watermark) {
        public Options {
            if (bufferSize < 16 || Integer.bitCount(bufferSize) != 1) {
                throw new IllegalArgumentException("the MTB buffer size must be a power of two of at least 16 bytes, not "
                        + bufferSize + ".");
            }
            if (sramSize < bufferSize) {
                sramSize = bufferSize;
            }
            if (sramSize > 1 << 28) {
                throw new IllegalArgumentException("the MTB SRAM size is at most 256 MiB.");
            }
            if (bufferOffset < 0 || bufferOffset % bufferSize != 0 || bufferOffset + bufferSize > sramSize) {
                throw new IllegalArgumentException("the buffer offset must be a multiple of the buffer size (" + bufferSize
                        + ") inside the SRAM (" + sramSize + " bytes), not " + bufferOffset + ".");
            }
            if (positionBits < 4 || positionBits > 32) {
                throw new IllegalArgumentException("position-bits must be 4..32.");
            }
            if (watermark < 0 || watermark >= bufferSize || watermark % 8 != 0) {
                throw new IllegalArgumentException("the watermark must be a multiple of 8 inside the buffer, not "
                        + watermark + ".");
            }
            tstart = tstart == null ? new long[0] : tstart.clone();
            tstop = tstop == null ? new long[0] : tstop.clone();
        }

        public static Options ofSize(int bufferSize) {
            return new Options(bufferSize, bufferSize, 0, 0x20000000L, null, null, 0, true, 32, 0, 0);
        }

        public Options withWindows(long[] starts, long[] stops) {
            return new Options(bufferSize, sramSize, bufferOffset, base, starts, stops, haltAfter, recordPc, positionBits,
                    fillSeed, watermark);
        }

        public Options withHaltAfter(long n) {
            return new Options(bufferSize, sramSize, bufferOffset, base, tstart, tstop, n, recordPc, positionBits, fillSeed,
                    watermark);
        }

        public Options inSram(long size, long offset, int bits, long seed) {
            return new Options(bufferSize, size, offset, base, tstart, tstop, haltAfter, recordPc, bits, seed, watermark);
        }

        public Options withPc(boolean pc) {
            return new Options(bufferSize, sramSize, bufferOffset, base, tstart, tstop, haltAfter, pc, positionBits,
                    fillSeed, watermark);
        }

        public Options withWatermark(long offset) {
            return new Options(bufferSize, sramSize, bufferOffset, base, tstart, tstop, haltAfter, recordPc, positionBits,
                    fillSeed, offset);
        }
    }

    /** The SRAM contents and the registers, plus how many packets were written in all. */
    public record Result(byte[] sram, long position, long master, OptionalLong flow, long base, OptionalLong pc,
                         long packetsWritten) {
        public Registers registers() {
            Registers r = new Registers().put("POSITION", position).put("MASTER", master).put("BASE", base);
            flow.ifPresent(f -> r.put("FLOW", f));
            pc.ifPresent(p -> r.put("PC", p));
            return r;
        }

        public int bufferPackets() {
            long size = 1L << ((master & 0x1F) + 4);
            boolean wrapped = (position & 4) != 0;
            return (int) (wrapped ? size / 8 : (position & (size - 1) & ~7L) / 8);
        }
    }

    /** EXC_RETURN to Thread mode using the main stack, and to Handler mode (ARMv6-M B1.5.8). */
    static final int EXC_RETURN_THREAD = 0xFFFFFFF9;
    static final int EXC_RETURN_HANDLER = 0xFFFFFFF1;

    private final Options o;
    private final ProgramImage image;
    private final InstructionClassifier classifier = new InstructionClassifier(Profile.M);
    private final Insn insn = new Insn();
    private final byte[] sram;
    private final int bufferStart;
    private int pointer;
    private boolean wrapped;
    private boolean enabled;
    private boolean startPending = true;
    /** Stopped by the watermark: TSTART does not restart it. */
    private boolean autostopped;
    private long written;

    private MtbEncoder(Options o, ProgramImage image) {
        this.o = o;
        this.image = image;
        this.sram = new byte[(int) o.sramSize()];
        if (o.fillSeed() != 0) {
            new SplittableRandom(o.fillSeed()).nextBytes(sram);
        }
        this.bufferStart = (int) o.bufferOffset();
        this.enabled = o.tstart().length == 0;
    }

    /** {@code image} may be null: then only changes of address count as taken branches. */
    public static Result encode(Execution execution, ProgramImage image, Options options) {
        return new MtbEncoder(options, image).run(execution.events());
    }

    /** True if {@code s} can be the instruction that returns from an exception (BX, POP/LDM/LDR pc). */
    private boolean returnsFromException(ExecutionEvent.Step s) {
        if (image == null) {
            return true;
        }
        return classifier.classify(image.memory(), s.address(), Isa.T32, 0, insn) && insn.kind == WaypointKind.INDIRECT_BRANCH;
    }

    private Result run(List<ExecutionEvent> events) {
        ExecutionEvent.Step prev = null;
        long steps = 0;
        int depth = 0;
        long[] returns = new long[16]; // preferred returns of the active exceptions, innermost last
        boolean sincePrev = false; // an exception event came after prev
        boolean afterReturn = false; // the last event was an exception return whose second packet is pending
        long returnResume = 0;
        long pc = -1;
        int n = events.size();
        for (int i = 0; i < n; i++) {
            ExecutionEvent e = events.get(i);
            boolean halting = o.haltAfter() > 0 && steps == o.haltAfter();
            if (e instanceof ExecutionEvent.Step s) {
                if (afterReturn) {
                    packet(excReturn(depth) | 1, (int) returnResume);
                    afterReturn = false;
                } else if (prev != null && !sincePrev && s.address() != prev.address() + prev.size()) {
                    packet((int) prev.address(), (int) s.address());
                }
                if (halting) {
                    pc = s.address();
                    break;
                }
                comparators(s.address());
                prev = s;
                sincePrev = false;
                steps++;
            } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                if (afterReturn) {
                    if (halting) {
                        // the return completes; the core halts before taking the next exception
                        packet(excReturn(depth) | 1, (int) returnResume);
                        afterReturn = false;
                        pc = returnResume;
                        break;
                    }
                    // tail-chaining: the return goes straight into the next handler
                    packet(excReturn(depth) | 1, (int) x.handler());
                    afterReturn = false;
                } else if (prev != null && !sincePrev && depth > 0 && x.preferredReturn() == returns[depth - 1]
                        && returnsFromException(prev)) {
                    // Tail-chaining as execution records write it (docs/execution-format.md): the entry
                    // follows the returning instruction directly, with the preferred return of the
                    // exception it replaces. The MTB writes the return pair, the second packet going
                    // straight into the new handler.
                    int exc = excReturn(depth - 1);
                    packet((int) prev.address(), exc);
                    if (halting) {
                        packet(exc | 1, (int) x.preferredReturn());
                        pc = x.preferredReturn();
                        break;
                    }
                    packet(exc | 1, (int) x.handler());
                    sincePrev = true;
                    continue;
                } else {
                    if (prev != null && !sincePrev && x.preferredReturn() != prev.address()
                            && x.preferredReturn() != prev.address() + prev.size()) {
                        packet((int) prev.address(), (int) x.preferredReturn()); // taken branch, then the exception
                    }
                    if (halting) {
                        pc = x.preferredReturn();
                        break;
                    }
                    packet((int) x.preferredReturn() | 1, (int) x.handler());
                }
                if (depth == returns.length) {
                    returns = java.util.Arrays.copyOf(returns, depth * 2);
                }
                returns[depth++] = x.preferredReturn();
                sincePrev = true;
            } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                depth = Math.max(0, depth - 1);
                if (afterReturn) {
                    // two returns without an instruction between: cannot happen on a real core; keep going
                    packet(excReturn(depth) | 1, (int) returnResume);
                }
                if (prev != null) {
                    packet((int) prev.address(), excReturn(depth));
                }
                afterReturn = true;
                returnResume = r.resume();
                sincePrev = true;
                if (halting) {
                    packet(excReturn(depth) | 1, (int) returnResume);
                    afterReturn = false;
                    pc = returnResume;
                    break;
                }
            }
        }
        if (afterReturn) {
            packet(excReturn(depth) | 1, (int) returnResume);
            if (pc < 0) {
                pc = returnResume;
            }
        }
        if (pc < 0 && prev != null) {
            pc = prev.address() + prev.size();
        }
        int mask = Integer.numberOfTrailingZeros(o.bufferSize()) - 4;
        long master = (enabled ? 0x80000000L : 0) | (o.tstop().length > 0 ? 0x40 : 0) | (o.tstart().length > 0 ? 0x20 : 0)
                | mask;
        long addrMask = o.positionBits() == 32 ? 0xFFFFFFFFL : (1L << o.positionBits()) - 1;
        long position = ((o.base() + bufferStart + pointer) & addrMask & ~7L) | (wrapped ? 4 : 0);
        OptionalLong pcReg = o.recordPc() && pc >= 0 ? OptionalLong.of(pc) : OptionalLong.empty();
        OptionalLong flow = o.watermark() > 0
                ? OptionalLong.of(((o.base() + bufferStart + o.watermark()) & addrMask & ~7L) | 1) : OptionalLong.empty();
        return new Result(sram, position, master, flow, o.base(), pcReg, written);
    }

    /** The EXC_RETURN a return leaves with, given the nesting depth after it. */
    private static int excReturn(int depthAfter) {
        return depthAfter > 0 ? EXC_RETURN_HANDLER : EXC_RETURN_THREAD;
    }

    private void comparators(long address) {
        for (long a : o.tstart()) {
            if (a == address && !enabled && !autostopped) {
                enabled = true;
                startPending = true;
            }
        }
        for (long a : o.tstop()) {
            if (a == address) {
                enabled = false;
            }
        }
    }

    /** Writes one packet (source word with A, destination word; S is added here) if trace is enabled. */
    private void packet(int sourceWord, int destinationWord) {
        if (!enabled) {
            return;
        }
        int dst = destinationWord & ~1;
        if (startPending) {
            dst |= 1;
            startPending = false;
        }
        int at = bufferStart + pointer;
        le(sram, at, sourceWord);
        le(sram, at + 4, dst);
        written++;
        pointer += 8;
        if (pointer == o.bufferSize()) {
            pointer = 0;
            wrapped = true;
        }
        if (o.watermark() > 0 && pointer == o.watermark()) {
            enabled = false;
            autostopped = true;
        }
    }

    private static void le(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
