package io.armtrace.protocol.itm;

import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceOn;

/**
 * ITM/DWT packets to elements. Every packet stands for itself (there is no program to walk), so this is
 * mostly a translation; the state it keeps is the global timestamp, whose packets each give only part of it.
 */
public final class ItmFlow implements io.armtrace.protocol.PacketListener<ItmPacket> {
    private static final ExceptionTrace.Function[] FUNCTIONS = {null, ExceptionTrace.Function.ENTRY,
        ExceptionTrace.Function.EXIT, ExceptionTrace.Function.RETURN};
    private static final LocalTimestamp.Relation[] RELATIONS = LocalTimestamp.Relation.values();
    /** Bits of the global timestamp that a GTS1 packet of 1, 2, 3 or 4 payload bytes replaces (D4.2.5). */
    private static final long[] GTS1_BITS = {(1L << 7) - 1, (1L << 14) - 1, (1L << 21) - 1, (1L << 26) - 1};

    private final int source;
    private final ElementSink sink;
    private final int prescale;
    private boolean synced;
    private boolean everSynced;
    private boolean reportedUnsynced;
    private long globalTimestamp;
    /** The high bits of the global timestamp are not known (no GTS2 yet, or a GTS1 said they changed). */
    private boolean needGts2 = true;

    public ItmFlow(ItmConfig config, int source, ElementSink sink) {
        this.source = source;
        this.sink = sink;
        this.prescale = config.tsPrescale();
    }

    @Override
    public void packet(ItmPacket p) {
        switch (p.kind) {
            case NOT_SYNC -> {
                // bytes before the first synchronization packet: said once, as every protocol does
                if (!everSynced && !reportedUnsynced) {
                    sink.accept(new Gap(source, "no synchronization: " + p.length + " bytes before a synchronization packet",
                            p.offset));
                    reportedUnsynced = true;
                }
            }
            case SYNCHRONIZATION -> {
                if (!synced) {
                    sink.accept(new TraceOn(source, TraceOn.Reason.SYNC, p.offset));
                    synced = true;
                    everSynced = true;
                }
            }
            case OVERFLOW -> sink.accept(new TraceOn(source, TraceOn.Reason.OVERFLOW, p.offset));
            case LOCAL_TIMESTAMP_1 -> sink.accept(new LocalTimestamp(source, p.value * prescale, RELATIONS[p.id & 3]));
            case LOCAL_TIMESTAMP_2 -> sink.accept(new LocalTimestamp(source, p.value * prescale,
                    LocalTimestamp.Relation.SYNCHRONOUS));
            case GLOBAL_TIMESTAMP_1 -> {
                long mask = GTS1_BITS[Math.max(0, Math.min(3, p.size - 1))];
                globalTimestamp = (globalTimestamp & ~mask) | (p.value & mask);
                if (p.wrap()) {
                    needGts2 = true; // the high bits changed: the value is whole only with the next GTS2
                }
                if (!needGts2) {
                    sink.accept(new Timestamp(source, globalTimestamp));
                }
            }
            case GLOBAL_TIMESTAMP_2 -> {
                globalTimestamp = (globalTimestamp & GTS1_BITS[3]) | (p.value << 26);
                needGts2 = false;
                sink.accept(new Timestamp(source, globalTimestamp));
            }
            case EXTENSION -> {
                // the stimulus port page is applied by the reader to the instrumentation packets that follow
            }
            case INSTRUMENTATION -> sink.accept(new SoftwareMessage(source, SoftwareMessage.Kind.DATA,
                    SoftwareMessage.NO_MASTER, p.id, 8 * p.size, p.value, false, false));
            case EVENT_COUNTER -> sink.accept(new EventCounterWrap(source, (int) p.value & 0x3F));
            case EXCEPTION_TRACE -> {
                ExceptionTrace.Function f = FUNCTIONS[p.flags & 3];
                if (f == null) {
                    sink.accept(new DecodeError(source, "exception trace packet of exception " + p.id
                            + " with the reserved function 0", -1, p.offset));
                } else {
                    sink.accept(new ExceptionTrace(source, f, p.id));
                }
            }
            case PERIODIC_PC_SAMPLE -> sink.accept(new PcSample(source, p.value, false));
            case PERIODIC_PC_SLEEP -> sink.accept(new PcSample(source, -1, true));
            case DATA_TRACE_PC_VALUE -> sink.accept(new DataTrace(source, p.id, DataTrace.Kind.PC_VALUE, p.value, p.size, false));
            case DATA_TRACE_ADDRESS -> sink.accept(new DataTrace(source, p.id, DataTrace.Kind.ADDRESS, p.value, p.size, false));
            case DATA_TRACE_DATA_VALUE -> sink.accept(new DataTrace(source, p.id, DataTrace.Kind.DATA_VALUE, p.value, p.size,
                    p.flags == 1));
            case RESERVED_HARDWARE_SOURCE -> sink.accept(new DecodeError(source, "hardware source packet with discriminator "
                    + p.id + " and " + p.size + (p.size == 1 ? " payload byte" : " payload bytes")
                    + ", which the protocol reserves", -1, p.offset));
            case RESERVED, BAD -> lostSync(p.error, p.offset);
            case INCOMPLETE -> lostSync("the trace ends inside a packet", p.offset);
        }
    }

    /** Decoding starts again at the next synchronization packet, knowing nothing, as a fresh decoder would. */
    private void lostSync(String why, long offset) {
        sink.accept(new Gap(source, why, offset));
        synced = false;
        needGts2 = true;
        globalTimestamp = 0; // the low bits a lost GTS1 may have changed are not known either
    }
}
