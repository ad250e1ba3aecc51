package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code FILE@ADDRESS} takes any 64-bit address, the upper half too (an AArch64 kernel's). */
class RawImageAddressTest {
    @TempDir
    Path dir;

    private MemoryImage load(String address) throws IOException {
        Path f = dir.resolve("dump.bin");
        Files.write(f, new byte[] {0x10, (byte) 0xB5, 0x70, 0x47});
        return RawImage.parseArgument(f + "@" + address, new ProgramImage(new MemoryImage(), SymbolTable.EMPTY)).memory();
    }

    @Test
    void upperHalfAddressesPlaceTheDump() throws IOException {
        MemoryImage m = load("0xffff000008000000");
        assertThat(m.u16(0xFFFF_0000_0800_0000L)).isEqualTo(0xB510);
        assertThat(m.u16(0xFFFF_0000_0800_0002L)).isEqualTo(0x4770);
        assertThat(m.u16(0x0800_0000L)).isEqualTo(-1);
        assertThat(load("0XFFFFFFFFFFFF0000").u32(0xFFFF_FFFF_FFFF_0000L)).isEqualTo(0x4770B510L);
    }

    @Test
    void otherNumbersReadAsBefore() throws IOException {
        assertThat(load("0x8000").u16(0x8000)).isEqualTo(0xB510);
        assertThat(load("32768").u16(0x8000)).isEqualTo(0xB510);
        assertThat(load("0100000").u16(0x8000)).isEqualTo(0xB510);
        assertThatThrownBy(() -> load("0x1ffff000008000000")).isInstanceOf(ImageException.class)
                .hasMessageEndingWith("the address after '@' is not a number (0x8000, 32768).");
        assertThatThrownBy(() -> load("0xzz")).isInstanceOf(ImageException.class);
        // decimal stays below 2^63; the upper half is written in hexadecimal
        assertThatThrownBy(() -> load("18446462598866550784")).isInstanceOf(ImageException.class);
    }
}
