package io.armtrace.protocol;

import io.armtrace.source.Registers;
import io.armtrace.trace.ElementSink;
import java.util.List;
import java.util.Set;

/** Stands in the registry for a protocol whose decoder has not landed: every use says so. */
record NotYetAvailable(String name, String title, Set<String> deviceTypePrefixes) implements TraceProtocol {
    @Override
    public boolean handlesDeviceType(String type) {
        String t = type.toUpperCase(java.util.Locale.ROOT);
        return deviceTypePrefixes.stream().anyMatch(t::startsWith);
    }

    @Override
    public List<String> describe(Registers registers) {
        return List.of(title + " decoding is not available yet.");
    }

    @Override
    public void packets(DecodeInput input, PacketListener out) {
        throw new UnsupportedProtocolException(title + " packet listing is not available yet.");
    }

    @Override
    public void decode(DecodeInput input, ElementSink sink) {
        throw new UnsupportedProtocolException(title + " decoding is not available yet.");
    }
}
