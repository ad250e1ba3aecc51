package io.armtrace.protocol.etm3;

import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.source.Registers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * The TC2 conformance capture (Cortex-A7 ETMv3.5 sources 0x10-0x12) read for tests: the registers from
 * the device .ini files, the kernel image, one trace ID's bytes out of the CoreSight-formatted ETB
 * buffer, and DS-5's instruction-level decode.
 */
final class Tc2 {
    static final Path DIR = Path.of(System.getProperty("user.dir")).resolve("../shared/conformance/TC2").normalize();

    private Tc2() {
    }

    static void assumePresent() {
        Assumptions.assumeTrue(Files.isDirectory(DIR), "conformance data not present: " + DIR);
    }

    /** Registers of the device whose ETMTRACEIDR is {@code traceId}. */
    static Registers registers(int traceId) throws IOException {
        for (int d = 5; d <= 9; d++) {
            Registers r = new Registers();
            boolean inRegs = false;
            for (String line : Files.readAllLines(DIR.resolve("device_" + d + ".ini"))) {
                String t = line.trim();
                if (t.startsWith("[")) {
                    inRegs = t.equals("[regs]");
                    continue;
                }
                int eq = t.indexOf('=');
                if (inRegs && eq > 0) {
                    r.put(t.substring(0, eq), Long.decode(t.substring(eq + 1).trim()));
                }
            }
            if (r.get("ETMTRACEIDR", -1) == traceId) {
                return r;
            }
        }
        throw new IllegalArgumentException("no device with trace ID " + traceId);
    }

    static ProgramImage image() throws IOException {
        byte[] dump = Files.readAllBytes(DIR.resolve("kernel_dump.bin"));
        return ProgramImage.of(new MemoryImage().add(0xC0008000L, dump, "kernel_dump.bin"));
    }

    /** CoreSight frame deformatting (16-byte frames, CoreSight Architecture Specification D4). */
    static byte[] stream(int traceId) throws IOException {
        byte[] f = Files.readAllBytes(DIR.resolve("cstrace.bin"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int id = -1;
        for (int base = 0; base + 16 <= f.length; base += 16) {
            int aux = f[base + 15] & 0xFF;
            for (int i = 0; i < 8; i++) {
                int b = f[base + 2 * i] & 0xFF;
                boolean hasNext = i < 7;
                if ((b & 1) != 0) {
                    int newId = b >> 1;
                    boolean late = (aux >> i & 1) != 0;
                    if (hasNext) {
                        int d = f[base + 2 * i + 1] & 0xFF;
                        if (late) {
                            if (id == traceId) {
                                out.write(d);
                            }
                            id = newId;
                        } else {
                            id = newId;
                            if (id == traceId) {
                                out.write(d);
                            }
                        }
                    } else {
                        id = newId;
                    }
                } else {
                    if (id == traceId) {
                        out.write(b | (aux >> i & 1));
                    }
                    if (hasNext && id == traceId) {
                        out.write(f[base + 2 * i + 1] & 0xFF);
                    }
                }
            }
        }
        return out.toByteArray();
    }

    /** One instruction of a DS-5 dump. */
    record Ds5Insn(long address, boolean executed) {
    }

    /** The instructions of {@code ds5-dumps/etmv3_0xID.txt} with a known address, in order. */
    static List<Ds5Insn> ds5(int traceId) throws IOException {
        List<Ds5Insn> out = new ArrayList<>();
        Path p = DIR.resolve(String.format("ds5-dumps/etmv3_0x%x.txt", traceId));
        for (String line : Files.readAllLines(p)) {
            String[] c = line.split("\t", -1);
            if (c.length < 8 || !c[0].equals("Instruction")) {
                continue;
            }
            String a = c[2];
            if (!a.startsWith("S:0x") && !a.startsWith("N:0x")) {
                continue;
            }
            out.add(new Ds5Insn(Long.parseLong(a.substring(4), 16), !c[7].trim().equals("fail")));
        }
        return out;
    }
}
