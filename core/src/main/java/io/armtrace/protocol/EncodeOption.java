package io.armtrace.protocol;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The encoder options of every protocol, in one table: a name means the same thing in every protocol that
 * takes it (the value of the context ID is {@code context-id} everywhere, its size {@code context-id-size}).
 * A protocol lists the options it takes ({@link TraceProtocol#encodeOptions}) with what is its own about
 * them (its default, its range); the meaning is said here once.
 *
 * <p>Names that earlier releases spelled differently are read by {@link #normalize}: a plain rename keeps
 * working with a note (scripts go on working and learn the new name); a name whose meaning changed is
 * refused with a sentence naming the new option, because reading it either way would silently give a
 * different trace than one of its users expects.
 */
public enum EncodeOption {
    // the trace unit's configuration (ETMCR and friends), shared by the instruction trace protocols
    CYCLE_ACCURATE("cycle-accurate", "on|off: cycle counts in the trace (ETMCR[12])"),
    CONTEXT_ID_SIZE("context-id-size", "bytes of context ID in synchronization packets: 0, 1, 2 or 4 (ETMCR[15:14])"),
    CONTEXT_ID("context-id", "the context ID value to trace (traced in as many bytes as context-id-size says)"),
    VMID("vmid", "the VMID value to trace (ETMCR[30]); not traced unless given"),
    BRANCH_BROADCAST("branch-broadcast", "on|off: trace every taken branch with its address, direct ones too (ETMCR[8])"),
    TIMESTAMPS("timestamps", "on|off: timestamp packets after each I-sync (ETMCR[28])"),
    SYNC_PERIOD("sync-period", "distance between synchronization points"),
    ASYNC_PERIOD("async-period", "bytes between A-sync packets"),
    ISYNC_PERIOD("isync-period", "bytes between periodic I-sync packets"),
    TRACE_ID("trace-id", "CoreSight trace ID, 0x01 to 0x6f"),
    // ETMv3
    ALT_BRANCH("alt-branch", "on|off: the alternative branch address encoding (ETMv3.4+, ETMIDR[20])"),
    EXCEPTIONS("exceptions", "exception encoding: info (exception information bytes) or byte5 (deprecated)"),
    PROFILE("profile", "AR or M: the traced core's architecture profile"),
    EXCEPTION_PACKETS("exception-packets", "on|off: ARMv7-M exception entry/exit packets"),
    // PFT
    RETURN_STACK("return-stack", "on|off: predict returns with the return stack"),
    RETURN_STACK_DEPTH("return-stack-depth", "0-15: entries of the return stack"),
    PFT("pft", "1.0|1.1: protocol version (1.0 has no exception return packet)"),
    // ETMv4/ETE
    EXACT_MATCH("exact-match", "on|off: trace a target found in the address history as an exact-match packet"),
    EL("el", "exception level of the first instruction, 0-3"),
    SECURITY("security", "secure|non-secure: security state of the core"),
    CYCLE_THRESHOLD("cycle-threshold", "cycles a cycle count covers at least (TRCCCCTLR.THRESHOLD)"),
    Q_ELEMENTS("q-elements", "N: trace each run of N P0 instructions as one Q element (instruction count and next address); 0 off"),
    BRANCH_BROADCAST_RANGE("branch-broadcast-range",
            "LOW-HIGH: broadcast only the branches at these addresses, both included (TRCBBCTLR with an address range comparator pair)"),
    UNIT("unit", "the trace unit described: a (Armv8-A, 64-bit instruction addresses) or r52 (Cortex-R52: Armv8-R AArch32, 32-bit)"),
    // ETMv1/ETMv2
    ETM_VERSION("etm-version", "1 (ETMv1: 3-bit PIPESTAT, TRACESYNC) or 2 (ETMv2: 4-bit PIPESTAT, TFOs)"),
    PORT_WIDTH("port-width", "TRACEPKT width: 4, 8 or 16 bits"),
    HALF_RATE("half-rate", "on|off: record half-rate clocking in ETMCR[13]"),
    FULL_ADDRESS("full-address", "on|off: never compress branch addresses (always five bytes)"),
    FIFO_BYTES("fifo-bytes", "trace FIFO size in bytes, 8 to 120"),
    STALL("stall", "on|off: stall the core when the FIFO is full; off: overflow, lose trace, restart"),
    BRANCH_FOLDING("branch-folding", "on|off: ETMv2: trace folded direct branches as branch phantoms, as ARM10 does"),
    TRIGGER_CYCLE("trigger-cycle", "the trigger fires at this cycle (TR on PIPESTAT)"),
    CAPTURE_FORMAT("capture-format", "cycles (armtrace per-cycle records), csv, or etb (ETM9 ETB words)"),
    // MTB
    BUFFER_SIZE("buffer-size", "MTB buffer size in bytes, a power of two >= 16"),
    SRAM_SIZE("sram-size", "size of the SRAM dump that holds the buffer"),
    BUFFER_OFFSET("buffer-offset", "where the buffer lies in the SRAM dump, a multiple of the buffer size"),
    BASE("base", "bus address of the SRAM dump, written as BASE"),
    TSTART("tstart", "addresses or symbols (comma-separated) whose execution starts trace (TSTART)"),
    TSTOP("tstop", "addresses or symbols (comma-separated) whose execution stops trace (TSTOP)"),
    HALT_AFTER("halt-after", "stop the core after this many instructions"),
    PC("pc", "yes|no: record the halted core's PC as register PC"),
    POSITION_BITS("position-bits", "implemented address bits of POSITION, higher bits read as zero"),
    FILL("fill", "unused SRAM: zero, or a number seeding pseudo-random stale data"),
    WATERMARK("watermark", "byte offset in the buffer where trace stops for good (FLOW AUTOSTOP)"),
    // ITM, STM
    TS_PRESCALE("ts-prescale", "local timestamp prescaler 1, 4, 16 or 64 (TSPrescale): lts ticks are counted in it"),
    VERSION("version", "STPv2 VERSION: 3, natural binary timestamps, or 4, Gray-coded timestamps");

    private final String name;
    private final String meaning;

    EncodeOption(String name, String meaning) {
        this.name = name;
        this.meaning = meaning;
    }

    /** The name on the command line, without the dashes. */
    public String optionName() {
        return name;
    }

    /** What the option means, in every protocol that takes it. */
    public String meaning() {
        return meaning;
    }

    /**
     * A protocol's options for {@code --list-options}: pairs of an option and what is the protocol's own
     * about it (its default or unit; empty for nothing), in order. Name to description.
     */
    public static Map<String, String> list(Object... optionAndNote) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < optionAndNote.length; i += 2) {
            EncodeOption o = (EncodeOption) optionAndNote[i];
            String note = (String) optionAndNote[i + 1];
            m.put(o.name, note.isEmpty() ? o.meaning : o.meaning + "; " + note);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Earlier names: protocols (null for all), old name, new option; a plain rename. */
    private record Renamed(List<String> protocols, String old, EncodeOption now) {
    }

    private static final List<Renamed> RENAMED = List.of(
            new Renamed(List.of("etm2", "etm3"), "branch-output", BRANCH_BROADCAST),
            new Renamed(List.of("etm2"), "context-id-bytes", CONTEXT_ID_SIZE));

    /**
     * {@code options} as given on the command line for protocol {@code protocol}, with earlier names read:
     * a renamed option is passed on under its new name and {@code notes} gets one sentence saying so; an
     * option whose meaning changed is refused ({@link IllegalArgumentException}, one sentence naming the
     * new option). ETMv3's {@code context-id} was the size in bytes and is now the value, as in PFT and
     * ETMv1/v2: given without {@code context-id-size} it is refused. ETMv3's {@code vmid} was an on/off
     * switch and is now the value, as in PFT: a value that is not a number is refused.
     */
    public static Map<String, String> normalize(String protocol, Map<String, String> options, Consumer<String> notes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String name = e.getKey();
            for (Renamed r : RENAMED) {
                if (r.old.equals(name) && r.protocols.contains(protocol)) {
                    if (options.containsKey(r.now.name)) {
                        throw new IllegalArgumentException("--" + r.old + " is the old name of --" + r.now.name
                                + "; give only --" + r.now.name + ".");
                    }
                    notes.accept("--" + r.old + " is deprecated; it is now called --" + r.now.name + ".");
                    name = r.now.name;
                }
            }
            out.put(name, e.getValue());
        }
        if (protocol.equals("etm3")) {
            if (out.containsKey(CONTEXT_ID.name) && !out.containsKey(CONTEXT_ID_SIZE.name)) {
                throw new IllegalArgumentException("--context-id is the context ID value now; give its size in bytes with"
                        + " --context-id-size 0|1|2|4.");
            }
            String vmid = out.get(VMID.name);
            if (vmid != null && !looksLikeNumber(vmid)) {
                throw new IllegalArgumentException("--vmid takes the VMID value to trace now (e.g. --vmid=0x5a), not '"
                        + vmid + "'.");
            }
        }
        return out;
    }

    private static boolean looksLikeNumber(String v) {
        String s = v.trim();
        if (s.startsWith("0x") || s.startsWith("0X")) {
            s = s.substring(2);
            return !s.isEmpty() && s.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80);
        }
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
