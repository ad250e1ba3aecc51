/* A-profile main: rounds of the shared workload with SVCs between them, a periodic timer
 * interrupt (Cortex-A9 private timer + GIC on vexpress-a9, SP804 + PL190 VIC on versatilepb). */
extern int work(int round);
volatile unsigned ticks, svcs, last_svc;

#define REG(a) (*(volatile unsigned *) (a))
#ifdef VEXPRESS
#define GICD_CTLR      REG(0x1e001000)
#define GICD_ISENABLER REG(0x1e001100)
#define GICC_CTLR      REG(0x1e000100)
#define GICC_PMR       REG(0x1e000104)
#define GICC_IAR       REG(0x1e00010c)
#define GICC_EOIR      REG(0x1e000110)
#define PT_LOAD        REG(0x1e000600)
#define PT_CTRL        REG(0x1e000608)
#define PT_ISR         REG(0x1e00060c)
void timer_start(void) {
    GICD_CTLR = 1; GICD_ISENABLER = 1u << 29;     /* private timer: PPI 29 */
    GICC_PMR = 0xff; GICC_CTLR = 1;
    PT_LOAD = TIMER_LOAD; PT_CTRL = 7;            /* enable, auto-reload, interrupt */
}
void timer_stop(void) { PT_CTRL = 0; }
void irq_tick(void) { unsigned id = GICC_IAR; PT_ISR = 1; ticks++; GICC_EOIR = id; }
#else
#define VIC_INTENABLE  REG(0x10140010)
#define VIC_INTENCLEAR REG(0x10140014)
#define T0_LOAD        REG(0x101e2000)
#define T0_CTRL        REG(0x101e2008)
#define T0_INTCLR      REG(0x101e200c)
void timer_start(void) {
    T0_LOAD = TIMER_LOAD; T0_CTRL = 0xe2;         /* enable, periodic, interrupt, 32-bit */
    VIC_INTENABLE = 1u << 4;                      /* timers 0/1 */
}
void timer_stop(void) { T0_CTRL = 0; VIC_INTENCLEAR = 1u << 4; }
void irq_tick(void) { T0_INTCLR = 1; ticks++; }
#endif

void svc_call(unsigned number) { svcs++; last_svc = number; }

int main(void) {
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        acc += work(r);
        __asm__ volatile ("svc #1" ::: "memory");
    }
    return acc;
}
