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
 * Synthesizes the instruction trace an ETMv4 or ETE trace unit would write for a known A-profile or R-profile
 * execution, AArch64 (A64) or AArch32 (A32 and T32; ETE: at EL0 only, as Armv9-A has it)
 * (IHI 0064, the packet and trace element chapters; ETE: the Arm ARM's trace unit chapters): A-sync, a
 * Trace Info packet, Trace On, an Address with Context packet where trace starts and where the exception
 * level changes, atoms for the P0 instructions (branches and ISB), packed into the compact atom formats 1 to 6,
 * target addresses of taken indirect branches and exception returns (exact match through the three-entry
 * address history, short or long as the history allows), Exception packets with their preferred return
 * addresses, and a periodic A-sync and Trace Info.
 *
 * <p>The unit is configured without speculation (TRCIDR8.MAXSPEC = 0: every P0 element commits at once),
 * without load/store P0 elements, data trace, conditional instruction trace, cycle counts or timestamps.
 * Optionally the return stack (TRCCONFIGR.RS) predicts returns: a RET whose target is the most recent
 * return address pushed by a BL or BLR is traced without its address. The encoder predicts nothing across a
 * synchronization, an exception or a restart of trace (it empties its return stack there, as OpenCSD's
 * decoder does at least at a restart), so a decoder that keeps more entries decodes the same.
 *
 * <p>What the trace cannot carry, by the protocol's design: instructions after the last P0 element or
 * exception of the execution (ETMv4 traces a run of non-branch instructions only when a P0 element or an
 * exception ends it). An executed SVC, HVC, SMC, BRK, HLT or UDF that the record does not follow with an
 * exception (a user-mode record: the kernel is not in it) is traced as that exception into code that is not
 * traced, and trace resumes with Trace On and an address at the next instruction of the record.
 *
 * <p>AArch32: Address with Context packets of 32 bits with the state bit SF clear, addresses IS0 for A32 and IS1
 * for T32 (half-word aligned, short addresses of bits [7:1] and [15:8]), the return stack keeping each return
 * address's instruction set; every instruction that writes the PC is a P0 instruction (an N atom when it failed
 * its condition), other conditional instructions are not traced (TRCCONFIGR.COND 0). Exceptions taken to AArch32
 * get their ETMv4 type from the vector. Optionally branch broadcast (TRCCONFIGR.BB, everywhere or in one address
 * range, TRCBBCTLR): the target of every taken direct branch is traced as an address too.
 */
public final class Etm4Encoder {

    /** Encoder options, from the one table of encoder options: name to one-line description. */
    static final Map<String, String> OPTIONS = io.armtrace.protocol.EncodeOption.list(
            io.armtrace.protocol.EncodeOption.RETURN_STACK, "TRCCONFIGR.RS, default off",
            io.armtrace.protocol.EncodeOption.EXACT_MATCH, "default on",
            io.armtrace.protocol.EncodeOption.SYNC_PERIOD,
            "bytes of trace between periodic A-sync and Trace Info packets, 16 or more, default 1024",
            io.armtrace.protocol.EncodeOption.TRACE_ID, "TRCTRACEIDR, default 0x10",
            io.armtrace.protocol.EncodeOption.EL, "default: the record's, else 0",
            io.armtrace.protocol.EncodeOption.SECURITY, "default: the record's, else non-secure",
            io.armtrace.protocol.EncodeOption.PROFILE,
            "AR: A64, A32 and T32 code of A and R profile cores; M (etm4 only): T32 code of an Armv8-M core, without context IDs, VMIDs or branch broadcast",
            io.armtrace.protocol.EncodeOption.BRANCH_BROADCAST, "TRCCONFIGR.BB, default off; not with the return stack or Q elements",
            io.armtrace.protocol.EncodeOption.BRANCH_BROADCAST_RANGE, "default: every branch",
            io.armtrace.protocol.EncodeOption.UNIT, "default a; ETE: only a",
            io.armtrace.protocol.EncodeOption.Q_ELEMENTS, "TRCCONFIGR.QE, default 0 (off); not with the return stack",
            io.armtrace.protocol.EncodeOption.CYCLE_ACCURATE, "TRCCONFIGR.CCI, default off; one cycle per instruction",
            io.armtrace.protocol.EncodeOption.CYCLE_THRESHOLD, "1 to 4095, default 100",
            io.armtrace.protocol.EncodeOption.TIMESTAMPS,
            "TRCCONFIGR.TS, default off; at every Trace Info and Trace On, the instructions executed so far",
            io.armtrace.protocol.EncodeOption.CONTEXT_ID, "TRCCONFIGR.CID: 32-bit value in every context, default not traced",
            io.armtrace.protocol.EncodeOption.VMID, "TRCCONFIGR.VMID: 8-bit value in every context, default not traced");

    // Identification registers of the unit described (IHI 0064 and ETE register descriptions):
    // TRCIDR0: branch broadcast, cycle counting and return stack implemented, 64-bit timestamps, no Q elements,
    // no conditional or data trace; TRCIDR2: 64-bit instruction addresses, 32-bit context ID, 8-bit VMID.
    static final long IDR0 = 0x28000EA1L;
    static final long IDR1_ETM4 = 0x4100F423L; // ETMv4.2
    static final long IDR1_ETE = 0x4100FFF3L;  // ETE: TRCARCHMAJ reads 0b1111, the version is in TRCDEVARCH
    static final long DEVARCH_ETE = 0x47705A13L; // ETE v1.0
    static final long IDR2 = 0x00000488L;
    static final long AUTHSTATUS = 0x000000CCL; // non-secure invasive and non-invasive debug enabled
    // Cortex-R52 (Armv8-R, AArch32 only): 32-bit instruction addresses (TRCIDR2.IASIZE 0b00100), 32-bit context ID,
    // 8-bit VMID (it has EL2); TRCIDR0 and TRCIDR1 as above (ETMv4.2)
    static final long IDR2_R52 = 0x00000484L;

