package io.armtrace.trace;

/**
 * {@code count} instructions executed whose path the trace does not give (an ETMv4 Q element, IHI 0064:
 * the trace unit counted instructions instead of tracing their atoms): they started at {@code start}
 * (-1 when unknown) in state {@code isa}, and execution continued at {@code end} (-1 when unknown; an
 * address element that follows says). Views count them but cannot place them in the code.
 */
public record InstructionCount(int source, long start, long count, Isa isa, long end) implements TraceElement {
    @Override
    public void accept(ElementVisitor visitor) {
        visitor.visit(this);
    }
}
