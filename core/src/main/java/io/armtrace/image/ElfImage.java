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
    private ElfImage() {
    }

    public static boolean looksLikeElf(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x7F && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        } catch (IOException e) {
            return false;
        }
    }

    public static ProgramImage load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ImageException(file + ": cannot read the ELF file (" + e.getMessage() + ").", e);
        }
        return load(bytes, file.toString());
    }

    public static ProgramImage load(byte[] bytes, String name) {
        ElfFile elf;
        try {
            elf = ElfFile.from(bytes);
        } catch (RuntimeException e) {
            throw new ImageException(name + ": not a readable ELF file (" + e.getMessage() + ").", e);
        }
        if (!elf.is32Bits()) {
            throw new ImageException(name + ": is a 64-bit ELF file; armtrace decodes AArch32 programs.");
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
            throw new ImageException(name + ": damaged ELF file (" + e.getMessage() + ").", e);
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
        return LineTable.of(line.getData(), lineStr == null ? null : lineStr.getData(),
                str == null ? null : str.getData(), name);
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
                symbols.add(new Symbol(n, value & ~1L, s.st_size, thumb, t));
            }
        }
        return SymbolTable.of(symbols, mappings);
    }
}
