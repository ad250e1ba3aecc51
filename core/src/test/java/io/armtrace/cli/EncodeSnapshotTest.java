package io.armtrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.execution.ExecutionEvent;
import io.armtrace.groundtruth.Corpus;
import io.armtrace.source.IniFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code encode --snapshot-out} puts in a snapshot, so that OpenCSD and armtrace decode it alike and a
 * decode of it has the program's symbols and lines; gzip-compressed inputs; the README's encode examples.
 */
class EncodeSnapshotTest {
    static final Path ROOT = Path.of(System.getProperty("user.dir"));

    record Dump(Path file, long address, long length) {
    }

    /** The raw (non-ELF) dumps of a snapshot's core device, as its cpu_0.ini lists them. */
    static List<Dump> rawDumps(Path snap) throws IOException {
        IniFile ini = IniFile.read(snap.resolve("cpu_0.ini"));
        List<Dump> out = new ArrayList<>();
        for (IniFile.Section s : ini.sections()) {
            if (!s.name().toLowerCase(java.util.Locale.ROOT).startsWith("dump")) {
                continue;
            }
            String file = s.get("file");
            if (file.endsWith(".elf")) {
                continue;
            }
            out.add(new Dump(snap.resolve(file), IniFile.parseNumber(s.get("address")),
                    IniFile.parseNumber(s.get("length"))));
        }
        return out;
    }

