/* Armv8.1 to Armv8.5 extensions: crypto, CRC32, FP16 arithmetic, dot product, LSE atomics, RCpc,
 * random numbers, and (with -mbranch-protection=standard) BTI and pointer authentication. */
#include <arm_acle.h>
#include <arm_neon.h>
#include <stdatomic.h>
#include <stdint.h>

__attribute__((noinline)) uint8x16_t aes(uint8x16_t s, uint8x16_t k) {
    s = vaeseq_u8(s, k); s = vaesmcq_u8(s); s = vaesdq_u8(s, k); return vaesimcq_u8(s);
}
__attribute__((noinline)) uint32x4_t sha(uint32x4_t a, uint32x4_t b, uint32x4_t c, uint32_t e) {
    a = vsha1cq_u32(a, e, b); a = vsha1mq_u32(a, e, b); a = vsha1pq_u32(a, vsha1h_u32(e), b);
    a = vsha1su0q_u32(a, b, c); a = vsha1su1q_u32(a, b);
    a = vsha256hq_u32(a, b, c); a = vsha256h2q_u32(a, b, c); a = vsha256su0q_u32(a, b); return vsha256su1q_u32(a, b, c);
}
__attribute__((noinline)) poly128_t pmull(poly64x2_t a, poly64x2_t b) { return vmull_high_p64(a, b) ^ vmull_p64(a[0], b[1]); }
__attribute__((noinline)) uint32_t crc(uint32_t c, uint64_t d, uint32_t w, uint16_t h, uint8_t b) {
    return __crc32cd(__crc32d(c, d), d) ^ __crc32w(c, w) ^ __crc32cw(c, w) ^ __crc32h(c, h) ^ __crc32ch(c, h)
        ^ __crc32b(c, b) ^ __crc32cb(c, b);
}
__attribute__((noinline)) uint32x4_t dot(uint32x4_t acc, uint8x16_t a, uint8x16_t b, int8x8_t c) {
    acc = vdotq_u32(acc, a, b); acc = vdotq_laneq_u32(acc, a, b, 2);
    int32x2_t s = vdot_s32(vreinterpret_s32_u32(vget_low_u32(acc)), c, c);
    return vaddq_u32(acc, vreinterpretq_u32_s32(vcombine_s32(s, s)));
}
__attribute__((noinline)) float16x8_t fp16(float16x8_t a, float16x8_t b, __fp16 *p) {
    a = vfmaq_f16(a, b, a); a = vmulq_f16(a, b); a = vdivq_f16(a, b); a = vsqrtq_f16(a); a = vmaxnmq_f16(a, b);
    a = vrndnq_f16(a); a = vcvtq_f16_s16(vcvtq_s16_f16(a)); a = vpaddq_f16(a, b); a = vabsq_f16(a);
    a = vreinterpretq_f16_u16(vcgeq_f16(a, b));
    float16_t s = vmaxvq_f16(a); s = vaddh_f16(s, *p); s = vmulh_f16(s, s); s = vsqrth_f16(s); *p = s;
    return vfmaq_laneq_f16(a, b, a, 5);
}
__attribute__((noinline)) int32x4_t rdm(int32x4_t a, int32x4_t b) { return vqrdmlahq_s32(vqrdmlshq_s32(a, b, a), a, b); }
_Atomic long counter;
_Atomic int flag;
__attribute__((noinline)) long atomics(long v, int *p, __int128 *q) {
    long r = atomic_fetch_add(&counter, v); r += atomic_fetch_or(&counter, 4); r += atomic_fetch_and(&counter, ~8L);
    r += atomic_fetch_xor(&counter, v); r += atomic_exchange(&counter, r); r += atomic_fetch_sub_explicit(&counter, 3, memory_order_relaxed);
    long e = 5; atomic_compare_exchange_strong(&counter, &e, v); r += e;
    int i = 1; atomic_compare_exchange_weak_explicit(&flag, &i, 2, memory_order_acquire, memory_order_relaxed);
    r += __atomic_fetch_add(p, 1, __ATOMIC_RELEASE) + __atomic_load_n(p, __ATOMIC_ACQUIRE);
    __atomic_store_n(p, 7, __ATOMIC_RELEASE);
    __int128 old = *q; __atomic_compare_exchange_n(q, &old, old + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    atomic_thread_fence(memory_order_seq_cst); atomic_signal_fence(memory_order_acquire);
    char c = 0; __atomic_exchange_n(&c, 1, __ATOMIC_ACQ_REL); short sh = 3; __atomic_fetch_add(&sh, 2, __ATOMIC_SEQ_CST);
    return r + i + (long) old + c + sh;
}
typedef int (*fn)(int);
__attribute__((noinline)) static int leaf(int x) { return x * 3; }
__attribute__((noinline)) int callind(fn f, int x) { fn g = x > 3 ? f : leaf; return g(x) + f(x + 1); }
__attribute__((noinline)) long sysregs(void) {
    long v;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(v)); long w; __asm__ volatile("mrs %0, cntvct_el0" : "=r"(w));
    __asm__ volatile("isb; dmb ish; dsb sy; dmb ishld; dsb ishst; yield; nop; sev; sevl; wfe; wfi; clrex" ::: "memory");
    __asm__ volatile("prfm pldl1keep, [%0]; prfm pstl2strm, [%0, #64]; prfm plil3keep, [%0, %1]" :: "r"(&v), "r"(w));
    __asm__ volatile("mrs %0, nzcv; msr nzcv, %0; mrs %0, fpcr; msr fpcr, %0; mrs %0, fpsr" : "+r"(v));
    return v + w;
}
int ext(void) {
    static __fp16 h = 1;
    static __int128 q;
    int i = 3;
    return (int) aes(vdupq_n_u8(1), vdupq_n_u8(2))[0] + (int) sha(vdupq_n_u32(1), vdupq_n_u32(2), vdupq_n_u32(3), 4)[0]
        + (int) pmull(vdupq_n_p64(3), vdupq_n_p64(5)) + (int) crc(1, 2, 3, 4, 5) + (int) dot(vdupq_n_u32(1), vdupq_n_u8(2), vdupq_n_u8(3), vdup_n_s8(4))[0]
        + (int) fp16(vdupq_n_f16(1), vdupq_n_f16(2), &h)[0] + vgetq_lane_s32(rdm(vdupq_n_s32(1), vdupq_n_s32(2)), 1)
        + (int) atomics(3, &i, &q) + callind(leaf, 4) + (int) sysregs();
}
