/* Minimal Cortex-M startup: vector table, SysTick + SVC handlers, semihosting exit. */
#include <stdint.h>
extern uint32_t _estack, _sidata, _sdata, _edata, _sbss, _ebss;
extern int work(int round);
#ifndef ROUNDS
#define ROUNDS 4
#endif
#ifndef SYST_RELOAD
#define SYST_RELOAD 20000
#endif
volatile uint32_t ticks, svcs, pendsvs;
static int sh_call(int op, const void *arg) {
    register int r0 __asm__("r0") = op; register const void *r1 __asm__("r1") = arg;
    __asm__ volatile ("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory"); return r0;
}
static void puts_sh(const char *s) { sh_call(0x04, s); }           /* SYS_WRITE0 */
static void utoa_sh(unsigned v) { char b[12]; int i = 11; b[i] = 0; do { b[--i] = '0' + v % 10; v /= 10; } while (v); puts_sh(&b[i]); }
#define SCB_ICSR (*(volatile uint32_t *)0xE000ED04)
/* Every fourth tick pends PendSV, which tail-chains after SysTick returns (same priority). */
void SysTick_Handler(void) { if ((++ticks & 3) == 0) SCB_ICSR = 1u << 28; }
void PendSV_Handler(void) { pendsvs++; }
void SVC_Handler(void) { svcs++; }
void Default_Handler(void) { for (;;) ; }
#ifndef SYST_CSR_INIT
#define SYST_CSR_INIT 7   /* enable, interrupt, processor clock; 3 = external 1 MHz reference clock */
#endif
#define SYST_CSR (*(volatile uint32_t *)0xE000E010)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018)
void Reset_Handler(void) {
    uint32_t *s = &_sidata, *d = &_sdata; while (d < &_edata) *d++ = *s++;
    for (d = &_sbss; d < &_ebss; ) *d++ = 0;
    SYST_RVR = SYST_RELOAD - 1; SYST_CVR = 0; SYST_CSR = SYST_CSR_INIT;
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        acc += work(r);
        __asm__ volatile ("svc #1");
    }
    SYST_CSR = 0;
    puts_sh("acc="); utoa_sh((unsigned)acc); puts_sh(" ticks="); utoa_sh(ticks); puts_sh(" svcs="); utoa_sh(svcs); puts_sh(" pendsvs="); utoa_sh(pendsvs); puts_sh("\n");
    /* AArch32 SYS_EXIT: r1 holds the reason code itself */
    sh_call(0x18, (const void *)0x20026);                               /* SYS_EXIT */
    for (;;) ;
}
__attribute__((section(".isr_vector"), used)) void (*const vectors[16])(void) = {
    (void (*)(void))&_estack, Reset_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, 0, 0, 0, 0,
    SVC_Handler, Default_Handler, 0, PendSV_Handler, SysTick_Handler,
};
