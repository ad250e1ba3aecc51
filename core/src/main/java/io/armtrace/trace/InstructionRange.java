package io.armtrace.trace;

/**
 * A run of {@code count} instructions executed one after another from {@code start}; {@code lastAddress}
 * is the address of the last one and {@code end} the address just past it. All instructions of a range
 * but the last passed their condition code (or had none); {@code lastExecuted} says whether the last one
 * did. {@code lastKind} tells what the last instruction is as a waypoint. A range is in one ISA.
 */
public record InstructionRange(int source, long start, long end, int count, Isa isa,
                               long lastAddress, WaypointKind lastKind, boolean lastExecuted)
        implements TraceElement {
}
