package io.armtrace.image;

import static io.armtrace.image.DwarfForm.*;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The compilation directory of each compilation unit of a {@code .debug_info} section (DWARF 2 to 5):
 * the {@code DW_AT_comp_dir} of the unit's first entry, by the {@code DW_AT_stmt_list} offset of its line
 * program in {@code .debug_line}. DWARF 2 to 4 line programs give file names relative to that directory
 * (directory entry 0 is the compilation directory, not recorded in the line program; DWARF 4 section
 * 6.2.4, item 11), so this is what makes such a name a path one can open.
 *
 * <p>Only the unit header and the first entry of each unit are read (DWARF 4 section 7.5.1.1 and 7.5.3;
 * DWARF 5 section 7.5.1.1 for the version 5 header with its unit type), with the abbreviation that
 * describes it; every other entry is skipped by the unit length. Damaged input ends the reading with an
 * {@link ImageException}; nothing is read outside the sections, no count allocates.
 */
final class DwarfUnits {
    // DWARF 5 Table 7.5 (attribute names; DWARF 2-4 use the same codes); attribute forms: DwarfForm
    private static final int DW_AT_STMT_LIST = 0x10;
    private static final int DW_AT_COMP_DIR = 0x1b;
    // DWARF 5 Table 7.2: unit types whose header has an 8-byte DWO id after the abbreviation offset
    private static final int DW_UT_SKELETON = 0x04;
    private static final int DW_UT_SPLIT_COMPILE = 0x05;
    private static final int DW_UT_TYPE = 0x02;
    private static final int DW_UT_SPLIT_TYPE = 0x06;

    private final byte[] info;
    private final byte[] abbrev;
    private final byte[] str;
    private final byte[] lineStr;
    private int pos;
    /** Compilation directory by line program offset. */
    final Map<Long, String> compDirs = new HashMap<>();

    private DwarfUnits(byte[] info, byte[] abbrev, byte[] str, byte[] lineStr) {
        this.info = info;
        this.abbrev = abbrev;
        this.str = str == null ? new byte[0] : str;
        this.lineStr = lineStr == null ? new byte[0] : lineStr;
    }

    /** Reads every unit; {@code str} and {@code lineStr} may be null. */
    static DwarfUnits read(byte[] info, byte[] abbrev, byte[] str, byte[] lineStr, String name) {
        DwarfUnits u = new DwarfUnits(info, abbrev, str, lineStr);
        try {
            while (u.pos + 4 <= info.length) {
                u.unit();
            }
        } catch (IndexOutOfBoundsException e) {
            throw new ImageException(name + ": the .debug_info section is damaged or cut short at byte " + u.pos + ".", e);
        }
        return u;
    }

    private void unit() {
        long length = u32(info, pos);
        pos += 4;
        int offsetSize = 4;
        if (length == 0xFFFF_FFFFL) {
            length = u64(info, pos);
            pos += 8;
            offsetSize = 8;
        } else if (length >= 0xFFFF_FFF0L) {
            throw new IndexOutOfBoundsException();
        }
        if (length < 2 || length > info.length - pos) {
            throw new IndexOutOfBoundsException();
        }
        int end = (int) (pos + length);
        int version = u16(info, pos);
        pos += 2;
        long abbrevOffset;
        int addressSize;
        if (version >= 2 && version <= 4) {
            abbrevOffset = offsetSize == 8 ? u64(info, pos) : u32(info, pos);
            pos += offsetSize;
            addressSize = u8(info, pos++);
        } else if (version == 5) {
            int unitType = u8(info, pos++);
            addressSize = u8(info, pos++);
            abbrevOffset = offsetSize == 8 ? u64(info, pos) : u32(info, pos);
            pos += offsetSize;
            if (unitType == DW_UT_SKELETON || unitType == DW_UT_SPLIT_COMPILE) {
                pos += 8;
            } else if (unitType == DW_UT_TYPE || unitType == DW_UT_SPLIT_TYPE) {
                pos = end; // a type unit has no line program of its own
                return;
            }
        } else {
            pos = end; // a version this reader does not know: skip the unit
            return;
        }
        firstEntry(version, offsetSize, addressSize, abbrevOffset, end);
        pos = end;
    }

