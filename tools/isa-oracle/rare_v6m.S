@ Encodings that compilers rarely emit but trace decoders must classify: ARMv6-M.
@ Only assembled and disassembled (never executed) by generate.py.
    .syntax unified
    .arch armv6s-m
    .thumb
    .text
    .global rare_v6m
    .thumb_func
rare_v6m:
    svc #0
    bkpt #0xab
    udf #0
    isb sy
    dsb sy
    dmb sy
    bx lr
    blx r3
    mov pc, lr
    add pc, r0
    pop {r4, pc}
    pop {pc}
    mrs r0, primask
    msr primask, r0
    cpsid i
    cpsie i
    wfi
    wfe
    sev
    yield
    nop
    push {r4, lr}
    bl 1f
    b 1f
    beq 1f
    bhi 1f
1:  b 1b
    bl 1b
    bne 1b
    bx lr