    private final boolean ete;
    private boolean returnStack;
    private boolean exactMatch = true;
    private int syncPeriod = 1024;
    private int traceId = 0x10;
    private int el;
    private boolean nonSecure = true;
    private int qElements;
    private boolean cycles;
    private int cycleThreshold = 100;
    private boolean timestamps;
    private long contextId = -1;
    private long vmid = -1;
    private boolean branchBroadcast;
    private long bbLow = -1;
    private long bbHigh = -1;
    private boolean r52;
    // an Armv8-M core (Etm4MEncoder): T32 only, M-profile exception numbers, exception returns and tail chains
    private boolean mProfile;

    /** An encoder for an ETMv4 unit ({@code ete} false) or an ETE unit. */
    public Etm4Encoder(boolean ete) {
        this.ete = ete;
    }

    public Etm4Encoder returnStack(boolean on) {
        returnStack = on;
        return this;
    }

    /**
     * Q elements (TRCCONFIGR.QE): every run of {@code n} P0 instructions is traced as one Q element, the
     * number of instructions since the previous P0 element and the address of the next one (0: atoms only).
     */
    public Etm4Encoder qElements(long n) {
        if (n < 0 || n > 1000) {
            throw new IllegalArgumentException("Option --q-elements takes 0 to 1000 P0 instructions, not " + n + ".");
        }
        qElements = (int) n;
        return this;
    }

    /** Cycle counts (TRCCONFIGR.CCI) with this threshold; the execution is taken to run one instruction a cycle. */
    public Etm4Encoder cycleCounts(boolean on, long threshold) {
        if (threshold < 1 || threshold > 4095) {
            throw new IllegalArgumentException("Option --cycle-threshold takes 1 to 4095 cycles, not " + threshold + ".");
        }
        cycles = on;
        cycleThreshold = (int) threshold;
        return this;
    }

    /** Timestamps (TRCCONFIGR.TS): the number of instructions executed so far, at each Trace Info and Trace On. */
    public Etm4Encoder timestamps(boolean on) {
        timestamps = on;
        return this;
    }

    /** The context ID (32 bits) and VMID (8 bits) traced in every context; -1: not traced. */
    public Etm4Encoder context(long contextIdValue, long vmidValue) {
        if (contextIdValue < -1 || contextIdValue > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("Option --context-id takes a 32-bit value, not " + contextIdValue + ".");
        }
        if (vmidValue < -1 || vmidValue > 0xFF) {
            throw new IllegalArgumentException("Option --vmid takes an 8-bit value, not " + vmidValue + ".");
        }
        contextId = contextIdValue;
        vmid = vmidValue;
        return this;
    }

    /**
     * Branch broadcast (TRCCONFIGR.BB): the target of every taken direct branch is traced too; with
     * {@code low} >= 0 only of the branches at addresses {@code low} to {@code high} (TRCBBCTLR.MODE include,
     * RANGE[0]: address range comparator pair 0, TRCACVR0 and TRCACVR1).
     */
    public Etm4Encoder branchBroadcast(boolean on, long low, long high) {
        if (low >= 0 && (high < low)) {
            throw new IllegalArgumentException("Option --branch-broadcast-range takes LOW-HIGH with LOW at most HIGH.");
        }
        branchBroadcast = on;
        bbLow = low;
        bbHigh = high;
        return this;
    }

    public Etm4Encoder exactMatch(boolean on) {
        exactMatch = on;
        return this;
    }

    public Etm4Encoder syncPeriod(long bytes) {
        if (bytes < 16 || bytes > 1 << 30) {
            throw new IllegalArgumentException("The sync period must be 16 to 2^30 bytes, not " + bytes + ".");
        }
        syncPeriod = (int) bytes;
        return this;
    }

    public Etm4Encoder traceId(long id) {
        if (id < 1 || id > 0x6F) {
            throw new IllegalArgumentException("The trace ID must be 0x01 to 0x6f, not 0x" + Long.toHexString(id) + ".");
        }
        traceId = (int) id;
        return this;
    }

    /** Exception level and security state of the first instruction. */
    public Etm4Encoder state(int exceptionLevel, boolean nonSecureState) {
        if (exceptionLevel < 0 || exceptionLevel > 3) {
            throw new IllegalArgumentException("The exception level must be 0 to 3, not " + exceptionLevel + ".");
        }
        el = exceptionLevel;
        nonSecure = nonSecureState;
        return this;
    }

