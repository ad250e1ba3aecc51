package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks the classifier and the walker against GNU objdump on real code: every instruction of newlib's
 * libc and libm, libgcc, small C programs and hand-written rare encodings, compiled and linked for five
 * cores. The tables come from tools/isa-oracle/generate.py (see there for the format); they carry the
 * opcodes, so this test needs neither the toolchain nor the ELF files.
 */
public class InstructionOracleTest {

    public record Row(long address, Isa isa, int size, int opcode, String mnemonic, String operands, long target) {
        byte[] bytes() {
            if (size == 2) {
                return new byte[] {(byte) opcode, (byte) (opcode >>> 8)};
            }
            if (isa != Isa.T32) { // A32 and A64: a little-endian word
                return new byte[] {(byte) opcode, (byte) (opcode >>> 8), (byte) (opcode >>> 16), (byte) (opcode >>> 24)};
            }
            return new byte[] {(byte) (opcode >>> 16), (byte) (opcode >>> 24), (byte) opcode, (byte) (opcode >>> 8)};
        }

        public long end() {
            return address + size;
        }
    }

    public record Table(String name, Profile profile, List<Row> rows) {
    }

    private static final Map<String, Table> TABLES = new java.util.concurrent.ConcurrentHashMap<>();

    public static Table load(String name) throws IOException {
        Table t = TABLES.get(name);
        if (t == null) {
            t = read(name);
            TABLES.put(name, t);
        }
        return t;
    }

