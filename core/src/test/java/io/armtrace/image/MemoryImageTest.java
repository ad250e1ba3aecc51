package io.armtrace.image;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryImageTest {

    @Test
    void aKeepingCopyKeepsWhatIsBuiltOnItUntilARegionIsAdded() {
        MemoryImage m = new MemoryImage().add(0x1000, new byte[] {1, 2, 3, 4}, "a");
        int[] made = {0};
        java.util.function.Function<MemoryImage, Object> make = x -> {
            made[0]++;
            return new Object();
        };
        assertThat(m.keeps()).isFalse();
        assertThat(m.kept("k", make)).isNotSameAs(m.kept("k", make));
        assertThat(m.copy().keeps()).isFalse();

        MemoryImage keeping = m.keeping();
        assertThat(keeping.keeps()).isTrue();
        assertThat(keeping.u8(0x1002)).isEqualTo(3);
        Object k = keeping.kept("k", make);
        assertThat(keeping.kept("k", make)).isSameAs(k);
        assertThat(keeping.kept("other", make)).isNotSameAs(k);
        assertThat(made[0]).isEqualTo(4);
        assertThat(m.keeping().kept("k", make)).isNotSameAs(k);

        keeping.add(0x1002, new byte[] {9}, "patch");
        assertThat(keeping.u8(0x1002)).isEqualTo(9);
        assertThat(keeping.kept("k", make)).isNotSameAs(k);
        Object again = keeping.kept("k", make);
        keeping.addAll(new MemoryImage().add(0x2000, new byte[] {7}, "b"));
        assertThat(keeping.kept("k", make)).isNotSameAs(again);
    }

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

    /**
     * Addresses are unsigned 64-bit: a region across 2^63 (where a Java long turns negative) is one region,
     * regions of the upper half sort after those of the lower half, and a region that would run past the
     * top of the address space is no memory at all (it has no end to compare with).
     */
    @Test
    void addressesAreUnsigned() {
        long half = Long.MIN_VALUE; // 0x8000_0000_0000_0000
        MemoryImage m = new MemoryImage()
                .add(half - 4, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "across")
                .add(0xFFFF_0000_0000_0000L, new byte[] {(byte) 0xAA, (byte) 0xBB}, "kernel")
                .add(0x1000, new byte[] {0x11, 0x22}, "user")
                .add(-2, new byte[] {9, 9, 9, 9}, "past the top");
        assertThat(m.u8(half - 4)).isEqualTo(1);
        assertThat(m.u32(half - 2)).isEqualTo(0x06050403L);
        assertThat(m.u16(half - 1)).isEqualTo(0x0504);
        assertThat(m.u32(half)).isEqualTo(0x08070605L);
        assertThat(m.u8(half + 4)).isEqualTo(-1);
        assertThat(m.u8(half - 5)).isEqualTo(-1);
        assertThat(m.regionAt(half + 1).name()).isEqualTo("across");
        assertThat(m.contains(half - 4, 8)).isTrue();
        assertThat(m.contains(half - 4, 9)).isFalse();
        byte[] buf = new byte[16];
        assertThat(m.read(half - 2, buf, 0, 16)).isEqualTo(6);
        assertThat(buf[5]).isEqualTo((byte) 8);
        assertThat(m.u16(0xFFFF_0000_0000_0000L)).isEqualTo(0xBBAA);
        assertThat(m.u16(0x1000)).isEqualTo(0x2211);
        assertThat(m.u8(-1)).isEqualTo(-1);
        assertThat(m.u8(-2)).isEqualTo(-1);
        assertThat(m.contains(-2, 2)).isFalse();
        // a region that ends exactly at the top of the address space is memory
        MemoryImage top = new MemoryImage().add(-4, new byte[] {1, 2, 3, 4}, "top").add(0, new byte[] {5}, "zero");
        assertThat(top.u32(-4)).isEqualTo(0x04030201L);
        assertThat(top.u8(-1)).isEqualTo(4);
        assertThat(top.regionAt(-1).name()).isEqualTo("top");
        assertThat(top.contains(-4, 4)).isTrue();
        assertThat(top.u8(0)).isEqualTo(5);
        // a later region still wins across 2^63
        m.add(half - 1, new byte[] {(byte) 0xCC, (byte) 0xDD}, "over");
        assertThat(m.u32(half - 2)).isEqualTo(0x06DDCC03L);
        assertThat(m.regionAt(half - 4).name()).isEqualTo("across");
        assertThat(m.regionAt(half).name()).isEqualTo("over");
    }
}
