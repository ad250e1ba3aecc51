package io.armtrace.image;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The structure of an ELF file, 32- or 64-bit, either byte order: its header, program headers, section
 * headers, symbols, notes and relocations, read from a buffer that holds the whole file (a memory-mapped
 * file, so that a large one costs address space rather than heap).
 *
 * <p>The file is untrusted input. Every table is checked to lie inside the file before it is read, every
 * count is bounded by the bytes it claims to describe, and names are cut at {@link #MAX_NAME} bytes with
 * their total bounded by the string table's size: a damaged or hostile file gives an
 * {@link ImageException} naming the file, never an allocation larger than the file allows.
 *
 * <p>References: the System V gABI, "ELF Header", "Sections", "Symbol Table", "Relocation", "Program
 * Header", "Note Section"; ELF for the Arm Architecture (IHI 0044) and ELF for the Arm 64-bit
 * Architecture (IHI 0056) for the machine numbers, mapping symbols and relocation codes.
 */
final class ElfFile {
    static final int ET_REL = 1;
    static final int ET_EXEC = 2;
    static final int ET_DYN = 3;
    static final int PT_LOAD = 1;
    static final int SHT_PROGBITS = 1;
    static final int SHT_SYMTAB = 2;
    static final int SHT_STRTAB = 3;
    static final int SHT_RELA = 4;
    static final int SHT_NOTE = 7;
    static final int SHT_NOBITS = 8;
    static final int SHT_REL = 9;
    static final int SHT_DYNSYM = 11;
    static final long SHF_WRITE = 1;
    static final long SHF_ALLOC = 2;
    static final long SHF_EXECINSTR = 4;
    static final int SHN_UNDEF = 0;
    static final int SHN_LORESERVE = 0xFF00;
    static final int SHN_ABS = 0xFFF1;
    static final int SHN_XINDEX = 0xFFFF;
    static final int STT_NOTYPE = 0;
    static final int STT_OBJECT = 1;
    static final int STT_FUNC = 2;
    static final int STT_SECTION = 3;
    /** NT_GNU_BUILD_ID: the descriptor of a note named "GNU" is the build ID (binutils' ld --build-id). */
    static final int NT_GNU_BUILD_ID = 3;
    /** Longest symbol or section name kept; longer ones are cut (C++ names rarely pass 1 KiB). */
    static final int MAX_NAME = 4096;

    /** A program header (gABI "Program Header"). */
    record ProgramHeader(int type, int flags, long offset, long vaddr, long paddr, long filesz, long memsz, long align) {
    }

    /** A section header (gABI "Sections"), with its name resolved. */
    record SectionHeader(int index, String name, int type, long flags, long addr, long offset, long size,
                         int link, int info, long addralign, long entsize) {
        boolean hasFileContents() {
            return type != SHT_NOBITS && type != 0;
        }
    }

    /** A symbol table entry (gABI "Symbol Table"); {@code section} is st_shndx (extended indices resolved). */
    record Symbol(String name, long value, long size, int type, int bind, int section) {
    }

    /** A relocation (gABI "Relocation"); {@code addend} is 0 for SHT_REL, whose addend is in the place. */
    record Relocation(long offset, int type, int symbol, long addend) {
    }

    final String name;
    final ByteBuffer file;
    final boolean is64;
    final ByteOrder order;
    final int type;
    final int machine;
    final long entry;
    final List<ProgramHeader> programHeaders;
    final List<SectionHeader> sections;

    private ElfFile(String name, ByteBuffer file, boolean is64, ByteOrder order, int type, int machine, long entry,
                    List<ProgramHeader> programHeaders, List<SectionHeader> sections) {
        this.name = name;
        this.file = file;
        this.is64 = is64;
        this.order = order;
        this.type = type;
        this.machine = machine;
        this.entry = entry;
        this.programHeaders = programHeaders;
        this.sections = sections;
    }

    /** True when {@code b} starts with the ELF magic number. */
    static boolean hasMagic(ByteBuffer b) {
        return b.limit() >= 4 && b.get(0) == 0x7F && b.get(1) == 'E' && b.get(2) == 'L' && b.get(3) == 'F';
    }

    /** Reads the headers of the ELF file in {@code bytes} (position 0 to limit). */
    static ElfFile read(ByteBuffer bytes, String name) {
        ByteBuffer b = bytes.duplicate();
        b.position(0);
        if (b.limit() < 52 || !hasMagic(b)) {
            throw new ImageException(name + ": not an ELF file (no ELF header).");
        }
        int elfClass = b.get(4);
        int data = b.get(5);
        if ((elfClass != 1 && elfClass != 2) || (data != 1 && data != 2)) {
            throw new ImageException(name + ": not a readable ELF file (its header is damaged or cut short).");
        }
        boolean is64 = elfClass == 2;
        ByteOrder order = data == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        b.order(order);
        if (is64 && b.limit() < 64) {
            throw new ImageException(name + ": not a readable ELF file (its header is damaged or cut short).");
        }
        int type = b.getShort(16) & 0xFFFF;
        int machine = b.getShort(18) & 0xFFFF;
        long entry = is64 ? b.getLong(24) : b.getInt(24) & 0xFFFFFFFFL;
        long phoff = is64 ? b.getLong(32) : b.getInt(28) & 0xFFFFFFFFL;
        long shoff = is64 ? b.getLong(40) : b.getInt(32) & 0xFFFFFFFFL;
        int h = is64 ? 52 : 40; // e_ehsize
        int phentsize = b.getShort(h + 2) & 0xFFFF;
        int phnum = b.getShort(h + 4) & 0xFFFF;
        int shentsize = b.getShort(h + 6) & 0xFFFF;
        int shnum = b.getShort(h + 8) & 0xFFFF;
        int shstrndx = b.getShort(h + 10) & 0xFFFF;
        long size = b.limit();
        int minPh = is64 ? 56 : 32;
        int minSh = is64 ? 64 : 40;
        if (phnum > 0 && (phentsize < minPh || !inside(phoff, (long) phnum * phentsize, size))) {
            throw new ImageException(name + ": damaged ELF file (its program headers lie outside the file).");
        }
        if (shoff != 0 && shentsize >= minSh && inside(shoff, shentsize, size)) {
            // gABI "Sections": a section count or string table index too large for the header lives in
            // section 0 (sh_size and sh_link)
            if (shnum == 0) {
                long n = is64 ? b.getLong((int) shoff + 32) : b.getInt((int) shoff + 20) & 0xFFFFFFFFL;
                shnum = n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
            }
            if (shstrndx == SHN_XINDEX) {
                shstrndx = b.getInt((int) shoff + (is64 ? 40 : 24));
            }
        }
        if (shnum > 0 && (shentsize < minSh || !inside(shoff, (long) shnum * shentsize, size))) {
            throw new ImageException(name + ": damaged ELF file (its section headers lie outside the file).");
        }
        List<ProgramHeader> ph = new ArrayList<>(phnum);
        for (int i = 0; i < phnum; i++) {
            int at = (int) (phoff + (long) i * phentsize);
            if (is64) {
                ph.add(new ProgramHeader(b.getInt(at), b.getInt(at + 4), b.getLong(at + 8), b.getLong(at + 16),
                        b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40), b.getLong(at + 48)));
            } else {
                ph.add(new ProgramHeader(b.getInt(at), b.getInt(at + 24), u32(b, at + 4), u32(b, at + 8),
                        u32(b, at + 12), u32(b, at + 16), u32(b, at + 20), u32(b, at + 28)));
            }
        }
        long[][] raw = new long[shnum][];
        for (int i = 0; i < shnum; i++) {
            int at = (int) (shoff + (long) i * shentsize);
            long[] s = is64
                    ? new long[] {u32(b, at), u32(b, at + 4), b.getLong(at + 8), b.getLong(at + 16), b.getLong(at + 24),
                        b.getLong(at + 32), u32(b, at + 40), u32(b, at + 44), b.getLong(at + 48), b.getLong(at + 56)}
                    : new long[] {u32(b, at), u32(b, at + 4), u32(b, at + 8), u32(b, at + 12), u32(b, at + 16),
                        u32(b, at + 20), u32(b, at + 24), u32(b, at + 28), u32(b, at + 32), u32(b, at + 36)};
            int sectionType = (int) s[1];
            if (sectionType != SHT_NOBITS && sectionType != 0 && !inside(s[4], s[5], size)) {
                throw new ImageException(name + ": damaged ELF file (section " + i + " lies outside the file).");
            }
            raw[i] = s;
        }
        // section names: from the section header string table, when it is one
        long[] strtab = shstrndx > 0 && shstrndx < shnum && raw[shstrndx][1] == SHT_STRTAB ? raw[shstrndx] : null;
        Budget budget = new Budget(strtab == null ? 0 : strtab[5]);
        List<SectionHeader> sh = new ArrayList<>(shnum);
        for (int i = 0; i < shnum; i++) {
            long[] s = raw[i];
            String n = strtab == null ? "" : string(b, strtab[4], strtab[5], s[0], budget, name);
            sh.add(new SectionHeader(i, n, (int) s[1], s[2], s[3], s[4], s[5], (int) s[6], (int) s[7], s[8], s[9]));
        }
        return new ElfFile(name, b, is64, order, type, machine, entry, Collections.unmodifiableList(ph),
                Collections.unmodifiableList(sh));
    }

    /** The file bytes of a section, as a view in the file's byte order (empty for SHT_NOBITS). */
    ByteBuffer contents(SectionHeader s) {
        if (!s.hasFileContents() || s.size() == 0) {
            return ByteBuffer.allocate(0).order(order);
        }
        return file.duplicate().position((int) s.offset()).limit((int) (s.offset() + s.size())).slice().order(order);
    }

    /** The file bytes of a segment's p_filesz, checked to lie inside the file. */
    ByteBuffer contents(ProgramHeader p, int index) {
        if (!inside(p.offset(), p.filesz(), file.limit())) {
            throw new ImageException(name + ": load segment " + index + " lies outside the file.");
        }
        return file.duplicate().position((int) p.offset()).limit((int) (p.offset() + p.filesz())).slice().order(order);
    }

    /** The first section with this name, or null. */
    SectionHeader section(String sectionName) {
        for (SectionHeader s : sections) {
            if (s.name().equals(sectionName)) {
                return s;
            }
        }
        return null;
    }

    /** The section at {@code index}, or null when the index names none (SHN_UNDEF, SHN_ABS, ...). */
    SectionHeader sectionAt(int index) {
        return index > SHN_UNDEF && index < sections.size() && (index < SHN_LORESERVE || index > 0xFFFF) ? sections.get(index) : null;
    }

    /** The symbols of the static symbol table (.symtab), or of the dynamic one (.dynsym) when there is none. */
    List<Symbol> symbols() {
        SectionHeader tab = null;
        for (SectionHeader s : sections) {
            if (s.type() == SHT_SYMTAB) {
                tab = s;
                break;
            }
        }
        if (tab == null) {
            for (SectionHeader s : sections) {
                if (s.type() == SHT_DYNSYM) {
                    tab = s;
                    break;
                }
            }
        }
        return tab == null ? List.of() : symbols(tab);
    }

    /** The entries of one symbol table section, entry 0 (the undefined symbol) included. */
    List<Symbol> symbols(SectionHeader tab) {
        int entsize = is64 ? 24 : 16;
        if (tab.entsize() != 0 && tab.entsize() < entsize) {
            throw new ImageException(name + ": damaged ELF file (the symbol table's entries are too small).");
        }
        int stride = tab.entsize() == 0 ? entsize : (int) Math.min(tab.entsize(), Integer.MAX_VALUE);
        SectionHeader strings = tab.link() > 0 && tab.link() < sections.size() ? sections.get(tab.link()) : null;
        if (strings != null && strings.type() != SHT_STRTAB) {
            strings = null;
        }
        // SHT_SYMTAB_SHNDX (gABI): section indices of symbols whose st_shndx is SHN_XINDEX
        ByteBuffer xindex = null;
        for (SectionHeader s : sections) {
            if (s.type() == 18 && s.link() == tab.index()) {
                xindex = contents(s);
            }
        }
        long count = tab.size() / stride;
        Budget budget = new Budget(strings == null ? 0 : strings.size());
        List<Symbol> out = new ArrayList<>((int) Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            int at = (int) (tab.offset() + (long) i * stride);
            long nameOffset = u32(file, at);
            long value;
            long size;
            int info;
            int shndx;
            if (is64) {
                info = file.get(at + 4) & 0xFF;
                shndx = file.getShort(at + 6) & 0xFFFF;
                value = file.getLong(at + 8);
                size = file.getLong(at + 16);
            } else {
                value = u32(file, at + 4);
                size = u32(file, at + 8);
                info = file.get(at + 12) & 0xFF;
                shndx = file.getShort(at + 14) & 0xFFFF;
            }
            if (shndx == SHN_XINDEX && xindex != null && 4L * i + 4 <= xindex.limit()) {
                shndx = xindex.getInt(4 * i);
            }
            String n = strings == null ? "" : string(file, strings.offset(), strings.size(), nameOffset, budget, name);
            out.add(new Symbol(n, value, size, info & 0xF, info >>> 4, shndx));
        }
        return out;
    }

    /** The relocations of a SHT_REL or SHT_RELA section. */
    List<Relocation> relocations(SectionHeader s) {
        boolean rela = s.type() == SHT_RELA;
        int entsize = (is64 ? 8 : 4) * (rela ? 3 : 2);
        int stride = s.entsize() >= entsize && s.entsize() <= Integer.MAX_VALUE ? (int) s.entsize() : entsize;
        long count = s.size() / stride;
        List<Relocation> out = new ArrayList<>((int) Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
            int at = (int) (s.offset() + (long) i * stride);
            if (is64) {
                long info = file.getLong(at + 8);
                out.add(new Relocation(file.getLong(at), (int) info, (int) (info >>> 32), rela ? file.getLong(at + 16) : 0));
            } else {
                long info = u32(file, at + 4);
                out.add(new Relocation(u32(file, at), (int) (info & 0xFF), (int) (info >>> 8), rela ? file.getInt(at + 8) : 0));
            }
        }
        return out;
    }

    /**
     * The build ID: the descriptor of the first NT_GNU_BUILD_ID note named "GNU", from the note
     * sections or, in a file without section headers, the PT_NOTE segments. Null if there is none.
     */
    byte[] buildId() {
        for (SectionHeader s : sections) {
            if (s.type() == SHT_NOTE) {
                byte[] id = buildId(contents(s));
                if (id != null) {
                    return id;
                }
            }
        }
        for (int i = 0; i < programHeaders.size(); i++) {
            ProgramHeader p = programHeaders.get(i);
            if (p.type() == 4 /* PT_NOTE */ && inside(p.offset(), p.filesz(), file.limit())) {
                byte[] id = buildId(contents(p, i));
                if (id != null) {
                    return id;
                }
            }
        }
        return null;
    }

    /** Walks the notes of one note section or segment (gABI "Note Section": namesz, descsz, type, 4-byte padding). */
    private static byte[] buildId(ByteBuffer notes) {
        int at = 0;
        while (at + 12 <= notes.limit()) {
            long namesz = u32(notes, at);
            long descsz = u32(notes, at + 4);
            int type = notes.getInt(at + 8);
            long nameAt = at + 12L;
            long descAt = nameAt + (namesz + 3 & ~3L);
            long next = descAt + (descsz + 3 & ~3L);
            if (descAt + descsz > notes.limit()) {
                return null;
            }
            if (type == NT_GNU_BUILD_ID && namesz == 4 && notes.get((int) nameAt) == 'G' && notes.get((int) nameAt + 1) == 'N'
                    && notes.get((int) nameAt + 2) == 'U' && notes.get((int) nameAt + 3) == 0 && descsz > 0 && descsz <= 64) {
                byte[] id = new byte[(int) descsz];
                notes.get((int) descAt, id);
                return id;
            }
            if (next > Integer.MAX_VALUE) {
                return null;
            }
            at = (int) next;
        }
        return null;
    }

    /** How many name bytes a table may still produce: at most four times its size, plus 64 KiB. */
    private static final class Budget {
        long left;

        Budget(long tableSize) {
            left = 4 * tableSize + 65536;
        }
    }

    /** The NUL-terminated string at {@code offset} of the string table at {@code tableOffset}. */
    private static String string(ByteBuffer b, long tableOffset, long tableSize, long offset, Budget budget, String name) {
        if (offset < 0 || offset >= tableSize) {
            return "";
        }
        int start = (int) (tableOffset + offset);
        int limit = (int) Math.min(tableOffset + tableSize, (long) start + MAX_NAME);
        int end = start;
        while (end < limit && b.get(end) != 0) {
            end++;
        }
        int n = end - start;
        budget.left -= n;
        if (budget.left < 0) {
            throw new ImageException(name + ": damaged ELF file (its names overlap far more than a linker writes them).");
        }
        if (n == 0) {
            return "";
        }
        byte[] s = new byte[n];
        b.get(start, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    static boolean inside(long offset, long length, long size) {
        return offset >= 0 && length >= 0 && offset <= size && length <= size - offset;
    }

    private static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & 0xFFFFFFFFL;
    }
}
