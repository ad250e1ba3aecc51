package io.armtrace.protocol.etm2;

import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.isa.Insn;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Synthesizes the trace port capture an ETM7/ETM9 would produce for a known execution: PIPESTAT and
 * TRACEPKT (and TRACESYNC for ETMv1) for every core cycle.
 *
 * <p>Timing model (docs/etm2-capture-formats.md): one cycle per instruction; a taken branch or exception
 * entry flushes two fetched instructions, so two cycles without an instruction follow it (ARM7/ARM9
 * pipelines); packets put in the FIFO in a cycle come out on TRACEPKT from the next cycle on, as fast as
 * the port allows (one byte a cycle on 8 pins, two on 16, a byte over two cycles on 4); when the FIFO
 * cannot take a cycle's packets the core is stalled (ETMCR[7] StallProcessor, FIFOFULL) with wait cycles.
 * ETMv1 outputs the address packet offset on PIPESTAT[1:0] in the two cycles after a branch (IHI 0014Q
 * 5.6.1) and forces a full address at the first branch after the synchronization period (5.6.2); ETMv2
 * outputs a TFO on the first IE cycle after the period (6.5.2).
 */
public final class Etm2Encoder {

    /** Encoder settings beyond the trace unit configuration. */
    public record Options(Etm2Config config, int syncPeriod, boolean fullAddress, int fifoBytes,
                          Etm2Capture.Format format, long contextId, long triggerCycle, boolean branchFolding,
                          boolean stall) {
        public Options(Etm2Config config, int syncPeriod, boolean fullAddress, int fifoBytes,
                       Etm2Capture.Format format, long contextId) {
            this(config, syncPeriod, fullAddress, fifoBytes, format, contextId, -1, false, true);
        }

        public static Options of(Etm2Config cfg) {
            return new Options(cfg, 1024, false, 45, Etm2Capture.Format.CYCLES, 0, -1, false, true);
        }

        public Options withFormat(Etm2Capture.Format f) {
            return new Options(config, syncPeriod, fullAddress, fifoBytes, f, contextId, triggerCycle, branchFolding,
                    stall);
        }

        public Options withSyncPeriod(int p) {
            return new Options(config, p, fullAddress, fifoBytes, format, contextId, triggerCycle, branchFolding,
                    stall);
        }

        public Options withFullAddress(boolean f) {
            return new Options(config, syncPeriod, f, fifoBytes, format, contextId, triggerCycle, branchFolding,
                    stall);
        }

        /** The trigger fires at this cycle (or the first after it that can show it); -1 for none. */
        public Options withTrigger(long cycle) {
            return new Options(config, syncPeriod, fullAddress, fifoBytes, format, contextId, cycle, branchFolding,
                    stall);
        }

        /** ARM10-style branch folding (ETMv2 branch phantoms, IHI 0014Q 6.1.2). */
        public Options withBranchFolding(boolean b) {
            return new Options(config, syncPeriod, fullAddress, fifoBytes, format, contextId, triggerCycle, b, stall);
        }

        /**
         * A FIFO of {@code bytes}; with {@code stall} the core waits when it is full (ETMCR[7]), without it the
         * FIFO overflows: trace is lost until it has drained, then restarts with reason b10 (overflow).
         */
        public Options withFifo(int bytes, boolean stall) {
            return new Options(config, syncPeriod, fullAddress, bytes, format, contextId, triggerCycle, branchFolding,
                    stall);
        }
    }

    private final Etm2Config cfg;
    private final Options opt;
    private final MemoryImage mem;
    private final Insn insn = new Insn();
    private final Insn lookahead = new Insn();
    private final boolean v1;
    private final int width;

    // produced cycles
    private int[] ps = new int[1024];
    private int[] pk = new int[1024];
    private boolean[] sy = new boolean[1024];
    private int n;

    // FIFO
    private byte[] fifo = new byte[256];
    private boolean[] fifoStart = new boolean[256];
    private int fHead;
    private int fTail;
    private int pendingStarts;
    private int midByte = -1; // 4-bit port: high nibble still to output
    private int tfoHigh = -1; // 4-bit port: TFO value bits [6:3] to output next cycle

    private final byte[] push = new byte[16];
    private int pushLen;
    private boolean pushStartsSequence;

    private long lastPacked = -1; // ETMv2 compression state
    private long lastV1 = -1; // ETMv1 compression state
    private long sinceSync;
    private boolean syncPending;
    private boolean triggered;
    /** The FIFO overflowed: nothing is traced until it has drained (IHI 0014Q 6.5.2 reason b10). */
    private boolean overflowed;

    private Etm2Encoder(Options opt, MemoryImage mem) {
        this.opt = opt;
        this.cfg = opt.config();
        this.mem = mem;
        this.v1 = cfg.version() == 1;
        this.width = cfg.portWidth();
    }

    /** Encodes {@code ex} into a capture in {@code opt.format()}. */
    public static byte[] encode(Execution ex, MemoryImage mem, Options opt) {
        Etm2Encoder e = new Etm2Encoder(opt, mem);
        e.run(ex.events());
        return e.write();
    }

    /** The signals of every cycle: PIPESTAT (as driven), TRACEPKT, TRACESYNC. */
    record Cycles(int[] pipestat, int[] tracepkt, boolean[] tracesync) {
    }

    /** The cycles themselves, before they are written in a capture format. */
    static Cycles cycles(Execution ex, MemoryImage mem, Options opt) {
        Etm2Encoder e = new Etm2Encoder(opt, mem);
        e.run(ex.events());
        return new Cycles(Arrays.copyOf(e.ps, e.n), Arrays.copyOf(e.pk, e.n), Arrays.copyOf(e.sy, e.n));
    }

    // ================================================================================================

    private void run(List<ExecutionEvent> events) {
        int count = events.size();
        boolean started = false;
        for (int k = 0; k < count; k++) {
            if (!(events.get(k) instanceof ExecutionEvent.Step s)) {
                continue;
            }
            if (!started) {
                traceOn(s.address(), s.isa(), 1);
                started = true;
            }
            if (overflowed) {
                if (fHead == fTail && midByte < 0 && tfoHigh < 0) {
                    // drained: trace restarts at this instruction, reason b10
                    overflowed = false;
                    traceOn(s.address(), s.isa(), 2);
                } else {
                    idleCycle();
                    continue;
                }
            }
            // what follows this instruction: the next step, and any exception taken before it
            ExecutionEvent.ExceptionTaken exc = null;
            long next = -1;
            int nextIndex = -1;
            Isa nextIsa = s.isa();
            for (int j = k + 1; j < count; j++) {
                ExecutionEvent e = events.get(j);
                if (e instanceof ExecutionEvent.ExceptionTaken t) {
                    if (exc == null) {
                        exc = t;
                    }
                } else if (e instanceof ExecutionEvent.Step t) {
                    next = t.address();
                    nextIsa = t.isa();
                    nextIndex = j;
                    break;
                }
            }
            boolean known = Etm2Code.classify(mem, s.address(), s.isa(), insn);
            WaypointKind kind = known ? insn.kind : WaypointKind.NONE;
            int size = s.size();
            boolean attached = exc != null && kind == WaypointKind.EXCEPTION_CALL && s.executed();
            long cont = exc != null && !attached ? exc.preferredReturn() : next;
            if (exc != null && !attached) {
                nextIsa = s.isa();
            }
            boolean pair = s.isa() == Isa.T32 && size == 4;
            if (!pair && exc == null && kind == WaypointKind.DIRECT_BRANCH && !insn.link && nextIndex >= 0) {
                int skip = phantom(s, insn.target, insn.targetIsa, next, nextIsa, events, nextIndex);
                if (skip > 0) {
                    k = skip;
                    continue;
                }
            }
            if (pair) {
                instructionCycle(Etm2CycleRing.IE);
            }
            if (!s.executed()) {
                instructionCycle(Etm2CycleRing.IN);
            } else if (attached) {
                branchCycle(exc.handler(), Isa.A32, false);
            } else if (cont < 0 || (cont == s.address() + size && kind != WaypointKind.INDIRECT_BRANCH
                    && kind != WaypointKind.EXCEPTION_RETURN)) {
                instructionCycle(Etm2CycleRing.IE);
            } else if (kind == WaypointKind.DIRECT_BRANCH && insn.target == cont && insn.targetIsa == nextIsa
                    && !cfg.branchOutput() && !(v1 && syncPending)) {
                instructionCycle(Etm2CycleRing.IE);
                refill();
            } else {
                branchCycle(cont, exc != null && !attached ? s.isa() : nextIsa, false);
            }
            if (exc != null && !attached) {
                // a cancelling exception: the instruction that entered Execute is cancelled (E bit, Table 6.9)
                branchCycle(exc.handler(), Isa.A32, true);
            }
        }
        // drain the FIFO
        int guard = 0;
        while ((fHead != fTail || midByte >= 0 || tfoHigh >= 0) && guard++ < 100000) {
            idleCycle();
        }
    }

    /**
     * ARM10 branch folding (IHI 0014Q 6.1.2): a direct branch and the instruction after it (at its target
     * when taken) in one cycle, as a branch phantom PIPESTAT. Folded when the second instruction is a plain
     * one that continues in sequence. Returns the index of the second step, or -1 if not folded.
     */
    private int phantom(ExecutionEvent.Step s, long target, Isa targetIsa, long next, Isa nextIsa,
                        List<ExecutionEvent> events, int nextIndex) {
        if (!opt.branchFolding() || v1 || syncPending || cfg.branchOutput() || tfoHigh >= 0) {
            return -1;
        }
        boolean taken = s.executed() && target == next && targetIsa == nextIsa;
        if (s.executed() && !taken) {
            return -1;
        }
        ExecutionEvent.Step t = (ExecutionEvent.Step) events.get(nextIndex);
        if (t.isa() == Isa.T32 && t.size() == 4) {
            return -1;
        }
        if (!Etm2Code.classify(mem, t.address(), t.isa(), lookahead) || lookahead.kind != WaypointKind.NONE) {
            return -1;
        }
        if (nextIndex + 1 < events.size()) {
            ExecutionEvent after = events.get(nextIndex + 1);
            if (!(after instanceof ExecutionEvent.Step u) || u.address() != t.address() + t.size()) {
                return -1;
            }
        }
        int raw = (taken ? 8 : 12) | (t.executed() ? Etm2CycleRing.V2_IE : Etm2CycleRing.V2_IN);
        pushLen = 0;
        stallFor(0, false);
        emit(RAW + raw);
        return nextIndex;
    }

    /** A status value at or above this is a raw ETMv2 PIPESTAT (branch phantoms have no canonical status). */
    private static final int RAW = 16;

    /**
     * Trace starts: a TFO with reason b01 (enabled) or b10 (after overflow) (ETMv2), or a BE with a full
     * address and that reason (ETMv1).
     */
    private void traceOn(long address, Isa isa, int reason) {
        if (v1) {
            pushLen = 0;
            long v = Etm2Address.v1Value(address, isa);
            Etm2Address.writeV1(v, 5, reason, push, 0);
            pushLen = 5;
            pushContextV1();
            lastV1 = v;
            pushStartsSequence = true;
            stallFor(pushLen, true);
            int apo = pendingStarts;
            emit(Etm2CycleRing.BE);
            apoCycles(apo);
        } else {
            tfo(reason, address, isa, false);
        }
        sinceSync = 0;
    }

