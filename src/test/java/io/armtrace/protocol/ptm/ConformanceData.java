package io.armtrace.protocol.ptm;

import io.armtrace.image.MemoryImage;
import io.armtrace.source.Registers;
import java.io.ByteArrayOutputStream;
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

    /** The bytes of one trace ID in a CoreSight-formatted buffer (16-byte frames). */
    static byte[] deformat(byte[] buf, int wanted) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int cur = -1;
        for (int f = 0; f + 16 <= buf.length; f += 16) {
            int aux = buf[f + 15] & 0xFF;
            int pendingId = -1;
            for (int i = 0; i < 15; i++) {
                int v = buf[f + i] & 0xFF;
                if ((i & 1) == 0) {
                    int flag = (aux >> (i / 2)) & 1;
                    if ((v & 1) == 1) {
                        int id = v >> 1;
                        if (flag == 0) {
                            cur = id;
                        } else {
                            pendingId = id; // takes effect after the next data byte
                        }
                    } else {
                        if (cur == wanted) {
                            out.write((v & 0xFE) | flag);
                        }
                    }
                } else {
                    if (cur == wanted) {
                        out.write(v);
                    }
                    if (pendingId >= 0) {
                        cur = pendingId;
                        pendingId = -1;
                    }
                }
            }
        }
        return out.toByteArray();
    }

    static byte[] tc2Ptm() throws IOException {
        return deformat(Files.readAllBytes(dir("TC2").resolve("cstrace.bin")), 0x13);
    }
}