    static Etm4Encoder fromOptions(Map<String, String> options, boolean ete) {
        Etm4Encoder e = new Etm4Encoder(ete);
        String title = ete ? "ETE" : "ETMv4";
        for (Map.Entry<String, String> o : options.entrySet()) {
            String v = o.getValue() == null ? "" : o.getValue().trim();
            switch (o.getKey()) {
                case "return-stack" -> e.returnStack = OptionValues.flag(o.getKey(), v);
                case "exact-match" -> e.exactMatch = OptionValues.flag(o.getKey(), v);
                case "q-elements" -> e.qElements(OptionValues.number(o.getKey(), v));
                case "cycle-accurate" -> e.cycles = OptionValues.flag(o.getKey(), v);
                case "cycle-threshold" -> e.cycleCounts(e.cycles, OptionValues.number(o.getKey(), v));
                case "timestamps" -> e.timestamps = OptionValues.flag(o.getKey(), v);
                case "context-id" -> e.context(OptionValues.number(o.getKey(), v), e.vmid);
                case "vmid" -> e.context(e.contextId, OptionValues.number(o.getKey(), v));
                case "sync-period" -> e.syncPeriod(OptionValues.number(o.getKey(), v));
                case "trace-id" -> e.traceId(OptionValues.number(o.getKey(), v));
                case "el" -> e.state((int) Math.max(-1, Math.min(4, OptionValues.number(o.getKey(), v))), e.nonSecure);
                case "security" -> {
                    if (!v.equals("secure") && !v.equals("non-secure")) {
                        throw new IllegalArgumentException("Option --security takes secure or non-secure, not '" + v + "'.");
                    }
                    e.nonSecure = v.equals("non-secure");
                }
                case "profile" -> {
                    if (!v.equalsIgnoreCase("AR")) {
                        throw new IllegalArgumentException(title + " encoding covers A and R profile code; "
                                + "an M-profile execution cannot be encoded.");
                    }
                }
                case "branch-broadcast" -> e.branchBroadcast = OptionValues.flag(o.getKey(), v);
                case "branch-broadcast-range" -> {
                    int dash = v.indexOf('-', 1);
                    if (dash < 0) {
                        throw new IllegalArgumentException("Option --branch-broadcast-range takes LOW-HIGH, not '" + v + "'.");
                    }
                    e.branchBroadcast(e.branchBroadcast, OptionValues.number(o.getKey(), v.substring(0, dash)),
                            OptionValues.number(o.getKey(), v.substring(dash + 1)));
                }
                case "unit" -> {
                    if (!v.equalsIgnoreCase("a") && !v.equalsIgnoreCase("r52")) {
                        throw new IllegalArgumentException("Option --unit takes a or r52, not '" + v + "'.");
                    }
                    e.r52 = v.equalsIgnoreCase("r52");
                    if (e.r52 && ete) {
                        throw new IllegalArgumentException("Cortex-R52 has an ETMv4 trace unit, not ETE: encode it with --protocol etm4.");
                    }
                }
                default -> throw new IllegalArgumentException("Unknown " + title + " option --" + o.getKey() + "; known: "
                        + String.join(", ", OPTIONS.keySet()) + ".");
            }
        }
        if (e.bbLow >= 0 && !e.branchBroadcast) {
            throw new IllegalArgumentException("Option --branch-broadcast-range needs --branch-broadcast=on.");
        }
        if (e.branchBroadcast && (e.returnStack || e.qElements > 0)) {
            throw new IllegalArgumentException("Option --branch-broadcast=on goes with neither --return-stack=on nor "
                    + "--q-elements: each would leave out addresses that branch broadcast traces.");
        }
        if (e.qElements > 0 && e.returnStack) {
            throw new IllegalArgumentException("Options --q-elements and --return-stack=on do not go together: a Q element "
                    + "carries the address a return would have left out.");
        }
        return e;
    }

    /**
     * Encodes an Armv8-M or Armv8.1-M execution ({@link Etm4MEncoder} sets it up): T32 code only, exceptions with
     * their M-profile numbers, an Exception Return packet after the E atom of every exception return, a
     * tail-chained exception as an Exception packet at 0xFFFFFFFE, and Thread or Handler mode in the level field
     * of each context.
     */
    Etm4Encoder mProfile() {
        mProfile = true;
        return this;
    }

    /** The registers that describe the unit, under the names OpenCSD's snapshots use. */
    public Registers registers() {
        Registers r = new Registers();
        r.put("TRCCONFIGR", 0x1 | (returnStack ? Etm4Config.CONFIGR_RS : 0)
                | (qElements > 0 ? 1L << Etm4Config.CONFIGR_QE_SHIFT : 0) // QE 0b01: Q elements with counts
                | (cycles ? Etm4Config.CONFIGR_CCI : 0) | (timestamps ? Etm4Config.CONFIGR_TS : 0)
                | (contextId >= 0 ? Etm4Config.CONFIGR_CID : 0) | (vmid >= 0 ? Etm4Config.CONFIGR_VMID : 0)
                | (branchBroadcast ? Etm4Config.CONFIGR_BB : 0));
        if (branchBroadcast && bbLow >= 0) {
            r.put("TRCBBCTLR", 0x101); // MODE 1 (include), RANGE[0]: the address range comparator pair 0
            r.put("TRCACVR0", bbLow);
            r.put("TRCACVR1", bbHigh);
            r.put("TRCACATR0", 0);
            r.put("TRCACATR1", 0);
        } else if (branchBroadcast) {
            r.put("TRCBBCTLR", 0); // MODE 0 (exclude) with no range: every branch
        }
        r.put("TRCTRACEIDR", traceId);
        r.put("TRCAUTHSTATUS", AUTHSTATUS);
        r.put("TRCIDR0", (mProfile ? Etm4MEncoder.IDR0 : IDR0) | (qElements > 0 ? 1L << 15 : 0)); // QSUPP 0b01: with counts
        r.put("TRCIDR1", mProfile ? Etm4MEncoder.IDR1 : ete ? IDR1_ETE : IDR1_ETM4);
        r.put("TRCIDR2", mProfile ? Etm4MEncoder.IDR2 : r52 ? IDR2_R52 : IDR2);
        if (cycles) {
            r.put("TRCCCCTLR", cycleThreshold);
        }
        for (int i = 3; i <= 13; i++) {
            r.put("TRCIDR" + i, 0);
        }
        if (branchBroadcast && bbLow >= 0) {
            r.put("TRCIDR4", 1); // NUMACPAIRS: the one address comparator pair the range uses
        }
        if (ete) {
            r.put("TRCDEVARCH", DEVARCH_ETE);
        }
        return r;
    }

