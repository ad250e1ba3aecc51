package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Arbitrary bytes as program images: ELF files (32- and 64-bit, executables and relocatable files placed
 * as Linux places a kernel module), DWARF line tables and raw memory dumps. Each either loads or says what is wrong with an
 * {@link ImageException}; what loads can be read without exceptions. {@code mvn test} replays the stored
 * inputs (regression mode); {@code JAZZER_FUZZ=1} fuzzes.
 */
class ImageFuzzTest {

    @FuzzTest(maxDuration = "20s")
    void elfLoadsOrSaysWhy(byte[] data) {
        ProgramImage image;
        try {
            image = ElfImage.load(data, "fuzz.elf");
        } catch (ImageException e) {
            assertThat(e.getMessage()).startsWith("fuzz.elf");
            return;
        }
        readEverywhere(image.memory());
        for (Symbol s : image.symbols().symbols()) {
            image.symbols().lookup(s.address());
            image.symbols().lookup(s.address() + 1);
            image.lines().lookup(s.address());
        }
        image.lines().problem();
        ElfImage.Description d = ElfImage.describe(java.nio.ByteBuffer.wrap(data), "fuzz.elf");
        d.buildIdHex();
        if (d.isRelocatable()) {
            try {
                ProgramImage placed = ElfImage.loadRelocatable(java.nio.ByteBuffer.wrap(data), "fuzz.elf",
                        ElfImage.linuxModuleLayout(java.nio.ByteBuffer.wrap(data), "fuzz.elf", 0xffffff8000010000L));
                readEverywhere(placed.memory());
                placed.lines().rows();
            } catch (ImageException e) {
                assertThat(e.getMessage()).startsWith("fuzz.elf");
            }
        }
    }

    @FuzzTest(maxDuration = "20s")
    void lineTableReadsOrSaysWhy(byte[] data) {
        // the input is the .debug_line section and also its string sections (DWARF 5 names files by offset)
        try {
            DwarfLineReader.read(data, data, data, data.length % 2 == 0 ? 4 : 8, "fuzz");
        } catch (ImageException e) {
            assertThat(e.getMessage()).startsWith("fuzz");
        }
        LineTable t = LineTable.of(data, null, data, "fuzz");
        for (LineTable.Row r : t.rows()) {
            t.lookup(r.address());
        }
        t.lookup(0);
        t.problem();
    }

    @FuzzTest(maxDuration = "20s")
    void rawImageLoadsOrSaysWhy(byte[] data) throws IOException {
        // the first 12 bytes: address, offset and length (as signed values, to reach the checks); the rest is the dump
        ByteBuffer b = ByteBuffer.wrap(data);
        long address = b.remaining() >= 4 ? b.getInt() & 0xFFFFFFFFL : 0;
        int offset = b.remaining() >= 4 ? b.getInt() : 0;
        int length = b.remaining() >= 4 ? b.getInt() : -1;
        byte[] dump = java.util.Arrays.copyOfRange(data, b.position(), data.length);
        Path file = Files.createTempFile("fuzz", ".bin");
        try {
            Files.write(file, dump);
            MemoryImage m = new MemoryImage();
            try {
                RawImage.load(m, file, address, offset, length);
            } catch (ImageException e) {
                assertThat(offset < 0 || offset > dump.length).isTrue();
                return;
            }
            long expected = length < 0 ? dump.length - offset : Math.min(length, dump.length - offset);
            long size = m.regions().stream().mapToLong(MemoryImage.Region::size).sum();
            assertThat(size).isEqualTo(expected);
            for (int i = 0; i < Math.min(expected, 64); i++) {
                assertThat(m.u8(address + i)).isEqualTo(dump[offset + i] & 0xFF);
            }
            readEverywhere(m);
            try {
                RawImage.parseArgument(file + "@" + new String(dump, 0, Math.min(dump.length, 12),
                        java.nio.charset.StandardCharsets.ISO_8859_1), ProgramImage.of(new MemoryImage()));
            } catch (ImageException e) {
                assertThat(e.getMessage()).isNotEmpty();
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Arbitrary bytes as .debug_info and .debug_abbrev (the first two bytes say where the abbreviations
     * start): the compilation directories are read or the reader says why, without reading outside them.
     */
    @FuzzTest(maxDuration = "20s")
    void compilationUnitsReadOrSayWhy(byte[] data) {
        int split = data.length < 2 ? 0 : Math.min(data.length - 2, ((data[0] & 0xFF) << 8) | (data[1] & 0xFF));
        byte[] info = java.util.Arrays.copyOfRange(data, Math.min(2, data.length), Math.min(2, data.length) + split);
        byte[] abbrev = java.util.Arrays.copyOfRange(data, Math.min(2, data.length) + split, data.length);
        try {
            DwarfUnits.read(info, abbrev, abbrev, info, "fuzz");
        } catch (ImageException e) {
            assertThat(e.getMessage()).startsWith("fuzz");
        }
    }

    /**
     * Arbitrary bytes as a gzip-compressed image: as the file itself (mostly damaged gzip data) and
     * compressed, so that the decompressed bytes reach the ELF reader. Loads or says why, naming the file.
     */
    @FuzzTest(maxDuration = "20s")
    void compressedImageLoadsOrSaysWhy(byte[] data) throws IOException {
        Path dir = Files.createTempDirectory("fuzz");
        try {
            Path asIs = dir.resolve("as-is.elf.gz");
            Files.write(asIs, data);
            Path compressed = dir.resolve("compressed.elf.gz");
            try (var o = new java.util.zip.GZIPOutputStream(Files.newOutputStream(compressed))) {
                o.write(data);
            }
            for (Path file : new Path[] {asIs, compressed}) {
                for (String arg : new String[] {file.toString(), file + "@0x8000"}) {
                    try {
                        ProgramImage image = RawImage.parseArgument(arg, ProgramImage.of(new MemoryImage()));
                        readEverywhere(image.memory());
                    } catch (ImageException e) {
                        assertThat(e.getMessage()).startsWith(file.toString());
                    }
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static void readEverywhere(MemoryImage m) {
        byte[] buf = new byte[16];
        for (MemoryImage.Region r : m.regions()) {
            for (long a : new long[] {r.start() - 1, r.start(), r.end() - 3, r.end() - 1, r.end()}) {
                m.u8(a);
                m.u16(a);
                m.u32(a);
                m.read(a, buf, 0, buf.length);
                m.contains(a, 4);
            }
        }
    }
}
