package io.armtrace.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every kind of element, with extreme and null fields, comes back equal through the codec. */
class ElementCodecTest {
    @Test
    void everyElementComesBackEqual() throws IOException {
        Random r = new Random(7);
        List<TraceElement> in = new ArrayList<>();
        String longText = "x".repeat(70_000) + "\u00e9\u4e2d";
        for (int i = 0; i < 5000; i++) {
            int src = r.nextInt(128);
            long a = r.nextLong();
            in.add(switch (i % 12) {
                case 0 -> new InstructionRange(src, a, a + 4, r.nextInt(), Isa.values()[r.nextInt(4)], a,
                        WaypointKind.values()[r.nextInt(WaypointKind.values().length)], r.nextBoolean());
                case 1 -> new ExceptionEntry(src, r.nextInt(), i % 24 == 1 ? null : "IRQ " + i, a, r.nextBoolean());
                case 2 -> new ExceptionReturn(src, -1);
                case 3 -> new TraceOn(src, TraceOn.Reason.values()[r.nextInt(TraceOn.Reason.values().length)], a);
                case 4 -> new Gap(src, i % 48 == 4 ? longText : "bad packet", Long.MAX_VALUE);
                case 5 -> new NoImage(src, a, i % 24 == 5 ? null : Isa.T32);
                case 6 -> new Context(src, -1, r.nextInt(), r.nextBoolean(), r.nextBoolean());
                case 7 -> new Timestamp(src, Long.MIN_VALUE);
                case 8 -> new CycleCount(src, a);
                case 9 -> new Trigger(src, a);
                case 10 -> new DecodeError(src, "walk \u2192 0x" + Long.toHexString(a), a, -1);
                default -> new InstructionRange(src, 0, 0, 0, Isa.A32, 0, WaypointKind.NONE, false);
            });
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ElementCodec.Output out = new ElementCodec.Output(bytes)) {
            for (TraceElement e : in) {
                out.write(e);
            }
        }
        List<TraceElement> back = new ArrayList<>();
        try (ElementCodec.Input read = new ElementCodec.Input(new ByteArrayInputStream(bytes.toByteArray()))) {
            for (int i = 0; i < in.size(); i++) {
                back.add(read.read());
            }
        }
        assertThat(back).isEqualTo(in);
    }
}