    public EncodeOutput encode(Execution execution, ProgramImage image) {
        byte[] trace = new Run(image.memory()).run(execution.events());
        return new EncodeOutput(trace, registers(), ete ? "ETE" : "ETM4");
    }

    /** ETMv4 exception type (IHI 0064, Exception packet, Armv8-A types) of an exception the record took. */
    static int exceptionType(ExecutionEvent.ExceptionTaken x) {
        int group = x.number() & 3;
        if (group == 1) {
            return 0xE; // IRQ
        }
        if (group == 2) {
            return 0xF; // FIQ
        }
        if (group == 3) {
            return 0x4; // SError: system error
        }
        return switch (x.exceptionClass()) {
            case 0x11, 0x12, 0x13, 0x15, 0x16, 0x17 -> 0x2; // SVC, HVC, SMC: call
            case 0x20, 0x21 -> 0xB; // instruction abort
            case 0x24, 0x25 -> 0xC; // data abort
            case 0x22, 0x26 -> 0xA; // PC or SP alignment
            case 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x38, 0x3C -> 0x6; // breakpoint, step, BRK: debug
            default -> 0x3; // trap
        };
    }

    /**
     * ETMv4 exception type (IHI 0064, Exception packet, Armv8-A and Armv8-R types) of an exception taken to
     * AArch32 state, from its vector offset / 4.
     */
    static int exceptionType32(int number) {
        return switch (number) {
            case 0 -> 0x0; // reset
            case 1 -> 0x3; // undefined instruction: trap
            case 2, 5 -> 0x2; // SVC; HVC (the hypervisor call vector): call
            case 3 -> 0xB; // prefetch abort: instruction fault
            case 4 -> 0xC; // data abort: data fault
            case 6 -> 0xE; // IRQ
            case 7 -> 0xF; // FIQ
            default -> 0x3;
        };
    }

    /** ETMv4 exception type of an A32 or T32 exception-generating instruction (SVC, HVC, SMC: call; BKPT: debug; UDF: trap). */
    static int callType32(Insn insn) {
        int op = insn.opcode;
        if (insn.isa == Isa.A32) {
            if ((op & 0x0F000000) == 0x0F000000 || (op & 0x0FF000F0) == 0x01400070 || (op & 0x0FF000F0) == 0x01600070) {
                return 0x2; // SVC, HVC, SMC
            }
            return (op & 0x0FF000F0) == 0x01200070 ? 0x6 : 0x3; // BKPT, else UDF
        }
        if (insn.size == 2) {
            if ((op & 0xFF00) == 0xDF00) {
                return 0x2; // SVC
            }
            return (op & 0xFF00) == 0xBE00 ? 0x6 : 0x3; // BKPT, else UDF
        }
        return (op & 0xFFE0F000) == 0xF7E08000 ? 0x2 : 0x3; // HVC, SMC; else UDF
    }

    /** An address as the address history keeps it: T32 (IS1) half-word aligned, A64 and A32 word aligned. */
    static long align(long a, int is) {
        return is == 1 ? a & ~1L : a & ~3L;
    }

    /** ETMv4 exception type of an exception-generating instruction (SVC, HVC, SMC; BRK; HLT; UDF). */
    static int callType(int opcode) {
        if ((opcode & 0xFFE00000) == 0xD4000000) {
            int opc = opcode >>> 21 & 7;
            int ll = opcode & 3;
            if (opc == 0 && ll != 0) {
                return 0x2; // SVC, HVC, SMC
            }
            if (opc == 1) {
                return 0x6; // BRK
            }
            if (opc == 2) {
                return 0x1; // HLT: debug halt
            }
        }
        return 0x3; // UDF: an undefined instruction trap
    }

    /** One encoding pass: the trace unit's state. */
    private final class Run {
        private final MemoryImage memory;
        private final InstructionClassifier classifier = new InstructionClassifier(mProfile ? Profile.M : Profile.AR);
        private final Insn insn = new Insn();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        // address history (IHI 0064, address packets): most recent first
        private final long[] history = new long[3];
        private final int[] historyIs = new int[3];

        // atoms not yet written: bit i = atom i is E
        private int atomCount;
        private int atomBits;

        private boolean started;
        private boolean needAddress;
        private boolean handlerAddress;
        private boolean contextChanged;
        private int curEl;
        private int tracedEl = -1;
        // the instruction set of the code being traced (its state, AArch64 or AArch32, is in the context packet)
        private Isa curIsa = Isa.A64;
        private boolean tracedAarch64 = true;
        private long expectedNext = -1;
        private boolean atRangeStart;
        private long lastSync;

        // an executed P0 instruction whose destination is the next event
        private boolean pending;
        private long pAddr;
        private WaypointKind pKind;
        private boolean pLink;
        private boolean pRet;
        private long pTarget;
        private Isa pTargetIsa;
        private long pReturn;
        private Isa pIsa;

        // M profile: the preferred return addresses of the exceptions entered and not yet returned from (innermost
        // last; past 256, no core nests so deep, the oldest is forgotten), and whether the pending P0 instruction is
        // an exception return
        private final long[] open = new long[256];
        private int depth;
        private boolean returning;

        private final long[] stack = new long[15];
        private final Isa[] stackIsa = new Isa[15];
        private int stackSize;

        // cycles since the last cycle count (one a instruction), and instructions executed so far (the timestamp)
        private long cyclesSince;
        private long executed;

        // Q elements: instructions since the last P0 element written, and the group not yet written
        private long sinceP0;
        private int qP0;
        private long qCount;
        private long qNext;
        private Isa qNextIsa = Isa.A64;

