package io.armtrace.cli;

import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import java.util.Iterator;

/** The values of every {@code --protocol} option, for shell completion: the registry's protocol names. */
final class ProtocolNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Protocols.all().stream().map(TraceProtocol::name).iterator();
    }
}
