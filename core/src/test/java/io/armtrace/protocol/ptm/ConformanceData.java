package io.armtrace.protocol.ptm;

import io.armtrace.image.MemoryImage;
import io.armtrace.source.FrameDeformatter;
import io.armtrace.source.Registers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** The shared conformance captures, located relative to the project directory. */
final class ConformanceData {
    private ConformanceData() {
    }

    static Path dir(String name) {
        Path p = Path.of(System.getProperty("user.dir")).resolve("../shared/conformance").resolve(name).normalize();
        Assumptions.assumeTrue(Files.isDirectory(p), "conformance data not present: " + p);
        return p;
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