        Run(MemoryImage memory) {
            this.memory = memory;
            this.curEl = el;
        }

        byte[] run(List<ExecutionEvent> events) {
            for (int i = 0; i < events.size(); i++) {
                ExecutionEvent e = events.get(i);
                if (e instanceof ExecutionEvent.Step s) {
                    ExecutionEvent next = i + 1 < events.size() ? events.get(i + 1) : null;
                    step(s, next);
                } else if (e instanceof ExecutionEvent.ExceptionTaken x) {
                    exception(x);
                } else if (e instanceof ExecutionEvent.ExceptionReturned r && mProfile) {
                    returning = pending;
                    if (depth > 0) {
                        depth--;
                    }
                } else if (e instanceof ExecutionEvent.ExceptionReturned r) {
                    if (r.el() >= 0 && r.el() != curEl) {
                        curEl = r.el();
                        contextChanged = true;
                    }
                }
            }
            if (pending) {
                // the execution ends after a P0 instruction that went somewhere the record does not show
                pending = false;
                atom(true);
            }
            flushAtoms();
            return out.toByteArray();
        }

        private void step(ExecutionEvent.Step s, ExecutionEvent next) {
            long a = s.address();
            Isa isa = s.isa();
            if (isa != Isa.A64 && isa != Isa.A32 && isa != Isa.T32) {
                throw new IllegalArgumentException("The execution has " + isa + " code at 0x" + Long.toHexString(a)
                        + "; the ETMv4/ETE encoder encodes A64, A32 and T32 code.");
            }
            if (mProfile && isa != Isa.T32) {
                throw new IllegalArgumentException("The execution has " + isa + " code at 0x" + Long.toHexString(a)
                        + "; an M-profile core runs T32 code only.");
            }
            if (isa == Isa.A64 && r52) {
                throw new IllegalArgumentException("The execution has A64 code at 0x" + Long.toHexString(a)
                        + "; Cortex-R52 (--unit=r52) runs AArch32 code only.");
            }
            if (isa != Isa.A64 && ete && curEl != 0) {
                throw new IllegalArgumentException("The execution has " + isa + " code at 0x" + Long.toHexString(a)
                        + " at EL" + curEl + "; an ETE unit traces an Armv9-A core, which has AArch32 state at EL0 only.");
            }
            if (started && (isa == Isa.A64) != tracedAarch64) {
                contextChanged = true; // AArch64 to AArch32 or back: only an exception or its return does that
            }
            if (pending) {
                resolve(a, isa);
            } else if (!started) {
                sync(a, isa, true);
            } else if (handlerAddress) {
                // the first instruction of an exception handler: its address (and context) after the Exception packet
                flushAtoms();
                address(a, isa, contextChanged);
            } else if (needAddress || a != expectedNext) {
                // trace resumes after code that is not traced (or a discontinuity the record does not explain)
                restart(a, isa);
            } else if (atRangeStart && out.size() - lastSync >= syncPeriod) {
                sync(a, isa, false);
            }
            if (contextChanged) {
                // the context changed at an exception return resolved above (the address carried it) or here
                flushAtoms();
                address(a, isa, true);
            }
            curIsa = isa;
            if (!classifier.classify(memory, a, isa, 0, insn)) {
                throw new IllegalArgumentException("The execution runs code at 0x" + Long.toHexString(a)
                        + " that the program image does not hold.");
            }
            sinceP0++;
            cyclesSince++;
            executed++;
            WaypointKind kind = insn.kind;
            long nextAddress = a + insn.size;
            boolean p0 = kind == WaypointKind.DIRECT_BRANCH || kind == WaypointKind.INDIRECT_BRANCH
                    || kind == WaypointKind.EXCEPTION_RETURN || kind == WaypointKind.BARRIER; // ISB is P0 in ETMv4
            atRangeStart = false;
            if (p0) {
                if (!s.executed()) {
                    // a branch that failed its condition (AArch32: any instruction that writes the PC)
                    p0(false, nextAddress, isa);
                    expectedNext = nextAddress;
                    atRangeStart = true;
                } else {
                    pending = true;
                    pAddr = a;
                    pKind = kind;
                    pLink = insn.link;
                    pRet = insn.ret;
                    pTarget = insn.target;
                    pTargetIsa = insn.targetIsa == null ? isa : insn.targetIsa;
                    pReturn = nextAddress;
                    pIsa = isa;
                }
            } else {
                expectedNext = nextAddress;
                if (kind == WaypointKind.EXCEPTION_CALL && s.executed() && !mProfile
                        && !(next instanceof ExecutionEvent.ExceptionTaken)) {
                    // the exception goes to code the record does not have: traced as the exception, then nothing
                    // until the record goes on
                    flushAtoms();
                    stackSize = 0;
                    exceptionPacket(isa == Isa.A64 ? callType(insn.opcode) : callType32(insn), nextAddress, isa, false);
                    needAddress = true;
                }
            }
        }

        /** Trace On and the address and context of {@code a}, where trace resumes after a discontinuity. */
        private void restart(long a, Isa isa) {
            flushAtoms();
            out.write(0x04); // Trace On
            timestamp();
            sinceP0 = 0;
            stackSize = 0; // a decoder empties its return stack where trace restarts (OpenCSD does)
            address(a, isa, true);
        }

