package io.armtrace.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.ProgramImage;
import io.armtrace.protocol.DecodeInput;
import io.armtrace.protocol.Protocols;
import io.armtrace.protocol.TraceProtocol;
import io.armtrace.source.Snapshot;
import io.armtrace.source.SnapshotSource;
import io.armtrace.testdata.SharedData;
import io.armtrace.view.JsonlWriter;
import io.armtrace.view.ListingPieces;
import io.armtrace.view.TextWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link ElementPipe} with the decoder's thread formatting batches itself ({@link ElementPipe#decode(ElementPipe.Decode,
 * PieceFormat, PieceFormat, java.io.OutputStream, String)}): whichever batches it takes, the bytes are those of one
 * formatter given the whole stream. Real trace (TC2's ETMv3 and PTM sources, an ETMv4 Juno capture, whose exception
 * returns without a target the text listing holds back), small batches so that a trace fills many, and the
 * batches the decoder takes drawn from a seeded generator.
 */
class ElementPipeHelpTest {
    /** The listing forms: text, text of every instruction, JSONL of ranges, JSONL of instructions. */
    private static final List<BiFunction<java.io.PrintWriter, ProgramImage, ElementSink>> FORMS = List.of(
            (w, image) -> new TextWriter(w, image, false, false),
            (w, image) -> new TextWriter(w, image, true, false),
            (w, image) -> new JsonlWriter(w, image, false, true),
            (w, image) -> new JsonlWriter(w, image, false, false));

