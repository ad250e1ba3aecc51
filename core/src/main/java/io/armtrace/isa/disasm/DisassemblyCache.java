package io.armtrace.isa.disasm;

import io.armtrace.isa.InstructionClassifier;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/**
 * Disassembly for a listing that walks executed instructions in order: remembers the text per
 * (address, ISA, IT state) in a fixed-size direct-mapped table, so a hot loop costs one lookup per
 * instruction, and follows IT blocks from one instruction to the next. When the walk jumps, the IT
 * state is reset (a branch out of an IT block must be its last instruction, DDI 0406C A8.8.54);
 * a jump out of the middle of a block can only be an exception, whose return restores the IT state
 * from the SPSR (B1.8.3), so the state is kept for the address the walk left and restored when the
 * walk comes back to it.
 * Bounded: {@value #ENTRIES} entries, older ones are overwritten. One instance per listing; not
 * thread-safe.
 */
public final class DisassemblyCache {
    /**
     * Entries: with 16,384 a kernel trace's hot code (ptm-tc2, 113 M instructions listed) missed often enough to
     * disassemble again and again (81 young collections; 27 with these, and the `--insn` listing 15% faster).
     */
    static final int ENTRIES = 1 << 16;

    private final Disassembler disassembler;
    private final MemoryImage memory;
    private final SymbolTable symbols;
    /** Per entry: the address, and the state (ISA ordinal | IT state << 8); A64 addresses use all 64 bits. */
    private final long[] addresses = new long[ENTRIES];
    private final int[] states = new int[ENTRIES];
    private final String[] texts = new String[ENTRIES];
    /** Per entry: the text's bytes for {@link #lastTextBytes}, or null where the text is not ASCII (or none). */
    private final byte[][] textBytes = new byte[ENTRIES][];
    private byte[] lastBytes;
    /** Per entry: the IT instruction's firstcond:mask, or -1 for any other instruction. */
    private final int[] itInstructions = new int[ENTRIES];
    private long next = -1;
    private int itState;
    private long suspendedAt = -1;
    private int suspendedIt;

    public DisassemblyCache(Disassembler disassembler, MemoryImage memory, SymbolTable symbols) {
        this.disassembler = disassembler;
        this.memory = memory;
        this.symbols = symbols;
        java.util.Arrays.fill(states, -1);
    }

    /**
     * Whether the text of what follows is that a new cache would give: outside an IT block, and no IT block left by
     * an exception to come back to (the only state carried from one instruction to the next).
     */
    public boolean fresh() {
        return itState == 0 && suspendedAt == -1;
    }

    /**
     * The instruction at {@code address} as listing text ("mnemonic operands", the mnemonic padded to
     * eight columns), or null if its bytes are not in the image. Call in execution order.
     */
    public String text(long address, Isa isa, int size) {
        if (address != next) {
            if (InstructionClassifier.inItBlock(itState)) {
                suspendedAt = next;
                suspendedIt = itState;
            }
            if (address == suspendedAt) {
                itState = suspendedIt;
                suspendedAt = -1;
            } else {
                itState = 0;
            }
        }
        next = address + size;
        int it = itState;
        int state = isa.ordinal() | it << 8;
        long key = address ^ (address >>> 32) ^ ((long) state << 24);
        int slot = (int) ((key ^ (key >>> 17)) * 0x9E3779B1L >>> 16) & (ENTRIES - 1);
        String s;
        int itInstruction;
        if (addresses[slot] == address && states[slot] == state) {
            s = texts[slot];
            lastBytes = textBytes[slot];
            itInstruction = itInstructions[slot];
        } else {
            Disassembler.Text t = disassembler.disassemble(memory, address, isa, it, symbols);
            s = t == null ? null : listing(t);
            itInstruction = -1;
            if ((isa == Isa.T32 || isa == Isa.THUMB_EE) && size == 2) {
                int hw = memory.u16(address);
                if (hw >= 0 && (hw & 0xFF00) == 0xBF00 && (hw & 0xF) != 0) {
                    itInstruction = hw & 0xFF;
                }
            }
            addresses[slot] = address;
            states[slot] = state;
            texts[slot] = s;
            textBytes[slot] = lastBytes = bytesOf(s);
            itInstructions[slot] = itInstruction;
        }
        if (isa == Isa.A32 || isa == Isa.A64) {
            itState = 0;
        } else {
            itState = itInstruction >= 0 ? itInstruction : InstructionClassifier.itAdvance(it);
        }
        return s;
    }

    /**
     * The bytes of the text {@link #text} returned last, followed by spaces to a multiple of 8 bytes and to at
     * least {@link #PADDED} (a listing copies them eight at a time, padded to a column where it needs); null where
     * that text was null or not ASCII.
     */
    public byte[] lastTextBytes() {
        return lastBytes;
    }

    /** The least length of {@link #lastTextBytes}: the text padded to 40 columns is in the array. */
    public static final int PADDED = 40;

    private static byte[] bytesOf(String s) {
        if (s == null) {
            return null;
        }
        byte[] b = new byte[Math.max(PADDED, (s.length() + 7) & ~7)];
        java.util.Arrays.fill(b, (byte) ' ');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            b[i] = (byte) c;
        }
        return b;
    }

    static String listing(Disassembler.Text t) {
        if (t.operands().isEmpty()) {
            return t.mnemonic();
        }
        StringBuilder b = new StringBuilder(t.mnemonic().length() + t.operands().length() + 8).append(t.mnemonic());
        do {
            b.append(' ');
        } while (b.length() < 8);
        return b.append(t.operands()).toString();
    }
}