    /** The unit's first entry: its DW_AT_stmt_list and DW_AT_comp_dir. */
    private void firstEntry(int version, int offsetSize, int addressSize, long abbrevOffset, int end) {
        long code = uleb();
        if (code == 0 || abbrevOffset < 0 || abbrevOffset >= abbrev.length) {
            return;
        }
        // find the abbreviation with this code: code, tag, children flag, (name, form) pairs up to (0, 0)
        int a = (int) abbrevOffset;
        int[] at = {a};
        while (true) {
            long c = uleb(abbrev, at);
            if (c == 0) {
                return; // the code is not in this unit's table
            }
            uleb(abbrev, at); // tag
            at[0]++; // children
            if (c == code) {
                break;
            }
            skipSpecs(at);
        }
        long stmtList = -1;
        String compDir = null;
        while (true) {
            long attr = uleb(abbrev, at);
            long form = uleb(abbrev, at);
            if (attr == 0 && form == 0) {
                break;
            }
            if (form == DW_FORM_IMPLICIT_CONST) {
                long value = sleb(abbrev, at);
                if (attr == DW_AT_STMT_LIST) {
                    stmtList = value;
                }
                continue;
            }
            if (pos > end) {
                throw new IndexOutOfBoundsException();
            }
            if (attr == DW_AT_STMT_LIST) {
                stmtList = constant((int) form, offsetSize);
            } else if (attr == DW_AT_COMP_DIR) {
                compDir = string((int) form, offsetSize, addressSize, version);
            } else {
                skip((int) form, offsetSize, addressSize, version, 0);
            }
        }
        if (stmtList >= 0 && compDir != null) {
            compDirs.putIfAbsent(stmtList, compDir);
        }
    }

    private void skipSpecs(int[] at) {
        while (true) {
            long attr = uleb(abbrev, at);
            long form = uleb(abbrev, at);
            if (attr == 0 && form == 0) {
                return;
            }
            if (form == DW_FORM_IMPLICIT_CONST) {
                sleb(abbrev, at);
            }
        }
    }

    private long constant(int form, int offsetSize) {
        switch (form) {
            case DW_FORM_DATA4: {
                long v = u32(info, pos);
                pos += 4;
                return v;
            }
            case DW_FORM_DATA8: {
                long v = u64(info, pos);
                pos += 8;
                return v;
            }
            case DW_FORM_SEC_OFFSET: {
                long v = offsetSize == 8 ? u64(info, pos) : u32(info, pos);
                pos += offsetSize;
                return v;
            }
            case DW_FORM_UDATA:
                return uleb();
            default:
                skip(form, offsetSize, 4, 4, 0);
                return -1;
        }
    }

    private String string(int form, int offsetSize, int addressSize, int version) {
        switch (form) {
            case DW_FORM_STRING: {
                int start = pos;
                while (info[pos] != 0) {
                    pos++;
                }
                String s = new String(info, start, pos - start, StandardCharsets.UTF_8);
                pos++;
                return s;
            }
            case DW_FORM_STRP:
            case DW_FORM_LINE_STRP: {
                long off = offsetSize == 8 ? u64(info, pos) : u32(info, pos);
                pos += offsetSize;
                return stringAt(form == DW_FORM_STRP ? str : lineStr, off);
            }
            default:
                skip(form, offsetSize, addressSize, version, 0); // strx needs .debug_str_offsets: not read
                return null;
        }
    }

