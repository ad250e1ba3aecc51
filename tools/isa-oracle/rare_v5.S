@ Encodings that compilers rarely emit but trace decoders must classify: ARMv5TE (ARM926EJ-S),
@ A32 and 16-bit Thumb. Only assembled and disassembled (never executed) by generate.py.
    .syntax unified
    .arch armv5te
    .arm
    .text
    .global rare_v5
rare_v5:
    subs pc, lr, #4
    movs pc, lr
    ldmfd sp!, {r0-r3, pc}^
    svc #0
    swi 0x123456
    bkpt #0
    bx lr
    bxne r0
    blx r3
    blx rare_v5_thumb
    blx rare_v5_thumb2
    mov pc, lr
    movs pc, r14
    add pc, pc, r2, lsl #2
    addls pc, pc, r3, lsl #2
    ldr pc, [sp], #4
    ldrls pc, [pc, r0, lsl #2]
    ldmfd sp!, {r4, pc}
    ldmia r0, {r1, pc}
    mcr p15, 0, r0, c7, c5, 4
    mcr p15, 0, r0, c7, c10, 4
    mrc p15, 0, r15, c7, c14, 3
    mcr p15, 0, r0, c7, c0, 4
    b 1f
    bl 1f
    bleq 1f
    bne 1f
1:  b 1b
    .thumb
    .thumb_func
rare_v5_thumb:
    nop
rare_v5_thumb2:
    bx lr
    blx r3
    mov pc, lr
    add pc, r1
    pop {r4, pc}
    svc #0
    bkpt #0
    bl 2f
    blx rare_v5
    blx rare_v5
    nop
    blx rare_v5
    b 2f
    beq 2f
2:  b 2b
    bcs 2b
    bx lr
    .align 2