    private static Table read(String name) throws IOException {
        Profile profile = null;
        List<Row> rows = new ArrayList<>();
        try (InputStream in = InstructionOracleTest.class.getResourceAsStream("/isa/" + name + ".tsv.gz")) {
            assertThat(in).as("table %s", name).isNotNull();
            BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
            long next = -1;
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("# profile ")) {
                    String p = line.substring(10).trim();
                    profile = p.equals("A64") ? Profile.AR : Profile.valueOf(p); // A64 tables: A-profile cores
                }
                if (line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                long address = f[0].isEmpty() ? next : Long.parseLong(f[0], 16);
                int size = Integer.parseInt(f[2]);
                rows.add(new Row(address, f[1].equals("A") ? Isa.A32 : f[1].equals("X") ? Isa.A64 : Isa.T32, size, (int) Long.parseLong(f[3], 16),
                        f[4], f[5], f[6].equals("-") ? -1 : Long.parseUnsignedLong(f[6], 16)));
                next = address + size;
            }
        }
        assertThat(profile).as("profile line of %s", name).isNotNull();
        return new Table(name, profile, rows);
    }

    /** The image the rows describe: contiguous rows merged into regions, data regions left out. */
    public static MemoryImage image(List<Row> rows) {
        MemoryImage m = new MemoryImage();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long start = -1;
        long end = -1;
        for (Row row : rows) {
            if (row.address() != end) {
                if (buf.size() > 0) {
                    m.add(start, buf.toByteArray(), "code");
                }
                buf.reset();
                start = row.address();
            }
            buf.writeBytes(row.bytes());
            end = row.end();
        }
        if (buf.size() > 0) {
            m.add(start, buf.toByteArray(), "code");
        }
        return m;
    }

    static ObjdumpSemantics semantics(Row r) {
        return ObjdumpSemantics.of(r.mnemonic(), r.operands(), r.target() >= 0, r.isa() == Isa.T32 && r.size() == 4);
    }

    static WaypointKind classifierKind(MemoryImage image, Profile profile, Row r) {
        Insn insn = new Insn();
        new InstructionClassifier(profile).classify(image, r.address(), r.isa(), 0, insn);
        return insn.kind;
    }

    @ParameterizedTest
    @ValueSource(strings = {"a9-arm", "a9-thumb", "m3", "m0plus", "arm926", "t16-all", "a32-random", "t32-random"})
    void everyRowAgreesWithObjdump(String name) throws IOException {
        Table t = load(name);
        MemoryImage image = image(t.rows());
        InstructionClassifier classifier = new InstructionClassifier(t.profile());
        Insn insn = new Insn();
        Map<WaypointKind, Integer> counts = new EnumMap<>(WaypointKind.class);
        int conditionalBranches = 0;
        int itRows = 0;
        int dataBarriers = 0;
        int unpredictable = 0;
        long prevEnd = -1;
        int it = 0;
        List<String> failures = new ArrayList<>();
        for (Row row : t.rows()) {
            int itBefore = row.address() == prevEnd ? it : 0;
            assertThat(classifier.classify(image, row.address(), row.isa(), itBefore, insn)).isTrue();
            ObjdumpSemantics o = semantics(row);
            List<String> bad = new ArrayList<>(0);
            if (insn.size != row.size()) {
                bad.add("size " + insn.size);
            }
            if (insn.opcode != row.opcode()) {
                bad.add(String.format("opcode %08x", insn.opcode));
            }
            if (insn.dataBarrier != o.dataBarrier) {
                bad.add("dataBarrier " + insn.dataBarrier);
            }
            if (o.unpredictable) {
                unpredictable++;
            } else if (insn.kind != o.kind) {
                bad.add("kind " + insn.kind + " but objdump implies " + o.kind);
            } else if (o.kind != WaypointKind.NONE) {
                if (o.direct && insn.target != row.target()) {
                    bad.add(String.format("target 0x%x but objdump 0x%x", insn.target, row.target()));
                }
                if (!o.direct && insn.target != -1) {
                    bad.add("target on an indirect instruction");
                }
                if (insn.link != o.link) {
                    bad.add("link " + insn.link);
                }
                if (o.condKnown && insn.cond != o.cond) {
                    bad.add("cond " + insn.cond + " but objdump " + o.cond);
                }
                boolean blxImm = o.direct && o.link && row.mnemonic().startsWith("blx");
                Isa expectIsa = blxImm ? (row.isa() == Isa.A32 ? Isa.T32 : Isa.A32) : row.isa();
                if (o.direct && insn.targetIsa != expectIsa) {
                    bad.add("target ISA " + insn.targetIsa);
                }
                boolean cb = row.mnemonic().startsWith("cb");
                if (insn.conditional != (cb || o.cond != 14)) {
                    bad.add("conditional " + insn.conditional);
                }
                if (o.cond != 14 && o.direct) {
                    conditionalBranches++;
                }
            }
            if (!bad.isEmpty() && failures.size() < 30) {
                failures.add(String.format("%s 0x%x %s %08x %s %s: %s", name, row.address(), row.isa(), row.opcode(),
                        row.mnemonic(), row.operands(), String.join(", ", bad)));
            }
            if (itBefore != 0) {
                itRows++;
            }
            counts.merge(o.kind, 1, Integer::sum);
            if (o.dataBarrier) {
                dataBarriers++;
            }
            it = insn.itStateAfter;
            prevEnd = row.end();
        }
        System.out.printf("isa oracle %-9s %7d rows: %s, %d conditional direct branches, %d rows in IT blocks,"
                + " %d DMB/DSB, %d UNPREDICTABLE writes of the pc not compared%n", name, t.rows().size(), counts,
                conditionalBranches, itRows, dataBarriers, unpredictable);
        assertThat(failures).as("rows where the classifier disagrees with objdump").isEmpty();
        assertThat(t.rows().size()).isGreaterThan(5_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a9-arm", "a9-thumb", "m3", "m0plus", "arm926", "t16-all", "a32-random", "t32-random"})
    void walkerBlocksEndWhereObjdumpSays(String name) throws IOException {
        Table t = load(name);
        List<Row> rows = t.rows();
        MemoryImage image = image(rows);
        WaypointKind[] kinds = new WaypointKind[rows.size()];
        int[] cond = new int[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            ObjdumpSemantics o = semantics(r);
            // an UNPREDICTABLE write of the pc: take the classifier's view, the row test counts these
            kinds[i] = o.unpredictable ? classifierKind(image, t.profile(), r) : o.kind;
            cond[i] = o.cond;
        }
        for (boolean isb : new boolean[] {false, true}) {
            CodeWalker walker = new CodeWalker(image, new InstructionClassifier(t.profile()), isb, 4096);
            boolean[] ends = new boolean[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                ends[i] = kinds[i] != WaypointKind.NONE && (kinds[i] != WaypointKind.BARRIER || isb);
            }
            int blocks = 0;
            int checked = 0;
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                boolean starts = i == 0 || ends[i - 1] || rows.get(i - 1).end() != rows.get(i).address();
                if (!starts) {
                    continue;
                }
                Row first = rows.get(i);
                // expected: rows up to the first waypoint, a gap (NO_IMAGE) or 4096 bytes (LIMIT)
                int j = i;
                Block.End end = null;
                boolean isaChange = false;
                while (true) {
                    Row r = rows.get(j);
                    if (r.isa() != first.isa()) {
                        // the state changes without a waypoint (objdump's mapping symbols say so): alignment
                        // padding between an A32 and a T32 function, never executed; not comparable
                        isaChange = true;
                        break;
                    }
                    if (r.end() - first.address() > 4096) {
                        end = Block.End.LIMIT;
                        break;
                    }
                    if (ends[j]) {
                        end = Block.End.WAYPOINT;
                        j++;
                        break;
                    }
                    j++;
                    if (j == rows.size() || rows.get(j).address() != r.end()) {
                        end = Block.End.NO_IMAGE;
                        break;
                    }
                }
                blocks++;
                if (isaChange) {
                    continue;
                }
                checked++;
                Block b = walker.block(first.address(), first.isa());
                int n = j - i;
                if (b.end() != end || b.count() != n) {
                    failures.add(name + " isb=" + isb + " " + b + " expected " + end + " after " + n + " instructions");
                } else if (n > 0) {
                    Row last = rows.get(j - 1);
                    if (b.lastAddress() != last.address() || b.lastSize() != last.size()
                            || b.addressOf(n - 1) != last.address() || b.countBefore(last.address()) != n - 1) {
                        failures.add(name + " isb=" + isb + " " + b + " last instruction is 0x" + Long.toHexString(last.address()));
                    }
                    int mid = n / 2;
                    if (b.addressOf(mid) != rows.get(i + mid).address() || b.indexOf(rows.get(i + mid).address()) != mid) {
                        failures.add(name + " isb=" + isb + " " + b + " instruction " + mid + " is at 0x"
                                + Long.toHexString(rows.get(i + mid).address()));
                    }
                    if (end == Block.End.WAYPOINT && b.cond() != cond[j - 1]) {
                        failures.add(name + " isb=" + isb + " " + b + " condition " + b.cond() + " but objdump " + cond[j - 1]);
                    }
                    if (end == Block.End.WAYPOINT && b.target() != last.target()) {
                        failures.add(name + " isb=" + isb + " " + b + " target");
                    }
                    if (end == Block.End.NO_IMAGE && b.missingAddress() != last.end()) {
                        failures.add(name + " isb=" + isb + " " + b + " missing address");
                    }
                }
                if (failures.size() > 30) {
                    break;
                }
            }
            System.out.printf("isa oracle %-9s isb=%-5s %6d blocks, %6d checked against objdump, %d skipped"
                    + " (they run into padding before a function in the other state)%n", name, isb, blocks, checked,
                    blocks - checked);
            assertThat(failures).isEmpty();
            assertThat(checked).isGreaterThan(1_000);
        }
    }
}
