package io.armtrace.protocol.mtb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.armtrace.source.Registers;
import org.junit.jupiter.api.Test;

/**
 * Buffer placement and age order from POSITION and MASTER, with the register semantics of the Kinetis
 * KL25 reference manual's MTB chapter: MTB_BASE = 0x2000_0000 - RAM_size/4 (0x1FFF_F000 for 16 KB of
 * RAM), POSITION initialised to MTB_BASE & 0x7FF8, a circular buffer of 2^(MASK+4) bytes at a multiple
 * of its size, WRAP set when POINTER wraps.
 */
class MtbLayoutTest {
    static MtbConfig config(long position, long master, Long base) {
        Registers r = new Registers().put("POSITION", position).put("MASTER", master);
        if (base != null) {
            r.put("BASE", base);
        }
        return MtbConfig.from(r);
    }

    @Test
    void registerFields() {
        MtbConfig c = config(0x7034 & ~3L | 4, 0x80000065L, null);
        assertThat(c.pointer()).isEqualTo(0x7030);
        assertThat(c.wrapped()).isTrue();
        assertThat(c.enabled()).isTrue();
        assertThat(c.tstartEnabled()).isTrue();
        assertThat(c.tstopEnabled()).isTrue();
        assertThat(c.mask()).isEqualTo(5);
        assertThat(c.maskedBufferSize()).isEqualTo(512);
        assertThat(c.describe()).anyMatch(l -> l.contains("512 bytes")).anyMatch(l -> l.contains("WRAP=1"));
    }

    @Test
    void notWrappedDumpOfTheBufferHoldsPacketsBelowPointer() {
        // 512-byte buffer (MASK 5) at MTB_BASE 0x1FFFF000; POSITION started at 0x7000 and advanced 6 packets
        MtbLayout l = config(0x7030, 0x80000005L, 0x1FFFF000L).layout(512);
        assertThat(l.problem()).isNull();
        assertThat(l.bufferOffset()).isZero();
        assertThat(l.pointer()).isEqualTo(0x30);
        assertThat(l.packetCount()).isEqualTo(6);
        assertThat(l.offsetOfPacket(0)).isZero();
        assertThat(l.offsetOfPacket(5)).isEqualTo(0x28);
    }

    @Test
    void wrappedBufferStartsAtPointer() {
        MtbLayout l = config(0x7030 | 4, 0x80000005L, 0x1FFFF000L).layout(512);
        assertThat(l.packetCount()).isEqualTo(64);
        assertThat(l.offsetOfPacket(0)).isEqualTo(0x30);
        assertThat(l.offsetOfPacket(64 - 6 - 1)).isEqualTo(0x1F8);
        assertThat(l.offsetOfPacket(64 - 6)).isZero();
        assertThat(l.offsetOfPacket(63)).isEqualTo(0x28);
    }

    @Test
    void bufferInsideAWholeSramDump() {
        // 16 KB of SRAM dumped from 0x1FFFE000; 4 KB buffer (MASK 8) at MTB_BASE 0x1FFFF000
        for (long position : new long[] {0x7010, 0x1FFFF010L}) {
            MtbLayout l = config(position, 0x80000008L, 0x1FFFE000L).layout(16384);
            assertThat(l.bufferOffset()).isEqualTo(0x1000);
            assertThat(l.bufferSize()).isEqualTo(4096);
            assertThat(l.pointer()).isEqualTo(0x10);
        }
        // without BASE the dump is taken to start at an address aligned to its size
        assertThat(config(0x20002010L, 0x80000008L, null).layout(16384).bufferOffset()).isEqualTo(0x2000);
    }

    @Test
    void bufferOutsideTheDumpIsAProblemNotAnException() {
        MtbLayout l = config(0x20003010L, 0x80000008L, 0x20000000L).layout(12288);
        assertThat(l.problem()).contains("beyond the end");
        assertThat(l.packetCount()).isZero();
    }

    @Test
    void dumpSmallerThanMaskTakesTheDumpAsTheBuffer() {
        MtbLayout l = config(0x20000108L | 4, 0x8000001FL, null).layout(1024);
        assertThat(l.problem()).isNull();
        assertThat(l.bufferSize()).isEqualTo(1024);
        assertThat(l.note()).contains("smaller");
        assertThat(l.pointer()).isEqualTo(0x108);
    }

    @Test
    void positionIsRequired() {
        assertThatThrownBy(() -> MtbConfig.from(new Registers().put("MASTER", 5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("POSITION");
    }
}
