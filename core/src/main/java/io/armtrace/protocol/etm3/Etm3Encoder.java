package io.armtrace.protocol.etm3;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.protocol.OptionValues;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Synthesizes the ETMv3 trace an ETM would produce for a known execution: A-sync, I-sync, one atom per
 * instruction in P-headers, a branch packet after every indirect branch and wherever the program flow
 * cannot be followed from the image, exceptions as branch packets with exception information (or the
 * deprecated byte-5 encoding), and the optional packets the options ask for.
 */
public final class Etm3Encoder {

    /** Encoder options; {@link #registers()} gives the register values that describe them. */
    public record Options(boolean alternativeBranch, boolean cycleAccurate, int contextIdBytes, long contextId,
                          boolean vmid, int vmidValue, boolean timestamps, boolean timestamp64, int asyncPeriod,
                          int isyncPeriod, boolean deprecatedExceptions, boolean armv7m, boolean exceptionPackets,
                          int traceId, boolean branchOutput) {

        public static final Options DEFAULT = new Options(false, false, 0, 0, false, 0, false, false, 1024, 1024,
                false, false, false, 0x10, false);

        /** The options {@code parse} takes, from the one table of encoder options. */
        public static final Map<String, String> DESCRIPTIONS = io.armtrace.protocol.EncodeOption.list(
                io.armtrace.protocol.EncodeOption.ALT_BRANCH, "",
                io.armtrace.protocol.EncodeOption.CYCLE_ACCURATE, "",
                io.armtrace.protocol.EncodeOption.CONTEXT_ID_SIZE, "default 0",
                io.armtrace.protocol.EncodeOption.CONTEXT_ID, "default 0x12345678",
                io.armtrace.protocol.EncodeOption.VMID, "",
                io.armtrace.protocol.EncodeOption.TIMESTAMPS, "value 64 for 64-bit timestamps",
                io.armtrace.protocol.EncodeOption.ASYNC_PERIOD, "default 1024",
                io.armtrace.protocol.EncodeOption.ISYNC_PERIOD, "default 1024",
                io.armtrace.protocol.EncodeOption.EXCEPTIONS, "",
                io.armtrace.protocol.EncodeOption.PROFILE, "an ARMv7-M core (M) numbers exceptions as IHI 0014Q Table 7.11 says",
                io.armtrace.protocol.EncodeOption.EXCEPTION_PACKETS, "",
                io.armtrace.protocol.EncodeOption.BRANCH_BROADCAST, "",
                io.armtrace.protocol.EncodeOption.TRACE_ID, "default 0x10");

        public static Options parse(Map<String, String> options) {
            Options o = DEFAULT;
            int contextIdBytes = DEFAULT.contextIdBytes();
            long contextId = 0x12345678L;
            for (Map.Entry<String, String> e : options.entrySet()) {
                String v = e.getValue() == null ? "" : e.getValue().trim().toLowerCase(Locale.ROOT);
                switch (e.getKey()) {
                    case "alt-branch" -> o = o.withAlternativeBranch(OptionValues.flag(e.getKey(), v));
                    case "cycle-accurate" -> o = o.withCycleAccurate(OptionValues.flag(e.getKey(), v));
                    case "context-id-size" -> {
                        long n = OptionValues.number(e.getKey(), v);
                        if (n != 0 && n != 1 && n != 2 && n != 4) {
                            throw new IllegalArgumentException("--context-id-size takes 0, 1, 2 or 4 (bytes), not " + v + ".");
                        }
                        contextIdBytes = (int) n;
                    }
                    case "context-id" -> contextId = OptionValues.number(e.getKey(), v) & 0xFFFFFFFFL;
                    case "vmid" -> o = o.withVmid(true, (int) (OptionValues.number(e.getKey(), v) & 0xFF));
                    case "timestamps" -> o = o.withTimestamps(v.equals("64") || v.equals("48") || OptionValues.flag(e.getKey(), v),
                            v.equals("64"));
                    case "async-period" -> o = o.withPeriods(Integer.decode(v), o.isyncPeriod());
                    case "isync-period" -> o = o.withPeriods(o.asyncPeriod(), Integer.decode(v));
                    case "exceptions" -> {
                        if (!v.equals("info") && !v.equals("byte5")) {
                            throw new IllegalArgumentException("--exceptions takes info or byte5, not " + v + ".");
                        }
                        o = o.withDeprecatedExceptions(v.equals("byte5"));
                    }
                    case "profile" -> {
                        if (!v.equals("ar") && !v.equals("m")) {
                            throw new IllegalArgumentException("--profile takes AR or M, not " + v + ".");
                        }
                        o = o.withArmv7m(v.equals("m"), o.exceptionPackets());
                    }
                    case "exception-packets" -> o = o.withArmv7m(o.armv7m(), OptionValues.flag(e.getKey(), v));
                    case "trace-id" -> o = o.withTraceId(Integer.decode(v));
                    case "branch-broadcast" -> o = o.withBranchOutput(OptionValues.flag(e.getKey(), v));
                    default -> throw new IllegalArgumentException("ETMv3 has no encoder option --" + e.getKey() + ".");
                }
            }
            boolean contextGiven = options.containsKey("context-id-size") || options.containsKey("context-id");
            return contextGiven ? o.withContextId(contextIdBytes, contextId) : o;
        }

        public Options withAlternativeBranch(boolean on) {
            return new Options(on, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps, timestamp64,
                    asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withCycleAccurate(boolean on) {
            return new Options(alternativeBranch, on, contextIdBytes, contextId, vmid, vmidValue, timestamps, timestamp64,
                    asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withContextId(int bytes, long value) {
            return new Options(alternativeBranch, cycleAccurate, bytes, value, vmid, vmidValue, timestamps, timestamp64,
                    asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withVmid(boolean on, int value) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, on, value, timestamps,
                    timestamp64, asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withTimestamps(boolean on, boolean is64) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, on, is64,
                    asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withPeriods(int async, int isync) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps,
                    timestamp64, async, isync, deprecatedExceptions, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withDeprecatedExceptions(boolean on) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps,
                    timestamp64, asyncPeriod, isyncPeriod, on, armv7m, exceptionPackets, traceId, branchOutput);
        }

        public Options withArmv7m(boolean m, boolean packets) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps,
                    timestamp64, asyncPeriod, isyncPeriod, deprecatedExceptions, m, packets, traceId, branchOutput);
        }

        public Options withTraceId(int id) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps,
                    timestamp64, asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, id, branchOutput);
        }

        public Options withBranchOutput(boolean on) {
            return new Options(alternativeBranch, cycleAccurate, contextIdBytes, contextId, vmid, vmidValue, timestamps,
                    timestamp64, asyncPeriod, isyncPeriod, deprecatedExceptions, armv7m, exceptionPackets, traceId, on);
        }

        /** ETMCR, ETMIDR, ETMCCER and ETMTRACEIDR as an ETMv3.5 programmed this way would read. */
        public Etm3Config config() {
            long cr = 0x800; // ETMEN-style port enable bit as the TC2 units have it; no effect on the protocol
            if (cycleAccurate) {
                cr |= Etm3Config.CR_CYCLE_ACCURATE;
            }
            if (branchOutput) {
                cr |= Etm3Config.CR_BRANCH_OUTPUT;
            }
            int cid = switch (contextIdBytes) {
                case 1 -> 1;
                case 2 -> 2;
                case 4 -> 3;
                default -> 0;
            };
            cr |= (long) cid << Etm3Config.CR_CONTEXT_ID_SHIFT;
            if (timestamps) {
                cr |= Etm3Config.CR_TIMESTAMP;
            }
            if (vmid) {
                cr |= Etm3Config.CR_VMID;
            }
            long idr = Etm3Config.DEFAULT_ETMIDR | (alternativeBranch ? Etm3Config.IDR_ALT_BRANCH : 0);
            long ccer = 0x000008F2L;
            if (timestamps) {
                ccer |= Etm3Config.CCER_TIMESTAMP | (timestamp64 ? Etm3Config.CCER_TIMESTAMP_64 : 0);
            }
            if (vmid) {
                ccer |= Etm3Config.CCER_VIRTUALIZATION;
            }
            return new Etm3Config(cr, idr, ccer, traceId, armv7m);
        }
    }

