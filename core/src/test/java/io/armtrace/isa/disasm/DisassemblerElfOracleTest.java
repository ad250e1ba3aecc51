package io.armtrace.isa.disasm;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ElfImage;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;
import io.armtrace.isa.Profile;
import io.armtrace.trace.Isa;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Whole programs linked with newlib (tools/isa-oracle/elfs.py: three C programs, seven targets, five
 * optimisation levels), every instruction disassembled with the ELF file's own symbols and compared
 * with {@code arm-none-eabi-objdump -d} as text: mnemonic, operands, and the {@code <symbol+offset>} of
 * branch targets, where objdump chooses among symbols that share an address and names the nearest
 * symbol below a target even past that symbol's size. The repository keeps nine of the files (one per
 * target, programs and levels mixed); {@code -Darmtrace.elfOracle=DIR} runs the test on every file that
 * {@code elfs.py --all --out DIR} made. Mismatches are counted by class (docs/disassembly.md).
 */
class DisassemblerElfOracleTest {
    static final String PROPERTY = "armtrace.elfOracle";

    /**
     * One row of objdump's listing: the address, objdump's text (comments removed, spaces collapsed) and the
     * name {@code objdump -d --prefix-addresses} gives the address itself ({@code symbol+0xoff}).
     */
    record Row(long address, String text, String name) {
    }

    /** A file of the oracle: its name, disassembler profile and objdump's rows. */
    record ElfFile(String name, Profile profile, List<Row> rows) {
    }

