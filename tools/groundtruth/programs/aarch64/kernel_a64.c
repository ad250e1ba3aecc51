/* The EL1 side of the AArch64 bare-metal program: the generic timer's virtual timer interrupt
 * through the GICv2 of the virt machine, SVC handling, semihosting output and exit. Built with
 * -mgeneral-regs-only: the exception entry saves no FP/SIMD registers. */
#include <stdint.h>

#ifndef TIMER_PERIOD
#define TIMER_PERIOD 12000                 /* counter ticks (62.5 MHz); -icount decides the pace */
#endif
#define REG(a) (*(volatile uint32_t *) (uintptr_t) (a))
#define GICD_CTLR       REG(0x08000000)
#define GICD_ISENABLER0 REG(0x08000100)
#define GICC_CTLR       REG(0x08010000)
#define GICC_PMR        REG(0x08010004)
#define GICC_IAR        REG(0x0801000c)
#define GICC_EOIR       REG(0x08010010)
#define VTIMER_INTID    27                 /* the EL1 virtual timer's PPI */

extern int call_work(int round);
extern void user_main(void);
extern volatile int user_acc;           /* user data, at a lower-half address: -mcmodel=large */

volatile unsigned ticks, svcs, el1_svcs;
static int acc;

static long semihost(long op, const void *arg) {
    register long x0 __asm__("x0") = op;
    register const void *x1 __asm__("x1") = arg;
    __asm__ volatile ("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return x0;
}
static void puts_sh(const char *s) { semihost(0x04, s); }           /* SYS_WRITE0 */
static void utoa_sh(unsigned v) { char b[12]; int i = 11; b[i] = 0; do { b[--i] = '0' + v % 10; v /= 10; } while (v); puts_sh(&b[i]); }

static void timer_arm(void) {
    __asm__ volatile ("msr cntv_tval_el0, %0" :: "r"((uint64_t) TIMER_PERIOD));
}

/* x0 of the exception entry: 0 from EL1, 1 from EL0 (vector offsets 0x280 and 0x480) */
void irq_handler(int from_el0) {
    (void) from_el0;
    uint32_t id = GICC_IAR;
    if (id == VTIMER_INTID) {
        ticks++;
        timer_arm();
    }
    GICC_EOIR = id;
}

void sync_handler(int from_el0) {
    uint64_t esr;
    __asm__ volatile ("mrs %0, esr_el1" : "=r"(esr));
    if ((esr >> 26) != 0x15) {              /* only SVC (EC 0x15) is expected */
        puts_sh("unexpected synchronous exception\n");
        semihost(0x18, (const void *) (uintptr_t) 0);
        for (;;) ;
    }
    if ((esr & 0xffff) == 2) {              /* svc #2: the user program is done, x0 was its result */
        __asm__ volatile ("msr cntv_ctl_el0, xzr");
        puts_sh("acc="); utoa_sh((unsigned) (acc + user_acc)); puts_sh(" ticks="); utoa_sh(ticks); puts_sh(" svcs="); utoa_sh(svcs);
        puts_sh(" el1_svcs="); utoa_sh(el1_svcs); puts_sh("\n");
        static const uint64_t block[2] = { 0x20026, 0 };             /* ADP_Stopped_ApplicationExit */
        semihost(0x18, block);                                        /* SYS_EXIT */
        for (;;) ;
    }
    svcs++;
    if (!from_el0) {
        el1_svcs++;
    }
}

/* Runs at EL1: starts the timer, does one round of the workload itself (interrupts and an SVC taken
 * from EL1), and returns the address where EL0 starts. */
uint64_t kernel_main(void) {
    GICD_CTLR = 1;
    GICD_ISENABLER0 = 1u << VTIMER_INTID;
    GICC_PMR = 0xff;
    GICC_CTLR = 1;
    timer_arm();
    __asm__ volatile ("msr cntv_ctl_el0, %0" :: "r"((uint64_t) 1));  /* enable, not masked */
    __asm__ volatile ("msr daifclr, #2" ::: "memory");               /* IRQs on */
    acc = call_work(0);
    __asm__ volatile ("svc #1" ::: "memory");
    return (uint64_t) (uintptr_t) user_main;
}
