package io.armtrace.view;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.Gap;
import io.armtrace.trace.SoftwareMessage;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
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
public final class StimulusConsole implements ElementSink {
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
        if (element instanceof SoftwareMessage m) {
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
        } else if (element instanceof Gap || element instanceof TraceOn t && t.reason() == TraceOn.Reason.OVERFLOW) {
            losses++;
        }
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
