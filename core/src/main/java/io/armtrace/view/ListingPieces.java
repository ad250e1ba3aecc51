package io.armtrace.view;

import io.armtrace.trace.ElementSink;
import io.armtrace.trace.PieceFormat;
import io.armtrace.trace.TraceElement;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.function.Function;

/**
 * A listing (text or JSONL) formatted piece by piece: each piece has a writer of its own, made by
 * {@code writer}, over a buffer of bytes in {@code charset}. The writers keep two kinds of state across elements
 * that change their bytes: the text writer holds an "exception return" without a target back until the next
 * element shows whether it tail-chained into another exception, and a listing of instructions disassembles them
 * in their IT block. The writers say when neither is so ({@link io.armtrace.trace.PieceFormat.Fresh}); otherwise the
 * state equals no other, so no piece is cut there.
 */
public final class ListingPieces implements PieceFormat {
    private final Function<PrintWriter, ElementSink> writer;
    private final Charset charset;
    private final int bufferSize;

    public ListingPieces(Function<PrintWriter, ElementSink> writer, Charset charset) {
        // a buffer of a megabyte: a piece that waits for its turn keeps it whole (PieceFormat.BufferTaker), and
        // arrays that large the garbage collector does not copy while they wait
        this(writer, charset, 1 << 20);
    }

    /** With each piece's writer buffering {@code bufferSize} bytes (tests use small ones, to see buffers handed over). */
    public ListingPieces(Function<PrintWriter, ElementSink> writer, Charset charset, int bufferSize) {
        this.writer = writer;
        this.charset = charset;
        this.bufferSize = bufferSize;
    }

    @Override
    public Formatter open(OutputStream bytes) {
        // the EncodingWriter's own PrintWriter: the listing writers put ASCII lines straight into its byte buffer
        // (ListingOutput); through a plain PrintWriter each line became a String and was encoded again, which made
        // the pieces together take 1.5 to 1.9 times the CPU time of one listing
        EncodingWriter encoding = EncodingWriter.takingBuffers(bytes, charset, bufferSize);
        PrintWriter w = encoding.printWriter(false);
        ElementSink sink = writer.apply(w);
        return new Formatter() {
            @Override
            public void accept(TraceElement e) {
                sink.accept(e);
            }

            @Override
            public void range(int source, long start, long end, int count, io.armtrace.trace.Isa isa,
                              io.armtrace.trace.WaypointKind lastKind, io.armtrace.trace.CallKind lastCall,
                              boolean lastExecuted, io.armtrace.trace.InstructionSizes sizes, int sizesIndex) {
                sink.range(source, start, end, count, isa, lastKind, lastCall, lastExecuted, sizes, sizesIndex);
            }

            @Override
            public void cycles(int source, long cycles) {
                sink.cycles(source, cycles);
            }

            @Override
            public void traceOn(int source, io.armtrace.trace.TraceOn.Reason reason, long offset) {
                sink.traceOn(source, reason, offset);
            }

            /** Null where the writer says it is as a new one; else (or a writer that does not say) no other's. */
            @Override
            public Object state() {
                return sink instanceof Fresh f && f.fresh() ? null : new Object();
            }

            @Override
            public void flush() {
                sink.end(); // writes out what the writer has; it holds nothing back here (state() is null)
                w.flush();
            }

            @Override
            public void end() {
                sink.end();
                w.flush();
            }

            @Override
            public byte[] release() {
                return encoding.releaseBuffer();
            }
        };
    }
}
