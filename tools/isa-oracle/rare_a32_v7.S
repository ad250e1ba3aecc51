@ Encodings that compilers rarely emit but trace decoders must classify: ARMv7-A, A32 state.
@ Only assembled and disassembled (never executed) by generate.py.
    .syntax unified
    .arch armv7-a
    .arch_extension sec
    .arch_extension virt
    .arm
    .text
    .global rare_a32
rare_a32:
    subs pc, lr, #4
    movs pc, lr
    subseq pc, lr, #8
    ldmfd sp!, {r0, pc}^
    ldmia sp, {r0, r1}^
    rfeia sp!
    rfedb r0
    eret
    svc #0
    svcne #1
    bkpt #0
    udf #0
    smc #0
    hvc #0
    isb sy
    mcr p15, 0, r0, c7, c5, 4
    dsb sy
    dmb ish
    mcr p15, 0, r0, c7, c10, 4
    bx lr
    bxne lr
    blx r3
    blxgt r12
    bxj r0
    blx rare_a32_thumb
    blx rare_a32_thumb2
    mov pc, lr
    movne pc, r1
    add pc, pc, r0, lsl #2
    addls pc, pc, r3, lsl #2
    mov pc, r0, lsl r1
    ldr pc, [sp], #4
    ldrne pc, [r0, #4]
    ldr pc, [pc, r3, lsl #2]
    ldr pc, [pc, #-4]
    pop {r4, pc}
    popeq {r4, pc}
    pop {pc}
    ldmdb r0, {r1, pc}
    ldmib r0!, {r1, pc}
    ldmdacs r0, {r2, pc}
    mov pc, #0x1000
    mvn pc, #0
    sub pc, r0, #8
    and pc, r0, r1
    eor pc, r0, r1, ror #3
    orr pc, r0, #1
    rsb pc, r0, #0
    adc pc, r0, r1
    sbc pc, r0, r1
    rsc pc, r0, r1
    bic pc, r0, #3
    mrc p15, 0, APSR_nzcv, c1, c0, 0
    mrc p15, 0, r0, c1, c0, 0
    str pc, [sp, #-4]!
    push {r4, lr}
    stmdb sp!, {r0, pc}
    cmp pc, r0
    tst r0, r0
    ldrb r0, [pc, #4]
    ldrh r1, [pc, #4]
    ldrd r2, r3, [pc, #4]
    smulbb r0, r1, r2
    smultt r0, r1, r2
    clz r0, r1
    mrs r0, apsr
    msr apsr_nzcvq, r0
    cpsid i
    wfi
    sev
    nop
    b 1f
    bl 1f
    beq 1f
    blne 1f
    bvs 1f
    blt 1f
    ble 1f
    bls 1f
    bhi 1f
    bge 1f
1:  b 1b
    bl 1b
    bcc 1b
    bmi 1b
    bpl 1b
    bvc 1b
    bgt 1b
    bcs 1b
    bx lr
    .thumb
    .thumb_func
rare_a32_thumb:
    nop
rare_a32_thumb2:
    bx lr
