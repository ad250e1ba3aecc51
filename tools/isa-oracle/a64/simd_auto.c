/* Loops the compiler vectorises (Advanced SIMD) and scalar floating point, for the A64 oracle tables. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 1024
float fa[N], fb[N], fc[N];
double da[N], db[N], dc[N];
int8_t i8a[N], i8b[N];
uint8_t u8a[N], u8b[N];
int16_t i16a[N], i16b[N];
uint16_t u16a[N];
int32_t i32a[N], i32b[N];
uint32_t u32a[N];
int64_t i64a[N], i64b[N];
uint64_t u64a[N];

__attribute__((noinline)) void saxpy(float a) { for (int i = 0; i < N; i++) fa[i] = a * fb[i] + fc[i]; }
__attribute__((noinline)) void daxpy(double a) { for (int i = 0; i < N; i++) da[i] = a * db[i] + dc[i]; }
__attribute__((noinline)) float fsum(void) { float s = 0; for (int i = 0; i < N; i++) s += fa[i] * fb[i]; return s; }
__attribute__((noinline)) double dmax(void) { double m = -INFINITY; for (int i = 0; i < N; i++) m = fmax(m, da[i]); return m; }
__attribute__((noinline)) int32_t isum(void) { int32_t s = 0; for (int i = 0; i < N; i++) s += i32a[i] * i32b[i]; return s; }
__attribute__((noinline)) int64_t lsum(void) { int64_t s = 0; for (int i = 0; i < N; i++) s += i64a[i] ^ (i64b[i] >> 3); return s; }
__attribute__((noinline)) void bytes(void) { for (int i = 0; i < N; i++) u8a[i] = (uint8_t) ((u8a[i] + u8b[i] + 1) >> 1); }
__attribute__((noinline)) void sat8(void) { for (int i = 0; i < N; i++) { int v = i8a[i] + i8b[i]; i8a[i] = v > 127 ? 127 : v < -128 ? -128 : v; } }
__attribute__((noinline)) void widen(void) { for (int i = 0; i < N; i++) i32a[i] = i16a[i] * (int32_t) i16b[i]; }
__attribute__((noinline)) void narrow(void) { for (int i = 0; i < N; i++) i16a[i] = (int16_t) (i32a[i] >> 4); }
__attribute__((noinline)) void absdiff(void) { for (int i = 0; i < N; i++) u8a[i] = u8a[i] > u8b[i] ? u8a[i] - u8b[i] : u8b[i] - u8a[i]; }
__attribute__((noinline)) void cvt(void) { for (int i = 0; i < N; i++) { fa[i] = (float) i32a[i]; i32b[i] = (int32_t) fb[i]; da[i] = fc[i]; u32a[i] = (uint32_t) db[i]; } }
__attribute__((noinline)) void minmax(void) { for (int i = 0; i < N; i++) { i32a[i] = i32a[i] < i32b[i] ? i32a[i] : i32b[i]; u16a[i] = u16a[i] > 77 ? u16a[i] : 77; } }
__attribute__((noinline)) void fmath(void) { for (int i = 0; i < N; i++) { fa[i] = sqrtf(fabsf(fb[i])); da[i] = -db[i] / dc[i]; fc[i] = fminf(fa[i], fb[i]); } }
__attribute__((noinline)) void rnd(void) { for (int i = 0; i < N; i++) { fa[i] = floorf(fb[i]) + ceilf(fc[i]) + roundf(fa[i]) + truncf(fb[i]) + rintf(fc[i]); da[i] = nearbyint(db[i]); } }
__attribute__((noinline)) void cmpsel(void) { for (int i = 0; i < N; i++) fa[i] = fb[i] > fc[i] ? fb[i] : -fc[i]; }
__attribute__((noinline)) void shifts(void) { for (int i = 0; i < N; i++) { u32a[i] = (u32a[i] << 3) | (u32a[i] >> 29); i64a[i] = i64a[i] >> (i & 7); u64a[i] = u64a[i] >> 17; } }
__attribute__((noinline)) void bits(void) { for (int i = 0; i < N; i++) { u32a[i] = __builtin_popcount(u32a[i]) + __builtin_clz(u32a[i] | 1) + __builtin_ctz(u32a[i] | 1); u64a[i] = __builtin_bswap64(u64a[i]); } }
__attribute__((noinline)) void interleave(void) { for (int i = 0; i < N / 2; i++) { fa[i] = fb[2 * i] + fb[2 * i + 1]; fc[i] = fb[2 * i] - fb[2 * i + 1]; } }
__attribute__((noinline)) void interleave3(void) { for (int i = 0; i < N / 3; i++) { u8a[i] = u8b[3 * i] / 3 + u8b[3 * i + 1] / 3 + u8b[3 * i + 2] / 3; } }
__attribute__((noinline)) void mul64(void) { for (int i = 0; i < N; i++) u64a[i] = u64a[i] * 0x9E3779B97F4A7C15ull + (uint64_t) i32a[i]; }
__attribute__((noinline)) void halfs(void) { for (int i = 0; i < N; i++) u16a[i] = (uint16_t) (u16a[i] * 3 - (u8a[i] << 2)); }
__attribute__((noinline)) void cond_store(void) { for (int i = 0; i < N; i++) if (i32a[i] > 0) i32b[i] = i32a[i] * 5; }
__attribute__((noinline)) long scalar(long a, long b, unsigned c) {
    long r = a / (b | 1) + (long) ((unsigned long) a % ((unsigned long) b | 1)) + (a * b >> 7);
    r += (__int128) a * b >> 64;
    r += (unsigned __int128) (unsigned long) a * (unsigned long) b >> 64;
    r ^= (r << (c & 63)) | ((unsigned long) r >> (64 - (c & 63)));
    r += c > 5 ? a : b;
    r += __builtin_clzl(r | 1) + __builtin_popcountl(r) + __builtin_parityl(r) + __builtin_ffsl(r);
    r += (int16_t) c + (int8_t) a + (uint16_t) b + (uint32_t) r;
    return r;
}
__attribute__((noinline)) double fscalar(double x, float y, int k, long l, unsigned long u) {
    double r = x * y + fma(x, x, y) - fmaf(y, y, (float) x);
    r += (double) k + (double) l + (double) u + (float) u + (float) k;
    r += (long) x + (unsigned long) y + (int) (x * 3) + (unsigned) y;
    r += x < y ? x : y;
    r += copysign(r, x) + lround(x) + llrint(y) + lrintf(y) + ldexp(x, k);
    r += (x == y) + (x != y) * 2 + isnan(x) + isinf(y) * 4 + (x >= y) * 7;
    float h = (float) r;
    memcpy(&k, &h, 4);
    return r + k + 1.5 + 0.125f + 256.0;
}
__attribute__((noinline)) long double quad(long double a, long double b) { return a * b + a / b - (long double) 3; }

int simd_auto(void) {
    saxpy(2.0f); daxpy(3.0); bytes(); sat8(); widen(); narrow(); absdiff(); cvt(); minmax(); fmath(); rnd(); cmpsel();
    shifts(); bits(); interleave(); interleave3(); mul64(); halfs(); cond_store();
    return (int) (fsum() + dmax() + isum() + lsum() + scalar(1, 2, 3) + fscalar(1, 2, 3, 4, 5) + (double) quad(1, 2));
}
