/*
 * Floating point and wide integers through newlib's libm and libgcc: double and float arithmetic
 * (soft-float helper calls, or VFP/NEON where the target has them), conversions, 64-bit division,
 * math functions, printf of floating point values, setjmp/longjmp.
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

static jmp_buf escape;

__attribute__((noinline)) static double poly(double x, const double *c, int n) {
    double r = 0;
    for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
    return r;
}

__attribute__((noinline)) static float mixf(float a, float b, int k) {
    float t = a * (float) k - b / 3.0f;
    return t > 0 ? sqrtf(t) : -t;
}

__attribute__((noinline)) static uint64_t divmod64(uint64_t a, uint64_t b, int64_t c) {
    if (b == 0) longjmp(escape, 1);
    return a / b + (uint64_t) (c % 7) + (a % b);
}

__attribute__((noinline)) static void saxpy(float *y, const float *x, float a, int n) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

int main(void) {
    static const double c[] = {1.0, -0.5, 0.25, -0.125, 0.0625};
    float x[32], y[32];
    double acc = 0;
    if (setjmp(escape)) {
        puts("division by zero");
        return 1;
    }
    for (int i = 0; i < 32; i++) {
        x[i] = (float) i * 0.5f;
        y[i] = (float) (32 - i);
    }
    saxpy(y, x, 1.5f, 32);
    for (int i = 1; i < 20; i++) {
        double v = poly((double) i / 7.0, c, 5);
        acc += sin(v) * cos(v / 2) + exp(-v) + log1p(fabs(v)) + atan2(v, 1.0 + i);
        acc += mixf((float) acc, y[i], i);
        acc += (double) divmod64((uint64_t) (acc * 1e6) + 12345u, (uint64_t) i + 3u, -(int64_t) i * 977);
    }
    printf("%.6f %g %e %lld\n", acc, pow(acc, 0.25), ldexp(acc, -7), (long long) llround(acc));
    return (int) fmod(acc, 100.0);
}
