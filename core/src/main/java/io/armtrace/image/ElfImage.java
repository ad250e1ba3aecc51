package io.armtrace.image;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Loads an ELF file of 32-bit Arm (e_machine 40) or AArch64 (e_machine 183): its PT_LOAD segments (file
 * bytes at their virtual address; the rest of memsz, zeros, is data and never code, so it is not added),
 * its symbol table (.symtab, or .dynsym when the file is stripped) with the mapping symbols that say
 * where code and data lie ($a, $t, $d in AArch32 code, IHI 0044 5.5.5; $x, $d in A64 code, IHI 0056
 * 5.7.2), its DWARF line tables, and describes its program headers and build ID.
 *
 * <p>Relocatable files (ET_REL: objects and Linux kernel modules, {@code .ko}) have no segments: their
 * sections are placed at the addresses a caller gives ({@link #loadRelocatable}), for a kernel module
 * laid out as the Linux module loader lays out a module from the start address of its mapping
 * ({@link #linuxModuleLayout}). Of the relocations only these are applied, enough to decode branches and
 * to place source lines: in A64 code the branch relocations R_AARCH64_CALL26, JUMP26, CONDBR19 and
 * TSTBR14 whose symbol lies in a placed section (a call within the module), and in the line tables
 * ({@code .debug_line}) the absolute relocations R_AARCH64_ABS64/ABS32 and R_ARM_ABS32. Calls to
 * symbols the file does not define (the kernel's functions) keep their unrelocated offset (a branch to
 * itself), and the data relocations (ADRP, literal addresses) are not applied: data is never code.
 *
 * <p>Files are read with a bound: files up to 1 MiB are read into the heap, larger ones memory-mapped,
 * and the headers are checked to lie inside the file before anything is read ({@link ElfFile}).
 */
public final class ElfImage {
    /** e_machine of 32-bit Arm (ELF for the Arm Architecture, IHI 0044, 5.2). */
    static final int EM_ARM = 40;
    /** e_machine of AArch64 (ELF for the Arm 64-bit Architecture, IHI 0056, 5.1). */
    static final int EM_AARCH64 = 183;
    /** Files up to this size are read into the heap; larger ones are memory-mapped. */
    static final long MAP_THRESHOLD = 1 << 20;

    // IHI 0056 5.7.7 (static AArch64 relocations) and IHI 0044 5.6 (Arm relocation codes)
    static final int R_AARCH64_ABS64 = 257;
    static final int R_AARCH64_ABS32 = 258;
    static final int R_AARCH64_TSTBR14 = 279;
    static final int R_AARCH64_CONDBR19 = 280;
    static final int R_AARCH64_JUMP26 = 282;
    static final int R_AARCH64_CALL26 = 283;
    static final int R_ARM_ABS32 = 2;

    private ElfImage() {
    }

    /** A program header of the file (gABI "Program Header"): p_type, p_flags, the file range and the memory range. */
    public record Segment(int type, int flags, long offset, long fileSize, long vaddr, long memSize) {
        /** PT_LOAD. */
        public boolean isLoad() {
            return type == ElfFile.PT_LOAD;
        }

        /** PF_X: the segment holds code. */
        public boolean isExecutable() {
            return (flags & 1) != 0;
        }
    }

    /**
     * What the ELF header, program headers and notes say of a file: 32 or 64 bits, e_machine, e_type
     * (1 relocatable, 2 executable, 3 shared object or position-independent executable), the entry point,
     * the program headers, and the build ID (NT_GNU_BUILD_ID), or null.
     */
    public record Description(String name, int bits, int machine, int type, long entry, List<Segment> segments,
                              byte[] buildId) {
        public Description {
            segments = List.copyOf(segments);
        }

        /** The build ID in lower-case hexadecimal as perf and readelf print it, or null. */
        public String buildIdHex() {
            return buildId == null ? null : HexFormat.of().formatHex(buildId);
        }

        public boolean isRelocatable() {
            return type == ElfFile.ET_REL;
        }
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

    /** The contents of an ELF file as {@link #load(Path)} reads them (decompressed when gzip-compressed), in an array. */
    public static byte[] fileBytes(Path file) {
        ByteBuffer b = bytes(file);
        byte[] out = new byte[b.limit()];
        b.get(0, out);
        return out;
    }

    public static ProgramImage load(byte[] bytes, String name) {
        return load(ByteBuffer.wrap(bytes), name);
    }

    /** Loads the ELF file whose bytes are {@code bytes} from 0 to its limit. */
    public static ProgramImage load(ByteBuffer bytes, String name) {
        ElfFile elf = open(bytes, name);
        try {
            MemoryImage memory = new MemoryImage();
            int i = 0;
            for (ElfFile.ProgramHeader ph : elf.programHeaders) {
                if (ph.type() == ElfFile.PT_LOAD && ph.filesz() != 0) {
                    memory.add(address(elf, ph.vaddr()), copyIfHeap(elf.contents(ph, i)), name + " segment " + i);
                }
                i++;
            }
            if (memory.isEmpty()) {
                // Relocatable objects have no segments: without placement, executable sections at sh_addr.
                for (ElfFile.SectionHeader s : elf.sections) {
                    if (s.type() == ElfFile.SHT_PROGBITS && (s.flags() & ElfFile.SHF_EXECINSTR) != 0) {
                        memory.add(address(elf, s.addr()), copyIfHeap(elf.contents(s)), name + " " + s.name());
                    }
                }
            }
            return new ProgramImage(memory, symbols(elf, null), lines(elf, null));
        } catch (ImageException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ImageException(name + ": damaged ELF file (a header, section or symbol lies outside the file).", e);
        }
    }

    /** Loads a relocatable file (a kernel module) with its sections at the given addresses; see the class comment. */
    public static ProgramImage loadRelocatable(Path file, Map<String, Long> sectionAddresses) {
        return loadRelocatable(bytes(file), file.toString(), sectionAddresses);
    }

    /**
     * Loads a relocatable file whose allocated sections lie at {@code sectionAddresses} (by section name;
     * sections not named there are not loaded, nor are their symbols). Relocations are applied as the
     * class comment says.
     */
    public static ProgramImage loadRelocatable(ByteBuffer bytes, String name, Map<String, Long> sectionAddresses) {
        ElfFile elf = open(bytes, name);
        if (elf.type != ElfFile.ET_REL) {
            throw new ImageException(name + ": is not a relocatable ELF file (a kernel module or object); it is loaded"
                    + " at the addresses of its program headers.");
        }
        try {
            Placed placed = new Placed(elf.sections.size());
            for (ElfFile.SectionHeader s : elf.sections) {
                Long a = sectionAddresses.get(s.name());
                if (a != null && (s.flags() & ElfFile.SHF_ALLOC) != 0) {
                    placed.put(s.index(), a);
                }
            }
            List<ElfFile.Symbol> symbols = elf.symbols();
            MemoryImage memory = new MemoryImage();
            for (ElfFile.SectionHeader s : elf.sections) {
                if (!placed.has(s.index()) || s.type() != ElfFile.SHT_PROGBITS || s.size() == 0) {
                    continue;
                }
                ByteBuffer contents = elf.contents(s);
                if ((s.flags() & ElfFile.SHF_EXECINSTR) != 0 && elf.machine == EM_AARCH64) {
                    byte[] code = new byte[contents.limit()];
                    contents.get(0, code);
                    relocateBranches(elf, s, code, placed, symbols);
                    contents = ByteBuffer.wrap(code);
                } else {
                    contents = copyIfHeap(contents);
                }
                memory.add(placed.address[s.index()], contents, name + " " + s.name());
            }
            return new ProgramImage(memory, symbols(elf, placed), lines(elf, placed));
        } catch (ImageException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ImageException(name + ": damaged ELF file (a header, section or symbol lies outside the file).", e);
        }
    }

    /**
     * Where the Linux module loader puts the sections of a kernel module whose memory starts at
     * {@code base} (the start of perf's MMAP record for the module), as kernel/module layout_sections does
     * (Linux 4.x to 6.3): allocated sections other than {@code .init*}, in four groups, each group starting
     * on a page: code (SHF_ALLOC|SHF_EXECINSTR), read-only data (SHF_ALLOC without SHF_WRITE),
     * {@code .data..ro_after_init}, and writable data; within a group in section order, each at its
     * alignment. (Linux 6.4 and later allocate the groups separately; give their addresses explicitly.)
     */
    public static Map<String, Long> linuxModuleLayout(ByteBuffer bytes, String name, long base) {
        ElfFile elf = open(bytes, name);
        Map<String, Long> out = new LinkedHashMap<>();
        boolean[] done = new boolean[elf.sections.size()];
        long size = 0;
        for (int group = 0; group < 4; group++) {
            for (ElfFile.SectionHeader s : elf.sections) {
                long f = s.flags();
                boolean roAfterInit = s.name().equals(".data..ro_after_init");
                boolean member;
                switch (group) {
                    case 0:
                        member = (f & (ElfFile.SHF_ALLOC | ElfFile.SHF_EXECINSTR)) == (ElfFile.SHF_ALLOC | ElfFile.SHF_EXECINSTR);
                        break;
                    case 1:
                        member = (f & ElfFile.SHF_ALLOC) != 0 && (f & ElfFile.SHF_WRITE) == 0 && !roAfterInit;
                        break;
                    case 2:
                        member = (f & ElfFile.SHF_ALLOC) != 0 && roAfterInit;
                        break;
                    default:
                        member = (f & (ElfFile.SHF_ALLOC | ElfFile.SHF_WRITE)) == (ElfFile.SHF_ALLOC | ElfFile.SHF_WRITE);
                        break;
                }
                if (!member || done[s.index()] || s.name().startsWith(".init") || s.name().isEmpty()) {
                    continue;
                }
                long align = Math.max(1, s.addralign());
                if (Long.bitCount(align) != 1 || align > (1L << 30)) {
                    throw new ImageException(name + ": damaged ELF file (section " + s.index() + " has alignment " + align + ").");
                }
                size = (size + align - 1) & -align;
                out.put(s.name(), base + size);
                size += s.size();
                done[s.index()] = true;
            }
            size = (size + 4095) & -4096L;
        }
        return out;
    }

    /** The ELF header, program headers and build ID of a file. */
    public static Description describe(Path file) {
        return describe(bytes(file), file.toString());
    }

    public static Description describe(ByteBuffer bytes, String name) {
        ElfFile elf = open(bytes, name);
        List<Segment> segments = new ArrayList<>();
        for (ElfFile.ProgramHeader p : elf.programHeaders) {
            segments.add(new Segment(p.type(), p.flags(), p.offset(), p.filesz(), p.vaddr(), p.memsz()));
        }
        return new Description(name, elf.is64 ? 64 : 32, elf.machine, elf.type, elf.entry, segments, elf.buildId());
    }

    /** The file's bytes: read into the heap up to 1 MiB, memory-mapped above. */
    static ByteBuffer bytes(Path file) {
        if (Gzip.isGzip(file)) {
            return ByteBuffer.wrap(Gzip.read(file));
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new ImageException(file + ": is larger than 2 GiB, more than an ELF image armtrace reads.");
            }
            if (size <= MAP_THRESHOLD) {
                ByteBuffer b = ByteBuffer.allocate((int) size);
                while (b.hasRemaining() && ch.read(b) > 0) {
                    // read until full: the size was taken from the same channel
                }
                return b.flip();
            }
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException | UnsupportedOperationException e) {
            throw new ImageException(file + ": cannot read the ELF file (" + e.getMessage() + ").", e);
        }
    }

    private static ElfFile open(ByteBuffer bytes, String name) {
        ElfFile elf;
        try {
            elf = ElfFile.read(bytes, name);
        } catch (ImageException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ImageException(name + ": not a readable ELF file (its header is damaged or cut short).", e);
        }
        if (elf.machine != EM_ARM && elf.machine != EM_AARCH64) {
            throw new ImageException(name + ": is an ELF file for another processor (e_machine " + elf.machine
                    + ", not 40 for Arm or 183 for AArch64); armtrace decodes Arm programs.");
        }
        if (elf.is64 != (elf.machine == EM_AARCH64)) {
            throw new ImageException(name + ": is a " + (elf.is64 ? "64" : "32") + "-bit ELF file for "
                    + (elf.machine == EM_AARCH64 ? "AArch64" : "32-bit Arm") + ", which the architecture does not define.");
        }
        return elf;
    }

    /** Addresses of a 32-bit file are 32-bit. */
    private static long address(ElfFile elf, long a) {
        return elf.is64 ? a : a & 0xFFFFFFFFL;
    }

    /** A heap buffer is copied so that the image does not keep the whole file; a mapped one stays mapped. */
    private static ByteBuffer copyIfHeap(ByteBuffer b) {
        if (b.isDirect()) {
            return b;
        }
        byte[] copy = new byte[b.limit()];
        b.get(0, copy);
        return ByteBuffer.wrap(copy);
    }

    /** The source lines of the DWARF {@code .debug_line} section, read (and relocated) when first asked for. */
    private static LineTable lines(ElfFile elf, Placed placed) {
        ElfFile.SectionHeader line = elf.section(".debug_line");
        if (line == null || !line.hasFileContents()) {
            return LineTable.EMPTY;
        }
        Supplier<byte[]> debugLine = () -> {
            byte[] b = array(elf.contents(line));
            if (placed != null) {
                relocateDebugLine(elf, line, b, placed);
            }
            return b;
        };
        ElfFile.SectionHeader lineStr = elf.section(".debug_line_str");
        ElfFile.SectionHeader str = elf.section(".debug_str");
        // the compilation directories (.debug_info), for an executable's paths; a relocatable file's string
        // offsets in .debug_info are relocations not applied here
        ElfFile.SectionHeader info = placed != null ? null : elf.section(".debug_info");
        ElfFile.SectionHeader abbrev = placed != null ? null : elf.section(".debug_abbrev");
        boolean units = info != null && info.hasFileContents() && abbrev != null && abbrev.hasFileContents();
        return LineTable.of(debugLine, lineStr == null ? null : () -> array(elf.contents(lineStr)),
                str == null ? null : () -> array(elf.contents(str)),
                units ? () -> array(elf.contents(info)) : null, units ? () -> array(elf.contents(abbrev)) : null,
                elf.is64 ? 8 : 4, elf.name);
    }

    private static byte[] array(ByteBuffer b) {
        byte[] a = new byte[b.limit()];
        b.get(0, a);
        return a;
    }

    /** True if section {@code index} occupies memory (SHF_ALLOC); special indices (ABS, COMMON) count as not. */
    private static boolean allocated(ElfFile elf, int index) {
        ElfFile.SectionHeader s = elf.sectionAt(index);
        return s != null && (s.flags() & ElfFile.SHF_ALLOC) != 0;
    }

    /**
     * The symbol table; {@code placed} (for a relocatable file: each section's address, or -1) moves each
     * symbol from its section offset to its address and drops those of sections not placed.
     */
    private static SymbolTable symbols(ElfFile elf, Placed placed) {
        List<Symbol> symbols = new ArrayList<>();
        List<long[]> mappings = new ArrayList<>();
        List<Symbol> sectionNames = new ArrayList<>();
        for (ElfFile.Symbol s : elf.symbols()) {
            String n = s.name();
            if (s.type() == ElfFile.STT_SECTION && s.section() != ElfFile.SHN_UNDEF && n.isEmpty()) {
                // objdump keeps the section symbols of the PLT and GOT sections among the names it gives
                // addresses (binutils 2.40, is_significant_symbol_name: names starting with .plt or .got), so
                // a call into the PLT reads <.plt+0x10>; they name addresses only, never a function's extent
                ElfFile.SectionHeader sec = elf.sectionAt(s.section());
                if (sec != null && (sec.name().startsWith(".plt") || sec.name().startsWith(".got"))
                        && (placed == null || placed.has(s.section()))) {
                    long value = address(elf, s.value()) + (placed == null ? 0 : placed.address[s.section()]);
                    sectionNames.add(new Symbol(sec.name(), value, 0, false, Symbol.Type.NONE, Symbol.Binding.LOCAL,
                            s.section()));
                }
                continue;
            }
            if (n.isEmpty() || s.section() == ElfFile.SHN_UNDEF) {
                continue;
            }
            long value = address(elf, s.value());
            if (placed != null) {
                if (!placed.has(s.section())) {
                    continue;
                }
                value += placed.address[s.section()];
            }
            if (n.charAt(0) == '$' && n.length() >= 2) {
                if (!allocated(elf, s.section())) {
                    continue; // mapping symbols of debug sections say nothing about program memory
                }
                char k = n.charAt(1);
                boolean known = elf.is64 ? (k == 'x' || k == 'd') : (k == 'a' || k == 't' || k == 'd');
                if (known && (n.length() == 2 || n.charAt(2) == '.')) {
                    mappings.add(new long[] {value, k});
                }
                continue;
            }
            int type = s.type();
            if (type == ElfFile.STT_FUNC || type == ElfFile.STT_NOTYPE || type == ElfFile.STT_OBJECT) {
                // the Thumb bit of AArch32 function symbols (IHI 0044 5.5.3); A64 has none
                boolean thumb = !elf.is64 && type == ElfFile.STT_FUNC && (value & 1) != 0;
                Symbol.Type t = type == ElfFile.STT_FUNC ? Symbol.Type.FUNCTION
                        : type == ElfFile.STT_OBJECT ? Symbol.Type.OBJECT : Symbol.Type.NONE;
                Symbol.Binding b = s.bind() == 0 ? Symbol.Binding.LOCAL : s.bind() == 2 ? Symbol.Binding.WEAK
                        : Symbol.Binding.GLOBAL; // STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2
                symbols.add(new Symbol(n, elf.is64 ? value : value & ~1L, s.size(), thumb, t, b, s.section()));
            }
        }
        // the allocated sections: which one holds an address, for the symbol choice of SymbolTable.nameFor
        List<long[]> sections = new ArrayList<>();
        List<Symbol> sectionStarts = new ArrayList<>();
        for (ElfFile.SectionHeader sec : elf.sections) {
            if ((sec.flags() & ElfFile.SHF_ALLOC) == 0 || sec.size() == 0 || sec.index() == 0) {
                continue;
            }
            long start;
            if (placed == null) {
                start = address(elf, sec.addr());
            } else if (placed.has(sec.index())) {
                start = placed.address[sec.index()];
            } else {
                continue;
            }
            sections.add(new long[] {start, start + sec.size(), sec.index()});
            sectionStarts.add(new Symbol(sec.name(), start, 0, false, Symbol.Type.NONE, Symbol.Binding.LOCAL,
                    sec.index()));
        }
        return SymbolTable.of(symbols, mappings, sections, sectionNames, sectionStarts);
    }

    /** Each section's address in a relocatable file, where the caller placed it. */
    private static final class Placed {
        final long[] address;
        final boolean[] placed;

        Placed(int sections) {
            address = new long[sections];
            placed = new boolean[sections];
        }

        void put(int section, long a) {
            address[section] = a;
            placed[section] = true;
        }

        boolean has(int section) {
            return section > 0 && section < placed.length && placed[section];
        }
    }

    /** Whether a relocation's symbol lies in a placed section or is absolute (undefined ones do not). */
    private static boolean symbolKnown(List<ElfFile.Symbol> symbols, int index, Placed placed) {
        if (index <= 0 || index >= symbols.size()) {
            return false;
        }
        ElfFile.Symbol s = symbols.get(index);
        return s.section() == ElfFile.SHN_ABS || placed.has(s.section());
    }

    /** The address of a relocation's symbol, for which {@link #symbolKnown} holds. */
    private static long symbolAddress(List<ElfFile.Symbol> symbols, int index, Placed placed) {
        ElfFile.Symbol s = symbols.get(index);
        return s.section() == ElfFile.SHN_ABS ? s.value() : placed.address[s.section()] + s.value();
    }

    /** The relocation sections that apply to section {@code target} (sh_info), REL and RELA. */
    private static List<ElfFile.SectionHeader> relocationsFor(ElfFile elf, ElfFile.SectionHeader target) {
        List<ElfFile.SectionHeader> out = new ArrayList<>();
        for (ElfFile.SectionHeader s : elf.sections) {
            if ((s.type() == ElfFile.SHT_RELA || s.type() == ElfFile.SHT_REL) && s.info() == target.index()) {
                out.add(s);
            }
        }
        return out;
    }

    /** Applies the A64 branch relocations of {@code section} whose symbol is placed (IHI 0056 5.7.7, Table 5-11). */
    private static void relocateBranches(ElfFile elf, ElfFile.SectionHeader section, byte[] code, Placed placed,
                                         List<ElfFile.Symbol> symbols) {
        ByteBuffer b = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
        long here = placed.address[section.index()];
        for (ElfFile.SectionHeader rs : relocationsFor(elf, section)) {
            for (ElfFile.Relocation r : elf.relocations(rs)) {
                if (r.offset() < 0 || r.offset() > code.length - 4) {
                    continue;
                }
                int bits;
                int shift;
                int mask;
                switch (r.type()) {
                    case R_AARCH64_CALL26:
                    case R_AARCH64_JUMP26:
                        bits = 26;
                        shift = 0;
                        break;
                    case R_AARCH64_CONDBR19:
                        bits = 19;
                        shift = 5;
                        break;
                    case R_AARCH64_TSTBR14:
                        bits = 14;
                        shift = 5;
                        break;
                    default:
                        continue;
                }
                if (!symbolKnown(symbols, r.symbol(), placed)) {
                    continue; // a symbol the module does not define: the kernel resolves it at load time
                }
                long s = symbolAddress(symbols, r.symbol(), placed);
                long delta = (s + r.addend() - (here + r.offset())) >> 2;
                if (delta < -(1L << (bits - 1)) || delta >= (1L << (bits - 1))) {
                    continue; // out of range: the loader would go through a veneer
                }
                mask = ((1 << bits) - 1) << shift;
                int at = (int) r.offset();
                int insn = b.getInt(at);
                b.putInt(at, (insn & ~mask) | (((int) delta << shift) & mask));
            }
        }
    }

    /** Applies the absolute relocations of {@code .debug_line}, so that its addresses are those of the placed code. */
    private static void relocateDebugLine(ElfFile elf, ElfFile.SectionHeader line, byte[] data, Placed placed) {
        List<ElfFile.Symbol> symbols = null;
        ByteBuffer b = ByteBuffer.wrap(data).order(elf.order);
        for (ElfFile.SectionHeader rs : relocationsFor(elf, line)) {
            if (symbols == null) {
                symbols = elf.symbols();
            }
            boolean rela = rs.type() == ElfFile.SHT_RELA;
            for (ElfFile.Relocation r : elf.relocations(rs)) {
                if (!symbolKnown(symbols, r.symbol(), placed)) {
                    continue;
                }
                long s = symbolAddress(symbols, r.symbol(), placed);
                long at = r.offset();
                if (elf.machine == EM_AARCH64 && r.type() == R_AARCH64_ABS64 && at >= 0 && at <= data.length - 8) {
                    b.putLong((int) at, s + (rela ? r.addend() : b.getLong((int) at)));
                } else if ((elf.machine == EM_AARCH64 && r.type() == R_AARCH64_ABS32 || elf.machine == EM_ARM && r.type() == R_ARM_ABS32)
                        && at >= 0 && at <= data.length - 4) {
                    b.putInt((int) at, (int) (s + (rela ? r.addend() : b.getInt((int) at))));
                }
            }
        }
    }
}
