package io.armtrace.image;

import static io.armtrace.image.DwarfForm.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the line-number programs of a {@code .debug_line} section, DWARF versions 2 to 5, and runs
 * them: the rows of the line-number matrix, unit after unit, in program order.
 *
 * <p>References: DWARF 4 section 6.2 (state machine, header, standard and extended opcodes), DWARF 5
 * section 6.2.4 (the version 5 header: address and segment selector sizes, and directory and file
 * tables described by entry formats, with strings in {@code .debug_line_str} or {@code .debug_str}).
 * Both 32-bit and 64-bit DWARF (unit length 0xffffffff) are read, for 32-bit and 64-bit targets:
 * addresses wrap at the target's address size (the header's address_size in DWARF 5, the ELF class's
 * before).
 *
 * <p>The section comes from a file: damaged contents end the unit being read (or the whole section)
 * with an {@link ImageException}, never loop or allocate without bound.
 */
final class DwarfLineReader {
    // DWARF 5 Table 7.27: line number header entry formats
    private static final int DW_LNCT_PATH = 1;
    private static final int DW_LNCT_DIRECTORY_INDEX = 2;
    // attribute forms: DwarfForm

    /** A row of the line-number matrix; {@code file} indexes the reader's global file list. */
    record Row(long address, int file, int line, int column, boolean isStmt, boolean endSequence) {
    }

    private final byte[] data;
    private final byte[] lineStr;
    private final byte[] str;
    private int pos;
    /** Full paths of the files of every unit, in the order units define them. */
    final List<String> files = new ArrayList<>();
    /**
     * For each of {@link #files}: the offset of its unit in the section (what DW_AT_stmt_list names), or -1
     * when the unit is DWARF 5, whose paths already start from the compilation directory (its directory 0).
     */
    final List<Long> fileUnits = new ArrayList<>();
    private long unitOffset;
    final List<Row> rows = new ArrayList<>();

    /** The ELF file's address size in bytes (4 or 8): DWARF 2-4 line headers do not say it. */
    private final int targetAddressSize;

    private DwarfLineReader(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, int addressSize) {
        this.data = debugLine;
        this.targetAddressSize = addressSize;
        this.lineStr = debugLineStr == null ? new byte[0] : debugLineStr;
        this.str = debugStr == null ? new byte[0] : debugStr;
    }

    /** Reads every unit of the section; the sections other than {@code debugLine} may be null. */
    static DwarfLineReader read(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, String name) {
        return read(debugLine, debugLineStr, debugStr, 4, name);
    }

    /** Reads every unit of the section of a target whose addresses have {@code addressSize} bytes (4 or 8). */
    static DwarfLineReader read(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, int addressSize, String name) {
        DwarfLineReader r = new DwarfLineReader(debugLine, debugLineStr, debugStr, addressSize);
        try {
            while (r.pos + 4 <= r.data.length) {
                r.unit();
            }
        } catch (IndexOutOfBoundsException e) {
            throw new ImageException(name + ": the .debug_line section is truncated at byte " + r.pos + ".", e);
        } catch (ImageException e) {
            // the reader's own messages say what and where; the file's name goes in front
            throw new ImageException(name + ": " + e.getMessage(), e);
        }
        return r;
    }

    private void unit() {
        int unitStart = pos;
        long length = u32();
        boolean dwarf64 = false;
        if (length == 0xFFFF_FFFFL) {
            length = u64();
            dwarf64 = true;
        } else if (length >= 0xFFFF_FFF0L) {
            throw new ImageException("reserved unit length 0x" + Long.toHexString(length) + " at .debug_line+" + unitStart);
        }
        long end = pos + length;
        if (length < 2 || end > data.length) {
            throw new IndexOutOfBoundsException();
        }
        int unitEnd = (int) end;
        int version = u16();
        unitOffset = version >= 5 ? -1 : unitStart;
        if (version < 2 || version > 5) {
            // a version we do not know: skip the unit, its length says where the next one starts
            pos = unitEnd;
            return;
        }
        int addressSize = targetAddressSize;
        if (version >= 5) {
            addressSize = u8();
            u8(); // segment_selector_size
        }
        long headerLength = dwarf64 ? u64() : u32();
        long programStart = pos + headerLength;
        if (programStart > unitEnd) {
            throw new IndexOutOfBoundsException();
        }
        int minInstLength = u8();
        int maxOps = version >= 4 ? u8() : 1;
        if (maxOps == 0) {
            maxOps = 1;
        }
        boolean defaultIsStmt = u8() != 0;
        int lineBase = (byte) u8();
        int lineRange = u8();
        int opcodeBase = u8();
        int[] opcodeLengths = new int[Math.max(opcodeBase, 1)];
        for (int i = 1; i < opcodeBase; i++) {
            opcodeLengths[i] = u8();
        }
        if (lineRange == 0) {
            pos = unitEnd; // special opcodes would divide by zero: the unit is unusable
            return;
        }

        // File table: global indices of this unit's files, indexed by the unit's file number.
        int[] fileIndex;
        if (version >= 5) {
            fileIndex = tablesV5(dwarf64);
        } else {
            fileIndex = tablesV2(unitEnd);
        }
        pos = (int) programStart;
        program(unitEnd, version, addressSize, minInstLength, maxOps, defaultIsStmt, lineBase, lineRange,
                opcodeBase, opcodeLengths, fileIndex);
        pos = unitEnd;
    }

    /** DWARF 2-4: include_directories then file_names, each list ended by an empty entry. */
    private int[] tablesV2(int unitEnd) {
        List<String> dirs = new ArrayList<>();
        dirs.add(null); // directory 0: the compilation directory, not recorded here
        while (pos < unitEnd && data[pos] != 0) {
            dirs.add(cstring());
        }
        pos++;
        List<Integer> global = new ArrayList<>();
        global.add(-1); // file 0 does not exist before DWARF 5
        while (pos < unitEnd && data[pos] != 0) {
            String name = cstring();
            long dir = uleb();
            uleb(); // modification time
            uleb(); // length
            global.add(addFile(dirs, dir, name));
        }
        pos++;
        return global.stream().mapToInt(Integer::intValue).toArray();
    }

    /** DWARF 5: directory and file tables described by (content type, form) pairs. */
    private int[] tablesV5(boolean dwarf64) {
        int dirFormatCount = u8();
        long[] dirFormats = formats(dirFormatCount);
        long dirCount = uleb();
        if (dirCount < 0 || dirCount > data.length) {
            throw new IndexOutOfBoundsException(); // more directories than bytes: a count that loops for ever
        }
        List<String> dirs = new ArrayList<>();
        for (long i = 0; i < dirCount; i++) {
            String path = null;
            for (int f = 0; f < dirFormatCount; f++) {
                Object v = value((int) dirFormats[2 * f + 1], dwarf64);
                if (dirFormats[2 * f] == DW_LNCT_PATH && v instanceof String s) {
                    path = s;
                }
            }
            // DWARF 5 6.2.4 (20): a relative directory is relative to directory 0, the compilation's
            if (path != null && !dirs.isEmpty() && dirs.get(0) != null && !isAbsolute(path)) {
                String d0 = dirs.get(0);
                path = d0.endsWith("/") ? d0 + path : d0 + "/" + path;
            }
            dirs.add(path);
        }
        int fileFormatCount = u8();
        long[] fileFormats = formats(fileFormatCount);
        long fileCount = uleb();
        if (fileCount < 0 || fileCount > data.length) {
            throw new IndexOutOfBoundsException();
        }
        int[] global = new int[(int) fileCount];
        for (int i = 0; i < fileCount; i++) {
            String name = null;
            long dir = 0;
            for (int f = 0; f < fileFormatCount; f++) {
                Object v = value((int) fileFormats[2 * f + 1], dwarf64);
                if (fileFormats[2 * f] == DW_LNCT_PATH && v instanceof String s) {
                    name = s;
                } else if (fileFormats[2 * f] == DW_LNCT_DIRECTORY_INDEX && v instanceof Long l) {
                    dir = l;
                }
            }
            global[i] = addFile(dirs, dir, name == null ? "?" : name);
        }
        return global;
    }

