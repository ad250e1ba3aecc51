package io.armtrace.source.perf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * The input of the large-recording measurement (bench/vs-opencsd/perfdata-1g.sh), not a test: the ETMv4
 * encoder's trace of linux-a64 (a program QEMU ran), repeated, written three ways with the same trace bytes:
 * <ul>
 * <li>{@code large.data}: a perf.data recording of one CPU (trace ID 0x10) whose AUX data are CoreSight
 * frames (ETR), in AUX buffers of about 4 MiB, each its own AUX and AUXTRACE record;
 * <li>{@code large-trbe.data}: the same as raw AUX data (TRBE);
 * <li>{@code large.raw}: the trace bytes alone, for {@code armtrace decode --protocol etm4}; {@code raw.args}
 * holds the {@code --reg} and {@code --image} arguments it needs.
 * </ul>
 * Each buffer holds whole copies of the program's trace (each starts with an A-sync), so every buffer and the
 * raw file decode to the run repeated. The recordings are written with holes that are then filled buffer by
 * buffer, so that the writer never holds more than one buffer.
 *
 * <p>Usage: {@code LargeEncodedRecording DIR [MB]} (default 1024 MB of AUX data per recording).
 */
final class LargeEncodedRecording {
    private LargeEncodedRecording() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createDirectories(Path.of(args[0]));
        long target = (args.length > 1 ? Long.parseLong(args[1]) : 1024) << 20;
        EncodedRecording.Cpu c = new EncodedRecording.Cpu(0, "linux-a64", false, 0x10);
        int copies = Math.max(1, (4 << 20) / c.trace.length);
        byte[] chunk = new byte[copies * c.trace.length];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(c.trace, 0, chunk, i * c.trace.length, c.trace.length);
        }
        byte[] framed = PerfDataWriter.frames(c.traceId, chunk, 0, chunk.length);
        long buffers = (target + framed.length - 1) / framed.length;

        byte[] elf = EncodedRecording.writeElf("linux-a64", dir.resolve("linux-a64.elf"));
        Files.createDirectories(dir.resolve("symbols"));
        Files.write(dir.resolve("symbols/linux-a64"), elf);
        write(dir.resolve("large.data"), c, elf, framed, buffers, true);
        write(dir.resolve("large-trbe.data"), c, elf, chunk, buffers, false);
        try (FileChannel ch = FileChannel.open(dir.resolve("large.raw"), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            for (long i = 0; i < buffers; i++) {
                ch.write(ByteBuffer.wrap(chunk));
            }
        }
        StringBuilder a = new StringBuilder("--protocol etm4 --image " + dir.resolve("linux-a64.elf"));
        for (Map.Entry<String, Long> r : c.registers.asMap().entrySet()) {
            a.append(" --reg ").append(r.getKey()).append("=0x").append(Long.toHexString(r.getValue()));
        }
        Files.writeString(dir.resolve("raw.args"), a.append('\n').toString(), StandardCharsets.UTF_8);
        System.out.printf("trace of one run: %d bytes, %d instructions; %d buffers of %d copies: %d trace bytes, "
                + "%d AUX bytes formatted%n", c.trace.length, c.truth().size(), buffers, copies, buffers * chunk.length,
                buffers * framed.length);
    }

    private static void write(Path file, EncodedRecording.Cpu c, byte[] elf, byte[] buffer, long buffers, boolean formatted)
            throws IOException {
        PerfDataWriter w = new PerfDataWriter().coreSightInfo(1, false, List.of(c.block(1)));
        byte[] id = EncodedRecording.buildId(elf);
        w.comm(EncodedRecording.PID, EncodedRecording.PID, "linux-a64", true, 100, c.cpu);
        EncodedRecording.mapSegments(w, elf, EncodedRecording.PID, EncodedRecording.USER_PATH, id, 101, c.cpu);
        w.itraceStart(EncodedRecording.PID, EncodedRecording.PID, 102, c.cpu);
        w.buildIds(Map.of(EncodedRecording.USER_PATH, id));
        long aux = 0;
        for (long i = 0; i < buffers; i++) {
            w.aux(aux, buffer.length, formatted ? 0 : PerfData.AUX_FLAG_CORESIGHT_FORMAT_RAW, EncodedRecording.PID,
                    EncodedRecording.PID, 1000 + i, c.cpu).auxtrace(aux, null, buffer.length, c.cpu, EncodedRecording.PID, c.cpu);
            aux += buffer.length;
        }
        w.write(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long at : w.auxDataOffsets()) {
                ch.write(ByteBuffer.wrap(buffer), at);
            }
        }
    }
}
