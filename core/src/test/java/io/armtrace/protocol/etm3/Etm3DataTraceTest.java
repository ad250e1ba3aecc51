package io.armtrace.protocol.etm3;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.protocol.etm3.Etm3Packet.Kind;
import io.armtrace.trace.DecodeError;
import io.armtrace.trace.Gap;
import io.armtrace.trace.TraceElement;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A capture with data tracing on (ETMCR[3:2]) still decodes to its instruction flow: data packets of
 * every kind, interleaved between the instruction packets, are parsed to their full length and skipped.
 */
class Etm3DataTraceTest {

    /** Data packets (IHI 0014Q Table 7.1) with data address and value tracing on. */
    static final int[][] DATA = {
        {0x26, 0x90, 0x01, 0xAB}, // normal data, address (2 bytes), 1-byte value
        {0x2E, 0x84, 0x80, 0x80, 0x80, 0x0F, 1, 2, 3, 4}, // normal data, 5-byte address, 4-byte value
        {0x02}, // normal data, no address, no value
        {0x0A, 0x11, 0x22}, // normal data, 2-byte value
        {0x28, 0x11, 0x22}, // out-of-order data, tag 1, 2 bytes
        {0x54}, // out-of-order placeholder b01A1TT00, tag 1, no address
        {0x74, 0x85, 0x05}, // out-of-order placeholder with address
        {0x6A}, // value not traced
        {0x7A, 0x06}, // value not traced with address
        {0x50}, // store failed
        {0x62}, // data suppressed
        {0x7E}, // exception entry (ARMv7-M data marker)
    };

    @Test
    void dataPacketsBetweenInstructionPacketsLeaveTheFlowIntact() {
        SyntheticProgram prog = new SyntheticProgram(99, false, 3000);
        Etm3Encoder.Options o = Etm3Encoder.Options.DEFAULT.withCycleAccurate(true).withContextId(4, 0x1234);
        Etm3Encoder.Result enc = new Etm3Encoder(o, prog.image).encode(prog.execution);
        Etm3Config plain = enc.config();
        // packet boundaries of the instruction trace
        List<long[]> packets = new ArrayList<>();
        Etm3PacketReader r = new Etm3PacketReader(plain, p -> packets.add(new long[] {p.offset, p.length, p.kind.ordinal()}));
        r.push(enc.trace(), 0, enc.trace().length);
        r.end();
        assertThat(packets).noneMatch(p -> p[2] == Kind.MALFORMED.ordinal() || p[2] == Kind.UNSYNCED.ordinal());
        Random rnd = new Random(5);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int inserted = 0;
        for (long[] p : packets) {
            if (p[2] != Kind.A_SYNC.ordinal() && rnd.nextInt(3) == 0) {
                for (int b : DATA[rnd.nextInt(DATA.length)]) {
                    out.write(b);
                }
                inserted++;
            }
            out.write(enc.trace(), (int) p[0], (int) p[1]);
        }
        byte[] withData = out.toByteArray();
        Etm3Config data = new Etm3Config(plain.etmcr() | Etm3Config.CR_DATA_ADDRESS | Etm3Config.CR_DATA_VALUE,
                plain.etmidr(), plain.etmccer(), plain.traceId(), plain.armv7m());
        List<TraceElement> els = Etm3RoundTripTest.decode(withData, data, prog.image);
        assertThat(inserted).isGreaterThan(100);
        assertThat(els).noneMatch(e -> e instanceof Gap || e instanceof DecodeError);
        Etm3RoundTripTest.assertSameSteps(prog.execution, els, prog.image);
        // and the same bytes read without data tracing enabled are an error, not a silent misreading
        List<TraceElement> wrong = Etm3RoundTripTest.decode(withData, plain, prog.image);
        assertThat(wrong).anyMatch(e -> e instanceof Gap);
    }
}