    private long[] formats(int count) {
        long[] f = new long[2 * count];
        for (int i = 0; i < count; i++) {
            f[2 * i] = uleb();
            f[2 * i + 1] = uleb();
        }
        return f;
    }

    /** Reads one attribute value of the header: a String for string forms, a Long for constants, else null. */
    private Object value(int form, boolean dwarf64) {
        switch (form) {
            case DW_FORM_STRING:
                return cstring();
            case DW_FORM_LINE_STRP:
                return stringAt(lineStr, dwarf64 ? u64() : u32());
            case DW_FORM_STRP:
                return stringAt(str, dwarf64 ? u64() : u32());
            case DW_FORM_UDATA:
                return uleb();
            case DW_FORM_DATA1:
                return (long) u8();
            case DW_FORM_DATA2:
                return (long) u16();
            case DW_FORM_DATA4:
                return u32();
            case DW_FORM_DATA8:
                return u64();
            case DW_FORM_DATA16:
                skip(16);
                return null;
            case DW_FORM_BLOCK:
                skip(uleb());
                return null;
            case DW_FORM_BLOCK1:
                skip(u8());
                return null;
            case DW_FORM_BLOCK2:
                skip(u16());
                return null;
            case DW_FORM_BLOCK4:
                skip(u32());
                return null;
            case DW_FORM_STRX:
                uleb(); // string offsets need .debug_str_offsets and the unit's base: not resolved
                return null;
            case DW_FORM_STRX1:
                skip(1);
                return null;
            case DW_FORM_STRX2:
                skip(2);
                return null;
            case DW_FORM_STRX3:
                skip(3);
                return null;
            case DW_FORM_STRX4:
                skip(4);
                return null;
            default:
                throw new ImageException("unknown form 0x" + Integer.toHexString(form) + " in a .debug_line header at byte " + pos);
        }
    }

    private int addFile(List<String> dirs, long dir, String name) {
        String path = name;
        if (!isAbsolute(name) && dir >= 0 && dir < dirs.size() && dirs.get((int) dir) != null) {
            String d = dirs.get((int) dir);
            path = d.endsWith("/") ? d + name : d + "/" + name;
        }
        files.add(path);
        fileUnits.add(unitOffset);
        return files.size() - 1;
    }

    private static boolean isAbsolute(String p) {
        return p.startsWith("/") || (p.length() > 2 && p.charAt(1) == ':' && (p.charAt(2) == '\\' || p.charAt(2) == '/'));
    }