    /**
     * OpenCSD reads 4 bytes at the address of every instruction it decodes, 16-bit Thumb ones too
     * (trc_pkt_lister reports ADDR_NACC otherwise and loses the rest of the range: 53,585 instructions
     * instead of the 53,601 the a9-arm run executed). Every instruction the execution ran, the last of
     * each memory region included, has its 4 bytes in one of the snapshot's raw dumps.
     */
    @Test
    void everyExecutedInstructionHasFourBytesInARawDump(@TempDir Path tmp) throws Exception {
        for (String name : new String[] {"a9-arm", "a9-thumb", "m3"}) {
            Path elf = tmp.resolve(name + ".elf");
            Files.write(elf, Corpus.elfBytes(name));
            Path snap = tmp.resolve(name + "-snap");
            CliTest.Result r = CliTest.run("encode", "--protocol", name.equals("m3") ? "etm3" : "ptm", "--execution",
                    ROOT.resolve("core/src/test/resources/groundtruth/" + name + ".exec.gz").toString(),
                    "--image", elf.toString(), "--snapshot-out", snap.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            List<Dump> dumps = rawDumps(snap);
            assertThat(dumps).isNotEmpty();
            for (Dump d : dumps) {
                assertThat(Files.size(d.file())).isEqualTo(d.length());
            }
            long highest = 0;
            for (ExecutionEvent.Step s : Corpus.execution(name).steps()) {
                highest = Math.max(highest, s.address());
                boolean readable = dumps.stream().anyMatch(d -> s.address() >= d.address()
                        && s.address() + 4 <= d.address() + d.length());
                assertThat(readable).as("%s: 4 bytes at 0x%08x", name, s.address()).isTrue();
            }
            // the bytes past the program are zeros, and nothing else changed
            byte[] program = Corpus.elfBytes(name);
            io.armtrace.image.ProgramImage image = io.armtrace.image.ElfImage.load(program, name);
            for (Dump d : dumps) {
                byte[] bytes = Files.readAllBytes(d.file());
                for (int i = 0; i < bytes.length; i++) {
                    int expected = image.memory().u8(d.address() + i);
                    assertThat(bytes[i] & 0xFF).as("%s 0x%08x", name, d.address() + i).isEqualTo(expected < 0 ? 0 : expected);
                }
            }
        }
    }

    /**
     * The --image ELF file (here gzip-compressed) goes into the snapshot as an ELF dump: the decode of the
     * snapshot alone names functions and source lines exactly as a decode given the ELF file does.
     */
    @Test
    void theElfImageIsKeptSoTheSnapshotDecodesWithSymbolsAndLines(@TempDir Path tmp) throws Exception {
        Path elfGz = ROOT.resolve("examples/executions/a9-thumb.elf.gz");
        Path snap = tmp.resolve("snap");
        CliTest.Result r = CliTest.run("encode", "--protocol", "etm3", "--execution",
                ROOT.resolve("examples/executions/a9-thumb.exec.gz").toString(), "--image", elfGz.toString(),
                "--snapshot-out", snap.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path kept = snap.resolve("a9-thumb.elf");
        assertThat(kept).exists();
        assertThat(Files.readAllBytes(kept)).isEqualTo(Corpus.elfBytes("a9-thumb"));
        CliTest.Result alone = CliTest.run("decode", snap.toString(), "--insn", "--annotate");
        Path plain = tmp.resolve("a9-thumb.elf");
        Files.write(plain, Corpus.elfBytes("a9-thumb"));
        CliTest.Result withImage = CliTest.run("decode", snap.toString(), "--insn", "--annotate", "--image", plain.toString());
        assertThat(alone.exit()).as(alone.err()).isZero();
        assertThat(alone.out()).isEqualTo(withImage.out());
        // symbols and lines are there: the first instructions of the program
        // (0x60010000 has the local label vectors and the global _start: objdump names it _start)
        assertThat(alone.out()).contains("<_start>  ./tools/groundtruth/programs/cortex-a/start_a.S:10")
                .contains("<main");
        long annotated = alone.out().lines().filter(l -> l.startsWith("  0x") && l.matches(".*<[^>]+>  \\S+:\\d+$")).count();
        long listed = alone.out().lines().filter(l -> l.startsWith("  0x")).count();
        assertThat(listed).isEqualTo(55081);
        assertThat(annotated).as("instructions with function and line").isGreaterThan(listed * 9 / 10);
    }

    @Test
    void gzipCompressedImagesAndLogsAreRead(@TempDir Path tmp) throws Exception {
        // decode --image with an ELF file and its gzip form: the same listing
        Path elf = tmp.resolve("program.elf");
        Files.copy(ROOT.resolve("examples/etm3-a9-thumb/program.elf"), elf);
        Path gz = tmp.resolve("program.elf.gz");
        gzip(elf, gz);
        String trace = ROOT.resolve("examples/etm3-a9-thumb/trace_0.bin").toString();
        List<String> regs = List.of("--reg", "ETMCR=0x10001800", "--reg", "ETMIDR=0x410cf250", "--reg", "ETMCCER=0x004008f2");
        List<String> a = new ArrayList<>(List.of("decode", "--protocol", "etm3", "--trace", trace, "--insn", "--image"));
        List<String> b = new ArrayList<>(a);
        a.add(elf.toString());
        b.add(gz.toString());
        a.addAll(regs);
        b.addAll(regs);
        CliTest.Result plain = CliTest.run(a.toArray(String[]::new));
        CliTest.Result compressed = CliTest.run(b.toArray(String[]::new));
        assertThat(plain.exit()).as(plain.err()).isZero();
        assertThat(compressed.out()).isEqualTo(plain.out()).contains("<main");
        // a raw binary, compressed, at an address
        Path bin = tmp.resolve("flash.bin.gz");
        gzip(ROOT.resolve("examples/mtb-m0plus/flash_0x00000000.bin"), bin);
        CliTest.Result raw = CliTest.run("decode", ROOT.resolve("examples/mtb-m0plus").toString(), "--image", bin + "@0");
        assertThat(raw.exit()).as(raw.err()).isZero();
        assertThat(raw.out()).isEqualTo(CliTest.run("decode", ROOT.resolve("examples/mtb-m0plus").toString()).out());
        // a damaged one is a mistake with one sentence
        Path bad = tmp.resolve("bad.elf.gz");
        byte[] g = Files.readAllBytes(gz);
        Files.write(bad, java.util.Arrays.copyOf(g, g.length / 2));
        UserErrorsTest.assertMistake(CliTest.run("decode", "--protocol", "etm3", "--trace", trace, "--image", bad.toString()),
                bad.toString());
        // a QEMU log, plugin and register lines in one gzip file, as --execution and --cpu-log
        Path log = ROOT.resolve("examples/executions/m3-systick-it.qemu.log.gz");
        Path out = tmp.resolve("m3.bin");
        CliTest.Result enc = CliTest.run("encode", "--protocol", "etm3", "--execution", log.toString(), "--cpu-log",
                log.toString(), "--profile", "M", "--image", ROOT.resolve("examples/executions/m3.elf.gz").toString(),
                "-o", out.toString());
        assertThat(enc.exit()).as(enc.err()).isZero();
        assertThat(enc.err()).contains("44 instructions encoded");
    }

    private static void gzip(Path from, Path to) throws IOException {
        try (var o = new GZIPOutputStream(Files.newOutputStream(to))) {
            Files.copy(from, o);
        }
    }

    /**
     * Every {@code ./armtrace} command of the README's "Synthesizing trace" section (the ones written to run
     * from a clone as printed; lines that start with a bare {@code armtrace} show a form with files of
     * one's own) runs (its outputs put in a temporary directory), with the inputs shipped in examples/.
     */
    @Test
    void theReadmesEncodeExamplesRun(@TempDir Path tmp) throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String section = readme.substring(readme.indexOf("### Synthesizing trace"));
        section = section.substring(0, section.indexOf("\n## "));
        List<List<String>> commands = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : section.split("\n")) {
            if (!line.startsWith("    ") || (pending.isEmpty() && !line.strip().startsWith("./armtrace"))) {
                continue;
            }
            String text = line.strip();
            int comment = text.indexOf("  #");
            if (comment > 0) {
                text = text.substring(0, comment).strip();
            }
            pending.append(text.endsWith("\\") ? text.substring(0, text.length() - 1) : text).append(' ');
            if (!text.endsWith("\\")) {
                commands.add(List.of(pending.toString().trim().split("\\s+")));
                pending.setLength(0);
            }
        }
        assertThat(commands).hasSizeGreaterThanOrEqualTo(4);
        int encodes = 0;
        for (List<String> c : commands) {
            assertThat(c.get(0)).isEqualTo("./armtrace");
            List<String> args = new ArrayList<>(c.subList(1, c.size()));
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                boolean output = i > 0 && (args.get(i - 1).equals("--snapshot-out") || args.get(i - 1).equals("-o"));
                boolean decodeInput = i == 1 && args.get(0).equals("decode");
                if (output || decodeInput) {
                    args.set(i, tmp.resolve(a).toString());
                } else if (a.startsWith("examples/")) {
                    args.set(i, ROOT.resolve(a).toString());
                    assertThat(ROOT.resolve(a)).as(a).exists();
                }
            }
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertThat(r.exit()).as(c + ": " + r.err()).isZero();
            if (args.contains("--stats") || args.contains("--list-options") || args.get(0).equals("decode")) {
                assertThat(r.out()).as(c.toString()).isNotEmpty();
            } else {
                assertThat(r.err()).as(c.toString()).containsPattern(" (instructions|events) encoded as ");
            }
            if (args.get(0).equals("decode")) {
                assertThat(r.out()).as(c.toString()).contains("<_start>").contains("start_a.S:");
            }
            encodes += args.get(0).equals("encode") ? 1 : 0;
        }
        assertThat(encodes).isGreaterThanOrEqualTo(3);
    }
}
