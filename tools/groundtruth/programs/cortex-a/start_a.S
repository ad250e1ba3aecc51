@ Bare-metal AArch32 A-profile start for vexpress-a9 (Cortex-A9, -DVEXPRESS) and versatilepb
@ (ARM926EJ-S): vector table, stacks per mode, IRQ and SVC handlers, semihosting exit.
@ The program runs in System mode, so that SVC and IRQ enter other modes with banked LR and SPSR.
    .syntax unified
    .arm
    .section .vectors, "ax"
    .global _start
_start:
vectors:
    ldr pc, =reset_handler      @ 0x00 reset
    b .                         @ 0x04 undefined instruction
    b svc_handler               @ 0x08 SVC
    b .                         @ 0x0c prefetch abort
    b .                         @ 0x10 data abort
    b .                         @ 0x14 reserved
    b irq_handler               @ 0x18 IRQ
    b .                         @ 0x1c FIQ
    .ltorg

    .text
    .arm
reset_handler:
#ifdef VEXPRESS
    ldr r0, =vectors
    mcr p15, 0, r0, c12, c0, 0  @ VBAR = vectors
#endif
    msr cpsr_c, #0xd2           @ IRQ mode, IRQ and FIQ masked
    ldr sp, =irq_stack_top
    msr cpsr_c, #0xd3           @ SVC mode
    ldr sp, =svc_stack_top
    msr cpsr_c, #0xdf           @ System mode
    ldr sp, =stack_top
    bl  timer_start             @ C: timer and interrupt controller
    msr cpsr_c, #0x5f           @ System mode, IRQ enabled
    bl  main
    msr cpsr_c, #0xdf           @ IRQ masked again
    bl  timer_stop
    ldr r1, =0x20026            @ ADP_Stopped_ApplicationExit: on AArch32 the reason itself in r1
    mov r0, #0x18               @ SYS_EXIT
    svc 0x123456                @ semihosting (intercepted by QEMU)
1:  b 1b

@ SVC: return with LDM ^ (restores CPSR from SPSR_svc)
svc_handler:
    push {r0-r3, r12, lr}
    ldr r0, [lr, #-4]           @ the SVC instruction (ARM callers only in these programs)
    bic r0, r0, #0xff000000
    bl  svc_call                @ C, ARM or Thumb
    ldm sp!, {r0-r3, r12, pc}^

@ IRQ: return with SUBS PC, LR, #4
irq_handler:
    push {r0-r3, r12, lr}
    bl  irq_tick                @ C, ARM or Thumb
    pop {r0-r3, r12, lr}
    subs pc, lr, #4
    .ltorg

    .bss
    .align 3
    .space 1024
irq_stack_top:
    .space 1024
svc_stack_top:
    .space 16384
stack_top:
