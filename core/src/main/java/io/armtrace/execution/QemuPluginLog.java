package io.armtrace.execution;

import io.armtrace.image.ProgramImage;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Imports the log of QEMU's instruction-logging plugin (tools/groundtruth/pctrace.c): lines
 * {@code I <pc hex> <size> <bytes hex>}, one per executed instruction, with the exception lines of
 * {@code -d int} between them, into execution events.
 *
 * <p>Optionally reads a register log ({@code -d exec,cpu,nochain} with one instruction per
 * translation block, see {@link CpuStateLog}) of the same run: the PSR before each instruction
 * decides the ISA (T bit) and whether a conditional instruction passed its condition (flags, IT state).
 * Without one, only conditional branches can be judged (by where execution went next); other
 * conditional instructions are taken as executed.
 *
 * <p>Exception numbers follow {@link ExecutionEvent.ExceptionTaken}. The preferred return address of
 * a synchronous exception follows from the instruction that caused it (SVC: the next instruction;
 * undefined instruction, breakpoint, data abort: that instruction). That of an asynchronous one
 * (IRQ, FIQ, SysTick, prefetch abort) is where its handler's exception return resumed, or, if it
 * never returns, the instruction after the last one executed.
 *
 * <p>AArch64 ({@code qemu-aarch64}, {@code qemu-system-aarch64}): steps are A64 where the register log
 * shows {@code PSTATE} (or the mapping symbol is {@code $x}). Only {@code B.cond} (and
 * {@code BC.cond}) carries a condition code; it is {@code N} when PSTATE's NZCV fail it. Everything
 * else executes, conditional selects and compares included. QEMU names every fact of an exception
 * taken to AArch64: {@code ...with ESR 0x15/0x56000001} (the exception class), {@code ...with ELR
 * 0x...} (the preferred return address, Arm DDI 0487 "Preferred exception return address"),
 * {@code ...to EL1 PC 0x... PSTATE 0x...} (target level and vector), and of each return:
 * {@code Exception return from AArch64 EL1 to AArch64 EL0 PC 0x...}; these are taken as they are.
 * The record's exception levels (header, {@code X}, {@code R}) are checked against PSTATE.EL of
 * every instruction, and the header's security state against the register log where QEMU names it.
 */
public final class QemuPluginLog {
    /** How many register-log records may lie between two matching ones (stale records of interrupted blocks). */
    private static final int CPU_LOOKAHEAD = 64;
    /** Events held back while an exception's return address is unresolved, before falling back. */
    private static final int MAX_HELD = 1 << 20;

    private QemuPluginLog() {
    }

    /** Counts of what an import saw. */
    public static final class Stats {
        public long steps;
        public long conditionFailed;
        public long exceptions;
        public long returns;
        /** Steps whose ISA came from the register log / the mapping symbols / size and alignment alone. */
        public long isaFromCpu;
        public long isaFromSymbols;
        public long isaGuessed;
        /** Steps for which the register log had no matching record. */
        public long cpuUnmatched;
        /** Exceptions whose preferred return had to be computed because no return resolved it. */
        public long returnFallbacks;
        /** Exceptions whose return resumed elsewhere than the computed preferred return (SVC etc.). */
        public long returnDisagreements;
        /** Second halves of Thumb BL/BLX pairs that QEMU logged as instructions of their own. */
        public long mergedHalves;
        /** Steps whose exception level (PSTATE.EL) is not the one the record gives them. */
        public long elMismatches;
        /** Steps whose security state in the register log is not the header's. */
        public long securityMismatches;
        /** AArch64 exception returns that resumed elsewhere than QEMU's return line said. */
        public long resumeMismatches;

        /** True when a register log was read and every fact it states agrees with the record. */
        public boolean consistent(boolean withCpuLog) {
            return !withCpuLog || (cpuUnmatched == 0 && elMismatches == 0 && securityMismatches == 0 && resumeMismatches == 0);
        }

        @Override
        public String toString() {
            return "steps=" + steps + " conditionFailed=" + conditionFailed + " exceptions=" + exceptions
                    + " returns=" + returns + " isaFromCpu=" + isaFromCpu + " isaFromSymbols=" + isaFromSymbols
                    + " isaGuessed=" + isaGuessed + " cpuUnmatched=" + cpuUnmatched
                    + " returnFallbacks=" + returnFallbacks + " returnDisagreements=" + returnDisagreements
                    + " mergedHalves=" + mergedHalves
                    + (elMismatches + securityMismatches + resumeMismatches > 0 ? " elMismatches=" + elMismatches
                            + " securityMismatches=" + securityMismatches + " resumeMismatches=" + resumeMismatches : "");
        }
    }

    /** Imports a whole log (plain or gzip) into memory; {@code image} and {@code cpuLog} may be null. */
    public static Execution read(Path pluginLog, Profile profile, ProgramImage image, Path cpuLog) throws IOException {
        List<ExecutionEvent> events = new ArrayList<>();
        importLog(pluginLog, profile, image, cpuLog, events::add);
        return new Execution(events);
    }

    /** Streams the events of a log to {@code sink}; {@code image} and {@code cpuLog} may be null. */
    public static Stats importLog(Path pluginLog, Profile profile, ProgramImage image, Path cpuLog,
            Consumer<ExecutionEvent> sink) throws IOException {
        try (InputStream p = Files.newInputStream(pluginLog);
                InputStream c = cpuLog == null ? null : Files.newInputStream(cpuLog)) {
            return importLog(p, profile, image, c, sink);
        }
    }

    /** Streams the events of a log to {@code sink}; {@code image} and {@code cpuLog} may be null. */
    public static Stats importLog(InputStream pluginLog, Profile profile, ProgramImage image, InputStream cpuLog,
            Consumer<ExecutionEvent> sink) throws IOException {
        return importLog(pluginLog, new ExecutionFormat.Header(profile, null), image, cpuLog, sink);
    }

    /**
     * Streams the events of a log to {@code sink}; {@code image} and {@code cpuLog} may be null. The
     * header's exception level and security state, where it states them, are the core's at the first
     * instruction; the import counts where the register log disagrees ({@link Stats#elMismatches},
     * {@link Stats#securityMismatches}).
     */
    public static Stats importLog(InputStream pluginLog, ExecutionFormat.Header header, ProgramImage image,
            InputStream cpuLog, Consumer<ExecutionEvent> sink) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(
                ExecutionFormat.decompressIfGzip(pluginLog), StandardCharsets.ISO_8859_1), 1 << 16);
        CpuStateLog cpu = cpuLog == null ? null : new CpuStateLog(ExecutionFormat.decompressIfGzip(cpuLog));
        Importer im = new Importer(header, image, cpu, sink);
        String line;
        long n = 0;
        while ((line = in.readLine()) != null) {
            n++;
            im.line(line, n);
        }
        im.finish();
        return im.stats;
    }

    /** An exception entry whose preferred return address is not known yet. */
    private static final class PendingEntry {
        int number;
        long handler = -1;
        long fallbackReturn;
        long resolvedReturn = -1;
        /** Synchronous exceptions know their preferred return from the instruction that caused them. */
        boolean synchronous;
        /** Returned straight into this next exception: returns where that one returns. */
        PendingEntry returnsLikeNext;
        /**
         * Taken to AArch64: QEMU logged its preferred return (ELR, in fallbackReturn), target level
         * and vector, so nothing waits for its return.
         */
        boolean a64;
        int el = ExecutionEvent.ExceptionTaken.UNKNOWN;
        int exceptionClass = ExecutionEvent.ExceptionTaken.UNKNOWN;

        long preferredReturn() {
            PendingEntry p = this;
            for (int guard = 0; guard < 1_000_000 && p.resolvedReturn < 0 && p.returnsLikeNext != null; guard++) {
                p = p.returnsLikeNext;
            }
            return p.resolvedReturn >= 0 ? p.resolvedReturn : fallbackReturn;
        }

        boolean resolved() {
            PendingEntry p = this;
            for (int guard = 0; guard < 1_000_000 && p.resolvedReturn < 0 && p.returnsLikeNext != null; guard++) {
                p = p.returnsLikeNext;
            }
            return p.resolvedReturn >= 0;
        }

        ExecutionEvent.ExceptionTaken toEvent() {
            if (a64) {
                return new ExecutionEvent.ExceptionTaken(number, fallbackReturn, handler, el,
                        (number & 3) == 0 ? exceptionClass : ExecutionEvent.ExceptionTaken.UNKNOWN);
            }
            // a synchronous exception's preferred return follows from its instruction, whatever
            // its handler does (an undefined-instruction handler returns after the instruction)
            return new ExecutionEvent.ExceptionTaken(number, synchronous ? fallbackReturn : preferredReturn(), handler);
        }
    }

    /** An A/R exception return followed at once by another exception: it resumed where that one returns. */
    private record PendingReturn(PendingEntry next) {
    }

    private static final class Importer {
        private final Profile profile;
        private final ProgramImage image;
        private final CpuStateLog cpu;
        private final Consumer<ExecutionEvent> sink;
        final Stats stats = new Stats();

        /** Events held while an entry is unresolved (first element is the outermost unresolved entry). */
        private final List<Object> held = new ArrayList<>();
        /** Exceptions being handled, innermost last. */
        private final List<PendingEntry> active = new ArrayList<>();
        /** An entry announced by "Taking exception" whose handler has not executed yet. */
        private PendingEntry entering;
        /** An exception return happened; the next step is where it resumed. */
        private boolean returning;
        /** The return was QEMU's AArch64 one, whose line names where it resumes and at which level. */
        private boolean a64Return;
        private long returnTo;
        private int returnEl;
        /** The exception level the record gives the next step (header, then X and R), or -1. */
        private int el;
        /** The header's security state: 1 Secure, 0 Non-secure, -1 not stated. */
        private final int secure;

        /** The previous step, held back without a register log to infer a conditional branch's outcome. */
        private long prevAddr = -1;
        private int prevSize;
        private Isa prevIsa = Isa.A32;
        private boolean prevExecuted;
        private boolean prevCondBranch;
        private boolean prevHeld;
        /** The previous step is a 32-bit T32 instruction of which the log showed only the first half. */
        private boolean prevSplit;

        Importer(ExecutionFormat.Header header, ProgramImage image, CpuStateLog cpu, Consumer<ExecutionEvent> sink) {
            this.profile = header.profile();
            this.el = header.el();
            this.secure = header.security() == null ? -1 : header.security() == ExecutionFormat.Security.SECURE ? 1 : 0;
            this.image = image;
            this.cpu = cpu;
            this.sink = sink;
        }

        void line(String s, long lineNo) throws IOException {
            if (s.length() > 2 && s.charAt(0) == 'I' && s.charAt(1) == ' ') {
                step(s, lineNo);
            } else if (s.startsWith("Taking exception ")) {
                takingException(s);
            } else if (s.startsWith("...tailchaining to pending exception")) {
                // M profile: an exception return that goes straight into a pending exception; QEMU
                // writes no "Taking exception" line for it. The next line gives the number.
                enter(2, false);
            } else if (s.startsWith("...taking pending ")) {
                // "...taking pending nonsecure exception 15" (M profile): the architectural number
                int i = s.lastIndexOf(' ');
                if (entering != null) {
                    entering.number = (int) parseDec(s, i + 1);
                }
            } else if (s.startsWith("...with ESR 0x")) {
                // AArch64: "...with ESR 0x15/0x56000001", the exception class, then the whole syndrome
                if (entering != null && entering.a64) {
                    entering.exceptionClass = (int) parseHex(s, "...with ESR ".length()) & 0x3f;
                }
            } else if (s.startsWith("...with ELR 0x")) {
                if (entering != null && entering.a64) {
                    entering.fallbackReturn = parseHex(s, "...with ELR ".length());
                }
            } else if (s.startsWith("...to EL") && s.indexOf(" PC ") > 0) {
                // AArch64: "...to EL1 PC 0xffffff8040005280 PSTATE 0x3c5"; VBAR_ELx bits 10:0 are RES0,
                // so the vector offset is the handler address's low 11 bits
                if (entering != null && entering.a64) {
                    entering.el = exceptionLevel(parseDec(s, "...to EL".length()));
                    entering.handler = parseHex(s, s.indexOf(" PC ") + 4);
                    entering.number = (int) ((entering.handler & 0x7ff) >>> 7);
                }
            } else if (s.startsWith("Exception return from AArch64 EL")) {
                // "Exception return from AArch64 EL1 to AArch64 EL0 PC 0x40200050" (or "to AArch32 EL0")
                int to = s.indexOf(" to AArch");
                int pc = s.indexOf(" PC ");
                if (to > 0 && pc > to) {
                    returning = true;
                    a64Return = true;
                    returnEl = exceptionLevel(parseDec(s, s.indexOf("EL", to) + 2));
                    returnTo = parseHex(s, pc + 4);
                }
            } else if (s.startsWith("...loaded new PC ")) {
                if (entering != null) {
                    entering.handler = parseHex(s, "...loaded new PC ".length()) & ~1L;
                }
            } else if (s.startsWith("Exception return")) {
                // M profile: "Exception return: magic PC fffffff9 previous exception 15";
                // A/R profile: "Exception return from AArch32 irq to sys PC 0x6001273e"
                returning = true;
            }
            // anything else (register dumps, semihosting chatter, "...from EL1 to EL1") is not ours
        }

        private void takingException(String s) {
            int at = "Taking exception ".length();
            int qemuNumber = (int) parseDec(s, at);
            int arch;
            boolean sync;
            if (profile != Profile.M && prevIsa == Isa.A64) {
                // AArch64 (an exception from AArch64 state is taken to AArch64): the lines after this
                // one give number, handler, level, class and preferred return
                if (qemuNumber == 16) {
                    return; // semihosting call
                }
                PendingEntry e = new PendingEntry();
                e.a64 = true;
                e.number = -1;
                e.synchronous = true;
                e.fallbackReturn = prevAddr + prevSize;
                entering = e;
                return;
            }
            if (profile == Profile.M) {
                // QEMU's EXCP_* numbers; the "...taking pending" line that follows gives the real one
                switch (qemuNumber) {
                    case 8, 16 -> { // exception exit (logged separately), semihosting call
                        return;
                    }
                    case 2 -> { arch = 11; sync = true; }     // SVCall
                    case 7 -> { arch = 12; sync = true; }     // DebugMonitor (BKPT)
                    default -> { arch = 3; sync = false; }    // updated by the next line
                }
            } else {
                switch (qemuNumber) {
                    case 1 -> { arch = 1; sync = true; }      // undefined instruction
                    case 2 -> { arch = 2; sync = true; }      // SVC
                    case 3 -> { arch = 3; sync = false; }     // prefetch abort (the instruction never ran)
                    case 4 -> { arch = 4; sync = true; }      // data abort
                    case 5 -> { arch = 6; sync = false; }     // IRQ
                    case 6 -> { arch = 7; sync = false; }     // FIQ
                    case 7 -> { arch = 3; sync = true; }      // BKPT: prefetch abort vector
                    default -> { // semihosting, exception exit, hypervisor and secure monitor traps
                        return;
                    }
                }
            }
            enter(arch, sync);
        }

        private void enter(int arch, boolean sync) {
            PendingEntry e = new PendingEntry();
            e.number = arch;
            e.synchronous = sync;
            if (prevAddr < 0) {
                e.fallbackReturn = 0;
            } else if (sync && (profile == Profile.M ? arch == 11 : arch == 2)) {
                e.fallbackReturn = prevAddr + prevSize; // SVC: the next instruction
            } else if (sync && profile != Profile.M) {
                e.fallbackReturn = prevAddr;            // UNDEFINED, BKPT, data abort: the instruction itself
            } else {
                e.fallbackReturn = prevAddr + prevSize;
            }
            if (returning) {
                // No instruction between an exception return and this entry. M profile: tail-chaining,
                // the return did not happen (no R). A/R profile: the return happened and resumed at
                // the address the new exception will return to. Either way the finished exception's
                // preferred return is the new one's, known when that returns.
                returning = false;
                if (!active.isEmpty()) {
                    PendingEntry done = active.remove(active.size() - 1);
                    done.returnsLikeNext = e;
                    e.fallbackReturn = done.fallbackReturn;
                    if (profile != Profile.M) {
                        stats.returns++;
                        held.add(new PendingReturn(e)); // held is not empty: it holds done's entry
                    }
                }
            }
            entering = e;
        }

        private void step(String s, long lineNo) throws IOException {
            int pos = 2;
            long addr = parseHex(s, pos);
            pos = s.indexOf(' ', pos);
            int loggedSize = pos < 0 ? 0 : (int) parseDec(s, pos + 1);
            int bytesAt = pos < 0 ? -1 : s.indexOf(' ', pos + 1);
            if (bytesAt < 0 || loggedSize < 2 || loggedSize > 8) {
                throw new ExecutionFormat.FormatException(lineNo, "not a plugin instruction line: '" + s + "'");
            }
            bytesAt++;
            int hw1 = halfword(s, bytesAt);
            int hw2 = loggedSize >= 4 ? halfword(s, bytesAt + 4) : 0;
            long word = ((long) hw2 << 16) | hw1;

            // ARMv4T/v5 Thumb BL/BLX pairs whose halves QEMU translated apart (across a 1 KiB page):
            // the record keeps one 32-bit instruction, as ARMv6T2 and later define it
            if (prevSplit && addr == prevAddr + 2 && entering == null && !returning) {
                prevSplit = false;
                stats.mergedHalves++;
                return;
            }

            // a record of the register state before this instruction, if we have a register log
            CpuStateLog.State st = null;
            if (cpu != null) {
                st = cpu.find(addr, CPU_LOOKAHEAD);
                if (st == null) {
                    stats.cpuUnmatched++;
                }
            }

            Isa isa = isaOf(addr, loggedSize, st);
            int size = isa == Isa.T32 ? (Conditions.isT32Wide(hw1) ? 4 : 2) : 4;

            int cond;
            if (isa == Isa.A64) {
                cond = Conditions.a64Condition(word);
            } else if (isa == Isa.A32) {
                cond = Conditions.a32Condition(word);
            } else if (st != null && (Conditions.itState(st.psr()) & 0xF) != 0) {
                cond = Conditions.itState(st.psr()) >> 4;
            } else {
                cond = Conditions.t32Condition(hw1, hw2);
            }
            boolean conditional = cond < Conditions.AL;
            boolean executed = !conditional || st == null || Conditions.passed(cond, st.psr());
            boolean condBranch = false;
            if (conditional && st == null) {
                // no register log: judge a conditional branch by its successor (below)
                condBranch = isa == Isa.A32 ? Conditions.a32MayBranch(word) : true; // T32 B<c>, A64 B.cond
            }

            // the previous instruction, if held back, learns its fate from this address
            if (prevHeld) {
                if (prevCondBranch && entering == null && !returning && addr == prevAddr + prevSize) {
                    prevExecuted = false;
                }
                emitStep(prevAddr, prevIsa, prevSize, prevExecuted);
                prevHeld = false;
            }
            if (returning && a64Return) {
                returning = false;
                a64Return = false;
                stats.returns++;
                el = returnEl;
                if (entering == null && returnTo != addr) {
                    stats.resumeMismatches++;
                }
                emit(new ExecutionEvent.ExceptionReturned(returnTo, returnEl));
            } else if (returning) {
                returning = false;
                stats.returns++;
                emit(new ExecutionEvent.ExceptionReturned(addr));
                if (!active.isEmpty()) {
                    resolve(active.remove(active.size() - 1), addr);
                }
            }
            if (entering != null) {
                PendingEntry e = entering;
                entering = null;
                if (e.a64) {
                    if (e.number < 0) { // no "...to EL" line: the vector from the first handler address
                        e.handler = addr;
                        e.number = (int) ((addr & 0x7ff) >>> 7);
                    }
                } else if (e.handler < 0) {
                    e.handler = addr;
                }
                stats.exceptions++;
                if (e.a64) {
                    el = e.el;
                    emit(e.toEvent());
                } else {
                    active.add(e);
                    emit(e);
                }
            }
            if (st != null) {
                if (st.a64() && el >= 0 && st.el() != el) {
                    stats.elMismatches++;
                }
                if (st.secure() >= 0 && secure >= 0 && st.secure() != secure) {
                    stats.securityMismatches++;
                }
            }

            prevSplit = isa == Isa.T32 && size == 4 && loggedSize == 2;
            prevAddr = addr;
            prevSize = size;
            prevIsa = isa;
            prevExecuted = executed;
            prevCondBranch = condBranch;
            if (condBranch) {
                prevHeld = true;
            } else {
                emitStep(addr, isa, size, executed);
            }

            if (executed && profile != Profile.M && isa != Isa.A64
                    && (isa == Isa.A32 ? Conditions.isA32ExceptionReturn(word) : Conditions.isT32ExceptionReturn(hw1, hw2))) {
                returning = true;
            }
        }

        private Isa isaOf(long addr, int loggedSize, CpuStateLog.State st) {
            if (profile == Profile.M) {
                return Isa.T32;
            }
            if (st != null) {
                stats.isaFromCpu++;
                if (st.a64()) {
                    return Isa.A64;
                }
                return (st.psr() & 0x20) != 0 ? Isa.T32 : Isa.A32; // CPSR.T
            }
            if (image != null) {
                Isa m = io.armtrace.execution.MappingSymbols.isaAt(image.symbols(), addr);
                if (m != null) {
                    stats.isaFromSymbols++;
                    return m;
                }
            }
            stats.isaGuessed++;
            if (loggedSize == 2 || (addr & 2) != 0) {
                return Isa.T32;
            }
            return prevIsa;
        }

        private void emitStep(long addr, Isa isa, int size, boolean executed) {
            stats.steps++;
            if (!executed) {
                stats.conditionFailed++;
            }
            emit(new ExecutionEvent.Step(addr, isa, size, executed));
        }

        private void emit(Object e) {
            if (active.isEmpty() && held.isEmpty()) {
                sink.accept((ExecutionEvent) e);
                return;
            }
            held.add(e);
            if (held.size() > MAX_HELD) {
                // a handler that does not return within a million events: give up waiting
                for (PendingEntry p : active) {
                    p.resolvedReturn = p.fallbackReturn;
                    stats.returnFallbacks++;
                }
                active.clear();
                flush();
            }
        }

        private void resolve(PendingEntry e, long resume) {
            e.resolvedReturn = resume;
            if (e.synchronous && resume != e.fallbackReturn) {
                stats.returnDisagreements++;
            }
            if (active.isEmpty()) {
                flush();
            }
        }

        private void flush() {
            for (Object e : held) {
                if (e instanceof PendingEntry p) {
                    if (!p.synchronous && !p.resolved()) {
                        stats.returnFallbacks++;
                    }
                    sink.accept(p.toEvent());
                } else if (e instanceof PendingReturn r) {
                    sink.accept(new ExecutionEvent.ExceptionReturned(r.next().preferredReturn()));
                } else {
                    sink.accept((ExecutionEvent) e);
                }
            }
            held.clear();
        }

        void finish() {
            if (prevHeld) {
                emitStep(prevAddr, prevIsa, prevSize, prevExecuted);
                prevHeld = false;
            }
            active.clear();
            flush();
        }
    }

    /** An exception level as QEMU printed it, or unknown when it is not one (a damaged log). */
    private static int exceptionLevel(long v) {
        return v >= 0 && v <= 3 ? (int) v : ExecutionEvent.ExceptionTaken.UNKNOWN;
    }

    /** Two bytes in memory order, as hex text at {@code at}, as a little-endian halfword. */
    private static int halfword(String s, int at) {
        if (at + 4 > s.length()) {
            return 0;
        }
        int b0 = (Character.digit(s.charAt(at), 16) << 4) | Character.digit(s.charAt(at + 1), 16);
        int b1 = (Character.digit(s.charAt(at + 2), 16) << 4) | Character.digit(s.charAt(at + 3), 16);
        return (b1 << 8) | b0;
    }

    static long parseHex(String s, int at) {
        if (at + 1 < s.length() && s.charAt(at) == '0' && (s.charAt(at + 1) == 'x' || s.charAt(at + 1) == 'X')) {
            at += 2;
        }
        long v = 0;
        for (int i = at; i < s.length() && i < at + 16; i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0) {
                break;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    static long parseDec(String s, int at) {
        long v = 0;
        for (int i = at; i < s.length() && i < at + 12; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
