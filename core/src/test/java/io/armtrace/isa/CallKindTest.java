package io.armtrace.isa;

import static org.assertj.core.api.Assertions.assertThat;

import io.armtrace.image.MemoryImage;
import io.armtrace.trace.CallKind;
import io.armtrace.trace.Isa;
import io.armtrace.trace.WaypointKind;
import org.junit.jupiter.api.Test;

/**
 * Which waypoints are calls and returns: the branch-with-link encodings as the ARM ARM gives them
 * (DDI 0406C A8.8.25, A8.8.26), the conventional returns (BX LR, MOV PC, LR, POP/LDM SP! with PC,
 * LDR PC, [SP], #4), and near misses. The views find call sites by this alone.
 */
class CallKindTest {
    private static CallKind a32(int word) {
        return walk(new byte[] {(byte) word, (byte) (word >>> 8), (byte) (word >>> 16), (byte) (word >>> 24)}, Isa.A32);
    }

    private static CallKind a64(int word) {
        return walk(new byte[] {(byte) word, (byte) (word >>> 8), (byte) (word >>> 16), (byte) (word >>> 24)}, Isa.A64);
    }

    private static CallKind t32(int... halfwords) {
        byte[] b = new byte[halfwords.length * 2];
        for (int i = 0; i < halfwords.length; i++) {
            b[2 * i] = (byte) halfwords[i];
            b[2 * i + 1] = (byte) (halfwords[i] >>> 8);
        }
        return walk(b, Isa.T32);
    }

    /** The call kind of the one-instruction block at 0x1000; NONE when it is not a waypoint. */
    private static CallKind walk(byte[] code, Isa isa) {
        MemoryImage m = new MemoryImage().add(0x1000, code, "code");
        Block b = new CodeWalker(m, new InstructionClassifier(Profile.AR), false, 4096).block(0x1000, isa);
        assertThat(b.count()).isEqualTo(1);
        if (b.kind() == WaypointKind.NONE) {
            assertThat(b.call()).isEqualTo(CallKind.NONE);
        }
        return b.call();
    }

    @Test
    void branchesWithLinkAreCalls() {
        assertThat(a32(0xEB000010)).isEqualTo(CallKind.CALL); // BL (A1, cond AL)
        assertThat(a32(0x1B000010)).isEqualTo(CallKind.CALL); // BLNE
        assertThat(a32(0xFA000010)).isEqualTo(CallKind.CALL); // BLX imm (A2)
        assertThat(a32(0xE12FFF33)).isEqualTo(CallKind.CALL); // BLX r3 (A1)
        assertThat(t32(0xF000, 0xF800)).isEqualTo(CallKind.CALL); // BL (T1)
        assertThat(t32(0xF000, 0xE800)).isEqualTo(CallKind.CALL); // BLX imm (T2)
        assertThat(t32(0x4798)).isEqualTo(CallKind.CALL); // BLX r3 (T1)
    }

    @Test
    void otherBranchesAreNoCalls() {
        assertThat(a32(0xE12FFF13)).isEqualTo(CallKind.NONE); // BX r3
        assertThat(a32(0xEA000010)).isEqualTo(CallKind.NONE); // B
        assertThat(t32(0x4718)).isEqualTo(CallKind.NONE); // BX r3
        assertThat(t32(0xF000, 0xB800)).isEqualTo(CallKind.NONE); // B.W (T4)
        assertThat(t32(0xBC01)).isEqualTo(CallKind.NONE); // POP {r0}: no waypoint
        assertThat(a32(0xE8BD000F)).isEqualTo(CallKind.NONE); // LDMIA sp!, {r0-r3}: no waypoint
        assertThat(a32(0xE8900000 | 1 << 15)).isEqualTo(CallKind.NONE); // LDMIA r0, {pc}: not from the stack
        assertThat(a32(0xE1A0F003)).isEqualTo(CallKind.NONE); // MOV pc, r3
        assertThat(a32(0xE1B0F00E)).isEqualTo(CallKind.NONE); // MOVS pc, lr: an exception return
    }

    @Test
    void conventionalReturnsAreReturns() {
        assertThat(a32(0xE12FFF1E)).isEqualTo(CallKind.RETURN); // BX lr
        assertThat(a32(0x012FFF1E)).isEqualTo(CallKind.RETURN); // BXEQ lr
        assertThat(a32(0xE1A0F00E)).isEqualTo(CallKind.RETURN); // MOV pc, lr
        assertThat(a32(0xE8BD8010)).isEqualTo(CallKind.RETURN); // POP {r4, pc}
        assertThat(a32(0xE49DF004)).isEqualTo(CallKind.RETURN); // POP {pc} (LDR pc, [sp], #4)
        assertThat(t32(0x4770)).isEqualTo(CallKind.RETURN); // BX lr
        assertThat(t32(0x46F7)).isEqualTo(CallKind.RETURN); // MOV pc, lr
        assertThat(t32(0xBD10)).isEqualTo(CallKind.RETURN); // POP {r4, pc}
        assertThat(t32(0xE8BD, 0x8010)).isEqualTo(CallKind.RETURN); // POP.W {r4, pc}
        assertThat(t32(0xF85D, 0xFB04)).isEqualTo(CallKind.RETURN); // POP.W {pc} (LDR.W pc, [sp], #4)
    }

    /** A64 (Arm DDI 0487 C6.2): encodings as aarch64-linux-gnu-objdump reads them. */
    @Test
    void a64BranchesWithLinkAreCallsAndTheRetFormsReturns() {
        assertThat(a64(0x94000010)).isEqualTo(CallKind.CALL); // bl
        assertThat(a64(0xD63F0060)).isEqualTo(CallKind.CALL); // blr x3
        assertThat(a64(0xD73F0864)).isEqualTo(CallKind.CALL); // blraa x3, x4
        assertThat(a64(0xD63F087F)).isEqualTo(CallKind.CALL); // blraaz x3
        assertThat(a64(0xD65F03C0)).isEqualTo(CallKind.RETURN); // ret
        assertThat(a64(0xD65F0000)).isEqualTo(CallKind.RETURN); // ret x0
        assertThat(a64(0xD65F0BFF)).isEqualTo(CallKind.RETURN); // retaa
        assertThat(a64(0xD65F0FFF)).isEqualTo(CallKind.RETURN); // retab
        assertThat(a64(0x14000010)).isEqualTo(CallKind.NONE); // b
        assertThat(a64(0xD61F0200)).isEqualTo(CallKind.NONE); // br x16
        assertThat(a64(0xD71F0822)).isEqualTo(CallKind.NONE); // braa x1, x2
        assertThat(a64(0xD69F03E0)).isEqualTo(CallKind.NONE); // eret: an exception return
    }
}
