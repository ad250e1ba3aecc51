package io.armtrace.trace;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A compact binary form of the element stream, so that a stretch of decoded trace can wait in a
 * temporary file (bounded memory) until it is its turn to reach the views. {@link #read} gives back an
 * element equal to the one {@link #write} was given.
 */
public final class ElementCodec {
    private static final Isa[] ISAS = Isa.values();
    private static final WaypointKind[] KINDS = WaypointKind.values();
    private static final TraceOn.Reason[] REASONS = TraceOn.Reason.values();

    private ElementCodec() {
    }

    public static void write(DataOutput out, TraceElement element) throws IOException {
        if (element instanceof InstructionRange r) {
            out.writeByte(0);
            out.writeInt(r.source());
            out.writeLong(r.start());
            out.writeLong(r.end());
            out.writeInt(r.count());
            out.writeByte(r.isa().ordinal());
            out.writeLong(r.lastAddress());
            out.writeByte(r.lastKind().ordinal());
            out.writeBoolean(r.lastExecuted());
        } else if (element instanceof ExceptionEntry e) {
            out.writeByte(1);
            out.writeInt(e.source());
            out.writeInt(e.number());
            string(out, e.name());
            out.writeLong(e.preferredReturn());
            out.writeBoolean(e.cancelled());
        } else if (element instanceof ExceptionReturn e) {
            out.writeByte(2);
            out.writeInt(e.source());
            out.writeLong(e.target());
        } else if (element instanceof TraceOn t) {
            out.writeByte(3);
            out.writeInt(t.source());
            out.writeByte(t.reason().ordinal());
            out.writeLong(t.offset());
        } else if (element instanceof Gap g) {
            out.writeByte(4);
            out.writeInt(g.source());
            string(out, g.reason());
            out.writeLong(g.offset());
        } else if (element instanceof NoImage n) {
            out.writeByte(5);
            out.writeInt(n.source());
            out.writeLong(n.address());
            out.writeByte(n.isa() == null ? -1 : n.isa().ordinal());
        } else if (element instanceof Context c) {
            out.writeByte(6);
            out.writeInt(c.source());
            out.writeLong(c.contextId());
            out.writeInt(c.vmid());
            out.writeBoolean(c.nonSecure());
            out.writeBoolean(c.hyp());
        } else if (element instanceof Timestamp t) {
            out.writeByte(7);
            out.writeInt(t.source());
            out.writeLong(t.value());
        } else if (element instanceof CycleCount c) {
            out.writeByte(8);
            out.writeInt(c.source());
            out.writeLong(c.cycles());
        } else if (element instanceof Trigger t) {
            out.writeByte(9);
            out.writeInt(t.source());
            out.writeLong(t.offset());
        } else if (element instanceof DecodeError d) {
            out.writeByte(10);
            out.writeInt(d.source());
            string(out, d.message());
            out.writeLong(d.address());
            out.writeLong(d.offset());
        }
    }

    public static TraceElement read(DataInput in) throws IOException {
        int tag = in.readByte();
        int source = in.readInt();
        return switch (tag) {
            case 0 -> new InstructionRange(source, in.readLong(), in.readLong(), in.readInt(), ISAS[in.readByte()],
                    in.readLong(), KINDS[in.readByte()], in.readBoolean());
            case 1 -> new ExceptionEntry(source, in.readInt(), string(in), in.readLong(), in.readBoolean());
            case 2 -> new ExceptionReturn(source, in.readLong());
            case 3 -> new TraceOn(source, REASONS[in.readByte()], in.readLong());
            case 4 -> new Gap(source, string(in), in.readLong());
            case 5 -> {
                long a = in.readLong();
                int isa = in.readByte();
                yield new NoImage(source, a, isa < 0 ? null : ISAS[isa]);
            }
            case 6 -> new Context(source, in.readLong(), in.readInt(), in.readBoolean(), in.readBoolean());
            case 7 -> new Timestamp(source, in.readLong());
            case 8 -> new CycleCount(source, in.readLong());
            case 9 -> new Trigger(source, in.readLong());
            case 10 -> new DecodeError(source, string(in), in.readLong(), in.readLong());
            default -> throw new IOException("not an element record: tag " + tag);
        };
    }

    private static void string(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String string(DataInput in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
