/* The EL0 side of the AArch64 bare-metal program: rounds of the shared workload, an SVC after each,
 * and svc #2 to end (its handler exits through semihosting and does not return). */
extern int work(int round);

#ifndef ROUNDS
#define ROUNDS 4
#endif

volatile int user_acc;
__attribute__((aligned(16))) unsigned long user_stack[2048];   /* 16 KiB, start_a64.S: USER_STACK_SIZE */

__attribute__((noreturn)) void user_main(void) {
    int acc = 0;
    for (int r = 1; r < ROUNDS; r++) {
        acc += work(r);
        __asm__ volatile ("svc #1" ::: "memory");
    }
    user_acc = acc;
    __asm__ volatile ("svc #2" ::: "memory");
    for (;;) ;
}