    /** The trace bytes and the configuration they were produced under. */
    public record Result(byte[] trace, Etm3Config config) {
    }

    private final Options o;
    private final MemoryImage memory;
    private final InstructionClassifier classifier;
    private final Insn insn = new Insn();

    private byte[] out = new byte[4096];
    private int n;
    private long lastAsync;
    private long lastIsync;

    // broadcast state: the last address and ISA output in a branch or I-sync packet
    private long bAddr;
    private Isa bIsa = Isa.A32;

    // atoms not yet output: bit i = 1 for E
    private int pending;
    private int pendingBits;
    private int headerCount;
    private long timestamp = 0x1000;
    private long lastTimestamp;
    private boolean timestampSent;

    public Etm3Encoder(Options options, ProgramImage image) {
        this.o = options;
        this.memory = image.memory().copy();
        this.classifier = new InstructionClassifier(options.armv7m() ? Profile.M : Profile.AR);
    }

    public Result encode(Execution execution) {
        List<ExecutionEvent> ev = execution.events();
        boolean started = false;
        // what the decoder will take as the next instruction if no packet says otherwise
        long expect = -1;
        Isa expectIsa = Isa.A32;
        boolean mustBranch = false;
        for (int i = 0; i < ev.size(); i++) {
            ExecutionEvent e = ev.get(i);
            if (e instanceof ExecutionEvent.Step s) {
                if (!started || n - lastIsync >= o.isyncPeriod() || n - lastAsync >= o.asyncPeriod()) {
                    if (started && (mustBranch || s.address() != expect || s.isa() != expectIsa)) {
                        branchPacket(s.address(), s.isa(), 0, 0);
                    }
                    flushAtoms();
                    if (!started || n - lastAsync >= o.asyncPeriod()) {
                        async();
                    }
                    iSync(s.address(), s.isa(), started ? 0 : 1);
                    started = true;
                } else if (mustBranch || s.address() != expect || s.isa() != expectIsa) {
                    branchPacket(s.address(), s.isa(), 0, 0);
                }
                mustBranch = false;
                boolean known = classifier.classify(memory, s.address(), s.isa(), 0, insn);
                // IHI 0014Q 4.5.5: a CBZ/CBNZ that does not branch is traced as an instruction that failed
                // its condition code (an N atom), as real ETMs do (the TC2 DS-5 listings mark them "fail")
                boolean executed = s.executed() && !(known && notTakenCompareAndBranch(insn, ev, i));
                atom(executed);
                expect = s.address() + s.size();
                expectIsa = s.isa();
                if (executed && known) {
                    // where the decoder goes next without a branch packet (a barrier is no waypoint
                    // in ETMv3: every instruction has its own atom)
                    switch (insn.kind) {
                        case DIRECT_BRANCH -> {
                            expect = insn.target;
                            expectIsa = insn.targetIsa;
                            mustBranch = o.branchOutput(); // ETMCR[8]: direct branches traced too
                        }
                        case INDIRECT_BRANCH, EXCEPTION_RETURN -> mustBranch = true;
                        default -> {
                        }
                    }
                }
            } else if (e instanceof ExecutionEvent.ExceptionTaken t) {
                if (!started) {
                    continue;
                }
                if (mustBranch || t.preferredReturn() != expect) {
                    branchPacket(t.preferredReturn(), returnIsa(ev, i, t.preferredReturn(), expectIsa), 0, 0);
                }
                Isa hIsa = handlerIsa(ev, i);
                if (o.armv7m() && o.exceptionPackets()) {
                    flushAtoms();
                    put(0x7E); // exception entry marker (ARMv7-M)
                }
                int excp = o.armv7m() ? Etm3Exceptions.mCode(t.number()) : Etm3Exceptions.arCode(t.number());
                boolean byte5 = o.deprecatedExceptions() && !o.armv7m() && hIsa == Isa.A32
                        && (t.number() > 4 || ((t.handler() & 0x1F) >> 2) == t.number());
                branchPacket(t.handler(), hIsa, excp, byte5 ? t.number() + 100 : 0);
                mustBranch = false;
                expect = t.handler();
                expectIsa = hIsa;
            } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                if (!started) {
                    continue;
                }
                Isa rIsa = handlerIsa(ev, i);
                if (o.armv7m() && o.exceptionPackets()) {
                    flushAtoms();
                    put(0x76); // exception exit (ARMv7-M)
                }
                branchPacket(r.resume(), rIsa, 0, 0);
                mustBranch = false;
                expect = r.resume();
                expectIsa = rIsa;
            }
        }
        if (mustBranch && started) {
            // the last instruction was an indirect branch whose target the execution does not show
            flushAtoms();
        }
        flushAtoms();
        return new Result(Arrays.copyOf(out, n), o.config());
    }

    /** The ISA at an exception's preferred return address: where execution later resumes there. */
    /**
     * True for a CBZ/CBNZ (a direct branch without a condition code that may not branch) after which
     * execution went on to the next instruction rather than to its target.
     */
    static boolean notTakenCompareAndBranch(Insn insn, List<ExecutionEvent> ev, int i) {
        if (insn.kind != WaypointKind.DIRECT_BRANCH || !insn.conditional || insn.cond != 14) {
            return false;
        }
        for (int j = i + 1; j < ev.size(); j++) {
            if (ev.get(j) instanceof ExecutionEvent.Step next) {
                return next.address() != insn.target;
            }
            if (ev.get(j) instanceof ExecutionEvent.ExceptionTaken t) {
                return t.preferredReturn() != insn.target;
            }
        }
        return false; // the execution ends with it: not known, traced as it was recorded
    }

    private static Isa returnIsa(List<ExecutionEvent> ev, int i, long address, Isa otherwise) {
        for (int k = i + 1; k < ev.size(); k++) {
            if (ev.get(k) instanceof ExecutionEvent.Step s && s.address() == address) {
                return s.isa();
            }
        }
        return (address & 2) != 0 ? Isa.T32 : otherwise;
    }

    private Isa handlerIsa(List<ExecutionEvent> ev, int i) {
        for (int k = i + 1; k < ev.size(); k++) {
            if (ev.get(k) instanceof ExecutionEvent.Step s) {
                return s.isa();
            }
        }
        return o.armv7m() ? Isa.T32 : Isa.A32;
    }

    // ---------------------------------------------------------------- bytes

    private void put(int b) {
        if (n == out.length) {
            out = Arrays.copyOf(out, n * 2);
        }
        out[n++] = (byte) b;
    }

    private void async() {
        for (int k = 0; k < 5; k++) {
            put(0);
        }
        put(0x80);
        lastAsync = n;
    }

    /** IHI 0014Q 7.4.4: I-sync (with cycle count when cycle-accurate and not periodic). */
    private void iSync(long address, Isa isa, int reason) {
        boolean cc = o.cycleAccurate() && reason != 0;
        lastIsync = n;
        put(cc ? 0x70 : 0x08);
        if (cc) {
            put(0x01); // one W since the last P-header
        }
        for (int k = 0; k < o.contextIdBytes(); k++) {
            put((int) (o.contextId() >>> (8 * k)) & 0xFF);
        }
        put(reason << 5);
        long a = address | (isa == Isa.A32 ? 0 : 1);
        for (int k = 0; k < 4; k++) {
            put((int) (a >>> (8 * k)) & 0xFF);
        }
        bAddr = address;
        bIsa = isa;
        if (reason != 0) {
            if (o.contextIdBytes() > 0) {
                put(0x6E); // context ID packet: same value, exercises the packet
                for (int k = 0; k < o.contextIdBytes(); k++) {
                    put((int) (o.contextId() >>> (8 * k)) & 0xFF);
                }
            }
            if (o.vmid()) {
                put(0x3C);
                put(o.vmidValue());
            }
        }
        if (o.timestamps()) {
            timestampPacket();
        }
    }

    /** IHI 0014Q 7.3.11: only the low-order bytes that changed. */
    private void timestampPacket() {
        timestamp += 0x1234;
        long v = timestamp;
        long diff = timestampSent ? v ^ lastTimestamp : -1L;
        int max = o.timestamp64() ? 9 : 7;
        int bytes = 1;
        while (bytes < max && (diff >>> (7 * bytes)) != 0) {
            bytes++;
        }
        put(0x42);
        for (int k = 0; k < bytes; k++) {
            int b = (int) (v >>> (7 * k)) & 0x7F;
            if (k == max - 1) {
                b = (int) (v >>> (7 * k)) & (o.timestamp64() ? 0xFF : 0x3F);
                put(b);
                break;
            }
            put(b | (k < bytes - 1 ? 0x80 : 0));
        }
        lastTimestamp = v;
        timestampSent = true;
    }

    private void atom(boolean executed) {
        if (executed) {
            pendingBits |= 1 << pending;
        }
        pending++;
        int maxE = o.cycleAccurate() ? 7 : 15;
        if (!executed || pending >= maxE) {
            flushAtoms();
        }
    }

    /** Outputs the pending atoms as P-headers (Tables 7.2 and 7.3). */
    private void flushAtoms() {
        while (pending > 0) {
            headerCount++;
            int firstE = Integer.numberOfTrailingZeros(~pendingBits); // E atoms before the first N
            int take;
            if (!o.cycleAccurate()) {
                if (firstE == 0 && pending >= 2 && (headerCount & 1) == 0) {
                    put(0x82 | ((pendingBits & 1) == 0 ? 8 : 0) | ((pendingBits & 2) == 0 ? 4 : 0)); // format 2
                    take = 2;
                } else {
                    int e = Math.min(firstE, Math.min(pending, 15));
                    boolean withN = e < pending && e < 15 && (pendingBits >> e & 1) == 0;
                    put(0x80 | (withN ? 0x40 : 0) | e << 2); // format 1
                    take = e + (withN ? 1 : 0);
                }
            } else {
                if ((headerCount % 7) == 3) {
                    put(0xA0 | ((headerCount >> 3) & 7) << 2); // format 3: W cycles, no atom
                }
                if ((headerCount % 11) == 5) {
                    put(0x80); // format 0: one W
                }
                if (firstE == 0 && pending >= 2) {
                    put(0x82 | ((pendingBits & 1) == 0 ? 8 : 0) | ((pendingBits & 2) == 0 ? 4 : 0)); // format 2
                    take = 2;
                } else if (pending == 1 && (headerCount & 1) == 0) {
                    put(0x92 | ((pendingBits & 1) == 0 ? 4 : 0)); // format 4: one atom, no W
                    take = 1;
                } else if (pending == 1 && (pendingBits & 1) != 0 && (headerCount & 2) != 0) {
                    put(0xE0 | ((headerCount >> 2) & 7) << 2); // format 3 with an E atom
                    take = 1;
                } else {
                    int e = Math.min(firstE, Math.min(pending, 7));
                    boolean withN = e < pending && e < 7 && (pendingBits >> e & 1) == 0;
                    put(0x80 | (withN ? 0x40 : 0) | e << 2); // format 1: WE... WN
                    take = e + (withN ? 1 : 0);
                }
            }
            pending -= take;
            pendingBits >>>= take;
        }
        pendingBits = 0;
    }

    /**
     * A branch packet to {@code target} in {@code isa} (IHI 0014Q 7.3.5). {@code excp} is the Excp[8:0]
     * value (0 = none); {@code deprecated} > 0 asks for the byte-5 exception encoding of vector
     * {@code deprecated - 100} where it can express it.
     */
    private void branchPacket(long target, Isa isa, int excp, int deprecated) {
        flushAtoms();
        int shift = isa == Isa.A32 ? 2 : isa == Isa.JAZELLE ? 0 : 1;
        long v = (target & 0xFFFFFFFFL) >>> shift;
        long old = (bAddr & 0xFFFFFFFFL) >>> shift;
        long diff = v ^ old;
        boolean info = excp != 0;
        boolean full = isa != bIsa;
        if (deprecated > 0 && isa == Isa.A32) {
            int vec = deprecated - 100;
            int eee = switch (vec) {
                case 0, 1, 2, 3, 4 -> 0;
                case 6 -> 1;
                case 7 -> 5;
                default -> -1;
            };
            if (eee >= 0) {
                put(1 | (int) (v & 0x3F) << 1 | 0x80);
                put((int) (v >>> 6) & 0x7F | 0x80);
                put((int) (v >>> 13) & 0x7F | 0x80);
                put((int) (v >>> 20) & 0x7F | 0x80);
                put(0x80 | eee << 3 | (int) (v >>> 27) & 7);
                bAddr = target;
                bIsa = isa;
                return;
            }
        }
        int bytes;
        if (!o.alternativeBranch()) {
            if (full || info) {
                bytes = 5;
            } else {
                bytes = diff >>> 6 == 0 ? 1 : diff >>> 13 == 0 ? 2 : diff >>> 20 == 0 ? 3 : diff >>> 27 == 0 ? 4 : 5;
            }
        } else {
            if (full) {
                bytes = 5;
            } else if (info) {
                bytes = diff >>> 12 == 0 ? 2 : diff >>> 19 == 0 ? 3 : diff >>> 26 == 0 ? 4 : 5;
            } else {
                bytes = diff >>> 6 == 0 ? 1 : diff >>> 12 == 0 ? 2 : diff >>> 19 == 0 ? 3 : diff >>> 26 == 0 ? 4 : 5;
            }
        }
        int bit = 0;
        for (int k = 1; k <= Math.min(bytes, 4); k++) {
            boolean last = k == bytes;
            int b;
            if (k == 1) {
                b = 1 | (int) (v & 0x3F) << 1;
                bit = 6;
            } else if (last && o.alternativeBranch()) {
                b = (int) (v >>> bit) & 0x3F | (info ? 0x40 : 0);
                bit += 6;
            } else {
                b = (int) (v >>> bit) & 0x7F;
                bit += 7;
            }
            put(last ? b : b | 0x80);
        }
        if (bytes == 5) {
            int b5 = switch (isa) {
                case A32 -> 0x08 | (int) (v >>> 27) & 7;
                case T32, THUMB_EE -> 0x10 | (int) (v >>> 27) & 0xF;
                case JAZELLE -> 0x20 | (int) (v >>> 27) & 0x1F;
                case A64 -> throw new IllegalArgumentException("ETMv3 traces no AArch64 state");
            };
            put(b5 | (info ? 0x40 : 0));
        }
        if (info) {
            boolean byte1 = excp > 15;
            put((excp & 0xF) << 1 | (byte1 ? 0x80 : 0)); // NS = 0, Can = 0, AltISA = 0
            if (byte1) {
                put((excp >> 4) & 0x1F);
            }
        }
        bAddr = target;
        bIsa = isa;
    }
}
