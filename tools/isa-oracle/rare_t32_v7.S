@ Encodings that compilers rarely emit but trace decoders must classify: ARMv7-A, T32 state.
@ Only assembled and disassembled (never executed) by generate.py.
    .syntax unified
    .arch armv7-a
    .arch_extension sec
    .arch_extension virt
    .thumb
    .text
    .global rare_t32
    .thumb_func
rare_t32:
    subs pc, lr, #4
    subs pc, lr, #0
    eret
    rfeia sp!
    rfedb r0
    svc #0
    bkpt #0
    udf #0
    udf.w #0
    smc #0
    hvc #0
    isb sy
    mcr p15, 0, r0, c7, c5, 4
    dsb sy
    dmb ish
    bx lr
    blx r3
    bxj r0
    mov pc, lr
    add pc, r0
    pop {r4, pc}
    pop.w {r4, r8, pc}
    ldr pc, [sp], #4
    ldr.w pc, [r0, #4]
    ldr pc, [r0, #-4]
    ldr pc, [r0, r1, lsl #2]
    ldr.w pc, [pc, #4]
    ldr.w pc, [pc, #-8]
    ldmdb r0, {r1, pc}
    ldmia r0!, {r1, pc}
    tbb [pc, r0]
    tbh [pc, r0, lsl #1]
    tbb [r1, r2]
    cbz r0, 1f
    cbnz r1, 1f
    it eq
    bxeq lr
    ite ne
    movne r0, #1
    moveq r0, #2
    itt eq
    moveq r0, r1
    popeq {r4, pc}
    ittet gt
    addgt r0, r0, #1
    addgt.w r0, r0, #1000
    suble r0, r0, #1
    ldrgt pc, [sp], #4
    it lt
    blt.w 1f
    it ge
    bge 1f
    it hi
    blhi 1f
    itt ls
    movls r0, #0
    bxls lr
    it al
    bal.w 1f
    b.w 1f
    beq.w 1f
    bne.w 1f
    bl 1f
    b 1f
    beq 1f
    bcs 1f
    nop
    blx rare_t32_arm
    blx rare_t32_arm
    nop
    blx rare_t32_arm
1:  b 1b
    b.w 1b
    bgt.w 1b
    bgt 1b
    bl 1b
    push {r4, lr}
    push.w {r4, r8, lr}
    ldr r0, [pc, #4]
    ldr.w r0, [pc, #4]
    pld [pc, #4]
    ldrb.w r0, [pc, #4]
    stmdb sp!, {r0, lr}
    mrs r0, apsr
    msr apsr_nzcvq, r0
    cpsid i
    wfi
    nop.w
    mov r8, pc
    add r0, pc
    bx lr
    .align 2
    .arm
rare_t32_arm:
    bx lr
