package io.armtrace.execution;

import java.util.ArrayList;
import java.util.List;

/** A known execution: the events of one core in order. */
public record Execution(List<ExecutionEvent> events) {
    public Execution {
        events = List.copyOf(events);
    }

    /** Only the instruction steps, in order. */
    public List<ExecutionEvent.Step> steps() {
        List<ExecutionEvent.Step> out = new ArrayList<>();
        for (ExecutionEvent e : events) {
            if (e instanceof ExecutionEvent.Step s) {
                out.add(s);
            }
        }
        return out;
    }
}
