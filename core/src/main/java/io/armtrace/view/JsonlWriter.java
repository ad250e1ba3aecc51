package io.armtrace.view;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.armtrace.image.ProgramImage;
import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.io.IOException;
import java.io.Writer;
import java.io.UncheckedIOException;

/**
 * JSON Lines output, the public contract other tools read: one JSON object per line, each with a
 * {@code "type"}. Instructions come one per line:
 * {@code {"type":"insn","addr":"0x80000554","isa":"A32","size":4,"executed":true}}; with
 * {@code withSource}, every line also has {@code "src"} (the trace ID). The other types are listed in
 * README.md.
 */
public final class JsonlWriter implements ElementSink {
    private final JsonGenerator g;
    private final ProgramImage image;
    private final boolean withSource;
    private final boolean ranges;

    /**
     * @param ranges when true, instruction ranges are written as one {@code "range"} object each instead of
     *               one {@code "insn"} line per instruction
     */
    public JsonlWriter(Writer out, ProgramImage image, boolean withSource, boolean ranges) {
        try {
            this.g = new JsonFactory().createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        g.setPrettyPrinter(new MinimalPrettyPrinter("\n"));
        this.image = image;
        this.withSource = withSource;
        this.ranges = ranges;
    }

    public JsonlWriter(Writer out, ProgramImage image, boolean withSource) {
        this(out, image, withSource, false);
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static final SerializedString F_TYPE = new SerializedString("type");
    private static final SerializedString F_SRC = new SerializedString("src");
    private static final SerializedString F_ADDR = new SerializedString("addr");
    private static final SerializedString F_ISA = new SerializedString("isa");
    private static final SerializedString F_SIZE = new SerializedString("size");
    private static final SerializedString F_EXECUTED = new SerializedString("executed");
    private static final SerializedString V_INSN = new SerializedString("insn");
    private static final SerializedString[] ISA_VALUES = java.util.Arrays.stream(io.armtrace.trace.Isa.values())
            .map(i -> new SerializedString(i.name())).toArray(SerializedString[]::new);
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private final char[] hexBuf = new char[18];

    /** Writes {@code 0x} and the hexadecimal digits of {@code v} into {@link #hexBuf}; returns the length. */
    private int hexInto(long v) {
        int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 3) / 4);
        hexBuf[0] = '0';
        hexBuf[1] = 'x';
        for (int i = digits + 1; i >= 2; i--) {
            hexBuf[i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
        return digits + 2;
    }

    private void begin(String type, int src) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        if (withSource) {
            g.writeNumberField("src", src);
        }
    }

    @Override
    public void accept(TraceElement element) {
        try {
            write(element);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(TraceElement element) throws IOException {
        if (element instanceof InstructionRange r) {
            if (ranges) {
                begin("range", r.source());
                g.writeStringField("start", hex(r.start()));
                g.writeStringField("end", hex(r.end()));
                g.writeNumberField("count", r.count());
                g.writeStringField("isa", r.isa().name());
                g.writeStringField("last", hex(r.lastAddress()));
                g.writeStringField("last_kind", r.lastKind().name().toLowerCase(java.util.Locale.ROOT));
                g.writeBooleanField("last_executed", r.lastExecuted());
                g.writeEndObject();
                return;
            }
            String isa = r.isa().name();
            // the hot path of the writer: pre-encoded names and a reused buffer for the address
            SerializedString isaValue = ISA_VALUES[r.isa().ordinal()];
            long a = r.start();
            for (int i = 0; i < r.count(); i++) {
                int size = InstructionWalk.size(image.memory(), a, r.isa());
                g.writeStartObject();
                g.writeFieldName(F_TYPE);
                g.writeString(V_INSN);
                if (withSource) {
                    g.writeFieldName(F_SRC);
                    g.writeNumber(r.source());
                }
                g.writeFieldName(F_ADDR);
                g.writeString(hexBuf, 0, hexInto(a));
                g.writeFieldName(F_ISA);
                g.writeString(isaValue);
                g.writeFieldName(F_SIZE);
                g.writeNumber(size);
                g.writeFieldName(F_EXECUTED);
                g.writeBoolean(i < r.count() - 1 || r.lastExecuted());
                g.writeEndObject();
                a += size;
            }
        } else if (element instanceof ExceptionEntry e) {
            begin("exception", e.source());
            g.writeNumberField("number", e.number());
            if (e.name() != null) {
                g.writeStringField("name", e.name());
            }
            if (e.preferredReturn() >= 0) {
                g.writeStringField("return", hex(e.preferredReturn()));
            }
            g.writeBooleanField("cancelled", e.cancelled());
            g.writeEndObject();
        } else if (element instanceof ExceptionReturn e) {
            begin("exception_return", e.source());
            if (e.target() >= 0) {
                g.writeStringField("target", hex(e.target()));
            }
            g.writeEndObject();
        } else if (element instanceof TraceOn t) {
            begin("trace_on", t.source());
            g.writeStringField("reason", t.reason().name().toLowerCase(java.util.Locale.ROOT));
            g.writeNumberField("offset", t.offset());
            g.writeEndObject();
        } else if (element instanceof Gap gap) {
            begin("gap", gap.source());
            g.writeStringField("reason", gap.reason());
            g.writeNumberField("offset", gap.offset());
            g.writeEndObject();
        } else if (element instanceof NoImage n) {
            begin("no_image", n.source());
            g.writeStringField("addr", hex(n.address()));
            g.writeStringField("isa", n.isa().name());
            g.writeEndObject();
        } else if (element instanceof Context c) {
            begin("context", c.source());
            if (c.contextId() >= 0) {
                g.writeStringField("context_id", hex(c.contextId()));
            }
            if (c.vmid() >= 0) {
                g.writeNumberField("vmid", c.vmid());
            }
            g.writeBooleanField("non_secure", c.nonSecure());
            g.writeBooleanField("hyp", c.hyp());
            g.writeEndObject();
        } else if (element instanceof Timestamp t) {
            begin("timestamp", t.source());
            g.writeNumberField("value", t.value());
            g.writeEndObject();
        } else if (element instanceof CycleCount c) {
            begin("cycles", c.source());
            g.writeNumberField("count", c.cycles());
            g.writeEndObject();
        } else if (element instanceof Trigger t) {
            begin("trigger", t.source());
            g.writeNumberField("offset", t.offset());
            g.writeEndObject();
        } else if (element instanceof DecodeError e) {
            begin("error", e.source());
            g.writeStringField("message", e.message());
            if (e.address() >= 0) {
                g.writeStringField("addr", hex(e.address()));
            }
            if (e.offset() >= 0) {
                g.writeNumberField("offset", e.offset());
            }
            g.writeEndObject();
        }
    }

    @Override
    public void end() {
        try {
            g.writeRaw('\n');
            g.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
