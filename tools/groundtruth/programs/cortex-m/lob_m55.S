@ Armv8.1-M low-overhead loops and branch future (Cortex-M55), hand-written because GCC 12 emits only
@ DLS/LE: WLS with zero and with non-zero iterations, DLS/LE, the tail-predicated DLSTP/LETP with
@ LCTP, and the branch-future instructions BF, BFX, BFL, BFLX, BFCSEL (Armv8-M ARM, "Low overhead
@ loop and branch future" extension). Linked with --wrap=work: each round of the workload first runs
@ lob_loops(round).
@
@ QEMU 7.2 takes the choice the architecture allows of discarding branch-future information, so a
@ BF* executes as a NOP and the instruction at its branch point runs as written (every branch point
@ below is a branch to the same target); LE runs (and branches back) on every iteration.
    .syntax unified
    .thumb
    .text

    .global __wrap_work
    .type __wrap_work, %function
__wrap_work:                        @ int work(int round), with the loops first
    push {r0, lr}
    bl lob_loops
    pop {r0, lr}
    b __real_work

    .type lob_loops, %function
lob_loops:                          @ r0 = round; returns a sum the caller ignores
    push {r4-r6, lr}
    mov r4, r0
    movs r0, #0
    movs r1, #0
    wls lr, r1, 1f                  @ zero iterations: branches past the loop
2:  adds r0, r0, #1
    le lr, 2b
1:  adds r1, r4, #3                 @ round + 3 iterations
    wls lr, r1, 3f
4:  adds r0, r0, #2
    eors r0, r0, r4
    le lr, 4b
3:  movs r1, #4
    dls lr, r1
5:  adds r0, r0, #3
    le lr, 5b

    @ tail-predicated loop over 10 words in 4-lane vectors (3 iterations, the last one 2 lanes)
    ldr r5, =0xE000ED88             @ CPACR: full access to CP10/CP11 (FP and MVE)
    ldr r6, [r5]
    orr r6, r6, #(0xF << 20)
    str r6, [r5]
    dsb
    isb
    ldr r2, =lob_data
    movs r1, #10
    vmov.i32 q1, #0
    dlstp.32 lr, r1
6:  vldrw.32 q0, [r2], #16
    vadd.i32 q1, q1, q0
    letp lr, 6b
    vaddv.u32 r2, q1                @ VADDV: an even destination register
    add r0, r0, r2
    lctp                            @ leave tail predication (a no-op here: LETP already did)

    @ branch future: each names a branch point and the target the branch there goes to
    bf 7f, 8f
    adds r0, r0, #1
7:  b 8f
    nop
8:  adr r3, 9f
    adds r3, r3, #1                 @ the Thumb bit: BFX and BX need it
    bfx 10f, r3
    adds r0, r0, #1
10: bx r3
    nop
9:  bfl 11f, lob_leaf
    adds r0, r0, #1
11: bl lob_leaf
    ldr r3, =lob_leaf               @ a Thumb function: bit 0 set
    bflx 12f, r3
    adds r0, r0, #1
12: blx r3
    cmp r4, #1
    bfcsel 13f, 14f, 15f, eq        @ at 13: to 14 if EQ, else on to 15
    adds r0, r0, #1
13: beq 14f
15: adds r0, r0, #5
14: pop {r4-r6, pc}

    .type lob_leaf, %function
lob_leaf:
    adds r0, r0, #100
    bx lr
    .ltorg

    .data
    .balign 16
lob_data:
    .word 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0