    @Test
    void batchesFormattedOnTheDecodersThreadJoinToTheListingOfOneFormatter() throws Exception {
        List<SnapshotSource> sources = new ArrayList<>();
        Snapshot tc2 = Snapshot.load(SharedData.tc2());
        for (int id : new int[] {0x10, 0x13}) {
            sources.add(tc2.source(id).orElseThrow());
        }
        sources.add(Snapshot.load(SharedData.dir("etm4/juno_r1_1")).source(0x10).orElseThrow());
        Random random = new Random(27);
        long helped = 0;
        int compared = 0;
        for (SnapshotSource source : sources) {
            DecodeInput input = DecodeInput.of(source);
            TraceProtocol protocol = Protocols.forDeviceType(source.type()).orElseThrow();
            for (BiFunction<java.io.PrintWriter, ProgramImage, ElementSink> form : FORMS) {
                Function<ProgramImage, PieceFormat> format = image -> new ListingPieces(w -> form.apply(w, image),
                        StandardCharsets.UTF_8, 4096);
                ByteArrayOutputStream one = new ByteArrayOutputStream();
                PieceFormat.Formatter f = format.apply(input.image()).open(one);
                protocol.decode(input, f);
                f.end();
                for (int round = 0; round < 3; round++) {
                    int words = 64 << random.nextInt(6);
                    int every = 1 + random.nextInt(3);
                    long seed = random.nextLong();
                    ByteArrayOutputStream piped = new ByteArrayOutputStream();
                    long[] count = {0};
                    boolean any = ElementPipe.decode(s -> protocol.decode(input, s), format.apply(input.image()),
                            format.apply(input.image()), piped, "listing", words,
                            h -> new Random(seed + h).nextInt(every) == 0, ElementPipe.HELP_BYTES_MAX, count);
                    assertThat(any).isTrue();
                    String expected = one.toString(StandardCharsets.UTF_8);
                    String actual = piped.toString(StandardCharsets.UTF_8);
                    assertThat(firstDifference(actual, expected)).as("%s, batches of %d words, round %d",
                            source.name(), words, round).isEmpty();
                    helped += count[0];
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(3 * FORMS.size() * 3);
        assertThat(helped).as("batches formatted on the decoder's thread").isGreaterThan(100);
    }

    /** Where two listings first differ, their lines around it; empty when they are equal. */
    static String firstDifference(String actual, String expected) {
        if (actual.equals(expected)) {
            return "";
        }
        String[] a = actual.split("\n", -1);
        String[] e = expected.split("\n", -1);
        int i = 0;
        while (i < a.length && i < e.length && a[i].equals(e[i])) {
            i++;
        }
        int from = Math.max(0, i - 3);
        return "line " + (i + 1) + "\n  got:\n" + String.join("\n", java.util.Arrays.copyOfRange(a, from,
                Math.min(a.length, i + 4))) + "\n  expected:\n" + String.join("\n", java.util.Arrays.copyOfRange(e,
                from, Math.min(e.length, i + 4)));
    }

    /**
     * A batch whose listing passes the bound the decoder keeps in memory (here 3 KB, a few buffers of 1 KB) stops the
     * helping for the rest of the stream, with the bytes of one formatter all the same.
     */
    @Test
    void aBatchListingPastTheBoundStopsTheHelping() throws Exception {
        SnapshotSource ptm = Snapshot.load(SharedData.tc2()).source(0x13).orElseThrow();
        DecodeInput input = DecodeInput.of(ptm);
        TraceProtocol protocol = Protocols.forDeviceType(ptm.type()).orElseThrow();
        Function<ProgramImage, PieceFormat> format = image -> new ListingPieces(
                w -> new TextWriter(w, image, true, false), StandardCharsets.UTF_8, 1024);
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        PieceFormat.Formatter f = format.apply(input.image()).open(one);
        protocol.decode(input, f);
        f.end();
        long[] helped = new long[1];
        // batches of 64 words list 2 to 20 KB of instructions: the first over 3 KB ends the helping
        ByteArrayOutputStream small = new ByteArrayOutputStream();
        ElementPipe.decode(s -> protocol.decode(input, s), format.apply(input.image()), format.apply(input.image()),
                small, "listing", 64, h -> true, 3000, helped);
        assertThat(firstDifference(small.toString(StandardCharsets.UTF_8), one.toString(StandardCharsets.UTF_8)))
                .isEmpty();
        long bounded = helped[0];
        ByteArrayOutputStream large = new ByteArrayOutputStream();
        ElementPipe.decode(s -> protocol.decode(input, s), format.apply(input.image()), format.apply(input.image()),
                large, "listing", 64, h -> true, ElementPipe.HELP_BYTES_MAX, helped);
        assertThat(large.toByteArray()).isEqualTo(one.toByteArray());
        assertThat(helped[0]).as("batches formatted ahead without the bound").isGreaterThan(20);
        assertThat(bounded).as("with it").isLessThan(helped[0] / 4);
    }

    /**
     * A batch that starts after an exception return the text listing holds back (to say whether it tail-chained
     * into the exception that follows) is listed by the pipe's thread even when the decoder's thread formatted it:
     * that formatter, starting fresh, could not join the return to the next batch's exception entry.
     */
    @Test
    void aBatchAfterAHeldExceptionReturnIsListedBehind() throws Exception {
        ProgramImage image = DecodeInput.of(Snapshot.load(SharedData.tc2()).source(0x13).orElseThrow()).image();
        ElementPipe.Decode decode = s -> {
            // a batch of 64 words is handed over at its 60th one-word entry (the first has a change of source too):
            // even batches end with the return, odd ones start with the exception entry it tail-chains into and end
            // with a cycle count, where the decoder's formatter is fresh again and keeps its bytes
            for (int batch = 0; batch < 8; batch++) {
                if (batch % 2 == 0) {
                    for (int i = batch == 0 ? 2 : 1; i < 60; i++) {
                        s.cycles(0x13, batch * 100 + i);
                    }
                    s.accept(new ExceptionReturn(0x13, -1));
                } else {
                    s.accept(new ExceptionEntry(0x13, 15, "SysTick", -1, false));
                    for (int i = 1; i < 60; i++) {
                        s.cycles(0x13, batch * 100 + i);
                    }
                }
            }
            s.cycles(0x13, 1000);
        };
        Function<ProgramImage, PieceFormat> format = img -> new ListingPieces(w -> new TextWriter(w, img, false, false),
                StandardCharsets.UTF_8, 1024);
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        PieceFormat.Formatter f = format.apply(image).open(one);
        decode.into(f);
        f.end();
        assertThat(one.toString(StandardCharsets.UTF_8)).contains("exception return, tail-chained into 15 (SysTick)");
        ByteArrayOutputStream piped = new ByteArrayOutputStream();
        long[] helped = new long[1];
        ElementPipe.decode(decode, format.apply(image), format.apply(image), piped, "listing", 64, h -> true,
                ElementPipe.HELP_BYTES_MAX, helped);
        assertThat(helped[0]).as("batches formatted ahead").isGreaterThan(0);
        assertThat(firstDifference(piped.toString(StandardCharsets.UTF_8), one.toString(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    /** Nothing but gaps (trace without a sync point) lists nothing, and says so. */
    @Test
    void aTraceWithoutSyncListsNothing() throws Exception {
        SnapshotSource ptm = Snapshot.load(SharedData.tc2()).source(0x13).orElseThrow();
        DecodeInput real = DecodeInput.of(ptm);
        DecodeInput junk = new DecodeInput(real.traceId(), real.registers(), real.image(),
                io.armtrace.source.TraceData.of("junk", new byte[5000]), real.options());
        PieceFormat format = new ListingPieces(w -> new TextWriter(w, real.image(), false, false), StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean any = ElementPipe.decode(s -> Protocols.forDeviceType(ptm.type()).orElseThrow().decode(junk, s),
                format, format, out, "listing", 64, h -> true, ElementPipe.HELP_BYTES_MAX, new long[1]);
        assertThat(any).isFalse();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("*** gap");
    }
}
