package io.armtrace.trace;

import java.util.ArrayList;
import java.util.List;

/** An {@link ElementSink} that keeps every element in memory: for tests and small captures. */
public final class ElementCollector implements ElementSink {
    private final List<TraceElement> elements = new ArrayList<>();

    @Override
    public void accept(TraceElement element) {
        elements.add(element);
    }

    public List<TraceElement> elements() {
        return elements;
    }

    public <T extends TraceElement> List<T> ofType(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (TraceElement e : elements) {
            if (type.isInstance(e)) {
                out.add(type.cast(e));
            }
        }
        return out;
    }
}