    private void pushContextV1() {
        for (int b = 0; b < cfg.contextIdBytes(); b++) {
            push[pushLen++] = (byte) (opt.contextId() >> (8 * b));
        }
    }

    /** IHI 0014Q 6.5.2: TD with TRACEPKT[0] set, TFO value on TRACEPKT[7:1]; the TFO packet into the FIFO. */
    private void tfo(int reason, long address, Isa isa, boolean impliesInstruction) {
        pushLen = 0;
        push[pushLen++] = (byte) (reason << 5);
        for (int b = 0; b < cfg.contextIdBytes(); b++) {
            push[pushLen++] = (byte) (opt.contextId() >> (8 * b));
        }
        long a = isa == Isa.T32 ? address | 1 : address & ~3L;
        for (int b = 0; b < 4; b++) {
            push[pushLen++] = (byte) (a >> (8 * b));
        }
        pushStartsSequence = false;
        stallFor(pushLen, false);
        while (midByte >= 0 || tfoHigh >= 0) {
            idleCycle();
        }
        int value = fifoSize();
        int pkt = width == 4 ? (value & 7) << 1 | 1 : (value & 0x7F) << 1 | 1;
        if (width == 4) {
            tfoHigh = (value >> 3) & 15;
        }
        record(Etm2CycleRing.TD, pkt, false);
        pushNow();
        tick();
        lastPacked = Etm2Address.pack(a & ~1L, isa);
        sinceSync = 0;
        syncPending = false;
    }

    private void instructionCycle(int status) {
        if (overflowed) {
            idleCycle();
            return;
        }
        if (!v1 && syncPending && status == Etm2CycleRing.IE && midByte < 0 && tfoHigh < 0) {
            tfo(0, pcOf(), insnIsa(), true);
            return;
        }
        pushLen = 0;
        stallFor(0, false);
        emit(status);
    }

    private long pcOf() {
        return insn.address;
    }

    private Isa insnIsa() {
        return insn.isa;
    }

    /** A BE cycle: the branch address into the FIFO (ETMv1: then two APO cycles). */
    private void branchCycle(long target, Isa isa, boolean cancel) {
        if (overflowed) {
            idleCycle();
            return;
        }
        pushLen = 0;
        boolean full = opt.fullAddress() || cancel || (v1 && syncPending);
        if (v1) {
            long v = Etm2Address.v1Value(target, isa);
            int nb = Etm2Address.bytesNeededV1(v, lastV1, full);
            int reason = full && syncPending ? 4 : 0;
            Etm2Address.writeV1(v, nb, reason, push, 0);
            pushLen = nb;
            if (nb == 5 && reason != 0) {
                pushContextV1();
            }
            lastV1 = v;
            pushStartsSequence = true;
            if (full && syncPending) {
                syncPending = false;
                sinceSync = 0;
            }
        } else {
            long p = Etm2Address.pack(target, isa);
            int nb = Etm2Address.bytesNeeded(p, lastPacked, full);
            Etm2Address.writeV2(p, nb, cancel, push, 0);
            pushLen = nb;
            lastPacked = p;
            pushStartsSequence = false;
        }
        if (!opt.stall() && (fifoSize() + pushLen > opt.fifoBytes() || (v1 && pendingStarts >= 14))) {
            // overflow: this branch and what follows are lost until the FIFO has drained
            overflowed = true;
            pushLen = 0;
            idleCycle();
            return;
        }
        stallFor(pushLen, v1);
        int apo = pendingStarts;
        emit(Etm2CycleRing.BE);
        if (v1) {
            apoCycles(apo);
        } else {
            refill();
        }
    }

    private void apoCycles(int apo) {
        // IHI 0014Q 5.6.1: the two cycles after a branch carry the APO on PIPESTAT[1:0], low bits first
        if (apo > 14) {
            apo = 15;
        }
        pushLen = 0;
        emitRaw(apo & 3);
        emitRaw((apo >> 2) & 3);
    }

    private void refill() {
        idleCycle();
        idleCycle();
    }

    /** Stalls the core (wait cycles) until the FIFO can take {@code bytes} more. */
    private void stallFor(int bytes, boolean newSequence) {
        int guard = 0;
        while ((fifoSize() + bytes > opt.fifoBytes() || (newSequence && pendingStarts >= 14)) && guard++ < 10000) {
            int keepLen = pushLen;
            byte[] keep = Arrays.copyOf(push, keepLen);
            boolean keepStart = pushStartsSequence;
            pushLen = 0;
            idleCycle();
            System.arraycopy(keep, 0, push, 0, keepLen);
            pushLen = keepLen;
            pushStartsSequence = keepStart;
        }
    }

    private void idleCycle() {
        int keepLen = pushLen;
        pushLen = 0;
        int pkt = 0;
        boolean sync = false;
        boolean output;
        if (trigger(Etm2CycleRing.WT)) {
            tick();
            pushLen = keepLen;
            return;
        }
        if (tfoHigh >= 0) {
            pkt = tfoHigh;
            tfoHigh = -1;
            output = true;
        } else {
            output = fHead != fTail || midByte >= 0;
            if (output) {
                long o = drain();
                pkt = (int) o;
                sync = (o >> 32) != 0;
            }
        }
        int status = output ? Etm2CycleRing.WT : Etm2CycleRing.TD;
        record(status, pkt, sync);
        tick();
        pushLen = keepLen;
    }

    /**
     * IHI 0014Q 5.3 and 6.1.7: when the trigger fires, TR replaces the pipeline status, which goes out on
     * TRACEPKT instead of FIFO data (a wait cycle is shown as WT). Not in an APO or TFO cycle.
     */
    private boolean trigger(int status) {
        if (triggered || opt.triggerCycle() < 0 || n < opt.triggerCycle() || tfoHigh >= 0) {
            return false;
        }
        triggered = true;
        int replaced = status == Etm2CycleRing.TD ? Etm2CycleRing.WT : status;
        record(Etm2CycleRing.TR, replaced >= RAW ? replaced - RAW
                : Etm2CycleRing.rawPipestat(cfg.version(), replaced), false);
        return true;
    }

    /** A cycle with PIPESTAT {@code status}: output phase, then this cycle's packets into the FIFO. */
    private void emit(int status) {
        int pkt;
        boolean sync = false;
        if (trigger(status)) {
            pushNow();
            tick();
            return;
        }
        if (tfoHigh >= 0) {
            pkt = tfoHigh;
            tfoHigh = -1;
        } else {
            long o = drain();
            pkt = (int) o;
            sync = (o >> 32) != 0;
        }
        record(status, pkt, sync);
        pushNow();
        tick();
    }

    /** An ETMv1 APO cycle: PIPESTAT carries APO bits, TRACEPKT outputs the FIFO as usual. */
    private void emitRaw(int pipestat) {
        long o = drain();
        record(pipestat, (int) o, (o >> 32) != 0);
        tick();
    }

    private void tick() {
        sinceSync++;
        if (sinceSync >= opt.syncPeriod()) {
            syncPending = true;
        }
    }

    private void pushNow() {
        for (int k = 0; k < pushLen; k++) {
            if (((fTail + 1) & (fifo.length - 1)) == fHead) {
                growFifo();
            }
            fifo[fTail] = push[k];
            fifoStart[fTail] = k == 0 && pushStartsSequence;
            if (k == 0 && pushStartsSequence) {
                pendingStarts++;
            }
            fTail = (fTail + 1) & (fifo.length - 1);
        }
        pushLen = 0;
        pushStartsSequence = false;
    }