        /** The executed P0 instruction at pAddr went to {@code target}, an instruction of {@code isa}. */
        private void resolve(long target, Isa isa) {
            pending = false;
            expectedNext = target;
            atRangeStart = true;
            if (pKind == WaypointKind.BARRIER) {
                p0(true, target, isa); // ISB: an E atom, execution goes on at the next instruction
                if (target != pReturn) {
                    restart(target, isa); // it did not: a discontinuity the record does not explain
                }
                return;
            }
            if (pKind == WaypointKind.DIRECT_BRANCH) {
                if (target != pTarget) {
                    p0(false, target, isa); // CBZ, CBNZ, TBZ, TBNZ that did not branch
                    if (target != pReturn) {
                        // nor went on to the next instruction: a discontinuity the record does not explain
                        restart(target, isa);
                    }
                    return;
                }
                p0(true, target, isa);
                if (pLink) {
                    push(pReturn, pIsa);
                }
                if (broadcast(pAddr)) {
                    // branch broadcast: the target of a taken direct branch is traced too
                    flushAtoms();
                    address(target, isa, contextChanged);
                }
                return;
            }
            if (returning) {
                // M profile: an exception return (a branch that loaded EXC_RETURN) is an E atom, then an Exception
                // Return packet and the address execution resumes at; never predicted by the return stack
                returning = false;
                flushQ();
                atom(true);
                sinceP0 = 0; // the atom is the P0 element a Q element after it counts from
                flushAtoms();
                out.write(0x07);
                address(target, isa, false);
                return;
            }
            if (qElements > 0) {
                // the Q element that holds the branch carries where it went, unless the context changed there
                p0(true, target, isa);
                if (contextChanged) {
                    flushAtoms();
                    address(target, isa, true);
                }
                return;
            }
            atom(true);
            if (pRet && pKind == WaypointKind.INDIRECT_BRANCH && returnStack && stackSize > 0
                    && stack[stackSize - 1] == target && stackIsa[stackSize - 1] == isa && !contextChanged) {
                stackSize--;
            } else {
                flushAtoms();
                address(target, isa, contextChanged);
            }
            if (pLink) {
                push(pReturn, pIsa);
            }
        }

        /** Branch broadcasting applies to a branch at {@code a}: everywhere, or in the range TRCBBCTLR selects. */
        private boolean broadcast(long a) {
            return branchBroadcast && (bbLow < 0 || (a >= bbLow && a <= bbHigh));
        }

        /** M profile: enters an exception that returns to {@code ret}. */
        private void enter(long ret) {
            if (depth == open.length) {
                System.arraycopy(open, 1, open, 0, depth - 1);
                depth--;
            }
            open[depth++] = ret;
        }

        private void push(long a, Isa isa) {
            if (!returnStack) {
                return;
            }
            if (stackSize == stack.length) {
                System.arraycopy(stack, 1, stack, 0, stackSize - 1);
                System.arraycopy(stackIsa, 1, stackIsa, 0, stackSize - 1);
                stackSize--;
            }
            stackIsa[stackSize] = isa;
            stack[stackSize++] = a;
        }

        private void exception(ExecutionEvent.ExceptionTaken x) {
            if (!started) {
                // trace starts in the handler, at the exception level the exception went to
                if (mProfile) {
                    enter(x.preferredReturn());
                }
                if (x.el() >= 0) {
                    curEl = x.el();
                }
                return;
            }
            boolean atTarget = false;
            // the instruction set of the preferred return address: that of the code interrupted (after a taken
            // indirect branch the record does not say; taken as the branch's own)
            Isa returnIsa = curIsa;
            long ret = x.preferredReturn();
            if (mProfile && pending && pKind == WaypointKind.INDIRECT_BRANCH && depth > 0 && open[depth - 1] == ret) {
                // tail-chained: the handler's return instruction ran and the next exception replaced the return;
                // the Exception packet's address 0xFFFFFFFE says that no instruction ran between the two
                pending = false;
                flushQ();
                atom(true);
                ret = Etm4MEncoder.TAIL_CHAIN;
            } else if (pending) {
                // the P0 instruction went to where the exception returns to: the exception's address is its target
                pending = false;
                if (pKind == WaypointKind.DIRECT_BRANCH && x.preferredReturn() != pTarget) {
                    p0(false, x.preferredReturn(), curIsa);
                } else {
                    if (pKind == WaypointKind.DIRECT_BRANCH) {
                        returnIsa = pTargetIsa;
                    }
                    p0(true, x.preferredReturn(), returnIsa);
                    atTarget = pKind != WaypointKind.DIRECT_BRANCH && pKind != WaypointKind.BARRIER;
                    if (pLink) {
                        push(pReturn, pIsa);
                    }
                }
            }
            if (mProfile && ret != Etm4MEncoder.TAIL_CHAIN) {
                enter(ret);
            }
            returning = false;
            flushAtoms();
            stackSize = 0; // nothing predicted across an exception: the handler and the code after it start afresh
            int type = mProfile ? Etm4MEncoder.exceptionType(x.number())
                    : curIsa == Isa.A64 ? exceptionType(x) : exceptionType32(x.number());
            if (ete && type == 0) {
                // ETE: an Exception packet of type 0 is the PE Reset packet, which carries no address
                throw new IllegalArgumentException("The record takes a reset exception, which ETE traces as a PE reset"
                        + " without an address; the ETE encoder does not write resets.");
            }
            exceptionPacket(type, ret, returnIsa, atTarget && qElements == 0);
            if (x.el() >= 0 && x.el() != curEl) {
                curEl = x.el();
                contextChanged = true;
            }
            expectedNext = x.handler();
            needAddress = false;
            atRangeStart = true;
            // the handler's first instruction is traced with a target address (and context, if it changed)
            handlerAddress = true;
        }

        private void exceptionPacket(int type, long preferredReturn, Isa isa, boolean atTarget) {
            sinceP0 = 0; // the exception is a P0 element: the instructions before it are walked to its address
            out.write(0x06);
            int b1 = (type & 0x1F) << 1 | (atTarget ? 0x40 : 0x01);
            if (type > 0x1F) {
                out.write(b1 | 0x80);
                out.write(type >> 5 & 0x1F);
            } else {
                out.write(b1);
            }
            address(preferredReturn, isa, false);
            cycleCount();
        }

