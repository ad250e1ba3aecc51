/* Entry of the A64 oracle programs: calls every part so that the linker keeps them, and some glibc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
extern int work(int round);
extern int simd_auto(void);
extern int neon_intr(float *mem);
extern int ext(void);
int main(int argc, char **argv) {
    static float mem[256];
    int acc = 0;
    for (int r = 0; r < 3; r++) acc += work(r);
    acc += simd_auto() + neon_intr(mem);
#ifdef WITH_EXT
    acc += ext();
#endif
    char buf[64];
    snprintf(buf, sizeof buf, "%d %g %s", acc, sin(acc) * exp(argc), argv[0]);
    acc += (int) strlen(buf) + (int) strtod(buf, 0) + memcmp(buf, argv[0], 3) + (int) (strchr(buf, ' ') - buf);
    qsort(mem, 4, sizeof mem[0], (int (*)(const void *, const void *)) strcmp);
    puts(buf);
    return acc & 0x7f;
}
