package io.armtrace.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSection;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import net.fornwall.jelf.ElfSymbolTableSection;

/**
 * Loads an ELF executable: its PT_LOAD segments (file bytes at their virtual address, the rest of
 * memsz as zeros is not added: it is data, never code) and its symbol table, including the ARM ELF
 * mapping symbols $a/$t/$d that say where A32 code, T32 code and data lie.
 */
public final class ElfImage {
    /** e_machine of 32-bit Arm (ELF for the Arm Architecture, IHI 0044, 5.2). */
    static final int EM_ARM = 40;

    private ElfImage() {
    }

    /** True if {@code file} starts with the ELF magic, itself or once decompressed (a gzip-compressed ELF file). */
    public static boolean looksLikeElf(Path file) {
        byte[] magic;
        if (Gzip.isGzip(file)) {
            magic = Gzip.head(file, 4);
        } else {
            try (var in = Files.newInputStream(file)) {
                magic = in.readNBytes(4);
            } catch (IOException e) {
                return false;
            }
        }
        return magic.length == 4 && magic[0] == 0x7F && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
    }

    /** Loads an ELF file, or a gzip-compressed one ({@code prog.elf.gz}). */
    public static ProgramImage load(Path file) {
        return load(bytes(file), file.toString());
    }

    /** The bytes of an ELF file as {@link #load(Path)} reads them: decompressed when gzip-compressed. */
    public static byte[] bytes(Path file) {
        if (Gzip.isGzip(file)) {
            return Gzip.read(file);
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ImageException(file + ": cannot read the ELF file (" + e.getMessage() + ").", e);
        }
    }

    public static ProgramImage load(byte[] bytes, String name) {
        checkTablesLieInTheFile(bytes, name);
        ElfFile elf;
        try {
            elf = ElfFile.from(bytes);
        } catch (RuntimeException e) {
            // the library's own text ("Index 32767 out of bounds") tells the user nothing
            throw new ImageException(name + ": not a readable ELF file (its header is damaged or cut short).", e);
        }
        if (!elf.is32Bits()) {
            throw new ImageException(name + ": is a 64-bit ELF file; armtrace decodes AArch32 programs.");
        }
        if (elf.e_machine != EM_ARM) {
            throw new ImageException(name + ": is an ELF file for another processor (e_machine " + (elf.e_machine & 0xFFFF)
                    + ", not 40 for Arm); armtrace decodes Arm programs.");
        }
        MemoryImage memory = new MemoryImage();
        try {
            for (int i = 0; i < elf.e_phnum; i++) {
                ElfSegment ph = elf.getProgramHeader(i);
                if (ph.p_type != ElfSegment.PT_LOAD || ph.p_filesz == 0) {
                    continue;
                }
                if (ph.p_offset < 0 || ph.p_offset + ph.p_filesz > bytes.length) {
                    throw new ImageException(name + ": load segment " + i + " lies outside the file.");
                }
                byte[] data = Arrays.copyOfRange(bytes, (int) ph.p_offset, (int) (ph.p_offset + ph.p_filesz));
                memory.add(ph.p_vaddr & 0xFFFFFFFFL, data, name + " segment " + i);
            }
            if (memory.isEmpty()) {
                // Relocatable objects have no segments: fall back to executable sections.
                for (int i = 0; i < elf.e_shnum; i++) {
                    ElfSection s = elf.getSection(i);
                    if (s.header.sh_type == 1 /* PROGBITS */ && (s.header.sh_flags & 4) != 0) {
                        memory.add(s.header.sh_addr & 0xFFFFFFFFL, s.getData(), name + " " + s.header.getName());
                    }
                }
            }
            return new ProgramImage(memory, symbols(elf), lines(elf, name));
        } catch (RuntimeException e) {
            if (e instanceof ImageException ie) {
                throw ie;
            }
            throw new ImageException(name + ": damaged ELF file (a header, section or symbol lies outside the file).", e);
        }
    }

