package io.armtrace.view;

import io.armtrace.trace.Context;
import io.armtrace.trace.CycleCount;
import io.armtrace.trace.DataTrace;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.ElementSink;
import io.armtrace.trace.ElementVisitor;
import io.armtrace.trace.Event;
import io.armtrace.trace.EventCounterWrap;
import io.armtrace.trace.ExceptionEntry;
import io.armtrace.trace.ExceptionReturn;
import io.armtrace.trace.ExceptionTrace;
import io.armtrace.trace.Gap;
import io.armtrace.trace.InstructionCount;
import io.armtrace.trace.InstructionRange;
import io.armtrace.trace.LocalTimestamp;
import io.armtrace.trace.NoImage;
import io.armtrace.trace.PcSample;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.Timestamp;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import io.armtrace.trace.Trigger;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The console of ITM stimulus ports: what a program wrote to them (its printf output, one byte or a whole
 * 16- or 32-bit word at a time, lowest byte first) as text, a line at a time, flushed at each newline. Several
 * ports at once each keep their own line, which goes out prefixed with {@code [port N]} when it is complete,
 * so that their lines do not mix (a console read as it runs sees each line when it ends; see
 * {@link #flushEachLine}). Bytes are UTF-8 text; a line longer than {@link #MAX_LINE} bytes goes out
 * in pieces, so memory stays bounded whatever the program wrote.
 */
public final class StimulusConsole implements ElementSink, ElementVisitor {
    static final int MAX_LINE = 1 << 16;

    private final PrintWriter out;
    private final int[] ports;
    private final boolean prefix;
    private final ByteArrayOutputStream[] lines;
    private boolean flushEachLine = true;
    private long bytes;
    private long losses;

    /** The console of {@code ports}; with more than one, every line says its port. */
    public StimulusConsole(PrintWriter out, int... ports) {
        this.out = out;
        this.ports = ports.clone();
        this.prefix = ports.length > 1;
        this.lines = new ByteArrayOutputStream[ports.length];
        for (int i = 0; i < ports.length; i++) {
            lines[i] = new ByteArrayOutputStream();
        }
    }

    /**
     * Whether each line is flushed as it ends (a console someone watches, the default), or only at the end (a
     * file, where flushing line by line would only cost time).
     */
    public StimulusConsole flushEachLine(boolean on) {
        this.flushEachLine = on;
        return this;
    }

    /** Bytes written to the chosen ports. */
    public long bytes() {
        return bytes;
    }

    /** Overflows and gaps: places where written characters may have been lost. */
    public long losses() {
        return losses;
    }

    @Override
    public void accept(TraceElement element) {
        element.accept(this);
    }

    /** A write to a stimulus port: its bytes, lowest first, go to the port's line when the port is shown. */
    @Override
    public void visit(SoftwareMessage m) {
        if (m.master() != SoftwareMessage.NO_MASTER || m.kind() != SoftwareMessage.Kind.DATA) {
            return;
        }
        int i = index(m.channel());
        if (i < 0) {
            return;
        }
        for (int b = 0; b < m.bits() / 8; b++) {
            write(i, (int) (m.value() >>> (8 * b)) & 0xFF);
        }
    }

    @Override
    public void visit(Gap g) {
        losses++;
    }

    @Override
    public void visit(TraceOn t) {
        if (t.reason() == TraceOn.Reason.OVERFLOW) {
            losses++;
        }
    }

    /*
     * The console shows what programs wrote to stimulus ports, and counts where it may have lost some:
     * program flow and the rest of software trace have nothing to write.
     */

    @Override
    public void visit(InstructionRange r) {
    }

    @Override
    public void visit(InstructionCount c) {
    }

    @Override
    public void visit(ExceptionEntry e) {
    }

    @Override
    public void visit(ExceptionReturn e) {
    }

    @Override
    public void visit(NoImage n) {
    }

    @Override
    public void visit(Context c) {
    }

    @Override
    public void visit(Timestamp t) {
    }

    @Override
    public void visit(CycleCount c) {
    }

    @Override
    public void visit(Event e) {
    }

    @Override
    public void visit(Trigger t) {
    }

    @Override
    public void visit(DecodeError e) {
    }

    @Override
    public void visit(LocalTimestamp t) {
    }

    @Override
    public void visit(PcSample s) {
    }

    @Override
    public void visit(ExceptionTrace x) {
    }

    @Override
    public void visit(DataTrace d) {
    }

    @Override
    public void visit(EventCounterWrap w) {
    }

    private int index(int port) {
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] == port) {
                return i;
            }
        }
        return -1;
    }

    private void write(int i, int b) {
        bytes++;
        if (b == '\n') {
            line(i);
            if (flushEachLine) {
                out.flush();
            }
            return;
        }
        lines[i].write(b);
        if (lines[i].size() >= MAX_LINE) {
            line(i);
        }
    }

    /** Writes port {@code i}'s line so far and starts a new one. */
    private void line(int i) {
        if (prefix) {
            out.print("[port " + ports[i] + "] ");
        }
        out.print(new String(lines[i].toByteArray(), StandardCharsets.UTF_8));
        out.print('\n');
        lines[i].reset();
    }

    /** The lines not ended by a newline go out as they are. */
    @Override
    public void end() {
        for (int i = 0; i < ports.length; i++) {
            if (lines[i].size() > 0) {
                line(i);
            }
        }
        out.flush();
    }
}
