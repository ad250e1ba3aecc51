package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.armtrace.execution.Execution;
import io.armtrace.execution.ExecutionEvent;
import io.armtrace.image.MemoryImage;
import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.DecodeOptions;
import io.armtrace.protocol.EncodeOutput;
import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.trace.Gap;
import io.armtrace.trace.Isa;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Arbitrary M-profile execution records through the ETMv4 encoder for M-profile executions: steps anywhere in
 * T32 code made of branches, the Armv8.1-M loop and branch-future instructions, exception returns and SVCs,
 * exceptions and returns at any point, options of any value. The encoder either writes a trace that the
 * whole ETMv4 decode (as an Armv8-M core) reads without a gap and without throwing, or refuses with one
 * IllegalArgumentException of one sentence. {@code mvn test} replays the stored inputs; {@code JAZZER_FUZZ=1} fuzzes.
 */
class Etm4MEncoderFuzzTest {
    static final long BASE = 0x10000000L;

    /**
     * T32 code, as (first halfword, second halfword or -1): NOP, B, B&lt;c&gt;, CBZ, BL, BX LR, POP {pc}, BLX r3,
     * SVC, ISB, LE, WLS, DLS, LCTP, BF, BFL, BFX, ADDS, LDR.W, BKPT.
     */
    static final int[][] CODE = {{0xBF00, -1}, {0xE002, -1}, {0xD001, -1}, {0xB110, -1}, {0xF000, 0xF802},
        {0x4770, -1}, {0xBD10, -1}, {0x4798, -1}, {0xDF01, -1}, {0xF3BF, 0x8F6F}, {0xF00F, 0xC005}, {0xF041, 0xC003},
        {0xF041, 0xE001}, {0xF00F, 0xE001}, {0xF0C0, 0xE003}, {0xF080, 0xC003}, {0xF163, 0xE001}, {0x3001, -1},
        {0xF852, 0x1B04}, {0xBEAB, -1}};

    /** Whether the record was encoded (and decoded back without a gap); false when it was refused. */
    static boolean run(byte[] data) throws IOException {
        if (data.length < 4) {
            return false;
        }
        ByteBuffer code = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> starts = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; code.remaining() >= 4; i++) {
            int[] insn = CODE[(data[(i + 4) % data.length] & 0xFF) % CODE.length];
            starts.add(BASE + code.position());
            code.putShort((short) insn[0]);
            if (insn[1] >= 0) {
                code.putShort((short) insn[1]);
                sizes.add(4);
            } else {
                sizes.add(2);
            }
        }
        ProgramImage image = ProgramImage.of(new MemoryImage().add(BASE, code.array(), "code"));
        List<ExecutionEvent> events = new ArrayList<>();
        for (int i = 4; i + 1 < data.length; i += 2) {
            int op = data[i] & 0xFF;
            int arg = data[i + 1] & 0xFF;
            int k = arg % starts.size();
            long addr = starts.get(k) + ((op & 0x80) != 0 && (arg & 0xE0) == 0xE0 ? 0x1000 + (arg & 1) : 0);
            switch (op & 7) {
                case 0, 1, 2 -> events.add(new ExecutionEvent.Step(addr, (op & 0x78) == 0x78 ? Isa.A32 : Isa.T32,
                        sizes.get(k), (op & 0x10) == 0 || (op & 8) == 0));
                case 3 -> events.add(new ExecutionEvent.ExceptionTaken((op >> 3) % 48, addr,
                        starts.get((op >> 3) % starts.size()), -1, -1));
                case 4 -> events.add(new ExecutionEvent.ExceptionReturned(addr, -1));
                default -> {
                    // a run of straight-line steps from the k-th instruction
                    for (int n = 0; n < (op >> 3 & 7) + 1 && k + n < starts.size(); n++) {
                        events.add(new ExecutionEvent.Step(starts.get(k + n), Isa.T32, sizes.get(k + n), true));
                    }
                }
            }
        }
        Map<String, String> options = new HashMap<>();
        options.put("profile", "M");
        int o = data[0] & 0xFF;
        if ((o & 1) != 0) {
            options.put("exact-match", (o & 2) != 0 ? "off" : "maybe");
        }
        if ((o & 4) != 0) {
            options.put("sync-period", Integer.toString(data[1] & 0xFF));
        }
        if ((o & 8) != 0) {
            options.put("trace-id", "0x" + Integer.toHexString(data[3] & 0xFF));
        }
        if ((o & 16) != 0) {
            options.put("security", (data[2] & 1) != 0 ? "secure" : (data[2] & 2) != 0 ? "non-secure" : "realm");
        }
        if ((o & 32) != 0) {
            options.put((data[2] & 4) != 0 ? "return-stack" : "el", (data[2] & 8) != 0 ? "on" : "0");
        }
        if ((o & 64) != 0) {
            options.put((data[2] & 16) != 0 ? "q-elements" : "vmid", Integer.toString(data[3] & 3));
        }
        if ((o & 128) != 0) {
            options.put("cycle-accurate", "on");
            options.put("cycle-threshold", Integer.toString((data[1] & 0xFF) * 17));
            options.put("timestamps", (data[2] & 32) != 0 ? "on" : "off");
        }
        if ((o & 128) != 0) {
            options.put("cycle-accurate", "on");
            options.put("cycle-threshold", Integer.toString((data[1] & 0xFF) * 17));
            options.put("timestamps", (data[2] & 32) != 0 ? "on" : "off");
        }
        EncodeOutput enc;
        Etm4Protocol p = new Etm4Protocol(false);
        try {
            enc = p.encode(new Execution(events), image, options);
        } catch (IllegalArgumentException refused) {
            String m = refused.getMessage();
            assertThat(m).as("one sentence").isNotBlank().endsWith(".").doesNotContain("\n");
            return false;
        }
        Registers regs = new Registers().putAll(enc.registers()).putAll(p.registersForCore("Cortex-M55"));
        List<Object> gaps = new ArrayList<>();
        p.decode(new DecodeInput(-1, regs, image, TraceData.of("fuzz", enc.trace()), DecodeOptions.DEFAULT), e -> {
            if (e instanceof Gap g) {
                gaps.add(g);
            }
        });
        assertThat(gaps).as("the encoder's trace decodes without a gap").isEmpty();
        return true;
    }

    @FuzzTest(maxDuration = "20s")
    void encoderRefusesOnlyInOneSentence(byte[] data) throws IOException {
        run(data);
    }

    @Test
    void randomRecords() throws IOException {
        Random rnd = new Random(55);
        int encoded = 0;
        for (int round = 0; round < 800; round++) {
            byte[] d = new byte[4 + rnd.nextInt(400)];
            rnd.nextBytes(d);
            if (round % 2 == 0) {
                d[0] &= (byte) ~0x79; // mostly valid options, so that most rounds encode
                for (int i = 4; i < d.length; i += 2) {
                    d[i] &= (byte) ~0x80;
                    if ((d[i] & 0x78) == 0x78) {
                        d[i] &= (byte) ~0x40; // T32 steps
                    }
                }
            }
            encoded += run(d) ? 1 : 0;
        }
        assertThat(encoded).as("records encoded, not refused").isGreaterThan(200);
    }
}