    /** The source lines of the DWARF {@code .debug_line} section, read when first asked for. */
    private static LineTable lines(ElfFile elf, String name) {
        ElfSection line = elf.firstSectionByName(".debug_line");
        if (line == null || line.header.sh_type == 8 /* NOBITS */) {
            return LineTable.EMPTY;
        }
        ElfSection lineStr = elf.firstSectionByName(".debug_line_str");
        ElfSection str = elf.firstSectionByName(".debug_str");
        ElfSection info = elf.firstSectionByName(".debug_info");
        ElfSection abbrev = elf.firstSectionByName(".debug_abbrev");
        return LineTable.of(line.getData(), lineStr == null ? null : lineStr.getData(),
                str == null ? null : str.getData(), data(info), data(abbrev), name);
    }

    private static byte[] data(ElfSection s) {
        return s == null || s.header.sh_type == 8 /* NOBITS */ ? null : s.getData();
    }

    /** True if section {@code index} occupies memory (SHF_ALLOC); special indices (ABS, COMMON) count as not. */
    private static boolean allocated(ElfFile elf, int index) {
        int i = index & 0xFFFF;
        if (i == 0 || i >= 0xFF00 || i >= elf.e_shnum) {
            return false;
        }
        return (elf.getSection(i).header.sh_flags & 2) != 0;
    }

    private static SymbolTable symbols(ElfFile elf) {
        ElfSymbolTableSection tab = elf.getSymbolTableSection();
        if (tab == null) {
            return SymbolTable.EMPTY;
        }
        List<Symbol> symbols = new ArrayList<>();
        List<long[]> mappings = new ArrayList<>();
        for (ElfSymbol s : tab.symbols) {
            String n = s.getName();
            if (n == null || n.isEmpty() || s.st_shndx == 0) {
                continue;
            }
            long value = s.st_value & 0xFFFFFFFFL;
            if (n.charAt(0) == '$' && n.length() >= 2) {
                if (!allocated(elf, s.st_shndx)) {
                    continue; // mapping symbols of debug sections say nothing about program memory
                }
                char k = n.charAt(1);
                if ((k == 'a' || k == 't' || k == 'd') && (n.length() == 2 || n.charAt(2) == '.')) {
                    mappings.add(new long[] {value, k});
                }
                continue;
            }
            int type = s.getType();
            if (type == ElfSymbol.STT_FUNC || type == ElfSymbol.STT_NOTYPE || type == ElfSymbol.STT_OBJECT) {
                boolean thumb = type == ElfSymbol.STT_FUNC && (value & 1) != 0;
                Symbol.Type t = type == ElfSymbol.STT_FUNC ? Symbol.Type.FUNCTION
                        : type == ElfSymbol.STT_OBJECT ? Symbol.Type.OBJECT : Symbol.Type.NONE;
                int bind = s.getBinding();
                Symbol.Binding b = bind == ElfSymbol.BINDING_LOCAL ? Symbol.Binding.LOCAL
                        : bind == ElfSymbol.BINDING_WEAK ? Symbol.Binding.WEAK : Symbol.Binding.GLOBAL;
                symbols.add(new Symbol(n, value & ~1L, s.st_size, thumb, t, b, s.st_shndx & 0xFFFF));
            }
        }
        // the allocated sections: which one holds an address, for the symbol choice of SymbolTable.nameFor
        List<long[]> sections = new ArrayList<>();
        for (int i = 1; i < elf.e_shnum; i++) {
            ElfSection sec = elf.getSection(i);
            if ((sec.header.sh_flags & 2) != 0 && sec.header.sh_size > 0) {
                long start = sec.header.sh_addr & 0xFFFFFFFFL;
                sections.add(new long[] {start, start + (sec.header.sh_size & 0xFFFFFFFFL), i});
            }
        }
        return SymbolTable.of(symbols, mappings, sections);
    }

