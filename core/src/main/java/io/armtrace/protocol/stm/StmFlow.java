package io.armtrace.protocol.stm;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;

/**
 * STPv2 packets to elements: one {@link SoftwareMessage} for each packet that carries a message (data, flags,
 * triggers, errors, frequency, user data, time, cross-sync), preceded by a {@link Timestamp} when the packet
 * carried one. Masters and channels are the reader's state, so the flow keeps only sync.
 */
public final class StmFlow implements io.armtrace.protocol.PacketListener<StmPacket> {
    private final int source;
    private final ElementSink sink;
    private boolean synced;
    private boolean everSynced;
    private boolean reportedUnsynced;

    public StmFlow(int source, ElementSink sink) {
        this.source = source;
        this.sink = sink;
    }

    @Override
    public void packet(StmPacket p) {
        SoftwareMessage.Kind k;
        switch (p.kind) {
            case NOT_SYNC -> {
                if (!everSynced && !reportedUnsynced) {
                    sink.accept(new Gap(source, "no synchronization: " + p.value + " nibbles before an ASYNC", p.offset));
                    reportedUnsynced = true;
                }
                return;
            }
            case ASYNC -> {
                if (!synced) {
                    sink.accept(new TraceOn(source, TraceOn.Reason.SYNC, p.offset));
                    synced = true;
                    everSynced = true;
                }
                return;
            }
            case RESERVED, BAD, INCOMPLETE -> {
                sink.accept(new Gap(source, p.error, p.offset));
                synced = false;
                return;
            }
            case NULL_TS -> {
                sink.accept(new Timestamp(source, p.timestamp));
                return;
            }
            case FLAG, FLAG_TS -> k = SoftwareMessage.Kind.FLAG;
            case TRIG, TRIG_TS -> k = SoftwareMessage.Kind.TRIGGER;
            case FREQ, FREQ_TS -> k = SoftwareMessage.Kind.FREQUENCY;
            case MERR -> k = SoftwareMessage.Kind.MASTER_ERROR;
            case GERR -> k = SoftwareMessage.Kind.GLOBAL_ERROR;
            case USER, USER_TS -> k = SoftwareMessage.Kind.USER;
            case TIME, TIME_TS -> k = SoftwareMessage.Kind.TIME;
            case XSYNC, XSYNC_TS -> k = SoftwareMessage.Kind.XSYNC;
            default -> {
                if (!p.kind.data()) {
                    return; // NULL, VERSION, M8, M16, C8, C16: state only
                }
                k = SoftwareMessage.Kind.DATA;
            }
        }
        boolean ts = p.timestampBits >= 0;
        if (ts) {
            sink.accept(new Timestamp(source, p.timestamp));
        }
        sink.accept(new SoftwareMessage(source, k, p.master, p.channel, p.bits, p.value, p.kind.marker(), ts));
    }
}
