package io.armtrace.view;

import io.armtrace.image.LineTable;
import io.armtrace.image.ProgramImage;
import io.armtrace.image.Symbol;
import io.armtrace.image.SymbolTable;

/**
 * The function and source line of code addresses, for listings that annotate every instruction. Both
 * answers hold for a stretch of addresses (a function's bounds, a line-table row), and the stretch of the
 * last answer is kept: an instruction inside it costs two comparisons, a table lookup happens once per
 * function or row entered.
 */
public final class Annotator {
    private final SymbolTable symbols;
    private final LineTable lines;
    private long symStart = 1;
    private long symEnd = 0;
    private Symbol symbol;
    private LineTable.Span line = new LineTable.Span(1, 0, null);

    public Annotator(ProgramImage image) {
        this.symbols = image.symbols();
        this.lines = image.lines();
    }

    /**
     * The symbol {@code address} is named after (as {@link SymbolTable#nameFor}: the nearest at or below it,
     * past its size too, chosen among several at one address as objdump chooses), or null without symbols.
     */
    public Symbol symbol(long address) {
        if (address < symStart || address >= symEnd) {
            symbol = symbols.nameFor(address);
            symStart = address;
            symEnd = symbols.nameEnd(address);
        }
        return symbol;
    }

    /** The source position of {@code address} (as {@link LineTable#lookup}), or null. */
    public LineTable.Location location(long address) {
        if (!line.contains(address)) {
            line = lines.span(address);
        }
        return line.location();
    }

    /** Appends {@code function+0xOFFSET} (or just {@code function} at its first byte); false without symbols. */
    public boolean appendSymbol(StringBuilder out, long address) {
        Symbol s = symbol(address);
        if (s == null) {
            return false;
        }
        out.append(s.name());
        long off = address - s.address();
        if (off > 0) {
            out.append("+0x").append(Long.toHexString(off));
        } else if (off < 0) {
            out.append("-0x").append(Long.toHexString(-off));
        }
        return true;
    }
}