        /** A-sync and Trace Info, then the address and context of the instruction at {@code a}. */
        private void sync(long a, Isa isa, boolean first) {
            flushAtoms();
            for (int i = 0; i < 11; i++) {
                out.write(0x00);
            }
            out.write(0x80);
            out.write(0x01); // Trace Info: speculation depth 0, no key
            if (cycles) {
                out.write(0x09); // INFO and CYCT sections
                out.write(0x01); // INFO: cycle counting enabled
                writeCount(cycleThreshold);
            } else {
                out.write(0x00); // no sections: all defaults (no cycle counting)
            }
            history[0] = history[1] = history[2] = 0;
            historyIs[0] = historyIs[1] = historyIs[2] = 0;
            stackSize = 0;
            sinceP0 = 0;
            if (first) {
                out.write(0x04); // Trace On
                started = true;
            }
            timestamp();
            lastSync = out.size();
            address(a, isa, true);
        }

        /**
         * The target address {@code a} of an instruction of {@code isa} (T32: IS1, else IS0), with a context packet
         * when {@code withContext} or when the exception level or the execution state changed.
         */
        private void address(long a, Isa isa, boolean withContext) {
            handlerAddress = false;
            needAddress = false;
            int is = isa == Isa.T32 ? 1 : 0;
            boolean a64 = isa == Isa.A64;
            if (withContext || tracedEl != curEl || a64 != tracedAarch64) {
                if (a64) {
                    out.write(0x85); // Address with Context, 64-bit, IS0
                    writeAddress(a, 0, 8);
                } else {
                    out.write(0x82 | is); // Address with Context, 32-bit, IS0 (A32) or IS1 (T32)
                    writeAddress(a, is, 4);
                }
                // M profile: the level field is Thread mode 0 or Handler mode 3 (ETM-M33 TRM, TRCIDR3.EXLEVEL_S)
                int level = mProfile ? (depth > 0 ? 3 : 0) : curEl;
                out.write(level | (a64 ? 0x10 : 0) | (nonSecure ? 0x20 : 0) | (vmid >= 0 ? 0x40 : 0)
                        | (contextId >= 0 ? 0x80 : 0)); // EL, SF, NS, V, C
                if (vmid >= 0) {
                    out.write((int) vmid);
                }
                if (contextId >= 0) {
                    for (int i = 0; i < 4; i++) {
                        out.write((int) (contextId >>> (8 * i)) & 0xFF);
                    }
                }
                tracedEl = curEl;
                tracedAarch64 = a64;
                contextChanged = false;
                pushHistory(a, is);
                return;
            }
            if (exactMatch) {
                for (int k = 0; k < 3; k++) {
                    if (history[k] == align(a, is) && historyIs[k] == is) {
                        out.write(0x90 + k);
                        pushHistory(a, is);
                        return;
                    }
                }
            }
            int shortBits = is == 0 ? 9 : 8; // a short address gives bits [8:2] (IS0) or [7:1] (IS1), then 8 more
            long diff = a ^ history[0];
            if (diff >>> shortBits == 0) {
                out.write(0x95 + is);
                out.write((int) (a >>> (2 - is)) & 0x7F);
            } else if (diff >>> (shortBits + 8) == 0) {
                out.write(0x95 + is);
                out.write((int) (a >>> (2 - is)) & 0x7F | 0x80);
                out.write((int) (a >>> shortBits) & 0xFF);
            } else if (a >>> 32 == 0 && history[0] >>> 32 == 0) {
                out.write(0x9A + is); // long, 32-bit
                writeAddress(a, is, 4);
            } else {
                out.write(0x9D + is); // long, 64-bit
                writeAddress(a, is, 8);
            }
            pushHistory(a, is);
        }

        /** The address field of a long address packet: IS0 bits [8:2] and [15:9], IS1 bits [7:1] and [15:8], then bytes. */
        private void writeAddress(long a, int is, int bytes) {
            if (is == 0) {
                out.write((int) (a >>> 2) & 0x7F);
                out.write((int) (a >>> 9) & 0x7F);
            } else {
                out.write((int) (a >>> 1) & 0x7F);
                out.write((int) (a >>> 8) & 0xFF);
            }
            for (int i = 2; i < bytes; i++) {
                out.write((int) (a >>> (8 * i)) & 0xFF);
            }
        }

        private void pushHistory(long a, int is) {
            history[2] = history[1];
            history[1] = history[0];
            history[0] = align(a, is);
            historyIs[2] = historyIs[1];
            historyIs[1] = historyIs[0];
            historyIs[0] = is;
        }

        /**
         * A P0 instruction ({@code e}: it branched, or ISB) after which execution goes on at {@code next}: an
         * atom, or with Q elements one more instruction run of the Q element being gathered.
         */
        private void p0(boolean e, long next, Isa nextIsa) {
            if (qElements == 0) {
                atom(e);
                return;
            }
            if (atomCount > 0) {
                flushAtoms();
            }
            qP0++;
            qCount += sinceP0;
            sinceP0 = 0;
            qNext = next;
            qNextIsa = nextIsa;
            if (qP0 == qElements) {
                flushQ();
            }
        }

