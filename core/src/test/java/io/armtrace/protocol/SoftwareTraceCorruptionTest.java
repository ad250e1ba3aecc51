package io.armtrace.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.source.Registers;
import io.armtrace.source.TraceData;
import io.armtrace.testdata.SharedData;
import io.armtrace.trace.ElementCollector;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceElement;
import io.armtrace.trace.TraceOn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Damaged real captures: a gap at the damage with its byte offset, then, from the next synchronization point
 * on, exactly the elements of the undamaged capture.
 */
class SoftwareTraceCorruptionTest {

    static List<TraceElement> decode(String protocol, byte[] bytes) throws IOException {
        ElementCollector c = new ElementCollector();
        Protocols.byName(protocol).orElseThrow().decode(new DecodeInput(1, new Registers(), null,
                TraceData.of("capture", bytes), DecodeOptions.DEFAULT), c);
        return c.elements();
    }

    /** Where the decoder synchronized again at or past {@code offset}; -1 if it did not. */
    static long resync(List<TraceElement> elements, long offset) {
        for (TraceElement e : elements) {
            if (e instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC && t.offset() >= offset) {
                return t.offset();
            }
        }
        return -1;
    }

    /** The elements after the sync at {@code offset}, offsets left out (they count from different starts). */
    static List<TraceElement> after(List<TraceElement> elements, long offset) {
        boolean on = false;
        List<TraceElement> out = new java.util.ArrayList<>();
        for (TraceElement e : elements) {
            if (e instanceof TraceOn t && t.reason() == TraceOn.Reason.SYNC) {
                on |= t.offset() == offset;
                continue;
            }
            if (on) {
                if (e instanceof Gap g) {
                    out.add(new Gap(g.source(), g.reason(), -1));
                } else if (e instanceof io.armtrace.trace.DecodeError d) {
                    out.add(new io.armtrace.trace.DecodeError(d.source(), d.message(), d.address(), -1));
                } else {
                    out.add(SoftwareRoundTripTest.comparable(List.of(e)).get(0));
                }
            }
        }
        return out;
    }

    /** What a decoder that saw the capture begin at {@code offset} gives. */
    static List<TraceElement> fresh(String protocol, byte[] clean, long offset) throws IOException {
        return after(decode(protocol, java.util.Arrays.copyOfRange(clean, (int) offset, clean.length)), 0);
    }

    @Test
    void itmCaptureWithAReservedHeaderResumesAtTheNextSynchronization() throws IOException {
        byte[] clean = Files.readAllBytes(SharedData.dir("swtrace/itm_only_raw").resolve("itm_testdata.bin"));
        byte[] bad = clean.clone();
        bad[0x39] = 0x04; // the exception trace packet's header (0x0e) becomes a reserved header
        List<TraceElement> e = decode("itm", bad);
        assertThat(e).contains(new Gap(1, "0x04: 0bxxxx0100 is reserved except for the global timestamps", 0x39));
        long at = resync(e, 0x39);
        assertThat(at).isEqualTo(0x7d); // the next synchronization packet
        assertThat(after(e, at)).isEqualTo(fresh("itm", clean, at)).hasSize(28);
    }

    @Test
    void stmCaptureWithAReservedOpcodeResumesAtTheNextAsync() throws IOException {
        byte[] clean;
        try (InputStream in = io.armtrace.source.Snapshot.load(SharedData.dir("swtrace/stm_only-juno")).sources().get(0)
                .data().open()) {
            clean = in.readAllBytes();
        }
        byte[] bad = clean.clone();
        // bytes 19-20 hold "C8 channel 1" (nibbles 3, 0, 1 from the high half of byte 19): make the opcode F0C
        bad[19] = (byte) ((bad[19] & 0x0F) | 0xF0);
        bad[20] = (byte) 0xC0;
        List<TraceElement> e = decode("stm", bad);
        assertThat(e).contains(new Gap(1, "opcode 0xF0C is reserved", 19));
        long at = resync(e, 19);
        assertThat(at).isEqualTo(45); // the next ASYNC, from the high half of byte 45
        assertThat(after(e, at)).isEqualTo(fresh("stm", clean, at)).isNotEmpty();
    }

    /** Random damage anywhere: every gap has an offset inside the capture, and nothing is lost for good. */
    @Test
    void randomDamageGivesGapsWithOffsetsAndTheRestDecodes() throws IOException {
        byte[] clean = Files.readAllBytes(SharedData.dir("swtrace/itm_only_raw").resolve("itm_testdata.bin"));
        Random r = new Random(5);
        for (int round = 0; round < 300; round++) {
            byte[] bad = clean.clone();
            int at = r.nextInt(bad.length);
            bad[at] = (byte) r.nextInt(256);
            List<TraceElement> e = decode("itm", bad);
            for (TraceElement x : e) {
                if (x instanceof Gap g) {
                    assertThat(g.offset()).isBetween(0L, (long) bad.length);
                }
            }
            // damage the decoder noticed (a gap): from the next synchronization packet on it decodes as a decoder
            // that saw the capture begin there (damage it cannot notice, e.g. in a payload, it cannot undo)
            long lastGap = -1;
            for (TraceElement x : e) {
                if (x instanceof Gap g && g.offset() > 0) {
                    lastGap = g.offset();
                }
            }
            long sync = lastGap < 0 ? -1 : resync(e, lastGap);
            if (sync >= 0) {
                assertThat(after(e, sync)).isEqualTo(fresh("itm", clean, sync));
            }
        }
    }
}
