package io.armtrace.isa.disasm;

import io.armtrace.isa.Profile;
import io.armtrace.isa.Insn;
import io.armtrace.isa.InstructionClassifier;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/**
 * Turns A32, T32 and A64 instructions into text, spelt as GNU {@code arm-none-eabi-objdump -d} (A64:
 * {@code aarch64-linux-gnu-objdump -d}, see {@link A64Disassembler}) spells them
 * (unified syntax: {@code push {r4, lr}}, {@code ldr r3, [pc, #12]}, {@code bl 8aa8 <main>},
 * {@code it eq}, {@code addeq}, {@code .w} where objdump writes it). Branch targets are absolute
 * addresses followed by {@code <symbol+0xoff>} when a symbol table is given; objdump's comments
 * ({@code @ 0x...}) are left out.
 *
 * <p>Written here rather than bound to Capstone: a Java Capstone binding needs the native libcapstone,
 * which a machine with only a JDK and Maven lacks; the output is checked row by row against objdump
 * (DisassemblerOracleTest), and it builds on what {@link InstructionClassifier} knows (sizes, IT state).
 *
 * <p>Inside an IT block the condition comes from the IT state in force before the instruction
 * ({@code itState}, ITSTATE as {@link Insn#itStateAfter} gives it for the previous instruction).
 * Instances are stateless and can be shared between threads.
 */
public final class Disassembler {
    /** One instruction as text: objdump's mnemonic (with condition and .w/.n) and its operands. */
    public record Text(String mnemonic, String operands) {
        @Override
        public String toString() {
            return operands.isEmpty() ? mnemonic : mnemonic + " " + operands;
        }
    }

    /** How a branch target is written: the address in hex, optionally with {@code <symbol+0xoff>}. */
    interface Names {
        String target(long address);
    }

    private static final Names PLAIN = Long::toHexString;
    private static final Text UNDEFINED = new Text("<UNDEFINED>", "");

    private final Profile profile;

    public Disassembler(Profile profile) {
        this.profile = profile;
    }

    /** The instruction at {@code address} outside any IT block, without symbols; null if not in the image. */
    public Text disassemble(MemoryImage memory, long address, Isa isa) {
        return disassemble(memory, address, isa, 0, null);
    }

    /**
     * The instruction at {@code address} in state {@code isa} with IT state {@code itState} before it;
     * branch targets carry {@code <symbol+0xoff>} from {@code symbols} (may be null). Null when the
     * instruction's bytes are not in the image.
     */
    public Text disassemble(MemoryImage memory, long address, Isa isa, int itState, SymbolTable symbols) {
        switch (isa) {
            case A32: {
                long w = memory.u32(address);
                return w < 0 ? null : disassemble((int) w, 4, isa, address, itState, symbols);
            }
            case A64: {
                long w = memory.u32(address);
                return w < 0 ? null : disassemble((int) w, 4, isa, address, itState, symbols);
            }
            case T32:
            case THUMB_EE: {
                int h1 = memory.u16(address);
                if (h1 < 0) {
                    return null;
                }
                if (InstructionClassifier.isT32Wide(h1)) {
                    int h2 = memory.u16(address + 2);
                    return h2 < 0 ? null : disassemble(h1 << 16 | h2, 4, isa, address, itState, symbols);
                }
                return disassemble(h1, 2, isa, address, itState, symbols);
            }
            default:
                return memory.u8(address) < 0 ? null : UNDEFINED;
        }
    }

    /**
     * One instruction from its encoding ({@code opcode} as {@link Insn#opcode}: an A32 word, a T32
     * halfword, or first halfword &lt;&lt; 16 | second), never null.
     */
    public Text disassemble(int opcode, int size, Isa isa, long address, int itState, SymbolTable symbols) {
        Names names = symbols == null || symbols.isEmpty() ? PLAIN : target -> withSymbol(symbols, target, address);
        String s;
        if (isa == Isa.A32) {
            s = profile == Profile.M ? null : A32Disassembler.disassemble(opcode, address, names);
        } else if (isa == Isa.A64) {
            s = profile == Profile.M ? null : A64Disassembler.disassemble(opcode, address, names);
        } else if (isa == Isa.T32 || isa == Isa.THUMB_EE) {
            s = size == 2 ? T32Disassembler.t16(opcode, address, itState, names)
                    : T32Disassembler.t32(opcode, address, itState, names, profile == Profile.M);
        } else {
            s = null;
        }
        if (s == null) {
            return UNDEFINED;
        }
        int tab = s.indexOf('\t');
        return tab < 0 ? new Text(s, "") : new Text(s.substring(0, tab), s.substring(tab + 1));
    }

    /** {@code target <symbol+0xoff>} with the symbol objdump chooses for a branch at {@code from}. */
    private static String withSymbol(SymbolTable symbols, long target, long from) {
        String hex = Long.toHexString(target);
        Symbol sym = symbols.nameFor(target, from);
        if (sym == null) {
            return hex;
        }
        long off = target - sym.address();
        return hex + " <" + sym.name() + (off == 0 ? "" : off > 0 ? "+0x" + Long.toHexString(off)
                : "-0x" + Long.toHexString(-off)) + ">";
    }
}
