package io.armtrace.protocol.ptm;

import io.armtrace.image.MemoryImage;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Registers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The conformance captures inside the repository ({@code conformance/}). */
final class ConformanceData {
    private ConformanceData() {
    }

    static Path dir(String name) {
        return io.armtrace.testdata.SharedData.dir(name);
    }

    /** TC2 PTM_0 (trace ID 0x13) registers, from device_8.ini. */
    static Registers tc2Registers() {
        return new Registers().put("ETMCR", 0x10001000L).put("ETMIDR", 0x411CF312L).put("ETMCCER", 0x34C01AC2L)
                .put("ETMTRACEIDR", 0x13);
    }

    static MemoryImage tc2Image() throws IOException {
        byte[] dump = Files.readAllBytes(dir("TC2").resolve("kernel_dump.bin"));
        return new MemoryImage().add(0xC0008000L, dump, "kernel_dump.bin");
    }

    static byte[] tc2Ptm() throws IOException {
        return FrameDeformatter.demultiplex(Files.readAllBytes(dir("TC2").resolve("cstrace.bin"))).get(0x13);
    }
}
