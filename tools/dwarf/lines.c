/* Test program for the DWARF line-table reader: several functions, an inline function from a
 * header, a loop and a switch, so that the line program uses most of its opcodes. */
#include "lines.h"

volatile int sink;

static int table(int x)
{
    switch (x & 7) {
    case 0: return 3;
    case 1: return x * 5;
    case 2: return x - 9;
    case 3: return x ^ 0x55;
    default: return x;
    }
}

int work(int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += square(i);
        if (acc > 1000)
            acc = table(acc);
    }
    return acc;
}

int main(void)
{
    sink = work(40);
    return 0;
}

/* Never called: with -ffunction-sections and --gc-sections the linker drops it, and its line
 * sequence stays in .debug_line at address 0. */
int unused_function(int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += p[i] * 3 + (p[i] >> 2) - table(p[i]);
        if (s > 100000)
            s /= 7;
        p[i] = s ^ (s << 3);
    }
    return s + table(n);
}
