package io.armtrace.isa;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;
import io.armtrace.trace.Isa;

/**
 * The instructions a function has in the program image, whether or not the trace ran them: what
 * coverage counts against. No element can say this (instructions that never ran are in no range), so
 * the coverage view asks here rather than decoding the image itself.
 *
 * <p>A function symbol's extent is walked by address: A32 or T32 by the mapping symbols ({@code $a},
 * {@code $t}; ELF for the Arm Architecture 5.5.5) or else the symbol's own Thumb bit, literal pools
 * ({@code $d}) stepped over. Each instruction is classified ({@link InstructionClassifier}, A/R
 * profile) with the IT state the walk carries, so that an instruction is conditional when its encoding
 * or an IT block makes it so (ARM DDI 0406C A8.8.54), and CBZ/CBNZ.
 */
public final class FunctionCode {
    /** Receives one instruction of the function. */
    @FunctionalInterface
    public interface Visitor {
        void instruction(long address, Isa isa, int size, boolean conditional);
    }

    private final MemoryImage memory;
    private final SymbolTable symbols;
    private final InstructionClassifier classifier = new InstructionClassifier(Profile.AR);
    private final Insn insn = new Insn();

    public FunctionCode(MemoryImage memory, SymbolTable symbols) {
        this.memory = memory;
        this.symbols = symbols;
    }

    /** Walks the extent of function symbol {@code s}; it ends early where the image has no bytes. */
    public void walk(Symbol s, Visitor v) {
        long end = s.address() + s.size();
        int itState = 0;
        for (long a = s.address(); a < end; ) {
            byte map = symbols.mappingAt(a);
            if (map == SymbolTable.MAP_DATA) {
                a += 2; // a literal pool: step over it to the next mapping symbol
                itState = 0;
                continue;
            }
            Isa isa = map == SymbolTable.MAP_THUMB ? Isa.T32 : map == SymbolTable.MAP_ARM ? Isa.A32
                    : (s.thumb() ? Isa.T32 : Isa.A32);
            if (isa == Isa.A32 && (a & 3) != 0) {
                a += 2;
                continue;
            }
            if (!classifier.classify(memory, a, isa, itState, insn)) {
                break;
            }
            itState = insn.itStateAfter;
            v.instruction(a, isa, insn.size, insn.conditional);
            a += insn.size;
        }
    }

    /**
     * Whether the instruction at {@code address} is conditional by its encoding alone (an instruction
     * that ran outside any function symbol, walked without its IT block); false where the image has no
     * bytes.
     */
    public boolean conditional(long address, Isa isa) {
        return classifier.classify(memory, address, isa, 0, insn) && insn.conditional;
    }
}
