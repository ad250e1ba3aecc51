// Bare-metal AArch64 start for qemu-system-aarch64 -M virt -cpu cortex-a53 (booted at EL1, no EL2
// or EL3): translation tables, the EL1 vector table, exception entry and return, the drop to EL0.
//
// The kernel part runs at upper-half addresses (TTBR1_EL1, 39-bit VA), the user part at its
// physical addresses (TTBR0_EL1), so that exception entries and returns cross between 64-bit and
// 32-bit-sized addresses as they do under a real operating system.

#define KOFF 0xffffff8000000000
#define USER_STACK_SIZE 16384

// Block descriptors (Arm ARM D8.3: VMSAv8-64 level 1/2 block entries)
#define BLOCK       (1 << 0)
#define ATTR_NORMAL (0 << 2)               // MAIR_EL1 attribute 0: normal write-back
#define ATTR_DEVICE (1 << 2)               // MAIR_EL1 attribute 1: Device-nGnRnE
#define AP_EL1_RW   (0 << 6)
#define AP_ALL_RW   (1 << 6)
#define AP_ALL_RO   (3 << 6)
#define SH_INNER    (3 << 8)
#define AF          (1 << 10)
#define PXN         (1 << 53)
#define UXN         (1 << 54)
#define NORMAL      (BLOCK | ATTR_NORMAL | SH_INNER | AF)

    .section .boot, "ax"
    .global _boot
_boot:                                      // physical address, MMU off, EL1
    ldr x0, =0xff                           // attribute 0: 0xff normal, attribute 1: 0x00 device
    msr mair_el1, x0
    // T0SZ = T1SZ = 25 (39-bit VA), 4 KiB granules, inner-shareable write-back walks, IPS 32 bits
    ldr x0, =((25 << 0) | (1 << 8) | (1 << 10) | (3 << 12) | (25 << 16) | (1 << 24) | (1 << 26) | (3 << 28) | (2 << 30))
    msr tcr_el1, x0
    adr x0, l1_low
    msr ttbr0_el1, x0
    adr x0, l1_high
    msr ttbr1_el1, x0
    mov x0, #(3 << 20)                      // CPACR_EL1.FPEN: no trap of FP/SIMD (compiled code uses it)
    msr cpacr_el1, x0
    isb
    mrs x0, sctlr_el1
    orr x0, x0, #(1 << 0)                   // M: MMU on
    orr x0, x0, #(1 << 2)                   // C
    orr x0, x0, #(1 << 12)                  // I
    bic x0, x0, #(1 << 1)                   // A: no alignment checks
    msr sctlr_el1, x0
    isb
    ldr x0, =kernel_entry                   // upper-half address of the kernel
    br x0
    .ltorg

    .section .boot.tables, "aw"
    .balign 4096
l1_low:                                     // TTBR0_EL1, level 1: 1 GiB per entry
    .quad 0x00000000 | BLOCK | ATTR_DEVICE | AF | PXN | UXN    // GIC and other devices
    .quad l2_low + 3                                            // 0x40000000: level 2 table
    .fill 510, 8, 0
l1_high:                                    // TTBR1_EL1, level 1
    .quad 0
    .quad l2_high + 3                                           // 0xffffff8040000000
    .fill 510, 8, 0
l2_low:                                     // level 2: 2 MiB per entry
    .quad 0x40000000 | NORMAL | AP_EL1_RW | UXN                 // boot code (identity) and kernel
    .quad 0x40200000 | NORMAL | AP_ALL_RO                       // user code: EL0 and EL1 execute
    .quad 0x40400000 | NORMAL | AP_ALL_RW | PXN | UXN           // user data and stack
    .fill 509, 8, 0
l2_high:
    .quad 0x40000000 | NORMAL | AP_EL1_RW | UXN                 // the kernel at KOFF + 0x40000000
    .fill 511, 8, 0

// Exception entry: save the registers a C function may change, call it, restore, ERET.
// IRQs stay masked in the handlers (PSTATE.I is set on entry), so exceptions do not nest and
// ELR_EL1 / SPSR_EL1 need no saving.
.macro entry handler, kind
    .balign 0x80
    sub sp, sp, #176
    stp x0, x1, [sp, #0]
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    stp x16, x17, [sp, #128]
    stp x18, x29, [sp, #144]
    str x30, [sp, #160]
    mov x0, #\kind
    bl \handler
    b exception_exit
.endm

.macro unexpected
    .balign 0x80
    b .
.endm

    .section .vectors, "ax"
    .balign 2048
vectors:
    unexpected                              // 0x000 current EL, SP_EL0: synchronous
    unexpected                              // 0x080 IRQ
    unexpected                              // 0x100 FIQ
    unexpected                              // 0x180 SError
    entry sync_handler, 0                   // 0x200 current EL, SP_EL1: synchronous (SVC at EL1)
    entry irq_handler, 0                    // 0x280 IRQ while at EL1
    unexpected                              // 0x300 FIQ
    unexpected                              // 0x380 SError
    entry sync_handler, 1                   // 0x400 lower EL (AArch64): synchronous (SVC at EL0)
    entry irq_handler, 1                    // 0x480 IRQ while at EL0
    unexpected                              // 0x500 FIQ
    unexpected                              // 0x580 SError
    unexpected                              // 0x600 lower EL (AArch32)
    unexpected
    unexpected
    unexpected

    .text
exception_exit:
    ldp x0, x1, [sp, #0]
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x29, [sp, #144]
    ldr x30, [sp, #160]
    add sp, sp, #176
    eret

kernel_entry:                               // upper half, MMU on
    adr x0, vectors
    msr vbar_el1, x0
    ldr x0, =kernel_stack_top
    mov sp, x0
    isb
    bl kernel_main                          // C: timer, GIC, the EL1 round; returns the EL0 entry
    ldr x1, =user_stack + USER_STACK_SIZE
    msr sp_el0, x1
    msr elr_el1, x0
    msr spsr_el1, xzr                       // EL0t, interrupts unmasked
    eret                                    // to user_main at EL0; it ends with svc #2

// The workload at EL1 (upper-half caller, lower-half callee: out of BL range, so through a register)
    .global call_work
call_work:
    ldr x1, =work
    br x1
    .ltorg

    .bss
    .balign 16
    .space 16384
kernel_stack_top:
