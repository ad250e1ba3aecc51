package io.armtrace.protocol.etm2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three capture formats of docs/etm2-capture-formats.md. */
class Etm2CaptureTest {

    static List<String> read(byte[] bytes, Etm2Config cfg, Etm2Capture.Format[] format) throws Exception {
        List<String> out = new ArrayList<>();
        Etm2Capture.Format f = Etm2Capture.read(new ByteArrayInputStream(bytes), h -> cfg, new Etm2CycleSink() {
            @Override
            public void cycle(int pipestat, int tracepkt, boolean tracesync) {
                out.add(pipestat + "/" + Integer.toHexString(tracepkt) + (tracesync ? "/S" : ""));
            }

            @Override
            public void lost(long position, String why) {
                out.add("lost@" + position);
            }
        });
        format[0] = f;
        return out;
    }

    @Test
    void logicAnalyzerCsvWithNamedColumnsMnemonicsAndBitPatterns() throws Exception {
        String csv = "Time [s],TRACEPKT[7:0],PIPESTAT[2:0],TRACESYNC\n"
                + "0.000000000,0x81,BE,1\n"
                + "0.000000010,0b10000000,b0011,0\n"
                + "# a comment\n"
                + "0.000000020,16,TD,0\n"
                + "0.000000030,zz,IE,0\n";
        Etm2Capture.Format[] f = new Etm2Capture.Format[1];
        List<String> c = read(csv.getBytes(StandardCharsets.US_ASCII), Etm2Config.DEFAULT.withVersion(1), f);
        assertThat(f[0]).isEqualTo(Etm2Capture.Format.CSV);
        assertThat(c).containsExactly("4/81/S", "3/80", "7/10", "lost@6"); // line 6 is unreadable
        // ETMv2 mnemonics (6.1): DW b0101, PTDE b1001
        String v2 = "pipestat;tracepkt\nDW;0x81\nPTDE;0\n";
        assertThat(read(v2.getBytes(StandardCharsets.US_ASCII), Etm2Config.DEFAULT, f)).containsExactly("5/81", "9/0");
    }

    @Test
    void csvWithoutHeaderIsPipestatTracepktTracesync() throws Exception {
        Etm2Capture.Format[] f = new Etm2Capture.Format[1];
        List<String> c = read("4 0x81 1\n0 0x80 0\n".getBytes(StandardCharsets.US_ASCII), Etm2Config.DEFAULT, f);
        assertThat(f[0]).isEqualTo(Etm2Capture.Format.CSV);
        assertThat(c).containsExactly("4/81/S", "0/80");
    }

    @Test
    void etbWordsPackThreeTwoOrOneCyclesAWord() throws Exception {
        Etm2Capture.Format[] f = new Etm2Capture.Format[1];
        // ETMv1 4-bit: three 8-bit fields [2:0] PIPESTAT, [6:3] TRACEPKT, [7] TRACESYNC
        int w4 = (4 | 0x1 << 3 | 1 << 7) | (0 | 0x8 << 3) << 8 | (3 | 0xF << 3) << 16;
        List<String> c4 = read(le(w4), Etm2Config.DEFAULT.withVersion(1).withPortWidth(4), f);
        assertThat(f[0]).isEqualTo(Etm2Capture.Format.ETB);
        assertThat(c4).containsExactly("4/1/S", "0/8", "3/f");
        // ETMv2 8-bit: two 12-bit fields, the top bit is PIPESTAT[3]: b1011 DW, then IE
        int w8 = (3 | 0x81 << 3 | 1 << 11) | (0 | 0x7F << 3) << 12;
        assertThat(read(le(w8), Etm2Config.DEFAULT.withPortWidth(8), f)).containsExactly("11/81", "0/7f");
        // 16-bit: one 20-bit field
        int w16 = 5 | 0xBEEF << 3;
        assertThat(read(le(w16), Etm2Config.DEFAULT.withPortWidth(16), f)).containsExactly("5/beef");
        // the encoder writes the same layout
        int[] ps = {4, 0, 3};
        int[] pk = {1, 8, 15};
        boolean[] sy = {true, false, false};
        assertThat(Etm2Capture.etbWord(Etm2Config.DEFAULT.withVersion(1).withPortWidth(4), ps, pk, sy, 0, 3))
                .isEqualTo(w4);
    }

    @Test
    void cycleRecordsHaveAHeaderAndThreeBytesACycle() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Etm2Capture.writeHeader(out, Etm2Config.DEFAULT.withVersion(1).withPortWidth(16));
        Etm2Capture.writeRecord(out, 4, 0x1234, true);
        Etm2Capture.writeRecord(out, 7, 0, false);
        byte[] b = out.toByteArray();
        assertThat(b).hasSize(16 + 6);
        assertThat(new String(b, 0, 8, StandardCharsets.US_ASCII)).isEqualTo("ARMTETM2");
        assertThat(b[9]).isEqualTo((byte) 1);
        assertThat(b[10]).isEqualTo((byte) 16);
        assertThat(b[16]).isEqualTo((byte) 0x14);
        Etm2Capture.Format[] f = new Etm2Capture.Format[1];
        Etm2Capture.Header[] h = new Etm2Capture.Header[1];
        List<String> c = new ArrayList<>();
        Etm2Capture.read(new ByteArrayInputStream(b, 0, b.length - 1), hdr -> {
            h[0] = hdr;
            return Etm2Config.DEFAULT;
        }, new Etm2CycleSink() {
            @Override
            public void cycle(int pipestat, int tracepkt, boolean tracesync) {
                c.add(pipestat + "/" + Integer.toHexString(tracepkt) + (tracesync ? "/S" : ""));
            }

            @Override
            public void lost(long position, String why) {
                c.add("lost@" + position);
            }
        });
        assertThat(h[0]).isEqualTo(new Etm2Capture.Header(1, 16));
        assertThat(c).containsExactly("4/1234/S", "lost@19");
    }

    static byte[] le(int w) {
        return new byte[] {(byte) w, (byte) (w >> 8), (byte) (w >> 16), (byte) (w >> 24)};
    }
}