    static List<ElfFile> table(Path dir) throws IOException {
        Map<String, Profile> profiles = new LinkedHashMap<>();
        Map<String, List<Row>> rows = new LinkedHashMap<>();
        try (InputStream in = dir == null ? resource("objdump.tsv.gz") : Files.newInputStream(dir.resolve("objdump.tsv.gz"));
             BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.split("\t");
                if (line.startsWith("# profile\t")) {
                    profiles.put(f[1], f[2].equals("M") ? Profile.M : Profile.AR);
                } else if (!line.startsWith("#")) {
                    rows.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new Row(Long.parseLong(f[1], 16), f[2], f[3]));
                }
            }
        }
        List<ElfFile> out = new ArrayList<>();
        for (Map.Entry<String, Profile> p : profiles.entrySet()) {
            out.add(new ElfFile(p.getKey(), p.getValue(), rows.getOrDefault(p.getKey(), List.of())));
        }
        return out;
    }

    static InputStream resource(String name) throws IOException {
        InputStream in = DisassemblerElfOracleTest.class.getResourceAsStream("/isa/elfs/" + name);
        if (in == null) {
            throw new IOException("no test resource isa/elfs/" + name + " (tools/isa-oracle/elfs.py makes it)");
        }
        return in;
    }

    static byte[] elfBytes(Path dir, String name) {
        try (InputStream in = new GZIPInputStream(dir == null ? resource(name + ".elf.gz")
                : Files.newInputStream(dir.resolve(name + ".elf.gz")))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The kinds of disagreement, each counted. */
    enum Difference {
        /** Same text once every {@code <...>} is removed, objdump names the target and armtrace does not. */
        SYMBOL_MISSING,
        /** Same text once every {@code <...>} is removed, both name the target, differently. */
        SYMBOL_DIFFERS,
        /** armtrace names a target objdump leaves bare. */
        SYMBOL_EXTRA,
        /** The mnemonic differs (an alias spelled otherwise). */
        MNEMONIC,
        /** Anything else (operands). */
        OTHER,
        /** The name of the instruction's own address (a listing's symbol column) differs. */
        NAME
    }

    record Result(int rows, Map<Difference, Integer> counts, Map<Difference, List<String>> examples) {
    }

    static Result compare(Path dir, ElfFile f) {
        ProgramImage image = ElfImage.load(elfBytes(dir, f.name()), f.name());
        MemoryImage memory = image.memory();
        SymbolTable symbols = image.symbols();
        Disassembler d = new Disassembler(f.profile());
        InstructionClassifier classifier = new InstructionClassifier(f.profile());
        Insn insn = new Insn();
        Map<Difference, Integer> counts = new TreeMap<>();
        Map<Difference, List<String>> examples = new TreeMap<>();
        int it = 0;
        long next = -1;
        for (Row r : f.rows()) {
            byte map = symbols.mappingAt(r.address());
            Isa isa = map == SymbolTable.MAP_ARM ? Isa.A32 : Isa.T32;
            if (r.address() != next) {
                it = 0;
            }
            Disassembler.Text text = d.disassemble(memory, r.address(), isa, it, symbols);
            classifier.classify(memory, r.address(), isa, it, insn);
            it = insn.itStateAfter;
            int hw = memory.u16(r.address());
            if (isa == Isa.T32 && (hw & 0xFF00) == 0xBF00 && (hw & 0xF) != 0) {
                it = hw & 0xFF;
            }
            next = r.address() + (isa == Isa.A32 ? 4 : (hw >>> 11) >= 0x1D ? 4 : 2);
            String name = name(symbols, r.address());
            if (!name.equals(r.name())) {
                counts.merge(Difference.NAME, 1, Integer::sum);
                List<String> ex = examples.computeIfAbsent(Difference.NAME, k -> new ArrayList<>());
                if (ex.size() < 5) {
                    ex.add(String.format("%s %x: objdump <%s>, armtrace <%s>", f.name(), r.address(), r.name(), name));
                }
            }
            String ours = text == null ? "(none)" : String.join(" ", text.toString().split("\\s+"));
            if (ours.equals(r.text())) {
                continue;
            }
            Difference kind;
            String oursBare = ours.replaceAll("\\s*<[^>]*>", "");
            String theirsBare = r.text().replaceAll("\\s*<[^>]*>", "");
            if (oursBare.equals(theirsBare)) {
                boolean oursNamed = ours.contains("<");
                boolean theirsNamed = r.text().contains("<");
                kind = oursNamed && theirsNamed ? Difference.SYMBOL_DIFFERS
                        : theirsNamed ? Difference.SYMBOL_MISSING : Difference.SYMBOL_EXTRA;
            } else if (!ours.split(" ")[0].equals(r.text().split(" ")[0])) {
                kind = Difference.MNEMONIC;
            } else {
                kind = Difference.OTHER;
            }
            counts.merge(kind, 1, Integer::sum);
            List<String> ex = examples.computeIfAbsent(kind, k -> new ArrayList<>());
            if (ex.size() < (kind == Difference.MNEMONIC || kind == Difference.OTHER ? 50 : 5)) {
                ex.add(String.format("%s %x: objdump '%s', armtrace '%s'", f.name(), r.address(), r.text(), ours));
            }
        }
        return new Result(f.rows().size(), counts, examples);
    }

    /** The listing's name of an address (the symbol column; --annotate's sym is the same). */
    static String name(SymbolTable symbols, long address) {
        return new io.armtrace.view.Symbolizer(symbols).name(address);
    }

    @Test
    void everyInstructionOfEveryProgramReadsAsObjdumpPrintsIt() throws IOException {
        String property = System.getProperty(PROPERTY);
        Path dir = property == null || property.isBlank() ? null : Path.of(property);
        List<ElfFile> files = table(dir);
        assertThat(files).as("ELF files in the oracle").hasSizeGreaterThanOrEqualTo(dir == null ? 9 : 1);
        Map<Difference, Integer> total = new TreeMap<>();
        Map<Difference, List<String>> examples = new TreeMap<>();
        long rows = 0;
        for (ElfFile f : files) {
            assertThat(f.rows()).as(f.name()).isNotEmpty();
            Result r = compare(dir, f);
            rows += r.rows();
            r.counts().forEach((k, v) -> total.merge(k, v, Integer::sum));
            r.examples().forEach((k, v) -> examples.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        }
        System.out.printf("%d ELF files, %d instructions; differences by class: %s%n", files.size(), rows, total);
        examples.forEach((k, v) -> v.stream().limit(k == Difference.MNEMONIC || k == Difference.OTHER ? 50 : 8)
                .forEach(e -> System.out.println("  " + k + ": " + e)));
        assertThat(rows).isGreaterThan(dir == null ? 150_000 : 0);
        assertThat(total).as("rows that differ from objdump, by class; first: %s", examples).isEmpty();
    }
}
