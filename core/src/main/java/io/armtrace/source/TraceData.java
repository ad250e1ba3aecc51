package io.armtrace.source;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * One trace source's raw trace bytes (already deformatted), opened as a stream so that decoders read
 * it in chunks and never need it all in memory.
 */
public interface TraceData {
    /** A name for messages: the file, or the file and trace ID it was taken from. */
    String name();

    /** The trace bytes from the start; for a formatted or framed file, this source's bytes, deformatted as read. */
    default InputStream open() throws IOException {
        return open(n -> { });
    }

    /**
     * As {@link #open()}, telling {@code storedRead} of every byte read from where the data is stored (the file,
     * before deformatting): what a progress bar counts against {@link #storedBytes()}.
     */
    InputStream open(LongConsumer storedRead) throws IOException;

    /**
     * The size of what {@link #open} reads from (the file, formatted or not, or the array), known without
     * reading the trace; -1 when unknown.
     */
    long storedBytes();

    static TraceData of(String name, byte[] bytes) {
        return new TraceData() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public InputStream open(LongConsumer storedRead) {
                return counted(new ByteArrayInputStream(bytes), storedRead);
            }

            @Override
            public long storedBytes() {
                return bytes.length;
            }
        };
    }

    /** Opens a stream of stored bytes afresh each time it is called. */
    interface Opener {
        InputStream open() throws IOException;
    }

    /**
     * Bytes stored elsewhere (a stretch of a recording's AUX data), {@code storedBytes} long, opened afresh
     * by {@code opener} on every read: the trace bytes themselves when {@code traceId} is null, else CoreSight
     * frames of which the source {@code traceId}'s bytes are taken.
     */
    static TraceData stored(String name, long storedBytes, Opener opener, Integer traceId) {
        return new TraceData() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                InputStream in = counted(opener.open(), storedRead);
                return traceId == null ? in : new DeformattedInputStream(in, traceId, false);
            }

            @Override
            public long storedBytes() {
                return storedBytes;
            }
        };
    }

    /** The trace bytes of {@code parts} one after the other, as one stream (no break between them). */
    static TraceData concat(String name, java.util.List<TraceData> parts) {
        return new TraceData() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                java.util.Iterator<TraceData> it = parts.iterator();
                return new java.io.SequenceInputStream(new java.util.Enumeration<InputStream>() {
                    @Override
                    public boolean hasMoreElements() {
                        return it.hasNext();
                    }

                    @Override
                    public InputStream nextElement() {
                        try {
                            return it.next().open(storedRead);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                });
            }

            @Override
            public long storedBytes() {
                long n = 0;
                for (TraceData d : parts) {
                    long k = d.storedBytes();
                    if (k < 0) {
                        return -1;
                    }
                    n += k;
                }
                return n;
            }
        };
    }

    static TraceData of(Path file) {
        return new FileData(file) {
            @Override
            public String name() {
                return file.toString();
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                return read(storedRead);
            }
        };
    }

    /**
     * One source of a CoreSight formatted file, deformatted chunk by chunk as it is read (memory stays
     * fixed whatever the file size). {@code removeSyncs} for port captures (TPIU, DSTREAM).
     */
    static TraceData formatted(Path file, int traceId, BufferFormat format) {
        return new FileData(file) {
            @Override
            public String name() {
                return file + String.format(" (trace ID 0x%02x)", traceId);
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                return new DeformattedInputStream(DstreamBlocks.of(read(storedRead), format), traceId,
                        format == BufferFormat.DSTREAM_CORESIGHT);
            }
        };
    }

    /**
     * One source of a CoreSight formatted file given without a snapshot's format name: {@code removeSyncs}
     * for port captures (frame and half-word syncs).
     */
    static TraceData formatted(Path file, int traceId, boolean removeSyncs) {
        return new FileData(file) {
            @Override
            public String name() {
                return file + String.format(" (trace ID 0x%02x)", traceId);
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                return new DeformattedInputStream(read(storedRead), traceId, removeSyncs);
            }
        };
    }

    /**
     * One tagged stream of an OFLOW capture (orbuculum's framing of ORBTrace probe data, see {@link OflowDecoder}),
     * decoded chunk by chunk as it is read.
     */
    static TraceData oflow(Path file, int tag) {
        return new FileData(file) {
            @Override
            public String name() {
                return file + " (OFLOW stream " + tag + ")";
            }

            @Override
            public InputStream open(LongConsumer storedRead) throws IOException {
                return new OflowInputStream(read(storedRead), tag);
            }
        };
    }

    /** Trace data stored in a file: its size is the file's. */
    abstract class FileData implements TraceData {
        private final Path file;

        FileData(Path file) {
            this.file = file;
        }

        /** The file, counting what is read of it. */
        InputStream read(LongConsumer storedRead) throws IOException {
            return counted(Files.newInputStream(file), storedRead);
        }

        @Override
        public long storedBytes() {
            try {
                return Files.size(file);
            } catch (IOException e) {
                return -1;
            }
        }
    }

    /** {@code in}, telling {@code count} how many bytes each read returned. */
    static InputStream counted(InputStream in, LongConsumer count) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    count.accept(1);
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n > 0) {
                    count.accept(n);
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long k = super.skip(n);
                if (k > 0) {
                    count.accept(k);
                }
                return k;
            }
        };
    }
}