        /**
         * Writes the Q element gathered (IHI 0064, Q packet): its count, with the next address as an exact match,
         * a short or a 32-bit address where the address history allows, else a Q packet with the count only and
         * a long address packet after it.
         */
        private void flushQ() {
            if (qP0 == 0) {
                return;
            }
            long a = qNext;
            long count = qCount;
            int is = qNextIsa == Isa.T32 ? 1 : 0;
            qP0 = 0;
            qCount = 0;
            int k = -1;
            if (exactMatch) {
                for (int i = 0; i < 3 && k < 0; i++) {
                    if (history[i] == align(a, is) && historyIs[i] == is) {
                        k = i;
                    }
                }
            }
            int shortBits = is == 0 ? 9 : 8;
            long diff = a ^ history[0];
            if (k >= 0) {
                out.write(0xA0 + k);
                writeCount(count);
                pushHistory(a, is);
            } else if (diff >>> shortBits == 0) {
                out.write(0xA5 + is);
                out.write((int) (a >>> (2 - is)) & 0x7F);
                writeCount(count);
                pushHistory(a, is);
            } else if (diff >>> (shortBits + 8) == 0) {
                out.write(0xA5 + is);
                out.write((int) (a >>> (2 - is)) & 0x7F | 0x80);
                out.write((int) (a >>> shortBits) & 0xFF);
                writeCount(count);
                pushHistory(a, is);
            } else if (diff >>> 32 == 0) {
                out.write(0xAA + is);
                writeAddress(a, is, 4);
                writeCount(count);
                pushHistory(a, is);
            } else {
                out.write(0xAC); // count only: the address packet after it is the Q element's
                writeCount(count);
                address(a, qNextIsa, false);
            }
            cycleCount();
        }

        private void writeCount(long v) {
            while (v >= 0x80) {
                out.write((int) (v & 0x7F) | 0x80);
                v >>>= 7;
            }
            out.write((int) v);
        }

        private void atom(boolean e) {
            if (e) {
                atomBits |= 1 << atomCount;
            }
            atomCount++;
            if (atomCount == 24) {
                flushAtoms();
            }
            cycleCount();
        }

        /**
         * After a P0 element: a Cycle Count packet (format 1; TRCIDR0.COMMOPT is set, so it has no commit field) when
         * at least the threshold of cycles has passed since the last one (IHI 0064, cycle counting). It gives the
         * cycles to the P0 element before it, so the atoms gathered are written first.
         */
        private void cycleCount() {
            if (!cycles || cyclesSince < cycleThreshold) {
                return;
            }
            flushAtoms();
            long n = Math.min(cyclesSince, 4095); // the 12-bit counter of TRCIDR2.CCSIZE 0 saturates
            cyclesSince = 0;
            out.write(0x0E); // no commit field: TRCIDR0.COMMOPT says commit mode 1
            writeCount(n - cycleThreshold);
        }

        /** A Timestamp packet (with a cycle count when cycle counting is on) of the instructions executed so far. */
        private void timestamp() {
            if (!timestamps) {
                return;
            }
            long v = executed;
            out.write(cycles ? 0x03 : 0x02);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 6) / 7);
            for (int i = 0; i < groups && i < 9; i++) {
                if (i == 8) {
                    out.write((int) (v >>> 56) & 0xFF);
                } else {
                    out.write((int) (v >>> (7 * i)) & 0x7F | (i + 1 < groups ? 0x80 : 0));
                }
            }
            if (cycles) {
                writeCount(Math.min(cyclesSince, 4095));
                cyclesSince = 0;
            }
        }

        /** Writes the atoms not yet written, choosing for each packet the format that takes the most of them. */
        private void flushAtoms() {
            flushQ();
            writeAtoms(out, atomBits, atomCount);
            atomCount = 0;
            atomBits = 0;
        }
    }

    /**
     * Writes {@code n} atoms ({@code bits}: bit 0 the oldest, 1 = E) as atom packets, choosing for each packet the
     * format that takes the most of them.
     */
    static void writeAtoms(ByteArrayOutputStream out, int bits, int n) {
        while (n > 0) {
            int run = Integer.numberOfTrailingZeros(~bits); // leading E atoms
            int used;
            if (run >= 3 && run < n && run <= 23) {
                out.write(0xE0 | (run - 3)); // format 6: run E atoms, then N
                used = run + 1;
            } else if (run >= 4) {
                int m = Math.min(Math.min(run, n), 24);
                out.write(0xC0 | (m - 4)); // format 6: m - 1 E atoms, then E
                used = m;
            } else if (n >= 5 && format5(bits & 0x1F) >= 0) {
                out.write(format5(bits & 0x1F));
                used = 5;
            } else if (n >= 4 && format4(bits & 0xF) >= 0) {
                out.write(format4(bits & 0xF));
                used = 4;
            } else if (n >= 3) {
                out.write(0xF8 | bits & 7);
                used = 3;
            } else if (n == 2) {
                out.write(0xD8 | bits & 3);
                used = 2;
            } else {
                out.write(0xF6 | bits & 1);
                used = 1;
            }
            bits >>>= used;
            n -= used;
        }
    }

    /** Format 5 header for five atoms (bit 0 the oldest, 1 = E), or -1 if format 5 cannot say them. */
    static int format5(int bits) {
        return switch (bits) {
            case 0x1E -> 0xF5; // N E E E E
            case 0x00 -> 0xD5; // N N N N N
            case 0x0A -> 0xD6; // N E N E N
            case 0x15 -> 0xD7; // E N E N E
            default -> -1;
        };
    }

    /** Format 4 header for four atoms (bit 0 the oldest, 1 = E), or -1 if format 4 cannot say them. */
    static int format4(int bits) {
        return switch (bits) {
            case 0xE -> 0xDC; // N E E E
            case 0x0 -> 0xDD; // N N N N
            case 0xA -> 0xDE; // N E N E
            case 0x5 -> 0xDF; // E N E N
            default -> -1;
        };
    }
}
