@ Encodings that compilers rarely emit but trace decoders must classify: ARMv7-M (T32 only).
@ Only assembled and disassembled (never executed) by generate.py.
    .syntax unified
    .arch armv7-m
    .thumb
    .text
    .global rare_m
    .thumb_func
rare_m:
    svc #0
    bkpt #0xab
    udf #0
    udf.w #1
    isb sy
    dsb sy
    dmb sy
    bx lr
    blx r3
    mov pc, lr
    add pc, r0
    pop {r4, pc}
    pop.w {r4, r8, pc}
    ldr pc, [sp], #4
    ldr.w pc, [r0, #4]
    ldr pc, [r0, r1, lsl #2]
    ldr.w pc, [pc, #4]
    ldmdb r0, {r1, pc}
    ldmia r0!, {r1, pc}
    tbb [pc, r0]
    tbh [pc, r0, lsl #1]
    cbz r0, 1f
    cbnz r7, 1f
    it eq
    bxeq lr
    itt ne
    movne r0, #1
    popne {r4, pc}
    ite cc
    movcc r0, r0
    ldrcs pc, [sp], #4
    itet mi
    addmi r0, r0, #1
    addpl r0, r0, #2
    blmi 1f
    it vs
    bvs.w 1f
    b.w 1f
    beq.w 1f
    bl 1f
    b 1f
    bne 1f
1:  b 1b
    bl 1b
    ble.w 1b
    mrs r0, primask
    msr basepri, r0
    cpsid i
    cpsie f
    wfi
    wfe
    sev
    nop
    push {r4, lr}
    bx lr
