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

    @Test
    void aRawDumpOverTwoGibibytesIsMappedInParts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path f = dir.resolve("big.bin");
        long size = (5L << 29) + 6; // 2.5 GiB and a bit, sparse
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
            raf.seek((1L << 30) - 2);
            raf.write(new byte[] {0x11, 0x22, 0x33, 0x44}); // across the first 1 GiB boundary
            raf.seek(size - 4);
            raf.write(new byte[] {(byte) 0xEF, (byte) 0xBE, (byte) 0xAD, (byte) 0xDE});
        }
        MemoryImage m = new MemoryImage();
        RawImage.load(m, f, 0x1_0000_0000L, 0, -1);
        assertThat(m.u32(0x1_0000_0000L + (1L << 30) - 2)).isEqualTo(0x44332211L);
        assertThat(m.u16(0x1_0000_0000L + (1L << 30))).isEqualTo(0x4433);
        assertThat(m.u32(0x1_0000_0000L + size - 4)).isEqualTo(0xDEADBEEFL);
        assertThat(m.u8(0x1_0000_0000L + size)).isEqualTo(-1);
        assertThat(m.contains(0x1_0000_0000L, 64)).isTrue();
        // an offset and a length select part of the file
        MemoryImage part = new MemoryImage();
        RawImage.load(part, f, 0x8000, size - 4, 2);
        assertThat(part.u16(0x8000)).isEqualTo(0xBEEF);
        assertThat(part.u8(0x8002)).isEqualTo(-1);
    }
}