    /** Runs the line-number program to {@code end} (DWARF 4 section 6.2.5). */
    private void program(int end, int version, int addressSize, int minInstLength, int maxOps,
                         boolean defaultIsStmt, int lineBase, int lineRange, int opcodeBase,
                         int[] opcodeLengths, int[] fileIndex) {
        // addresses wrap at the target's size (DWARF 5 6.2.5.1: "address ... of the target machine")
        long mask = addressSize >= 8 ? -1L : 0xFFFF_FFFFL;
        long address = 0;
        long opIndex = 0;
        int file = 1;
        int line = 1;
        int column = 0;
        boolean isStmt = defaultIsStmt;
        while (pos < end) {
            int op = u8();
            if (op >= opcodeBase) {
                // special opcode: advance address and line, append a row (6.2.5.1)
                int adjusted = op - opcodeBase;
                long adv = adjusted / lineRange;
                address += (long) minInstLength * ((opIndex + adv) / maxOps);
                opIndex = (opIndex + adv) % maxOps;
                line += lineBase + adjusted % lineRange;
                rows.add(new Row(address & mask, global(fileIndex, file), line, column, isStmt, false));
                continue;
            }
            switch (op) {
                case 0: { // extended opcode (6.2.5.3)
                    long len = uleb();
                    // a length past the unit (or one that overflowed to negative) would move pos backwards
                    int next = len < 0 || len > end - pos ? end : (int) (pos + len);
                    if (len == 0) {
                        break;
                    }
                    int sub = u8();
                    switch (sub) {
                        case 1: // DW_LNE_end_sequence
                            rows.add(new Row(address & mask, global(fileIndex, file), line, column, isStmt, true));
                            address = 0;
                            opIndex = 0;
                            file = 1;
                            line = 1;
                            column = 0;
                            isStmt = defaultIsStmt;
                            break;
                        case 2: // DW_LNE_set_address
                            address = (len - 1 >= 8) ? u64() : (len - 1 >= 4 ? u32() : (len - 1 == 2 ? u16() : u8()));
                            opIndex = 0;
                            break;
                        case 3: { // DW_LNE_define_file (DWARF 2-4)
                            if (version < 5) {
                                String name = cstring();
                                uleb();
                                uleb();
                                uleb();
                                int g = addFile(List.of(), 0, name);
                                int[] grown = java.util.Arrays.copyOf(fileIndex, fileIndex.length + 1);
                                grown[fileIndex.length] = g;
                                fileIndex = grown;
                            }
                            break;
                        }
                        default: // DW_LNE_set_discriminator and vendor extensions: nothing for us
                            break;
                    }
                    pos = next;
                    break;
                }
                case 1: // DW_LNS_copy
                    rows.add(new Row(address & mask, global(fileIndex, file), line, column, isStmt, false));
                    break;
                case 2: { // DW_LNS_advance_pc
                    long adv = uleb();
                    address += (long) minInstLength * ((opIndex + adv) / maxOps);
                    opIndex = (opIndex + adv) % maxOps;
                    break;
                }
                case 3: // DW_LNS_advance_line
                    line += (int) sleb();
                    break;
                case 4: // DW_LNS_set_file
                    file = (int) uleb();
                    break;
                case 5: // DW_LNS_set_column
                    column = (int) uleb();
                    break;
                case 6: // DW_LNS_negate_stmt
                    isStmt = !isStmt;
                    break;
                case 7: // DW_LNS_set_basic_block
                    break;
                case 8: { // DW_LNS_const_add_pc: the address advance of special opcode 255
                    long adv = (255 - opcodeBase) / lineRange;
                    address += (long) minInstLength * ((opIndex + adv) / maxOps);
                    opIndex = (opIndex + adv) % maxOps;
                    break;
                }
                case 9: // DW_LNS_fixed_advance_pc
                    address += u16();
                    opIndex = 0;
                    break;
                case 10: // DW_LNS_set_prologue_end
                case 11: // DW_LNS_set_epilogue_begin
                    break;
                case 12: // DW_LNS_set_isa
                    uleb();
                    break;
                default: // an opcode this reader does not know: the header says how many ULEB operands
                    for (int i = 0; i < opcodeLengths[op]; i++) {
                        uleb();
                    }
                    break;
            }
        }
    }

    private static int global(int[] fileIndex, int file) {
        return file >= 0 && file < fileIndex.length ? fileIndex[file] : -1;
    }

    // ---------------------------------------------------------------- primitive reads (little-endian)

    private int u8() {
        return data[pos++] & 0xFF;
    }

    private int u16() {
        int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    private long u32() {
        long v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8 | (data[pos + 2] & 0xFF) << 16 | (data[pos + 3] & 0xFFL) << 24;
        pos += 4;
        return v;
    }

    private long u64() {
        long lo = u32();
        long hi = u32();
        return lo | hi << 32;
    }

    private void skip(long n) {
        if (n < 0 || pos + n > data.length) {
            throw new IndexOutOfBoundsException();
        }
        pos += (int) n;
    }

    private long uleb() {
        long v = 0;
        int shift = 0;
        while (true) {
            int b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7F) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    private long sleb() {
        long v = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7F) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            v |= -1L << shift;
        }
        return v;
    }

    private String cstring() {
        int start = pos;
        while (data[pos] != 0) {
            pos++;
        }
        String s = new String(data, start, pos - start, StandardCharsets.UTF_8);
        pos++;
        return s;
    }

    private static String stringAt(byte[] table, long offset) {
        if (offset < 0 || offset >= table.length) {
            return null;
        }
        int end = (int) offset;
        while (end < table.length && table[end] != 0) {
            end++;
        }
        return new String(table, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
    }
}
