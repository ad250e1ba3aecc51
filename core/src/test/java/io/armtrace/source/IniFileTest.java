package io.armtrace.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class IniFileTest {
    private static IniFile parse(String text) {
        return IniFile.parse(Path.of("x.ini"), text);
    }

    @Test
    void commentsStartAnywhereAndBlankLinesAreIgnored() {
        IniFile ini = parse("; header\n\n[regs] ; trailing\nETMCR(0x000)=0x10001860 # the control register\n"
                + "  key = value with spaces  \n#only a comment\n");
        assertThat(ini.get("REGS", "etmcr(0x000)")).isEqualTo("0x10001860");
        assertThat(ini.get("regs", "key")).isEqualTo("value with spaces");
    }

    @Test
    void sectionsAreCaseInsensitiveAndLaterKeysWin() {
        IniFile ini = parse("[Device]\nname=a\nNAME=b\n[dump1]\nfile=x\n[DUMP2]\nfile=y\n");
        assertThat(ini.section("device").get("name")).isEqualTo("b");
        assertThat(ini.sections()).extracting(IniFile.Section::name).containsExactly("Device", "dump1", "DUMP2");
    }

    @Test
    void crlfAndValuesWithEqualsSigns() {
        IniFile ini = parse("[a]\r\nx=1=2\r\ny=\r\n");
        assertThat(ini.get("a", "x")).isEqualTo("1=2");
        assertThat(ini.get("a", "y")).isEmpty();
    }

    @Test
    void cLiterals() {
        assertThat(IniFile.parseNumber("0x10")).isEqualTo(16);
        assertThat(IniFile.parseNumber("0X1f")).isEqualTo(31);
        assertThat(IniFile.parseNumber("010")).isEqualTo(8);
        assertThat(IniFile.parseNumber("0")).isEqualTo(0);
        assertThat(IniFile.parseNumber("1234")).isEqualTo(1234);
        assertThat(IniFile.parseNumber("0x0000042492EE776D")).isEqualTo(0x0000042492EE776DL);
        assertThat(IniFile.parseNumber("0xFFFFFFFFFFFFFFFF")).isEqualTo(-1L);
        assertThat(IniFile.parseNumber("0x50000u")).isEqualTo(0x50000);
        assertThatThrownBy(() -> IniFile.parseNumber("0x")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> IniFile.parseNumber("09")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> IniFile.parseNumber("abc")).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void onlyAsciiDigitsAndNoSign() {
        // Long.parseUnsignedLong reads these as 0x8000, 10 and 5
        for (String bad : new String[] {"0x\uff18\uff10\uff10\uff10", "\u0661\u0660", "\uff15", "-1", "-0x10", "+5",
                "0x1FFFFFFFFFFFFFFFF", "18446744073709551616", "0x", "u"}) {
            assertThatThrownBy(() -> IniFile.parseNumber(bad)).as(bad).isInstanceOf(NumberFormatException.class);
        }
        assertThat(IniFile.parseNumber("18446744073709551615")).isEqualTo(-1L);
        assertThat(IniFile.parseNumber("01777777777777777777777")).isEqualTo(-1L);
    }

    @Test
    void aNamedPipeOrDeviceIsRefusedAndAnythingIsReadWithABound(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("trace.ini");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> IniFile.read(fifo)).isInstanceOf(InputException.class)
                        .hasMessageContaining("trace.ini: is a named pipe (FIFO), not a regular file"));
        assertThatThrownBy(() -> IniFile.read(Path.of("/dev/zero"))).isInstanceOf(InputException.class)
                .hasMessageContaining("/dev/zero: is a device, not a regular file");
        assertThatThrownBy(() -> IniFile.read(dir)).isInstanceOf(InputException.class).hasMessageContaining("is a directory");
        // the bound holds for a stream that does not end, whatever its kind
        assertThat(io.armtrace.image.FileKind.readAtMost(Path.of("/dev/zero"), 1 << 10)).isNull();
        java.nio.file.Files.writeString(dir.resolve("small.ini"), "[a]\nb=1\n");
        assertThat(io.armtrace.image.FileKind.readAtMost(dir.resolve("small.ini"), 8)).hasSize(8);
        assertThat(io.armtrace.image.FileKind.readAtMost(dir.resolve("small.ini"), 7)).isNull();
    }

    @Test
    void malformedLinesNameFileAndLine() {
        assertThatThrownBy(() -> parse("[a]\nno equals here\n"))
                .isInstanceOf(InputException.class).hasMessageContaining("x.ini line 2");
        assertThatThrownBy(() -> parse("key=value\n"))
                .isInstanceOf(InputException.class).hasMessageContaining("before any [section]");
        assertThatThrownBy(() -> parse("[open\n"))
                .isInstanceOf(InputException.class).hasMessageContaining("closing ']'");
        assertThatThrownBy(() -> parse("[]\n"))
                .isInstanceOf(InputException.class).hasMessageContaining("empty section");
    }

    @Test
    void registersIgnoreTheParenthesisedPartAndCase() {
        Registers r = new Registers().put("ETMCR(0x000)", 5).put("etmTraceIdr(id:0x80)", 0x13);
        assertThat(r.get("etmcr", -1)).isEqualTo(5);
        assertThat(r.get("ETMTRACEIDR", -1)).isEqualTo(0x13);
        assertThat(r.has("ETMIDR")).isFalse();
    }

    @Test
    @org.junit.jupiter.api.Timeout(20)
    void manyKeysParseInLinearTime() {
        // 200,000 distinct keys: a quadratic duplicate-key check took minutes here
        StringBuilder sb = new StringBuilder("[regs]\n");
        for (int i = 0; i < 200_000; i++) {
            sb.append("KEY").append(i).append("=").append(i).append('\n');
        }
        sb.append("key17=again\n");
        IniFile ini = parse(sb.toString());
        assertThat(ini.section("REGS").entries()).hasSize(200_000);
        assertThat(ini.get("regs", "Key199999")).isEqualTo("199999");
        assertThat(ini.get("regs", "KEY17")).isEqualTo("again");
    }

    @Test
    void aHugeFileIsRefusedWithoutReadingIt(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = dir.resolve("snapshot.ini");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(IniFile.MAX_SIZE + 1);
        }
        assertThatThrownBy(() -> IniFile.read(f)).isInstanceOf(InputException.class).hasMessageContaining("too large");
    }
}
