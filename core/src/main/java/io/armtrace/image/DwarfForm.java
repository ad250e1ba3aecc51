package io.armtrace.image;

/**
 * Attribute form codes (DWARF 5 section 7.5.6, Table 7.6; DWARF 2-4 use the same codes, the GNU forms are the
 * extensions GCC writes before DWARF 5, in the range 0x1f01-0x1f21 that Table 7.6 reserves for them), shared by the line-table and the unit readers.
 */
final class DwarfForm {
    static final int DW_FORM_ADDR = 0x01;
    static final int DW_FORM_BLOCK2 = 0x03;
    static final int DW_FORM_BLOCK4 = 0x04;
    static final int DW_FORM_DATA2 = 0x05;
    static final int DW_FORM_DATA4 = 0x06;
    static final int DW_FORM_DATA8 = 0x07;
    static final int DW_FORM_STRING = 0x08;
    static final int DW_FORM_BLOCK = 0x09;
    static final int DW_FORM_BLOCK1 = 0x0a;
    static final int DW_FORM_DATA1 = 0x0b;
    static final int DW_FORM_FLAG = 0x0c;
    static final int DW_FORM_SDATA = 0x0d;
    static final int DW_FORM_STRP = 0x0e;
    static final int DW_FORM_UDATA = 0x0f;
    static final int DW_FORM_REF_ADDR = 0x10;
    static final int DW_FORM_REF1 = 0x11;
    static final int DW_FORM_REF2 = 0x12;
    static final int DW_FORM_REF4 = 0x13;
    static final int DW_FORM_REF8 = 0x14;
    static final int DW_FORM_REF_UDATA = 0x15;
    static final int DW_FORM_INDIRECT = 0x16;
    static final int DW_FORM_SEC_OFFSET = 0x17;
    static final int DW_FORM_EXPRLOC = 0x18;
    static final int DW_FORM_FLAG_PRESENT = 0x19;
    static final int DW_FORM_STRX = 0x1a;
    static final int DW_FORM_ADDRX = 0x1b;
    static final int DW_FORM_REF_SUP4 = 0x1c;
    static final int DW_FORM_STRP_SUP = 0x1d;
    static final int DW_FORM_DATA16 = 0x1e;
    static final int DW_FORM_LINE_STRP = 0x1f;
    static final int DW_FORM_REF_SIG8 = 0x20;
    static final int DW_FORM_IMPLICIT_CONST = 0x21;
    static final int DW_FORM_LOCLISTX = 0x22;
    static final int DW_FORM_RNGLISTX = 0x23;
    static final int DW_FORM_REF_SUP8 = 0x24;
    static final int DW_FORM_STRX1 = 0x25;
    static final int DW_FORM_STRX2 = 0x26;
    static final int DW_FORM_STRX3 = 0x27;
    static final int DW_FORM_STRX4 = 0x28;
    static final int DW_FORM_ADDRX1 = 0x29;
    static final int DW_FORM_ADDRX2 = 0x2a;
    static final int DW_FORM_ADDRX3 = 0x2b;
    static final int DW_FORM_ADDRX4 = 0x2c;
    static final int DW_FORM_GNU_ADDR_INDEX = 0x1f01;
    static final int DW_FORM_GNU_STR_INDEX = 0x1f02;
    static final int DW_FORM_GNU_REF_ALT = 0x1f20;
    static final int DW_FORM_GNU_STRP_ALT = 0x1f21;

    private DwarfForm() {
    }
}