    private void skip(int form, int offsetSize, int addressSize, int version, int depth) {
        switch (form) {
            case DW_FORM_FLAG_PRESENT:
                return;
            case DW_FORM_DATA1: case DW_FORM_FLAG: case DW_FORM_REF1: case DW_FORM_STRX1: case DW_FORM_ADDRX1:
                pos += 1;
                return;
            case DW_FORM_DATA2: case DW_FORM_REF2: case DW_FORM_STRX2: case DW_FORM_ADDRX2:
                pos += 2;
                return;
            case DW_FORM_STRX3: case DW_FORM_ADDRX3:
                pos += 3;
                return;
            case DW_FORM_DATA4: case DW_FORM_REF4: case DW_FORM_REF_SUP4: case DW_FORM_STRX4: case DW_FORM_ADDRX4:
                pos += 4;
                return;
            case DW_FORM_DATA8: case DW_FORM_REF8: case DW_FORM_REF_SIG8: case DW_FORM_REF_SUP8:
                pos += 8;
                return;
            case DW_FORM_DATA16:
                pos += 16;
                return;
            case DW_FORM_ADDR:
                pos += addressSize;
                return;
            case DW_FORM_REF_ADDR:
                pos += version <= 2 ? addressSize : offsetSize;
                return;
            case DW_FORM_STRP: case DW_FORM_SEC_OFFSET: case DW_FORM_LINE_STRP: case DW_FORM_STRP_SUP:
            case DW_FORM_GNU_REF_ALT: case DW_FORM_GNU_STRP_ALT:
                pos += offsetSize;
                return;
            case DW_FORM_SDATA: case DW_FORM_UDATA: case DW_FORM_REF_UDATA: case DW_FORM_STRX: case DW_FORM_ADDRX:
            case DW_FORM_LOCLISTX: case DW_FORM_RNGLISTX: case DW_FORM_GNU_ADDR_INDEX: case DW_FORM_GNU_STR_INDEX:
                uleb();
                return;
            case DW_FORM_STRING:
                while (info[pos] != 0) {
                    pos++;
                }
                pos++;
                return;
            case DW_FORM_BLOCK1:
                pos += 1 + u8(info, pos);
                return;
            case DW_FORM_BLOCK2:
                pos += 2 + u16(info, pos);
                return;
            case DW_FORM_BLOCK4: {
                long n = u32(info, pos);
                if (n > info.length) {
                    throw new IndexOutOfBoundsException();
                }
                pos += 4 + (int) n;
                return;
            }
            case DW_FORM_BLOCK: case DW_FORM_EXPRLOC: {
                long n = uleb();
                if (n < 0 || n > info.length) {
                    throw new IndexOutOfBoundsException();
                }
                pos += (int) n;
                return;
            }
            case DW_FORM_INDIRECT:
                if (depth > 4) {
                    throw new IndexOutOfBoundsException(); // indirect forms naming indirect forms
                }
                skip((int) uleb(), offsetSize, addressSize, version, depth + 1);
                return;
            default:
                throw new IndexOutOfBoundsException(); // a form of unknown size: the rest cannot be read
        }
    }

    private static String stringAt(byte[] section, long offset) {
        if (offset < 0 || offset >= section.length) {
            return null;
        }
        int end = (int) offset;
        while (end < section.length && section[end] != 0) {
            end++;
        }
        return new String(section, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
    }

    private long uleb() {
        int[] at = {pos};
        long v = uleb(info, at);
        pos = at[0];
        return v;
    }

    private static long uleb(byte[] b, int[] at) {
        long result = 0;
        int shift = 0;
        while (true) {
            int x = b[at[0]++] & 0xFF;
            if (shift < 64) {
                result |= (long) (x & 0x7F) << shift;
            }
            shift += 7;
            if ((x & 0x80) == 0) {
                return result;
            }
        }
    }

    private static long sleb(byte[] b, int[] at) {
        long result = 0;
        int shift = 0;
        int x;
        do {
            x = b[at[0]++] & 0xFF;
            if (shift < 64) {
                result |= (long) (x & 0x7F) << shift;
            }
            shift += 7;
        } while ((x & 0x80) != 0);
        if (shift < 64 && (x & 0x40) != 0) {
            result |= -1L << shift;
        }
        return result;
    }

    private static int u8(byte[] b, int at) {
        return b[at] & 0xFF;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static long u32(byte[] b, int at) {
        return (u16(b, at) | (long) u16(b, at + 2) << 16) & 0xFFFF_FFFFL;
    }

    private static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }
}
