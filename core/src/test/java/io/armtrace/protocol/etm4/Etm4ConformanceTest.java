package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.protocol.etm4.Etm4Packet.Kind;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packet listing of every ETMv4 snapshot in conformance/etm4 against OpenCSD 1.8.0's
 * ({@code expected-opencsd-1.8.0/}): every packet at the same buffer index, with the same raw bytes, the
 * same kind and the same fields where OpenCSD prints them (addresses, contexts, atoms, exception types,
 * timestamps, counts).
 *
 * <p>Two differences are expected, and checked to be exactly what docs/etm4.md says:
 * <ul>
 *   <li>Unsynchronized bytes: OpenCSD lists them in pieces of up to 8 bytes, armtrace as one stretch. The
 *       bytes both call unsynchronized must be the same.</li>
 *   <li>After a reserved header or a malformed packet armtrace looks for the next A-sync (IHI 0064, A-sync packet),
 *       where OpenCSD's packet processor goes on reading packets. The packets OpenCSD lists there are
 *       counted, and the count is part of each row below.</li>
 * </ul>
 */
class Etm4ConformanceTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // snapshot, OpenCSD listing, packets OpenCSD lists where armtrace resynchronizes after an error
        "a55-test-tpiu, a55-test-tpiu.ppl.xz, 8076",
        "a57_single_step, a57_single_step.ppl, 0",
        "armv8_1m_branches, armv8_1m_branches.ppl, 0",
        "bugfix-exact-match, bugfix-exact-match.ppl.xz, 0",
        "init-short-addr, init-short-addr.ppl, 0",
        "juno-uname-001, juno-uname-001.ppl.xz, 0",
        "juno-uname-002, juno-uname-002.ppl.xz, 0",
        "juno_r1_1, juno_r1_1.ppl.xz, 0",
        "test-file-mem-offsets, test-file-mem-offsets.ppl.xz, 0",
    })
    void everyPacketMatchesOpenCsd(String name, String listingFile, int expectedResyncSkips) throws IOException {
        Path dir = SharedData.dir("etm4/" + name);
        Path listing = SharedData.dir("etm4/expected-opencsd-1.8.0/" + listingFile);
        Result r = compare(dir, listing);
        assertThat(r.problems).as(name + ": differences from OpenCSD 1.8.0 (" + r.matched + " packets agree)").isEmpty();
        assertThat(r.skipped).as(name + ": packets OpenCSD lists where armtrace resynchronizes").isEqualTo(expectedResyncSkips);
        assertThat(r.matched).as(name + ": packets compared").isPositive();
        assertThat(r.quirks + r.allowed).as(name + ": OpenCSD quirks and allowed differences").isZero();
    }

    /** What comparing one snapshot with one OpenCSD listing found. */
    record Result(List<String> problems, int skipped, long matched, int quirks, int allowed) {
    }

    /**
     * Lists every ETMv4/ETE source of the snapshot in {@code dir} and compares it with the packets of its
     * trace ID in the OpenCSD listing {@code listingPath}.
     */
    static Result compare(Path dir, Path listingPath) throws IOException {
        return compare(dir, listingPath, Set.of());
    }

    /** {@link #compare(Path, Path)}, where the packets at the buffer indexes {@code allowed} may differ. */
    static Result compare(Path dir, Path listingPath, Set<Long> allowed) throws IOException {
        String name = dir.getFileName().toString();
        Map<Integer, List<OpenCsdListing.Line>> listing = OpenCsdListing.read(listingPath);
        assertThat(listing).as("packets in " + listingPath).isNotEmpty();
        Snapshot snap = Snapshot.load(dir);
        Set<Integer> compared = new HashSet<>();
        int skipped = 0;
        int quirks = 0;
        int allowedSeen = 0;
        long packets = 0;
        List<String> problems = new ArrayList<>();
        for (SnapshotSource src : snap.sources()) {
            TraceProtocol p = Protocols.forDeviceType(src.type()).orElse(null);
            if (!(p instanceof Etm4Protocol etm4) || src.bufferFile() == null) {
                continue;
            }
            // OpenCSD lists a single unformatted source under ID 0, whatever its TRCTRACEIDR says
            int listedId = src.bufferFormat() == io.armtrace.source.BufferFormat.SOURCE_DATA && listing.size() == 1
                    ? listing.keySet().iterator().next() : src.traceId();
            OpenCsdIndex ix = OpenCsdIndex.of(src.bufferFile(), src.bufferFormat(), src.traceId());
            byte[] ours;
            try (InputStream in = src.data().open()) {
                ours = in.readAllBytes();
            }
            assertThat(ours).as(name + " source 0x%02x: armtrace's deformatted stream", src.traceId())
                    .isEqualTo(ix.stream);
            io.armtrace.source.Registers regs = new io.armtrace.source.Registers()
                    .putAll(p.registersForCore(coreType(snap, src))).putAll(src.registers());
            Comparison c = new Comparison(ix, listing.getOrDefault(listedId, List.of()),
                    name + String.format(" 0x%02x", src.traceId()), etm4.config(regs, src.traceId()), allowed);
            Etm4PacketReader reader = new Etm4PacketReader(c.config, c::ours);
            reader.push(ours, 0, ours.length);
            reader.end();
            c.finish();
            problems.addAll(c.problems);
            skipped += c.skipped;
            quirks += c.quirks;
            allowedSeen += c.allowedSeen;
            packets += c.matched;
            compared.add(listedId);
        }
        assertThat(compared).as(name + ": trace IDs in OpenCSD's listing that were compared")
                .containsAll(listing.keySet());
        return new Result(problems, skipped, packets, quirks, allowedSeen);
    }

    private static String coreType(Snapshot snap, SnapshotSource s) {
        for (Snapshot.Device d : snap.devices()) {
            if (d.name().equalsIgnoreCase(s.coreName()) && "core".equalsIgnoreCase(d.deviceClass())) {
                return d.type();
            }
        }
        return null;
    }

    /** Walks armtrace's packets and OpenCSD's lines of one source side by side, in index order. */
    static final class Comparison {
        final OpenCsdIndex ix;
        final List<OpenCsdListing.Line> expected;
        final String what;
        final Etm4Config config;
        final List<String> problems = new ArrayList<>();
        int next;
        int skipped;
        /** OpenCSD lines of its extra-zeros quirk (see {@link #syncAfterExtraZeros}). */
        int quirks;
        /** Buffer indexes where armtrace differs from OpenCSD on purpose (docs/etm4.md), and how often it did. */
        final Set<Long> allowed;
        int allowedSeen;
        long matched;
        final BitSet ourNotSync = new BitSet();
        final BitSet theirNotSync = new BitSet();
        /** Stream bytes armtrace skipped while resynchronizing after one of its error packets. */
        final BitSet resync = new BitSet();
        boolean afterError;

        Comparison(OpenCsdIndex ix, List<OpenCsdListing.Line> expected, String what, Etm4Config config,
                   Set<Long> allowed) {
            this.ix = ix;
            this.expected = new ArrayList<>(expected);
            this.allowed = allowed;
            this.what = what;
            this.config = config;
        }

        void ours(Etm4Packet k) {
            if (k.kind() == Kind.NOT_SYNC) {
                ourNotSync.set((int) k.offset, (int) (k.offset + k.length));
                if (afterError) {
                    resync.set((int) k.offset, (int) (k.offset + k.length));
                }
                return;
            }
            afterError = k.kind() == Kind.RESERVED || k.kind() == Kind.BAD_SEQUENCE;
            long idx = ix.idx(k.offset);
            if (k.kind() == Kind.A_SYNC) {
                syncAfterExtraZeros(idx, k);
            }
            theirsBefore(idx);
            if (next < expected.size() && expected.get(next).idx() == idx) {
                String d = compare(expected.get(next), k);
                if (d != null && allowed.contains(idx)) {
                    allowedSeen++;
                } else if (d != null) {
                    problem("at Idx " + idx + " (offset " + k.offset + "): " + d);
                }
                next++;
                matched++;
            } else {
                problem("at Idx " + idx + " (offset " + k.offset + "): armtrace has " + k.text(false)
                        + ", OpenCSD nothing");
            }
        }

        /**
         * OpenCSD, unsynchronized, lists each zero beyond the eleven of an A-sync as a one-byte I_ASYNC line and
         * gives the A-sync the index of the first zero. The A-sync is the last eleven zeros and the 0x80
         * (IHI 0064, A-sync packet); the zeros before it are unsynchronized bytes, as armtrace lists them.
         */
        void syncAfterExtraZeros(long idx, Etm4Packet k) {
            int i = next;
            while (i < expected.size() && expected.get(i).idx() < idx && !expected.get(i).name().equals("I_ASYNC")) {
                i++;
            }
            int first = i;
            while (i < expected.size() && expected.get(i).name().equals("I_ASYNC") && expected.get(i).bytes().length == 1) {
                i++;
            }
            if (i < expected.size() && i > first && expected.get(i).name().equals("I_ASYNC") && expected.get(i).idx() < idx) {
                theirsBefore(expected.get(first).idx());
                theirNotSync.set(ix.offsetOf(expected.get(i).idx()), (int) k.offset);
                quirks += i - first + 1;
                next = i;
                // the A-sync itself is compared at armtrace's index
                expected.set(i, new OpenCsdListing.Line(idx, expected.get(i).bytes(), "I_ASYNC", expected.get(i).text()));
            }
        }

        /** OpenCSD's lines before index {@code idx}: unsynchronized bytes, or packets armtrace did not see. */
        void theirsBefore(long idx) {
            while (next < expected.size() && expected.get(next).idx() < idx) {
                OpenCsdListing.Line l = expected.get(next++);
                int off = ix.offsetOf(l.idx());
                if (l.name().equals("I_NOT_SYNC")) {
                    theirNotSync.set(off, off + l.bytes().length);
                } else if (resync.get(off)) {
                    skipped++;
                } else {
                    problem("at Idx " + l.idx() + ": OpenCSD has " + l.name() + " " + l.text() + ", armtrace nothing");
                }
            }
        }

        void finish() {
            theirsBefore(Long.MAX_VALUE);
            BitSet extra = (BitSet) ourNotSync.clone();
            extra.andNot(theirNotSync);
            if (!extra.equals(resync)) {
                BitSet odd = (BitSet) extra.clone();
                odd.xor(resync);
                problem("unsynchronized bytes differ from OpenCSD's, first at offset " + odd.nextSetBit(0));
            }
            BitSet missing = (BitSet) theirNotSync.clone();
            missing.andNot(ourNotSync);
            if (!missing.isEmpty()) {
                problem("bytes OpenCSD calls unsynchronized that armtrace decoded, first at offset " + missing.nextSetBit(0));
            }
        }

        void problem(String s) {
            if (problems.size() < 20) {
                problems.add(what + " " + s);
            }
        }

        String compare(OpenCsdListing.Line l, Etm4Packet k) {
            Kind want = kindOf(l.name());
            if (want != k.kind()) {
                return "kind: OpenCSD " + l.name() + ", armtrace " + k.kind();
            }
            byte[] bytes = java.util.Arrays.copyOf(k.bytes, Math.min(k.length, Etm4Packet.MAX_BYTES));
            if (k.length != l.bytes().length
                    || !java.util.Arrays.equals(bytes, java.util.Arrays.copyOf(l.bytes(), bytes.length))) {
                return "raw bytes: OpenCSD " + hex(l.bytes()) + ", armtrace " + hex(bytes) + " (" + k.length + " bytes)";
            }
            return fields(l.text(), k);
        }

        /** The fields OpenCSD printed, compared with armtrace's. */
        String fields(String text, Etm4Packet k) {
            Matcher m;
            if (k.kind().isAtom()) {
                String atoms = text.substring(text.lastIndexOf(';') + 1).trim();
                return atoms.equals(k.atoms()) ? null : "atoms: OpenCSD " + atoms + ", armtrace " + k.atoms();
            }
            if ((m = ADDR.matcher(text)).find()) {
                String digits = m.group(1);
                String valid = digits.replace("?", "");
                long want = Long.parseUnsignedLong(valid, 16);
                long mask = valid.length() >= 16 ? -1L : (1L << (4 * valid.length())) - 1;
                if ((k.address & mask) != want) {
                    return "address: OpenCSD 0x" + digits + ", armtrace 0x" + Long.toHexString(k.address);
                }
            }
            if ((m = MATCH.matcher(text)).find() && Integer.parseInt(m.group(1)) != k.matchIndex) {
                return "exact match entry: OpenCSD " + m.group(1) + ", armtrace " + k.matchIndex;
            }
            if ((m = CTXT.matcher(text)).find()) {
                if (!k.contextGiven || k.aarch64 != m.group(1).equals("AArch64") || k.el != Integer.parseInt(m.group(2))
                        || k.nonSecure != m.group(3).equals("NS")) {
                    return "context: OpenCSD " + m.group() + ", armtrace " + k.text(false);
                }
                Matcher cid = CID.matcher(text);
                if (cid.find() != k.contextIdGiven || (k.contextIdGiven && Long.parseLong(cid.group(1), 16) != k.contextId)) {
                    return "context ID: OpenCSD " + text + ", armtrace " + k.text(false);
                }
                Matcher vmid = VMID.matcher(text);
                if (vmid.find() != k.vmidGiven || (k.vmidGiven && Long.parseLong(vmid.group(1), 16) != k.vmid)) {
                    return "VMID: OpenCSD " + text + ", armtrace " + k.text(false);
                }
            } else if (text.contains("Ctxt: Same") && k.contextGiven) {
                return "context: OpenCSD same, armtrace " + k.text(false);
            }
            switch (k.kind()) {
                case TRACE_INFO -> {
                    m = INFO.matcher(text);
                    if (!m.find() || Long.parseLong(m.group(1), 16) != k.info) {
                        return "trace info: OpenCSD " + text + ", armtrace " + k.text(false);
                    }
                    m = THRESHOLD.matcher(text);
                    if (m.find() && Long.parseLong(m.group(1), 16) != k.ccThreshold) {
                        return "cycle count threshold: OpenCSD " + text + ", armtrace " + k.text(false);
                    }
                }
                case TIMESTAMP -> {
                    m = TS.matcher(text);
                    if (!m.find() || Long.parseUnsignedLong(m.group(1), 16) != k.timestamp) {
                        return "timestamp: OpenCSD " + text + ", armtrace " + k.text(false);
                    }
                    m = CC.matcher(text);
                    if (m.find() && Long.parseLong(m.group(1), 16) != k.cycles) {
                        return "cycle count: OpenCSD " + text + ", armtrace " + k.text(false);
                    }
                }
                case EXCEPTION -> {
                    m = EXCEPTION.matcher(text);
                    if (!m.find()) {
                        return "exception: cannot read OpenCSD's " + text;
                    }
                    String ours = Etm4Packet.exceptionName(k.exceptionType, config.isMProfile());
                    if (!m.group(1).trim().equalsIgnoreCase(ours)) {
                        return "exception: OpenCSD " + m.group(1) + ", armtrace " + ours;
                    }
                    int interp = text.contains("Match Prev") ? 2 : text.contains("Ret Addr Follows") ? 1 : 0;
                    if (interp != 0 && interp != k.addressInterpretation) {
                        return "exception address: OpenCSD " + text + ", armtrace E1:E0=" + k.addressInterpretation;
                    }
                }
                case COMMIT -> {
                    m = COMMIT.matcher(text);
                    if (!m.find() || Long.parseLong(m.group(1)) != k.commit) {
                        return "commit: OpenCSD " + text + ", armtrace " + k.commit;
                    }
                }
                case CANCEL_F1, CANCEL_F2, CANCEL_F3, MISPREDICT -> {
                    m = CANCEL.matcher(text);
                    if ((m.find() ? Long.parseLong(m.group(1)) : 0) != k.cancel) {
                        return "cancel: OpenCSD " + text + ", armtrace " + k.cancel;
                    }
                    m = SPEC_ATOMS.matcher(text);
                    String atoms = m.find() ? m.group(1) : "";
                    if (!atoms.equals(k.atoms()) || text.contains("Mispredict") != k.mispredict) {
                        return "speculation: OpenCSD " + text + ", armtrace " + k.text(false);
                    }
                }
                case Q -> {
                    m = Q_COUNT.matcher(text);
                    if (!m.find() || (m.group(1).equals("Unknown") ? -1 : Long.parseLong(m.group(1))) != k.qCount) {
                        return "Q count: OpenCSD " + text + ", armtrace " + k.qCount;
                    }
                }
                case CYCLE_COUNT_F1, CYCLE_COUNT_F2, CYCLE_COUNT_F3 -> {
                    m = COUNT.matcher(text);
                    if (m.find() && Long.parseLong(m.group(1), 16) != Math.max(0, k.cycles)) {
                        return "cycle count: OpenCSD " + text + ", armtrace " + k.cycles;
                    }
                }
                default -> {
                }
            }
            return null;
        }
    }

    static final Pattern ADDR = Pattern.compile("Addr=0x([0-9A-Fa-f?]+)");
    static final Pattern MATCH = Pattern.compile("Match\\., \\[(\\d)\\]");
    static final Pattern CTXT = Pattern.compile("Ctxt: (AArch64|AArch32),\\s*EL(\\d), (NS|S);");
    static final Pattern CID = Pattern.compile("CID=0x([0-9a-fA-F]+)");
    static final Pattern VMID = Pattern.compile("VMID=0x([0-9a-fA-F]+)");
    static final Pattern INFO = Pattern.compile("INFO=0x([0-9a-fA-F]+)");
    static final Pattern THRESHOLD = Pattern.compile("CC_THRESHOLD=0x([0-9a-fA-F]+)");
    static final Pattern TS = Pattern.compile("Updated val = 0x([0-9a-fA-F]+)");
    static final Pattern CC = Pattern.compile("CC=0x([0-9a-fA-F]+)");
    static final Pattern EXCEPTION = Pattern.compile("Exception\\.;\\s*([^;]+);");
    static final Pattern COMMIT = Pattern.compile("Commit\\((\\d+)\\)");
    static final Pattern CANCEL = Pattern.compile("Cancel\\((\\d+)\\)");
    static final Pattern COUNT = Pattern.compile("Count=0x([0-9a-fA-F]+)");
    static final Pattern SPEC_ATOMS = Pattern.compile("Atom: ([EN]+)");
    static final Pattern Q_COUNT = Pattern.compile("Count\\((\\d+|Unknown)\\)");

    private static final Map<String, Kind> KINDS = new HashMap<>();

    static {
        String[][] names = {
            {"I_ASYNC", "A_SYNC"}, {"I_DISCARD", "DISCARD"}, {"I_OVERFLOW", "OVERFLOW"}, {"I_TRACE_INFO", "TRACE_INFO"},
            {"I_TRACE_ON", "TRACE_ON"}, {"I_TIMESTAMP", "TIMESTAMP"}, {"I_EXCEPT", "EXCEPTION"},
            {"I_EXCEPT_RTN", "EXCEPTION_RETURN"}, {"I_FUNC_RET", "FUNCTION_RETURN"},
            {"I_CCNT_F1", "CYCLE_COUNT_F1"}, {"I_CCNT_F2", "CYCLE_COUNT_F2"}, {"I_CCNT_F3", "CYCLE_COUNT_F3"},
            {"I_NUM_DS_MKR", "NUMBERED_DATA_SYNC"}, {"I_UNNUM_DS_MKR", "UNNUMBERED_DATA_SYNC"}, {"I_COMMIT", "COMMIT"},
            {"I_CANCEL_F1", "CANCEL_F1"}, {"I_CANCEL_F1_MISPRED", "CANCEL_F1"}, {"I_CANCEL_F2", "CANCEL_F2"},
            {"I_CANCEL_F3", "CANCEL_F3"}, {"I_MISPREDICT", "MISPREDICT"}, {"I_COND_I_F1", "COND_INSTR_F1"},
            {"I_COND_I_F2", "COND_INSTR_F2"}, {"I_COND_I_F3", "COND_INSTR_F3"}, {"I_COND_FLUSH", "COND_FLUSH"},
            {"I_COND_RES_F1", "COND_RESULT_F1"}, {"I_COND_RES_F2", "COND_RESULT_F2"}, {"I_COND_RES_F3", "COND_RESULT_F3"},
            {"I_COND_RES_F4", "COND_RESULT_F4"}, {"I_IGNORE", "IGNORE"}, {"I_EVENT", "EVENT"}, {"I_CTXT", "CONTEXT"},
            {"I_ADDR_CTXT_L_32IS0", "ADDR_CTXT_32_IS0"}, {"I_ADDR_CTXT_L_32IS1", "ADDR_CTXT_32_IS1"},
            {"I_ADDR_CTXT_L_64IS0", "ADDR_CTXT_64_IS0"}, {"I_ADDR_CTXT_L_64IS1", "ADDR_CTXT_64_IS1"},
            {"I_ADDR_MATCH", "ADDR_EXACT_MATCH"}, {"I_ADDR_S_IS0", "ADDR_SHORT_IS0"}, {"I_ADDR_S_IS1", "ADDR_SHORT_IS1"},
            {"I_ADDR_L_32IS0", "ADDR_LONG_32_IS0"}, {"I_ADDR_L_32IS1", "ADDR_LONG_32_IS1"},
            {"I_ADDR_L_64IS0", "ADDR_LONG_64_IS0"}, {"I_ADDR_L_64IS1", "ADDR_LONG_64_IS1"}, {"I_Q", "Q"},
            {"I_ATOM_F1", "ATOM_F1"}, {"I_ATOM_F2", "ATOM_F2"}, {"I_ATOM_F3", "ATOM_F3"}, {"I_ATOM_F4", "ATOM_F4"},
            {"I_ATOM_F5", "ATOM_F5"}, {"I_ATOM_F6", "ATOM_F6"}, {"I_RESERVED", "RESERVED"}, {"I_RESERVED_CFG", "RESERVED"},
            {"I_BAD_SEQUENCE", "BAD_SEQUENCE"}, {"I_INCOMPLETE_EOT", "INCOMPLETE"}, {"I_NOT_SYNC", "NOT_SYNC"},
            // ETE (OpenCSD spells one of them I_SCR_)
            {"I_TRANS_ST", "TRANSACTION_START"}, {"I_TRANS_COMMIT", "TRANSACTION_COMMIT"},
            {"I_TRANS_FAIL", "TRANSACTION_FAILURE"}, {"I_PE_RESET", "PE_RESET"}, {"I_TS_MARKER", "TIMESTAMP_MARKER"},
            {"I_ITE", "INSTRUMENTATION"}, {"I_SRC_ADDR_MATCH", "SRC_ADDR_EXACT_MATCH"},
            {"I_SRC_ADDR_S_IS0", "SRC_ADDR_SHORT_IS0"}, {"I_SRC_ADDR_S_IS1", "SRC_ADDR_SHORT_IS1"},
            {"I_SRC_ADDR_L_32IS0", "SRC_ADDR_LONG_32_IS0"}, {"I_SCR_ADDR_L_32IS0", "SRC_ADDR_LONG_32_IS0"},
            {"I_SRC_ADDR_L_32IS1", "SRC_ADDR_LONG_32_IS1"}, {"I_SRC_ADDR_L_64IS0", "SRC_ADDR_LONG_64_IS0"},
            {"I_SRC_ADDR_L_64IS1", "SRC_ADDR_LONG_64_IS1"},
        };
        for (String[] n : names) {
            KINDS.put(n[0], Kind.valueOf(n[1]));
        }
    }

    static Kind kindOf(String openCsdName) {
        Kind k = KINDS.get(openCsdName);
        if (k == null) {
            throw new AssertionError("an OpenCSD packet name this test does not know: " + openCsdName);
        }
        return k;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder("[");
        for (byte x : b) {
            sb.append(sb.length() > 1 ? " " : "").append(String.format(Locale.ROOT, "%02x", x));
        }
        return sb.append(']').toString();
    }
}
