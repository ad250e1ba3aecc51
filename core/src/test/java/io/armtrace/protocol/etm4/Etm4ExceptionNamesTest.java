package io.armtrace.protocol.etm4;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** M-profile exception types of ETMv4 exception packets, named from the one M-profile table. */
class Etm4ExceptionNamesTest {
    /** IHI 0064, the M-profile exception types 0 to 31, as OpenCSD's packet lister spells them. */
    private static final String[] TYPES = {
        "Reserved", "PE reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "Reserved",
        "Reserved", "Reserved", "Reserved", "SVC", "DebugMonitor", "Reserved", "PendSV", "SysTick",
        "IRQ0", "IRQ1", "IRQ2", "IRQ3", "IRQ4", "IRQ5", "IRQ6", "IRQ7", "DebugHalt", "LazyFP push", "Lockup",
        "Reserved", "Reserved", "Reserved", "Reserved", "Reserved"};

    @Test
    void everyMProfileTypeHasItsName() {
        for (int t = 0; t < TYPES.length; t++) {
            assertThat(Etm4Packet.exceptionName(t, true)).as("type %d", t).isEqualTo(TYPES[t]);
        }
        // IRQ n from 8 on is type 0x200 + n, up to 0x3EF (IRQ 495)
        assertThat(Etm4Packet.exceptionName(0x208, true)).isEqualTo("IRQ8");
        assertThat(Etm4Packet.exceptionName(0x3EF, true)).isEqualTo("IRQ495");
        for (int t : new int[] {0x20, 0x1FF, 0x200, 0x207, 0x3F0, 0x3FF}) {
            assertThat(Etm4Packet.exceptionName(t, true)).as("type 0x%x", t).isEqualTo("Reserved");
        }
    }
}