    /**
     * Checks, before jelf sees the file, that the ELF32 header's program and section header tables and
     * every section with file contents lie inside the file: jelf trusts these sizes and allocates by
     * them, so a damaged header could otherwise take the whole heap (ELF gABI, "ELF Header", "Sections").
     * 64-bit files pass through to the class check after parsing.
     */
    static void checkTablesLieInTheFile(byte[] b, String name) {
        if (b.length < 52 || b[0] != 0x7F || b[1] != 'E' || b[2] != 'L' || b[3] != 'F') {
            throw new ImageException(name + ": not an ELF file (no ELF header).");
        }
        if (b[4] != 1) {
            return; // not ELFCLASS32: jelf reads the class and the caller refuses it
        }
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(b)
                .order(b[5] == 2 ? java.nio.ByteOrder.BIG_ENDIAN : java.nio.ByteOrder.LITTLE_ENDIAN);
        long phoff = h.getInt(28) & 0xFFFFFFFFL;
        long shoff = h.getInt(32) & 0xFFFFFFFFL;
        int phentsize = h.getShort(42) & 0xFFFF;
        int phnum = h.getShort(44) & 0xFFFF;
        int shentsize = h.getShort(46) & 0xFFFF;
        int shnum = h.getShort(48) & 0xFFFF;
        if (phnum > 0 && (phentsize < 32 || phoff + (long) phnum * phentsize > b.length)) {
            throw new ImageException(name + ": damaged ELF file (its program headers lie outside the file).");
        }
        if (shnum > 0 && (shentsize < 40 || shoff + (long) shnum * shentsize > b.length)) {
            throw new ImageException(name + ": damaged ELF file (its section headers lie outside the file).");
        }
        for (int i = 0; i < shnum; i++) {
            int at = (int) (shoff + (long) i * shentsize);
            int type = h.getInt(at + 4);
            long offset = h.getInt(at + 16) & 0xFFFFFFFFL;
            long size = h.getInt(at + 20) & 0xFFFFFFFFL;
            if (type != 8 /* SHT_NOBITS */ && type != 0 /* SHT_NULL */ && offset + size > b.length) {
                throw new ImageException(name + ": damaged ELF file (section " + i + " lies outside the file).");
            }
            // hash tables and notes give their own sizes (nbucket, nchain; GNU: nbuckets, bloom size; namesz,
            // descsz) and jelf allocates by them: they must fit in the section (ELF gABI "Hash Table")
            long need = -1;
            if (type == 5 /* SHT_HASH */) {
                need = size < 8 ? Long.MAX_VALUE
                        : 8 + 4 * ((h.getInt((int) offset) & 0xFFFFFFFFL) + (h.getInt((int) offset + 4) & 0xFFFFFFFFL));
            } else if (type == 0x6FFFFFF6 /* SHT_GNU_HASH */) {
                need = size < 16 ? Long.MAX_VALUE
                        : 16 + 4 * ((h.getInt((int) offset) & 0xFFFFFFFFL) + (h.getInt((int) offset + 8) & 0xFFFFFFFFL));
            } else if (type == 7 /* SHT_NOTE */) {
                // a note gives the sizes of its name and descriptor (ELF gABI "Note Section"). jelf reads a
                // note header even from a section too short to hold one (an empty .note): there what it
                // reads, and the sizes it then allocates, must at least lie within the file
                if (offset + 12 > b.length) {
                    need = size < 12 ? Long.MAX_VALUE : need;
                } else {
                    long note = 12 + ((h.getInt((int) offset) & 0xFFFFFFFFL) + 3 & ~3L)
                            + ((h.getInt((int) offset + 4) & 0xFFFFFFFFL) + 3 & ~3L);
                    need = size >= 12 ? note : offset + note > b.length ? Long.MAX_VALUE : -1;
                }
            }
            if (need > size) {
                throw new ImageException(name + ": damaged ELF file (the table in section " + i
                        + " is larger than the section).");
            }
        }
    }
}
