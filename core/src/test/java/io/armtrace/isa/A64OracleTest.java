package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.isa.InstructionOracleTest.Row;
import io.armtrace.isa.InstructionOracleTest.Table;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checks the A64 classifier and the code walker against GNU objdump on every row of the A64 oracle
 * tables (tools/isa-oracle/generate_a64.py: glibc, libm and C programs built by gcc-aarch64-linux-gnu
 * at -O0/-O2/-O3 and for Armv8.2/Armv8.5 with BTI and pointer authentication, and 60,000 random words).
 * What an instruction does to the PC is read from objdump's mnemonic here, independently of the
 * classifier's bit decoding.
 */
class A64OracleTest {
    private static final Set<String> INDIRECT = Set.of("br", "blr", "ret", "braa", "brab", "braaz", "brabz", "blraa",
            "blrab", "blraaz", "blrabz", "retaa", "retab");
    private static final Set<String> EXCEPTION_CALL = Set.of("svc", "hvc", "smc", "brk", "hlt", "udf");
    private static final Set<String> EXCEPTION_RETURN = Set.of("eret", "eretaa", "eretab");

    /** What objdump's text says: kind, link, return, conditional, data barrier, WFx. */
    record Semantics(WaypointKind kind, boolean link, boolean returns, boolean conditional, boolean dataBarrier,
            boolean waits) {
        static Semantics of(String m) {
            WaypointKind kind = WaypointKind.NONE;
            boolean conditional = false;
            if (m.equals("b") || m.equals("bl") || m.startsWith("b.") || m.startsWith("bc.") || m.equals("cbz")
                    || m.equals("cbnz") || m.equals("tbz") || m.equals("tbnz")) {
                kind = WaypointKind.DIRECT_BRANCH;
                String cond = m.indexOf('.') > 0 ? m.substring(m.indexOf('.') + 1) : "";
                conditional = m.startsWith("c") || m.startsWith("t")
                        || (!cond.isEmpty() && !cond.equals("al") && !cond.equals("nv"));
            } else if (INDIRECT.contains(m)) {
                kind = WaypointKind.INDIRECT_BRANCH;
            } else if (EXCEPTION_CALL.contains(m)) {
                kind = WaypointKind.EXCEPTION_CALL;
            } else if (EXCEPTION_RETURN.contains(m)) {
                kind = WaypointKind.EXCEPTION_RETURN;
            } else if (m.equals("isb")) {
                kind = WaypointKind.BARRIER;
            }
            boolean link = m.equals("bl") || m.startsWith("blr");
            boolean returns = m.startsWith("ret");
            return new Semantics(kind, link, returns, conditional, m.equals("dmb") || m.equals("dsb"),
                    m.equals("wfi") || m.equals("wfe") || m.equals("wfit") || m.equals("wfet"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a64-O2", "a64-O0", "a64-O3", "a64-v85", "a64-sve", "a64-sve2", "a64-random"})
    void everyRowAgreesWithObjdump(String name) throws IOException {
        Table t = InstructionOracleTest.load(name);
        MemoryImage image = InstructionOracleTest.image(t.rows());
        InstructionClassifier classifier = new InstructionClassifier(t.profile());
        Insn insn = new Insn();
        Map<WaypointKind, Integer> counts = new EnumMap<>(WaypointKind.class);
        int returns = 0;
        int links = 0;
        List<String> failures = new ArrayList<>();
        for (Row row : t.rows()) {
            assertThat(row.isa()).isEqualTo(Isa.A64);
            assertThat(classifier.classify(image, row.address(), Isa.A64, 0, insn)).isTrue();
            Semantics o = Semantics.of(row.mnemonic());
            List<String> bad = new ArrayList<>(0);
            if (insn.size != 4 || insn.opcode != row.opcode() || insn.returnAddress != row.address() + 4) {
                bad.add("size/opcode/return address");
            }
            if (insn.kind != o.kind()) {
                bad.add("kind " + insn.kind + " but objdump implies " + o.kind());
            }
            if (insn.link != o.link() || insn.returns != o.returns() || insn.conditional != o.conditional()) {
                bad.add("link " + insn.link + ", returns " + insn.returns + ", conditional " + insn.conditional);
            }
            if (insn.dataBarrier != o.dataBarrier() || insn.waitForInterruptOrEvent != o.waits()) {
                bad.add("dataBarrier " + insn.dataBarrier + ", wfx " + insn.waitForInterruptOrEvent);
            }
            if (o.kind() == WaypointKind.DIRECT_BRANCH ? insn.target != row.target() : insn.target != -1) {
                bad.add(String.format("target 0x%x but objdump 0x%x", insn.target, row.target()));
            }
            if (insn.targetIsa != Isa.A64) {
                bad.add("target ISA " + insn.targetIsa);
            }
            if (!bad.isEmpty() && failures.size() < 30) {
                failures.add(String.format("%s 0x%x %08x %s %s: %s", name, row.address(), row.opcode(), row.mnemonic(),
                        row.operands(), String.join(", ", bad)));
            }
            counts.merge(o.kind(), 1, Integer::sum);
            returns += o.returns() ? 1 : 0;
            links += o.link() ? 1 : 0;
        }
        System.out.printf("isa oracle %-10s %6d rows: %s, %d returns, %d branches with link%n", name, t.rows().size(),
                counts, returns, links);
        assertThat(failures).as("rows where the classifier disagrees with objdump").isEmpty();
        assertThat(t.rows().size()).isGreaterThan(600);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a64-O2", "a64-O0", "a64-O3", "a64-sve", "a64-random"})
    void walkerBlocksEndWhereObjdumpSays(String name) throws IOException {
        Table t = InstructionOracleTest.load(name);
        List<Row> rows = t.rows();
        MemoryImage image = InstructionOracleTest.image(rows);
        for (boolean isb : new boolean[] {false, true}) {
            CodeWalker walker = new CodeWalker(image, new InstructionClassifier(t.profile()), isb, false, isb, 4096, 1 << 12);
            boolean[] ends = new boolean[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                Semantics o = Semantics.of(rows.get(i).mnemonic());
                ends[i] = (o.kind() != WaypointKind.NONE && (o.kind() != WaypointKind.BARRIER || isb)) || (isb && o.waits());
            }
            int checked = 0;
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < rows.size() && failures.size() < 30; i++) {
                boolean starts = i == 0 || ends[i - 1] || rows.get(i - 1).end() != rows.get(i).address();
                if (!starts) {
                    continue;
                }
                int j = i;
                Block.End end;
                while (true) {
                    Row r = rows.get(j);
                    if (r.end() - rows.get(i).address() > 4096) {
                        end = Block.End.LIMIT;
                        break;
                    }
                    j++;
                    if (ends[j - 1]) {
                        end = Block.End.WAYPOINT;
                        break;
                    }
                    if (j == rows.size() || rows.get(j).address() != r.end()) {
                        end = Block.End.NO_IMAGE;
                        break;
                    }
                }
                Block b = walker.block(rows.get(i).address(), Isa.A64);
                checked++;
                int n = j - i;
                if (b.end() != end || b.count() != n || (n > 0 && b.lastAddress() != rows.get(j - 1).address())) {
                    failures.add(name + " isb=" + isb + " " + b + " expected " + end + " after " + n + " instructions");
                } else if (end == Block.End.WAYPOINT) {
                    Row last = rows.get(j - 1);
                    Semantics o = Semantics.of(last.mnemonic());
                    WaypointKind kind = o.kind() == WaypointKind.NONE ? WaypointKind.BARRIER : o.kind();
                    if (b.kind() != kind || b.returns() != o.returns() || b.link() != o.link()
                            || b.target() != (o.kind() == WaypointKind.DIRECT_BRANCH ? last.target() : -1)) {
                        failures.add(name + " isb=" + isb + " " + b + " ends at " + last.mnemonic() + " " + last.operands());
                    }
                }
            }
            System.out.printf("isa oracle %-10s wfx/isb=%-5s %6d blocks checked against objdump%n", name, isb, checked);
            assertThat(failures).isEmpty();
            assertThat(checked).isGreaterThan(300);
        }
    }
}
