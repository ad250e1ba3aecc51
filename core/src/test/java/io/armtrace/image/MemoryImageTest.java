package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryImageTest {

    @Test
    void laterRegionWinsWhereRegionsOverlap() {
        MemoryImage m = new MemoryImage()
                .add(0x1000, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "a")
                .add(0x1002, new byte[] {(byte) 0xAA, (byte) 0xBB}, "b");
        assertThat(m.u8(0x1001)).isEqualTo(2);
        assertThat(m.u8(0x1002)).isEqualTo(0xAA);
        assertThat(m.u8(0x1003)).isEqualTo(0xBB);
        assertThat(m.u8(0x1004)).isEqualTo(5);
        assertThat(m.regionAt(0x1002).name()).isEqualTo("b");
        assertThat(m.regionAt(0x1007).name()).isEqualTo("a");
    }

    @Test
    void readsCrossRegionEndsAndStopAtHoles() {
        MemoryImage m = new MemoryImage()
                .add(0x2000, new byte[] {0x11, 0x22, 0x33}, "lo")
                .add(0x2003, new byte[] {0x44, 0x55}, "hi");
        assertThat(m.u32(0x2000)).isEqualTo(0x44332211L);
        assertThat(m.u16(0x2002)).isEqualTo(0x4433);
        assertThat(m.u32(0x2002)).isEqualTo(-1);
        assertThat(m.u8(0x1FFF)).isEqualTo(-1);
        assertThat(m.contains(0x2000, 5)).isTrue();
        assertThat(m.contains(0x2000, 6)).isFalse();
        byte[] buf = new byte[8];
        assertThat(m.read(0x2001, buf, 0, 8)).isEqualTo(4);
        assertThat(buf[3]).isEqualTo((byte) 0x55);
    }

    @Test
    void wordsAreUnsigned() {
        MemoryImage m = new MemoryImage().add(0xFFFF0000L, new byte[] {0, 0, 0, (byte) 0x80}, "v");
        assertThat(m.u32(0xFFFF0000L)).isEqualTo(0x80000000L);
    }
}
