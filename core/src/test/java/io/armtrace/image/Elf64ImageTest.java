package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AArch64 ELF files (ELF64, e_machine 183) against binutils: symbols as aarch64-linux-gnu-nm lists them,
 * build IDs as aarch64-linux-gnu-readelf -n prints them (tools/dwarf/generate.sh wrote both), relocatable
 * files placed at addresses (an object and a real kernel module), and the files' own bytes.
 */
class Elf64ImageTest {
    static final String[] LINKED = {"a64-O0-dwarf4", "a64-O2-dwarf4", "a64-O0-dwarf5", "a64-O2-dwarf5", "a64-O2-dwarf3",
        "a64-O2-dwarf2", "a64-O2-dwarf5-64", "a64-O1-dwarf4-64", "a64-kernel-dwarf5"};

    static byte[] elf(String name) throws IOException {
        return LineTableTest.resource("/dwarf/" + name + ".elf");
    }

    static String text(String resource) throws IOException {
        return new String(LineTableTest.resource(resource), StandardCharsets.UTF_8);
    }

    /** nm's lines "ADDRESS TYPE NAME" of defined symbols in code, data and bss. */
    static Map<String, Long> nm(String name) throws IOException {
        Map<String, Long> out = new HashMap<>();
        for (String line : text("/dwarf/" + name + ".nm.txt").split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length == 3 && "TtDdBbRr".indexOf(t[1].charAt(0)) >= 0 && !t[2].startsWith("$")) {
                out.put(t[2], Long.parseUnsignedLong(t[0], 16));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"a64-O0-dwarf4", "a64-O2-dwarf4", "a64-O0-dwarf5", "a64-O2-dwarf5", "a64-O2-dwarf3",
        "a64-O2-dwarf2", "a64-O2-dwarf5-64", "a64-O1-dwarf4-64", "a64-kernel-dwarf5"})
    void symbolsAreThoseNmListsAndCodeIsTheFilesBytes(String name) throws IOException {
        byte[] bytes = elf(name);
        ProgramImage image = ElfImage.load(bytes, name);
        Map<String, Long> expected = nm(name);
        assertThat(expected).containsKeys("main", "work", "sink");
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            Symbol s = image.symbols().find(e.getKey());
            assertThat(s).as(e.getKey()).isNotNull();
            assertThat(s.address()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(s.thumb()).isFalse();
        }
        // A64 code is marked by $x mapping symbols (IHI 0056 5.7.2)
        assertThat(image.symbols().mappingAt(expected.get("main"))).isEqualTo(SymbolTable.MAP_A64);
        assertThat(image.symbols().mappingAt(expected.get("work"))).isEqualTo(SymbolTable.MAP_A64);

        ElfImage.Description d = ElfImage.describe(ByteBuffer.wrap(bytes), name);
        assertThat(d.bits()).isEqualTo(64);
        assertThat(d.machine()).isEqualTo(183);
        assertThat(d.type()).isIn(2, 3); // Debian's gcc links position-independent executables (ET_DYN)
        String buildId = text("/dwarf/" + name + ".buildid.txt").trim();
        assertThat(d.buildIdHex()).isEqualTo(buildId.isEmpty() ? null : buildId);
        // the code of main as the file holds it: the load segment's bytes at its virtual address
        ElfImage.Segment code = d.segments().stream()
                .filter(s -> s.isLoad() && s.isExecutable() && s.vaddr() <= expected.get("main")
                        && expected.get("main") < s.vaddr() + s.fileSize())
                .findFirst().orElseThrow();
        long at = code.offset() + expected.get("main") - code.vaddr();
        ByteBuffer file = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16; i += 4) {
            assertThat(image.memory().u32(expected.get("main") + i)).isEqualTo(file.getInt((int) at + i) & 0xFFFFFFFFL);
        }
    }

    @Test
    void codeAboveFourGibibytesKeepsItsAddresses() throws IOException {
        ProgramImage image = ElfImage.load(elf("a64-kernel-dwarf5"), "kernel");
        long main = image.symbols().find("main").address();
        assertThat(Long.compareUnsigned(main, 0xFFFF_FFFFL)).isPositive();
        assertThat(main).isEqualTo(nm("a64-kernel-dwarf5").get("main"));
        assertThat(image.memory().contains(main, 4)).isTrue();
        assertThat(image.lines().lookup(main)).isNotNull();
        assertThat(image.symbols().lookup(main + 4).name()).isEqualTo("main");
    }

    /**
     * The object file's two code sections placed apart: every line sequence lies at one section's address
     * plus the section-relative address objdump gives, symbols move with their sections, and the call from
     * main (.text.startup) to work (.text), an R_AARCH64_CALL26 relocation, reaches work's placed address.
     */
    @Test
    void relocatableObjectPlacedAtGivenAddresses() throws IOException {
        long text = 0x4000_0000_0000L;
        long startup = 0x4000_0010_0000L;
        ProgramImage image = ElfImage.loadRelocatable(ByteBuffer.wrap(elf("a64-object-dwarf5")), "object",
                Map.of(".text", text, ".text.startup", startup));
        Map<String, Long> nm = nm("a64-object-dwarf5");
        assertThat(image.symbols().find("work").address()).isEqualTo(text + nm.get("work"));
        assertThat(image.symbols().find("unused_function").address()).isEqualTo(text + nm.get("unused_function"));
        long main = image.symbols().find("main").address();
        assertThat(main).isEqualTo(startup + nm.get("main"));

        // line rows: each sequence at one of the two bases
        List<LineTableTest.Ref> ref = LineTableTest.reference("/dwarf/a64-object-dwarf5.decodedline.txt");
        List<LineTable.Row> rows = image.lines().rows();
        assertThat(rows).hasSameSizeAs(ref);
        long base = -1;
        int sequences = 0;
        for (int i = 0; i < rows.size(); i++) {
            if (base < 0) {
                base = rows.get(i).address() - ref.get(i).address();
                assertThat(base).isIn(text, startup);
                sequences++;
            }
            assertThat(rows.get(i).address()).isEqualTo(base + ref.get(i).address());
            assertThat(rows.get(i).line()).isEqualTo(rows.get(i).endSequence() ? rows.get(i).line() : ref.get(i).line());
            if (rows.get(i).endSequence()) {
                base = -1;
            }
        }
        assertThat(sequences).isEqualTo(2);

        // the first BL in main: imm26 (Arm ARM C6.2.35) now holds work's placed address
        long target = -1;
        for (long a = main; a < main + 0x28; a += 4) {
            long insn = image.memory().u32(a);
            if ((insn & 0xFC00_0000L) == 0x9400_0000L) {
                long imm = insn & 0x03FF_FFFFL;
                target = a + ((imm << 38) >> 36);
                break;
            }
        }
        assertThat(target).isEqualTo(text + nm.get("work"));
    }

    /**
     * A real kernel module (rq_stats.ko from the Android recording) laid out as Linux lays out a module:
     * .text at offset 0x1000 of the module, which is what simpleperf recorded for it
     * (memory_offset_of_min_vaddr 4096 in perf_kernel.data's file feature).
     */
    @Test
    void kernelModuleLaidOutAsLinuxDoes() throws IOException {
        Path ko = Path.of("conformance/perfdata/rq_stats.ko");
        assertThat(ko).exists();
        long base = 0xffffff99f5896000L; // its MMAP record in perf_kernel.data
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(ko));
        Map<String, Long> layout = ElfImage.linuxModuleLayout(bytes, "rq_stats.ko", base);
        assertThat(layout.get(".text")).isEqualTo(base + 0x1000);
        assertThat(layout).doesNotContainKey(".init.text");
        ProgramImage image = ElfImage.loadRelocatable(bytes, "rq_stats.ko", layout);
        ElfImage.Description d = ElfImage.describe(bytes, "rq_stats.ko");
        assertThat(d.isRelocatable()).isTrue();
        assertThat(d.buildIdHex()).isEqualTo("a535d7222f9f01d1"); // aarch64-linux-gnu-readelf -n
        // every function of .text lies inside the placed .text, and its first word is the file's
        ElfFile f = ElfFile.read(bytes, "rq_stats.ko");
        ElfFile.SectionHeader textSection = f.section(".text");
        List<Symbol> functions = new ArrayList<>();
        for (ElfFile.Symbol s : f.symbols()) {
            if (s.type() == ElfFile.STT_FUNC && s.section() == textSection.index()) {
                Symbol placed = image.symbols().find(s.name());
                assertThat(placed).as(s.name()).isNotNull();
                assertThat(placed.address()).isEqualTo(base + 0x1000 + s.value());
                functions.add(placed);
            }
        }
        assertThat(functions).isNotEmpty();
        assertThat(image.symbols().mappingAt(base + 0x1000)).isEqualTo(SymbolTable.MAP_A64);
        assertThat(image.memory().contains(base + 0x1000, (int) textSection.size())).isTrue();
    }

    @Test
    void wrongClassOrMachineIsOneSentence() throws IOException {
        byte[] b = elf("a64-O2-dwarf5");
        byte[] as32 = b.clone();
        as32[4] = 1; // ELFCLASS32 with an AArch64 machine
        assertThatThrownBy(() -> ElfImage.load(as32, "odd.elf")).isInstanceOf(ImageException.class)
                .hasMessageStartingWith("odd.elf");
        byte[] x86 = b.clone();
        x86[18] = 62; // EM_X86_64
        assertThatThrownBy(() -> ElfImage.load(x86, "x86.elf")).isInstanceOf(ImageException.class)
                .hasMessageContaining("another processor");
        assertThatThrownBy(() -> ElfImage.loadRelocatable(ByteBuffer.wrap(b), "exe.elf", Map.of()))
                .isInstanceOf(ImageException.class).hasMessageContaining("not a relocatable");
    }

    /** Truncations and bit flips of ELF64 files and the module: loaded or refused in one sentence, never thrown otherwise. */
    @Test
    void damagedElf64FilesLoadOrSayWhy() throws IOException {
        List<byte[]> files = List.of(elf("a64-O2-dwarf5-64"), elf("a64-object-dwarf5"),
                Files.readAllBytes(Path.of("conformance/perfdata/rq_stats.ko")));
        java.util.Random rnd = new java.util.Random(17);
        int loaded = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] bad = files.get(i % files.size()).clone();
            if (i % 3 == 0) {
                bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length));
            } else {
                for (int k = 0; k < 1 + rnd.nextInt(6); k++) {
                    bad[rnd.nextInt(Math.min(bad.length, i % 2 == 0 ? 128 : bad.length))] = (byte) rnd.nextInt();
                }
            }
            try {
                ProgramImage p = ElfImage.load(bad, "bad.elf");
                p.lines().rows();
                p.symbols().symbols();
                ElfImage.Description d = ElfImage.describe(ByteBuffer.wrap(bad), "bad.elf");
                if (d.isRelocatable()) {
                    ElfImage.loadRelocatable(ByteBuffer.wrap(bad), "bad.elf",
                            ElfImage.linuxModuleLayout(ByteBuffer.wrap(bad), "bad.elf", 0xffff000010000000L)).lines().rows();
                }
                loaded++;
            } catch (ImageException e) {
                assertThat(e.getMessage()).startsWith("bad.elf");
            }
        }
        assertThat(loaded).isPositive();
    }
}
