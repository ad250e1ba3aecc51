package io.armtrace.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every kind of element, with extreme and null fields, comes back equal through the codec. */
class ElementCodecTest {
    /** A range of random sizes drawn from {@code choices}, as instructions {@code from..} of a longer run. */
    private static InstructionRange mixed(Random r, int src, long a, int count, Isa isa, int[] choices) {
        int from = r.nextInt(4);
        int[] offsets = new int[from + count + 3];
        for (int i = 1; i < offsets.length; i++) {
            offsets[i] = offsets[i - 1] + choices[r.nextInt(choices.length)];
        }
        InstructionSizes sizes = InstructionSizes.ofOffsets(offsets);
        long start = a;
        long end = start + sizes.offset(from + count) - sizes.offset(from);
        return new InstructionRange(src, start, end, count, isa,
                WaypointKind.values()[r.nextInt(WaypointKind.values().length)],
                CallKind.values()[r.nextInt(CallKind.values().length)], r.nextBoolean(), sizes, (short) from);
    }

    /** The records of a sealed hierarchy: the permitted subclasses, and theirs where they are sealed interfaces. */
    static List<Class<?>> kinds(Class<?> sealed) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> k : sealed.getPermittedSubclasses()) {
            if (k.isSealed()) {
                out.addAll(kinds(k));
            } else {
                out.add(k);
            }
        }
        return out;
    }

    @Test
    void everyElementComesBackEqual() throws IOException {
        Random r = new Random(7);
        List<TraceElement> in = new ArrayList<>();
        String longText = "x".repeat(70_000) + "\u00e9\u4e2d";
        for (int i = 0; i < 6000; i++) {
            int src = r.nextInt(128);
            long a = r.nextLong();
            in.add(switch (i % 22) {
                case 0 -> new InstructionRange(src, a, a + 4, 1, Isa.values()[r.nextInt(4)], a,
                        WaypointKind.values()[r.nextInt(WaypointKind.values().length)], r.nextBoolean());
                case 1 -> new ExceptionEntry(src, r.nextInt(), i % 32 == 1 ? null : "IRQ " + i, a, r.nextBoolean(),
                        r.nextInt(5) - 1);
                case 2 -> new ExceptionReturn(src, -1);
                case 3 -> new TraceOn(src, TraceOn.Reason.values()[r.nextInt(TraceOn.Reason.values().length)], a);
                case 4 -> new Gap(src, i % 48 == 4 ? longText : "bad packet", Long.MAX_VALUE);
                case 5 -> new NoImage(src, a, i % 32 == 5 ? null : Isa.T32);
                case 6 -> new Context(src, r.nextBoolean() ? -1 : a, r.nextBoolean() ? -1 : r.nextLong(),
                        SecurityState.values()[r.nextInt(SecurityState.values().length)], r.nextInt(5) - 1,
                        r.nextBoolean(), r.nextBoolean(), ProcessorMode.values()[r.nextInt(ProcessorMode.values().length)]);
                case 7 -> new Timestamp(src, Long.MIN_VALUE, r.nextBoolean() ? -1 : r.nextInt(1 << 20));
                case 8 -> new CycleCount(src, a);
                case 9 -> new Trigger(src, a);
                case 10 -> new DecodeError(src, "walk \u2192 0x" + Long.toHexString(a), a, -1);
                case 11 -> new InstructionCount(src, r.nextBoolean() ? -1 : a, r.nextLong() >>> 1,
                        Isa.values()[r.nextInt(Isa.values().length)], r.nextBoolean() ? -1 : r.nextLong());
                case 12 -> new Event(src, r.nextInt(4));
                // T32 with both sizes, up to thousands of instructions: size bits longer than a record's fixed part
                case 13 -> mixed(r, src, a, 1 + r.nextInt(i % 66 == 13 ? 5000 : 40), Isa.T32, new int[] {2, 4});
                // sizes other than 2 and 4 (Jazelle bytecodes): one byte per instruction
                case 14 -> mixed(r, src, a, 1 + r.nextInt(20), Isa.JAZELLE, new int[] {1, 2, 3});
                // software trace (ITM, DWT, STM), every field at its extremes somewhere
                case 15 -> new SoftwareMessage(src, SoftwareMessage.Kind.values()[r.nextInt(SoftwareMessage.Kind.values().length)],
                        r.nextBoolean() ? SoftwareMessage.NO_MASTER : r.nextInt(1 << 16), r.nextInt(1 << 16),
                        r.nextBoolean() ? 0 : 4 << r.nextInt(5), r.nextBoolean() ? a : -1, r.nextBoolean(), r.nextBoolean());
                case 16 -> new LocalTimestamp(src, r.nextBoolean() ? Long.MAX_VALUE : r.nextInt(1 << 28),
                        LocalTimestamp.Relation.values()[r.nextInt(LocalTimestamp.Relation.values().length)]);
                case 17 -> r.nextBoolean() ? new PcSample(src, -1, true) : new PcSample(src, a, false);
                case 18 -> new ExceptionTrace(src, ExceptionTrace.Function.values()[r.nextInt(3)],
                        r.nextBoolean() ? r.nextInt(512) : r.nextInt());
                case 19 -> new DataTrace(src, r.nextInt(16), DataTrace.Kind.values()[r.nextInt(DataTrace.Kind.values().length)],
                        a, 1 << r.nextInt(3), r.nextBoolean());
                case 20 -> new EventCounterWrap(src, r.nextInt(64));
                default -> new InstructionRange(src, a, a + 8L * 4, 8, Isa.A64, WaypointKind.INDIRECT_BRANCH,
                        CallKind.RETURN, true, InstructionSizes.uniform(4));
            });
        }
        assertThat(in.stream().map(Object::getClass).distinct())
                .as("every kind of element is written and read")
                .containsExactlyInAnyOrderElementsOf(kinds(TraceElement.class));
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
        for (int i = 0; i < in.size(); i++) {
            if (in.get(i) instanceof InstructionRange want) {
                InstructionRange got = (InstructionRange) back.get(i);
                int[] w = new int[want.count()];
                int[] g = new int[got.count()];
                Arrays.setAll(w, want::sizeOf);
                Arrays.setAll(g, got::sizeOf);
                assertThat(g).as("sizes of %s", want).isEqualTo(w);
            }
        }
    }
}
