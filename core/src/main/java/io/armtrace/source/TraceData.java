package io.armtrace.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One trace source's raw trace bytes (already deformatted), opened as a stream so that decoders read
 * it in chunks and never need it all in memory.
 */
public interface TraceData {
    /** A name for messages: the file, or the file and trace ID it was taken from. */
    String name();

    InputStream open() throws IOException;

    static TraceData of(String name, byte[] bytes) {
        return new TraceData() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(bytes);
            }
        };
    }

    static TraceData of(Path file) {
        return new TraceData() {
            @Override
            public String name() {
                return file.toString();
            }

            @Override
            public InputStream open() throws IOException {
                return Files.newInputStream(file);
            }
        };
    }

    /**
     * One source of a CoreSight formatted file, deformatted chunk by chunk as it is read (memory stays
     * fixed whatever the file size). {@code removeSyncs} for port captures (TPIU, DSTREAM).
     */
    static TraceData formatted(Path file, int traceId, BufferFormat format) {
        return new TraceData() {
            @Override
            public String name() {
                return file + String.format(" (trace ID 0x%02x)", traceId);
            }

            @Override
            public InputStream open() throws IOException {
                return new DeformattedInputStream(DstreamBlocks.of(Files.newInputStream(file), format), traceId,
                        format == BufferFormat.DSTREAM_CORESIGHT);
            }
        };
    }

    /**
     * One source of a CoreSight formatted file given without a snapshot's format name: {@code removeSyncs}
     * for port captures (frame and half-word syncs).
     */
    static TraceData formatted(Path file, int traceId, boolean removeSyncs) {
        return new TraceData() {
            @Override
            public String name() {
                return file + String.format(" (trace ID 0x%02x)", traceId);
            }

            @Override
            public InputStream open() throws IOException {
                return new DeformattedInputStream(Files.newInputStream(file), traceId, removeSyncs);
            }
        };
    }

    /**
     * One tagged stream of an OFLOW capture (orbuculum's framing of ORBTrace probe data, see {@link OflowDecoder}),
     * decoded chunk by chunk as it is read.
     */
    static TraceData oflow(Path file, int tag) {
        return new TraceData() {
            @Override
            public String name() {
                return file + " (OFLOW stream " + tag + ")";
            }

            @Override
            public InputStream open() throws IOException {
                return new OflowInputStream(Files.newInputStream(file), tag);
            }
        };
    }
}
