package io.armtrace.source;

import io.armtrace.image.MemoryImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes a snapshot directory that both armtrace and OpenCSD's {@code trc_pkt_lister -ss_dir} read: one
 * core with its memory as dumps, one trace source with its registers, and the trace as a
 * {@code source_data} buffer.
 */
public final class SnapshotWriter {
    private SnapshotWriter() {
    }

    /**
     * @param coreType   the core's device type, e.g. {@code Cortex-A9} or {@code Cortex-M3} (OpenCSD chooses
     *                   the architecture profile from it)
     * @param sourceType the trace source's device type, e.g. {@code ETM3.5}, {@code PTM1.1}, {@code MTB}
     */
    public static void write(Path dir, String coreType, MemoryImage memory, String sourceType, Registers registers,
                             byte[] trace) throws IOException {
        write(dir, coreType, memory, sourceType, registers, trace, List.of());
    }

    /** An ELF file the program image came from: written into the snapshot under {@code name}. */
    public record ElfDump(String name, byte[] bytes) {
    }

    /**
     * As above, with the program's ELF files kept as ELF dumps after the raw ones, so that a decode of the
     * snapshot has their symbols and DWARF lines. armtrace loads an ELF dump's segments (the later dump
     * wins where they overlap the raw dumps, with the same bytes); OpenCSD reads no ELF files, and its
     * memory map refuses the dump because it overlaps the first raw dump (trc_pkt_lister logs
     * OCSD_ERR_MEM_ACC_OVERLAP once and decodes from the raw dumps).
     */
    public static void write(Path dir, String coreType, MemoryImage memory, String sourceType, Registers registers,
                             byte[] trace, List<ElfDump> elfFiles) throws IOException {
        Files.createDirectories(dir);
        StringBuilder core = new StringBuilder();
        core.append("[device]\nname=cpu_0\nclass=core\ntype=").append(coreType).append("\n\n[regs]\n\n");
        List<MemoryImage.Region> regions = memory.regions();
        for (int i = 0; i < regions.size(); i++) {
            MemoryImage.Region r = regions.get(i);
            // OpenCSD reads 4 bytes for every instruction it decodes, even a 16-bit Thumb one: a T16
            // instruction in a dump's last two bytes would read as inaccessible memory (ADDR_NACC) and end
            // its decode there. Two zero bytes past the end, where no other region starts, let it read.
            long end = r.start() + r.size();
            int pad = regions.stream().anyMatch(o -> o.start() >= end && o.start() < end + 2) ? 0 : 2;
            String file = String.format("mem_%d_0x%08x.bin", i, r.start());
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve(file),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer bytes = r.bytes().duplicate();
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                java.nio.ByteBuffer zeros = java.nio.ByteBuffer.allocate(pad);
                while (zeros.hasRemaining()) {
                    ch.write(zeros);
                }
            }
            core.append("[dump").append(i + 1).append("]\nfile=").append(file)
                    .append(String.format("\naddress=0x%08x\nlength=0x%x\n\n", r.start(), r.size() + pad));
        }
        for (int i = 0; i < elfFiles.size(); i++) {
            ElfDump elf = elfFiles.get(i);
            Files.write(dir.resolve(elf.name()), elf.bytes());
            core.append("[dump").append(regions.size() + i + 1).append("]\n")
                    .append("; an ELF file: its load segments, symbols and line tables (OpenCSD reads no ELF: the raw dumps above are for it)\n")
                    .append("file=").append(elf.name())
                    .append(String.format("\naddress=0x%08x\n\n", regions.isEmpty() ? 0 : regions.get(0).start()));
        }
        write(dir.resolve("cpu_0.ini"), core.toString());

        StringBuilder src = new StringBuilder();
        src.append("[device]\nname=trace_0\nclass=trace_source\ntype=").append(sourceType).append("\n\n[regs]\n");
        for (Map.Entry<String, Long> e : registers.asMap().entrySet()) {
            src.append(e.getKey()).append(String.format("=0x%08x%n", e.getValue()));
        }
        write(dir.resolve("trace_0.ini"), src.toString());

        Files.write(dir.resolve("trace_0.bin"), trace);
        write(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=trace_0_buf\n"
                + "file=trace_0.bin\nformat=source_data\n\n[source_buffers]\ntrace_0=trace_0_buf\n\n"
                + "[core_trace_sources]\ncpu_0=trace_0\n");
        write(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=cpu_0.ini\n"
                + "device1=trace_0.ini\n\n[trace]\nmetadata=trace.ini\n");
    }

    /**
     * A snapshot of one software trace source (ITM, STM) and nothing else: no core, since such a source traces
     * none (OpenCSD sets up no decoder for it when a core names it), and its trace as a {@code source_data}
     * buffer.
     */
    public static void writeSoftware(Path dir, String sourceType, Registers registers, byte[] trace) throws IOException {
        Files.createDirectories(dir);
        StringBuilder src = new StringBuilder();
        src.append("[device]\nname=trace_0\nclass=trace_source\ntype=").append(sourceType).append("\n\n[regs]\n");
        for (Map.Entry<String, Long> e : registers.asMap().entrySet()) {
            src.append(e.getKey()).append(String.format("=0x%08x%n", e.getValue()));
        }
        write(dir.resolve("trace_0.ini"), src.toString());
        Files.write(dir.resolve("trace_0.bin"), trace);
        write(dir.resolve("trace.ini"), "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=trace_0_buf\n"
                + "file=trace_0.bin\nformat=source_data\n\n[source_buffers]\ntrace_0=trace_0_buf\n\n[core_trace_sources]\n");
        write(dir.resolve("snapshot.ini"), "[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=trace_0.ini\n\n"
                + "[trace]\nmetadata=trace.ini\n");
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
