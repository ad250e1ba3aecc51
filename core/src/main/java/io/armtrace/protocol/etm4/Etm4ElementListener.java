package io.armtrace.protocol.etm4;

/** Receives the resolved ETMv4/ETE element stream in order. The element object is reused after the call returns. */
@FunctionalInterface
public interface Etm4ElementListener {
    void element(Etm4Element element);
}
