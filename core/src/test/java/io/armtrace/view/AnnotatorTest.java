package io.armtrace.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ElfImage;
import io.armtrace.image.LineTable;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Source lines of every instruction of the corpus programs, as {@link Annotator} gives them to listings,
 * against binutils' addr2line (the table tools/addr2line/make-table.sh wrote from it).
 */
public class AnnotatorTest {
    /** One row of an addr2line table; {@code file} null where addr2line knows no line. */
    public record Ref(long address, String file, int line) {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = AnnotatorTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                return null;
            }
            byte[] b = in.readAllBytes();
            return resource.endsWith(".gz") ? new GZIPInputStream(new java.io.ByteArrayInputStream(b)).readAllBytes() : b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<Ref> table(String name) {
        List<Ref> out = new ArrayList<>();
        for (String line : new String(bytes("/dwarf/addr2line/" + name + ".addr2line.txt.gz"), StandardCharsets.UTF_8)
                .split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int sp = line.indexOf(' ');
            int colon = line.lastIndexOf(':');
            String file = line.substring(sp + 1, colon);
            String num = line.substring(colon + 1);
            out.add(new Ref(Long.parseUnsignedLong(line.substring(0, sp), 16), file.equals("??") ? null : file,
                    num.equals("?") ? 0 : Integer.parseInt(num)));
        }
        return out;
    }

    static byte[] elf(String name) throws IOException {
        if (name.startsWith("example-")) {
            return Files.readAllBytes(Path.of("examples", name.substring("example-".length()), "program.elf"));
        }
        byte[] b = bytes("/groundtruth/" + name + ".elf.gz");
        return b != null ? b : bytes("/dwarf/" + name + ".elf");
    }

    /** addr2line joins the compilation directory and the file's directory as GCC recorded them. */
    static String normalize(String path) {
        return Path.of(path).normalize().toString();
    }

    // Not eabi-m3-gc-dwarf5: there addr2line answers with the line program of a function the linker dropped,
    // left at address 0 and overlapping the program (see LineTableTest.codeTheLinkerDroppedDoesNotHide...).
    @ParameterizedTest
    @ValueSource(strings = {"a9-arm", "a9-thumb", "arm926-arm", "arm926-thumb", "m0plus", "m3", "linux-arm",
            "linux-thumb", "eabi-arm-dwarf2", "eabi-arm-dwarf3", "eabi-arm-dwarf4", "eabi-arm-dwarf5",
            "eabi-thumb-dwarf2", "eabi-thumb-dwarf5", "linux-arm-dwarf4", "linux-thumb-dwarf5",
            "example-etm2-arm926-thumb", "example-etm3-a9-thumb", "example-mtb-m0plus",
            "a64-O0-dwarf4", "a64-O2-dwarf4", "a64-O0-dwarf5", "a64-O2-dwarf5", "a64-O2-dwarf3", "a64-O2-dwarf2",
            "a64-O1-dwarf4-64", "a64-kernel-dwarf5",
            // built by clang, whose line programs give compiler-made code line 0: no source line, as addr2line says
            "clang-a64-O2-dwarf5", "clang-thumb-O2-dwarf5"}) // (not a64-O2-dwarf5-64: addr2line 2.40 reads no line of 64-bit DWARF 5)
    void sourceLinesOfEveryInstructionAgreeWithAddr2line(String name) throws IOException {
        ProgramImage image = ElfImage.load(elf(name), name);
        List<Ref> refs = table(name);
        assertThat(refs).isNotEmpty();
        int known = 0;
        // in address order, as a listing walks code (the cached path), then shuffled (every lookup a miss)
        List<Ref> shuffled = new ArrayList<>(refs);
        Collections.shuffle(shuffled, new Random(11));
        // Where binutils disagrees with itself, the line table as objdump decodes it decides (see addr2lineSlips)
        java.util.Set<Long> slips = name.startsWith("a64-") ? addr2lineSlips(name, image) : java.util.Set.of();
        assertThat(slips.size()).as("addresses where addr2line contradicts the line table").isLessThanOrEqualTo(8);
        for (List<Ref> order : List.of(refs, shuffled)) {
            Annotator a = new Annotator(image);
            for (Ref r : order) {
                LineTable.Location l = a.location(r.address());
                if (slips.contains(r.address())) {
                    continue;
                }
                if (r.file() == null) {
                    assertThat(l).as("%s 0x%x", name, r.address()).isNull();
                    continue;
                }
                known++;
                assertThat(l).as("%s 0x%x", name, r.address()).isNotNull();
                assertThat(l.line()).as("%s 0x%x", name, r.address()).isEqualTo(r.line());
                assertThat(normalize(l.file())).as("%s 0x%x", name, r.address()).isEqualTo(normalize(r.file()));
            }
        }
        assertThat(known).isPositive();
    }

    /**
     * The addresses where aarch64-linux-gnu-addr2line (binutils 2.40) answers differently from the row
     * in force in aarch64-linux-gnu-objdump --dwarf=decodedline's table (the last row at or below the
     * address), while the image agrees with objdump: in a64-O0-dwarf5 the rows before the first
     * DW_LNS_set_file belong to file 1 (lines.h: the DWARF 5 file register starts at 1, 6.2.2), which
     * addr2line reads as the primary file lines.c (the out-of-line copy of the header's inline function).
     * Every other address is compared with addr2line.
     */
    static java.util.Set<Long> addr2lineSlips(String name, ProgramImage image) {
        java.util.TreeMap<Long, String> rows = new java.util.TreeMap<>();
        for (String line : new String(bytes("/dwarf/" + name + ".decodedline.txt"), StandardCharsets.UTF_8).split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length >= 3 && (t[2].startsWith("0x") || t[2].equals("0"))) {
                long a = t[2].equals("0") ? 0 : Long.parseUnsignedLong(t[2].substring(2), 16);
                rows.put(a, t[1].equals("-") ? "" : t[0] + ":" + t[1]); // the last row at an address wins
            }
        }
        java.util.Set<Long> out = new java.util.HashSet<>();
        for (Ref r : table(name)) {
            java.util.Map.Entry<Long, String> e = rows.floorEntry(r.address());
            String objdump = e == null || e.getValue().isEmpty() ? null : e.getValue();
            LineTable.Location l = image.lines().lookup(r.address());
            String ours = l == null ? null : l.fileName() + ":" + l.line();
            String addr2line = r.file() == null ? null : Path.of(r.file()).getFileName() + ":" + r.line();
            if (objdump != null && objdump.equals(ours) && !objdump.equals(addr2line)) {
                out.add(r.address());
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"a9-thumb", "m3", "linux-arm"})
    void cachedSymbolsAreTheSymbolTablesAnswer(String name) throws IOException {
        ProgramImage image = ElfImage.load(elf(name), name);
        Annotator a = new Annotator(image);
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (Symbol s : image.symbols().symbols()) {
            lo = Math.min(lo, s.address());
            hi = Math.max(hi, s.address() + s.size());
        }
        hi = Math.min(hi, lo + 0x40000);
        for (long addr = lo - 8; addr < hi + 8; addr += 2) {
            assertThat(a.symbol(addr)).as("0x%x", addr).isEqualTo(image.symbols().nameFor(addr));
        }
        Random rnd = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            long addr = lo - 16 + (rnd.nextLong(hi - lo + 32) & ~1L);
            assertThat(a.symbol(addr)).as("0x%x", addr).isEqualTo(image.symbols().nameFor(addr));
        }
    }
}
