package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.trace.Isa;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Arbitrary execution records through the ETMv4/ETE encoder: whatever the record says (steps anywhere, in A64,
 * A32 or T32, exceptions and returns at any point, options of any value), the encoder either writes a
 * trace that the packet reader and the speculation layer read without a gap, or refuses with one
 * IllegalArgumentException of one sentence. {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm4EncoderFuzzTest {
    static final long BASE = 0x400000L;
    static final long HIGH = 0xffffff8040000000L;

    /** A64 words the code is made of: NOP, B, BL, B.cond, CBZ, TBZ, RET, BR, BLR, ERET, ISB, SVC, HLT, BRK, WFI. */
    static final int[] WORDS = {0xD503201F, 0x14000002, 0x94000003, 0x54000041, 0xB4000040, 0x36000040, 0xD65F03C0,
        0xD61F0020, 0xD63F0020, 0xD69F03E0, 0xD5033FDF, 0xD4000001, 0xD4400000, 0xD4200000, 0xD503207F};

    static void run(byte[] data) {
        if (data.length < 4) {
            return;
        }
        ByteBuffer code = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            int k = data[(i + 4) % data.length] & 0xFF;
            code.putInt(k < 0xF0 ? WORDS[k % WORDS.length] : k * 0x01010101);
        }
        byte[] bytes = code.array();
        ProgramImage image = ProgramImage.of(new MemoryImage().add(BASE, bytes, "low").add(HIGH, bytes, "high"));
        List<ExecutionEvent> events = new ArrayList<>();
        for (int i = 4; i + 1 < data.length; i += 2) {
            int op = data[i] & 0xFF;
            int arg = data[i + 1] & 0xFF;
            long base = (op & 0x40) != 0 ? HIGH : BASE;
            long addr = base + 4L * (arg & 0x3F) + ((op & 0x80) != 0 && (arg & 0xC0) == 0xC0 ? 0x10000 + (arg & 3) : 0);
            switch (op & 7) {
                case 0, 1, 2, 3 -> {
                    // mostly A64; A32, and T32 of 2 or 4 bytes at half-word addresses, now and then
                    boolean other = (arg & 0x81) == 0x81;
                    Isa isa = other && (op & 0x38) == 0x38 ? Isa.A32 : other && (op & 0x38) == 0x30 ? Isa.T32 : Isa.A64;
                    long at = isa == Isa.T32 ? addr + (arg >> 1 & 2) : addr;
                    events.add(new ExecutionEvent.Step(at, isa, isa == Isa.T32 && (arg & 2) != 0 ? 2 : 4,
                            (op & 0x10) == 0 || (op & 8) == 0));
                }
                case 4 -> events.add(new ExecutionEvent.ExceptionTaken(arg & 0xF, addr, base + 4L * (op >> 3 & 0x3F) ,
                        arg >> 6 == 0 ? -1 : arg >> 6, (op & 0x80) != 0 ? 0x15 : arg >> 2));
                case 5 -> events.add(new ExecutionEvent.ExceptionReturned(addr, (arg >> 6) - 1));
                default -> {
                    // a run of straight-line steps from addr
                    for (int k = 0; k < (op >> 3 & 7) + 1; k++) {
                        events.add(new ExecutionEvent.Step(addr + 4L * k, Isa.A64, 4, true));
                    }
                }
            }
        }
        Map<String, String> options = new HashMap<>();
        int o = data[0] & 0xFF;
        if ((o & 1) != 0) {
            options.put("return-stack", (o & 2) != 0 ? "on" : "maybe");
        }
        if ((o & 4) != 0) {
            options.put("exact-match", "off");
        }
        if ((o & 8) != 0) {
            options.put("sync-period", Integer.toString(data[1] & 0xFF));
        }
        if ((o & 16) != 0) {
            options.put("el", Integer.toString((data[2] & 0xFF) % 6 - 1));
        }
        if ((o & 32) != 0) {
            options.put("trace-id", "0x" + Integer.toHexString(data[3] & 0xFF));
        }
        if ((o & 64) != 0) {
            options.put((o & 128) != 0 ? "security" : "profile", (data[3] & 1) != 0 ? "secure" : "M");
        }
        if (data.length > 4) {
            // Q elements, cycle counts, timestamps, context ID and VMID, from a fifth byte
            int p = data[4] & 0xFF;
            if ((p & 1) != 0) {
                options.put("q-elements", Integer.toString(p >> 5));
            }
            if ((p & 2) != 0) {
                options.put("cycle-accurate", "on");
                options.put("cycle-threshold", Integer.toString((p >> 2) * 97 % 5000));
            }
            if ((p & 4) != 0) {
                options.put("timestamps", (p & 8) != 0 ? "on" : "off");
            }
            if ((p & 16) != 0) {
                options.put("context-id", Integer.toString(p * 0x10203));
                options.put("vmid", Integer.toString(p * 3 - 100));
            }
        }
        if (data.length > 5) {
            // branch broadcast, its range, the Cortex-R52 unit, from a sixth byte
            int b = data[5] & 0xFF;
            if ((b & 1) != 0) {
                options.put("branch-broadcast", (b & 2) != 0 ? "on" : "off");
            }
            if ((b & 4) != 0) {
                options.put("branch-broadcast-range", (b & 8) != 0 ? "0x400000-0x400080" : "0x400080-0x400000");
            }
            if ((b & 16) != 0) {
                options.put("unit", (b & 32) != 0 ? "r52" : "a");
            }
        }
        boolean ete = (data[3] & 2) != 0;
        EncodeOutput enc;
        try {
            enc = new Etm4Protocol(ete).encode(new Execution(events), image, options);
        } catch (IllegalArgumentException refused) {
            String m = refused.getMessage();
            assertThat(m).as("one sentence").isNotBlank().endsWith(".").doesNotContain("\n");
            return;
        }
        Etm4Config config = Etm4Config.of(enc.registers(), ete);
        List<String> gaps = new ArrayList<>();
        Etm4Speculation s = new Etm4Speculation(config, e -> {
            if (e.kind() == Etm4Element.Kind.GAP) {
                gaps.add(e.toString());
            }
        });
        Etm4PacketReader reader = new Etm4PacketReader(config, s);
        reader.push(enc.trace(), 0, enc.trace().length);
        reader.end();
        s.end();
        assertThat(gaps).as("the encoder's packets read without a gap").isEmpty();
    }

    @FuzzTest(maxDuration = "20s")
    void encoderRefusesOnlyInOneSentence(byte[] data) {
        run(data);
    }

    @Test
    void randomRecords() {
        Random rnd = new Random(18);
        for (int round = 0; round < 3000; round++) {
            byte[] d = new byte[4 + rnd.nextInt(400)];
            rnd.nextBytes(d);
            if (round % 2 == 0) {
                d[0] &= (byte) ~0x79; // mostly valid options, so that most rounds encode
            }
            run(d);
        }
    }
}
