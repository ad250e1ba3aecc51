package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The DWARF line-table reader against binutils: every row of every line program must equal what
 * {@code readelf --debug-dump=decodedline} printed for the same file (tools/dwarf/generate.sh made
 * both). The files are real compiler output: arm-none-eabi-gcc and arm-linux-gnueabihf-gcc 12, ARM and
 * Thumb, DWARF 2, 3, 4 and 5, and copies of ground-truth programs (several units, C and assembler,
 * static glibc); aarch64-linux-gnu-gcc 12 (ELF64, references from aarch64-linux-gnu-objdump
 * --dwarf=decodedline), DWARF 2 to 5 at -O0/-O1/-O2, 64-bit DWARF (-gdwarf64) and code at a kernel
 * address above 4 GiB.
 */
class LineTableTest {

    /** One row as readelf prints it: file name, line (-1 for an end of sequence), address, is_stmt. */
    record Ref(String file, int line, long address, boolean stmt) {
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = LineTableTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            byte[] b = in.readAllBytes();
            return name.endsWith(".gz") ? new GZIPInputStream(new java.io.ByteArrayInputStream(b)).readAllBytes() : b;
        }
    }

    static List<Ref> reference(String name) throws IOException {
        List<Ref> out = new ArrayList<>();
        for (String s : new String(resource(name), StandardCharsets.UTF_8).split("\n")) {
            String[] t = s.trim().split("\\s+");
            // readelf prints address 0 as "0", every other one as 0x...
            if (t.length < 3 || !(t[2].startsWith("0x") || t[2].equals("0")) || t[0].equals("File")) {
                continue;
            }
            int line = t[1].equals("-") ? -1 : Integer.parseInt(t[1]);
            out.add(new Ref(t[0], line, t[2].equals("0") ? 0 : Long.parseUnsignedLong(t[2].substring(2), 16),
                    t[t.length - 1].equals("x")));
        }
        return out;
    }

    static String baseName(String p) {
        return p.substring(p.lastIndexOf('/') + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"eabi-arm-dwarf2", "eabi-arm-dwarf3", "eabi-arm-dwarf4", "eabi-arm-dwarf5",
            "eabi-thumb-dwarf2", "eabi-thumb-dwarf3", "eabi-thumb-dwarf4", "eabi-thumb-dwarf5",
            "linux-arm-dwarf4", "linux-arm-dwarf5", "linux-thumb-dwarf4", "linux-thumb-dwarf5",
            "corpus-a9-thumb", "corpus-arm926-arm", "corpus-m3", "corpus-linux-thumb", "eabi-m3-gc-dwarf5",
            "a64-O0-dwarf4", "a64-O2-dwarf4", "a64-O0-dwarf5", "a64-O2-dwarf5", "a64-O2-dwarf3", "a64-O2-dwarf2",
            "a64-O2-dwarf5-64", "a64-O1-dwarf4-64", "a64-kernel-dwarf5"})
    void rowsEqualReadelfDecodedLine(String name) throws IOException {
        byte[] elf = resource("/dwarf/" + name + (name.startsWith("corpus-") ? ".elf.gz" : ".elf"));
        LineTable table = ElfImage.load(elf, name).lines();
        assertThat(table.problem()).isNull();
        List<Ref> expected = reference("/dwarf/" + name + ".decodedline.txt" + (name.startsWith("corpus-") ? ".gz" : ""));
        assertThat(expected).hasSizeGreaterThan(40);
        List<Ref> actual = new ArrayList<>();
        for (LineTable.Row r : table.rows()) {
            actual.add(new Ref(baseName(r.file()), r.endSequence() ? -1 : r.line(), r.address(), !r.endSequence() && r.isStmt()));
        }
        // readelf prints no is_stmt mark on end-of-sequence rows
        List<Ref> exp = new ArrayList<>();
        for (Ref e : expected) {
            exp.add(e.line() < 0 ? new Ref(e.file(), -1, e.address(), false) : e);
        }
        assertThat(actual).containsExactlyElementsOf(exp);

        // lookup: an address takes the last row at it, for the range up to the next row of its sequence;
        // sequences left at address 0 by the linker (discarded code) give way where they overlap others
        List<long[]> placed = new ArrayList<>();
        boolean atZero = false;
        for (int i = 0; i + 1 < expected.size(); i++) {
            if (i == 0 || expected.get(i - 1).line() < 0) {
                atZero = expected.get(i).address() == 0;
            }
            if (!atZero && expected.get(i).line() >= 0) {
                placed.add(new long[] {expected.get(i).address(), expected.get(i + 1).address()});
            }
        }
        int checked = 0;
        for (int i = 0; i + 1 < expected.size(); i++) {
            Ref r = expected.get(i);
            Ref n = expected.get(i + 1);
            if (i == 0 || expected.get(i - 1).line() < 0) {
                atZero = r.address() == 0;
            }
            if (r.line() < 0 || n.address() <= r.address()) {
                continue;
            }
            if (atZero && placed.stream().anyMatch(p -> p[0] < n.address() && p[1] > r.address())) {
                continue;
            }
            for (long a : new long[] {r.address(), n.address() - 1}) {
                LineTable.Location l = table.lookup(a);
                assertThat(l).as("0x%x", a).isNotNull();
                assertThat(l.fileName()).as("0x%x", a).isEqualTo(r.file());
                assertThat(l.line()).as("0x%x", a).isEqualTo(r.line());
            }
            checked++;
        }
        assertThat(checked).isGreaterThan(10);
    }

    @org.junit.jupiter.api.Test
    void codeTheLinkerDroppedDoesNotHideTheCodeAtItsAddresses() throws IOException {
        LineTable t = ElfImage.load(resource("/dwarf/eabi-m3-gc-dwarf5.elf"), "gc").lines();
        // unused_function's sequence lies at 0x0-0x64 (lines 38-47); table() is at 0x40 (lines 8-16)
        assertThat(t.rows()).anyMatch(r -> r.address() == 0 && r.line() == 38);
        assertThat(t.lookup(0x40).line()).isEqualTo(9); // rows for lines 8, 9, 9 at 0x40: the last one
        assertThat(t.lookup(0x5a).line()).isEqualTo(12);
        assertThat(t.lookup(0x10).line()).isBetween(38, 47); // nothing else is there
    }

    /**
     * A DWARF 5 line program written by hand from the specification (6.2.4): directory 0 is the
     * compilation directory and a relative directory 1 lies below it (6.2.4, item 20); file 0 is in
     * directory 0, file 1 in directory 1; minimum_instruction_length 2 scales DW_LNS_advance_pc.
     */
    @org.junit.jupiter.api.Test
    void dwarf5HeaderFromTheSpecification() {
        java.io.ByteArrayOutputStream h = new java.io.ByteArrayOutputStream();
        h.writeBytes(new byte[] {2, 1, 1, -5, 14, 13});            // min_inst_length .. opcode_base
        h.writeBytes(new byte[] {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1}); // standard_opcode_lengths
        h.writeBytes(new byte[] {1, 1, 0x08});                     // directory format: path, DW_FORM_string
        h.write(2);
        h.writeBytes("/comp\0sub\0".getBytes(StandardCharsets.US_ASCII));
        h.writeBytes(new byte[] {2, 1, 0x08, 2, 0x0b});            // file format: path string, dir data1
        h.write(2);
        h.writeBytes("a.c\0".getBytes(StandardCharsets.US_ASCII));
        h.write(0);
        h.writeBytes("b.c\0".getBytes(StandardCharsets.US_ASCII));
        h.write(1);
        byte[] program = {0, 5, 2, 0x00, 0x10, 0, 0,                // DW_LNE_set_address 0x1000
            4, 0,                                                    // DW_LNS_set_file 0 (the register starts at 1)
            1,                                                       // DW_LNS_copy
            4, 1,                                                    // DW_LNS_set_file 1
            2, 2,                                                    // DW_LNS_advance_pc 2 (x2 bytes)
            3, 9,                                                    // DW_LNS_advance_line +9
            1,
            2, 2,
            0, 1, 1};                                                // DW_LNE_end_sequence
        byte[] header = h.toByteArray();
        java.nio.ByteBuffer u = java.nio.ByteBuffer.allocate(4 + 2 + 2 + 4 + header.length + program.length)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        u.putInt(2 + 2 + 4 + header.length + program.length).putShort((short) 5).put((byte) 4).put((byte) 0)
                .putInt(header.length).put(header).put(program);
        LineTable t = LineTable.of(u.array(), null, null, "hand-made");
        assertThat(t.problem()).isNull();
        assertThat(t.rows()).containsExactly(
                new LineTable.Row(0x1000, "/comp/a.c", 1, 0, true, false),
                new LineTable.Row(0x1004, "/comp/sub/b.c", 10, 0, true, false),
                new LineTable.Row(0x1008, "/comp/sub/b.c", 10, 0, true, true));
        assertThat(t.lookup(0x1006)).isEqualTo(new LineTable.Location("/comp/sub/b.c", 10));
        assertThat(t.lookup(0x1008)).isNull();
    }

    @org.junit.jupiter.api.Test
    void damagedSectionGivesAnEmptyTableAndAProblem() throws IOException {
        byte[] elf = resource("/dwarf/eabi-thumb-dwarf5.elf");
        LineTable good = ElfImage.load(elf, "x").lines();
        java.util.Random rnd = new java.util.Random(1);
        // truncations and bit flips of a real section: never an exception, never a hang
        byte[] section = sectionBytes(good);
        for (int i = 0; i < 2000; i++) {
            byte[] bad = section.clone();
            if (i % 2 == 0) {
                bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length));
            } else {
                for (int k = 0; k < 4; k++) {
                    bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            LineTable t = LineTable.of(bad, null, null, "damaged");
            t.lookup(0x8000);
            t.rows();
        }
        LineTable truncated = LineTable.of(java.util.Arrays.copyOf(section, 30), null, null, "short.elf");
        assertThat(truncated.isEmpty()).isTrue();
        assertThat(truncated.problem()).contains("short.elf").contains("truncated");
    }

    private static byte[] sectionBytes(LineTable t) throws IOException {
        byte[] elf = resource("/dwarf/eabi-thumb-dwarf5.elf");
        ElfFile f = ElfFile.read(java.nio.ByteBuffer.wrap(elf), "eabi-thumb-dwarf5");
        java.nio.ByteBuffer b = f.contents(f.section(".debug_line"));
        byte[] out = new byte[b.limit()];
        b.get(0, out);
        return out;
    }

    /**
     * An absolute compilation directory (DW_AT_comp_dir /src/fw, tools/dwarf/generate.sh): the path of each
     * instruction's source file, joined to its unit's directory, is the one addr2line gives, in DWARF 2, 4
     * (where the line program names the file relative to that directory) and 5 alike.
     */
    @ParameterizedTest
    @ValueSource(strings = {"eabi-thumb-compdir-dwarf2", "eabi-thumb-compdir-dwarf4", "eabi-thumb-compdir-dwarf5"})
    void compilationPathsAreAddr2linesPaths(String name) throws IOException {
        LineTable table = ElfImage.load(resource("/dwarf/" + name + ".elf"), name).lines();
        int checked = 0;
        for (String row : new String(resource("/dwarf/" + name + ".addr2line.txt"), StandardCharsets.UTF_8).split("\n")) {
            String[] f = row.split(" ", 2);
            LineTable.Location l = table.lookup(Long.parseLong(f[0], 16));
            if (f[1].startsWith("??")) {
                assertThat(l).as(row).isNull();
                continue;
            }
            assertThat(l).as(row).isNotNull();
            assertThat(table.compilationPath(l.file()) + ":" + l.line()).as(row).isEqualTo(f[1]);
            checked++;
        }
        assertThat(checked).isGreaterThan(80);
    }
}