    private void growFifo() {
        int size = fifoSize();
        byte[] nf = new byte[fifo.length * 2];
        boolean[] ns = new boolean[fifo.length * 2];
        for (int k = 0; k < size; k++) {
            nf[k] = fifo[(fHead + k) & (fifo.length - 1)];
            ns[k] = fifoStart[(fHead + k) & (fifo.length - 1)];
        }
        fifo = nf;
        fifoStart = ns;
        fHead = 0;
        fTail = size;
    }

    private int fifoSize() {
        return (fTail - fHead) & (fifo.length - 1);
    }

    private int pop() {
        int b = fifo[fHead] & 0xFF;
        if (fifoStart[fHead]) {
            pendingStarts--;
        }
        fHead = (fHead + 1) & (fifo.length - 1);
        return b;
    }

    /** One cycle of FIFO output: TRACEPKT in the low 32 bits, TRACESYNC in bit 32. */
    private long drain() {
        if (width == 4) {
            if (midByte >= 0) {
                int p = midByte;
                midByte = -1;
                return p;
            }
            if (fHead == fTail) {
                return 0;
            }
            boolean s = fifoStart[fHead];
            int b = pop();
            midByte = b >> 4;
            return (b & 15) | (s ? 1L << 32 : 0);
        }
        if (fHead == fTail) {
            return 0;
        }
        boolean s = fifoStart[fHead];
        int b = pop();
        if (width == 16 && fHead != fTail && !(v1 && fifoStart[fHead])) {
            // ETMv1: an address starts on TRACEPKT[7:0] (its TRACESYNC cycle), so it never takes the upper half
            b |= pop() << 8;
        }
        return b | (s ? 1L << 32 : 0);
    }

    private void record(int status, int pkt, boolean sync) {
        if (n == ps.length) {
            ps = Arrays.copyOf(ps, n * 2);
            pk = Arrays.copyOf(pk, n * 2);
            sy = Arrays.copyOf(sy, n * 2);
        }
        // ETMv2 has its own PIPESTAT values (a branch is a DE with a branch address packet)
        ps[n] = v1 ? status : status >= RAW ? status - RAW : Etm2CycleRing.rawPipestat(2, status);
        pk[n] = pkt;
        sy[n] = sync;
        n++;
    }

    // ================================================================================================

    private byte[] write() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(n * 3 + 64);
        boolean dropTd = !cfg.cycleAccurate();
        switch (opt.format()) {
            case CYCLES -> {
                Etm2Capture.writeHeader(out, cfg);
                for (int k = 0; k < n; k++) {
                    if (dropTd && ps[k] == Etm2CycleRing.TD && (pk[k] & 1) == 0) {
                        continue;
                    }
                    Etm2Capture.writeRecord(out, ps[k], pk[k], sy[k]);
                }
            }
            case CSV -> {
                StringBuilder sb = new StringBuilder(n * 16);
                sb.append(v1 ? "cycle,pipestat,tracepkt,tracesync\n" : "cycle,pipestat,tracepkt\n");
                for (int k = 0; k < n; k++) {
                    if (dropTd && ps[k] == Etm2CycleRing.TD && (pk[k] & 1) == 0) {
                        continue;
                    }
                    sb.append(k).append(',').append(ps[k]).append(",0x").append(Integer.toHexString(pk[k]));
                    if (v1) {
                        sb.append(',').append(sy[k] ? 1 : 0);
                    }
                    sb.append('\n');
                }
                byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
                out.write(b, 0, b.length);
            }
            case ETB -> {
                int per = Etm2Capture.cyclesPerEtbWord(width);
                // pad to whole words with trace-disabled cycles
                while (n % per != 0) {
                    record(Etm2CycleRing.TD, 0, false);
                }
                for (int k = 0; k < n; k += per) {
                    int w = Etm2Capture.etbWord(cfg, ps, pk, sy, k, per);
                    out.write(w);
                    out.write(w >> 8);
                    out.write(w >> 16);
                    out.write(w >> 24);
                }
            }
        }
        return out.toByteArray();
    }

}
