/* arm_neon.h intrinsics: the Advanced SIMD instructions compilers rarely pick on their own. */
#include <arm_neon.h>
#include <stdint.h>

__attribute__((noinline)) int32x4_t i32ops(int32x4_t a, int32x4_t b, int32x2_t c) {
    a = vqaddq_s32(a, b); a = vqsubq_s32(a, b); a = vhaddq_s32(a, b); a = vrhaddq_s32(a, b);
    a = vqdmulhq_s32(a, b); a = vqrdmulhq_s32(a, b); a = vmlaq_lane_s32(a, b, c, 1); a = vmulq_laneq_s32(a, b, 3);
    a = vshlq_s32(a, b); a = vqshlq_s32(a, b); a = vrshlq_s32(a, b); a = vqrshlq_s32(a, b);
    a = vshrq_n_s32(a, 5); a = vrshrq_n_s32(a, 7); a = vsraq_n_s32(a, b, 3); a = vrsraq_n_s32(a, b, 9);
    a = vsliq_n_s32(a, b, 4); a = vsriq_n_s32(a, b, 6); a = vqshlq_n_s32(a, 2);
    a = vpaddq_s32(a, b); a = vpmaxq_s32(a, b); a = vpminq_s32(a, b);
    a = vabdq_s32(a, b); a = vabaq_s32(a, b, a); a = vqabsq_s32(a); a = vqnegq_s32(a); a = vclsq_s32(a); a = vclzq_s32(a);
    a = vreinterpretq_s32_u32(vcgtq_s32(a, b)); a = vreinterpretq_s32_u32(vceqzq_s32(a)); a = vreinterpretq_s32_u32(vtstq_s32(a, b));
    a = vzip1q_s32(a, b); a = vuzp2q_s32(a, b); a = vtrn1q_s32(a, b); a = vextq_s32(a, b, 3); a = vrev64q_s32(a);
    a = vaddq_s32(a, vdupq_n_s32(vaddvq_s32(b))); a = vsetq_lane_s32(vmaxvq_s32(a), a, 2);
    a = vmovl_s16(vqmovn_s32(a)); a = vmovl_high_s16(vreinterpretq_s16_s32(a));
    int64x2_t l = vmull_s32(vget_low_s32(a), vget_high_s32(b)); l = vmlal_high_s32(l, a, b); l = vqdmlal_s32(l, c, c);
    l = vpaddlq_s32(a); l = vaddw_s32(l, c); l = vsubl_high_s32(a, b);
    a = vcombine_s32(vmovn_s64(l), vqrshrn_n_s64(l, 3)); a = vcombine_s32(vreinterpret_s32_u32(vqshrun_n_s64(l, 7)), vrshrn_n_s64(l, 9));
    a = vaddq_s32(a, vreinterpretq_s32_s64(vshll_n_s32(c, 3)));
    return vbslq_s32(vreinterpretq_u32_s32(a), b, a);
}
__attribute__((noinline)) uint8x16_t u8ops(uint8x16_t a, uint8x16_t b, uint8x8_t c) {
    a = vqtbl1q_u8(a, b); a = vqtbx1q_u8(a, b, a); c = vtbl1_u8(c, c);
    uint8x16x2_t t2 = {{a, b}}; a = vqtbl2q_u8(t2, a); uint8x16x4_t t4 = {{a, b, a, b}}; a = vqtbl4q_u8(t4, b);
    a = vcntq_u8(a); a = vrbitq_u8(a); a = vmvnq_u8(a); a = vbicq_u8(a, b); a = vornq_u8(a, b); a = veorq_u8(a, b);
    a = vpmaxq_u8(a, b); a = vminq_u8(a, b); a = vqsubq_u8(a, b); a = vreinterpretq_u8_s8(vuqaddq_s8(vreinterpretq_s8_u8(a), b));
    a = vaddq_u8(a, vdupq_n_u8(vaddvq_u8(a) + vmaxvq_u8(b) + vminvq_u8(a)));
    uint16x8_t h = vpaddlq_u8(a); h = vpadalq_u8(h, b); h = vmull_u8(c, c); h = vmlal_high_u8(h, a, b); h = vabdl_u8(c, c);
    uint16_t s = vaddlvq_u8(a); a = vsetq_lane_u8((uint8_t) s, a, 7);
    a = vcombine_u8(vqmovn_u16(h), vrshrn_n_u16(h, 3)); a = vcombine_u8(vqrshrn_n_u16(h, 2), vqshrn_n_u16(h, 5));
    a = vdupq_laneq_u8(a, 9); a = vcopyq_laneq_u8(a, 3, b, 12);
    a = vcombine_u8(vget_high_u8(a), vext_u8(c, c, 5)); a = vrev16q_u8(a); a = vrev32q_u8(a);
    poly16x8_t p = vmull_p8(vreinterpret_p8_u8(c), vreinterpret_p8_u8(c));
    a = veorq_u8(a, vreinterpretq_u8_p16(p));
    return vaddq_u8(vld1q_u8((const uint8_t *) &b), a);
}
__attribute__((noinline)) float32x4_t f32ops(float32x4_t a, float32x4_t b, float32x2_t c, float *mem) {
    a = vfmaq_f32(a, b, a); a = vfmsq_laneq_f32(a, b, a, 2); a = vfmaq_lane_f32(a, b, c, 1); a = vmulxq_f32(a, b);
    a = vrecpeq_f32(a); a = vrecpsq_f32(a, b); a = vrsqrteq_f32(a); a = vrsqrtsq_f32(a, b); a = vsqrtq_f32(a); a = vdivq_f32(a, b);
    a = vpaddq_f32(a, b); a = vpmaxnmq_f32(a, b); a = vmaxnmq_f32(a, b); a = vminq_f32(a, b); a = vabdq_f32(a, b);
    a = vrndaq_f32(a); a = vrndnq_f32(a); a = vrndpq_f32(a); a = vrndmq_f32(a); a = vrndxq_f32(a); a = vrndiq_f32(a); a = vrndq_f32(a);
    a = vcvtq_f32_s32(vcvtaq_s32_f32(a)); a = vcvtq_f32_u32(vcvtnq_u32_f32(a)); a = vcvtq_n_f32_s32(vcvtq_n_s32_f32(a, 3), 5);
    a = vreinterpretq_f32_u32(vcageq_f32(a, b)); a = vreinterpretq_f32_u32(vcltzq_f32(a)); a = vreinterpretq_f32_u32(vcleq_f32(a, b));
    float32x2_t d = vcvt_f32_f64(vcvt_high_f64_f32(a)); a = vcombine_f32(d, vpadd_f32(c, d));
    float f = vaddvq_f32(a) + vmaxnmvq_f32(b) + vminvq_f32(a) + vgetq_lane_f32(b, 3);
    a = vsetq_lane_f32(f, a, 1); a = vmulq_n_f32(a, f); a = vnegq_f32(vabsq_f32(a));
    float32x4x2_t z = vld2q_f32(mem); float32x4x3_t y = vld3q_f32(mem + 8); float32x4x4_t w = vld4q_f32(mem + 20);
    vst2q_f32(mem + 40, z); vst3q_f32(mem + 60, y); vst4q_f32(mem + 80, w);
    float32x4x2_t r2 = vld2q_lane_f32(mem, z, 1); vst1q_f32_x2(mem + 100, r2); float32x4_t r = vld1q_dup_f32(mem + 3);
    vst1q_lane_f32(mem + 7, r, 2); float32x4x4_t x4 = vld1q_f32_x4(mem + 120); vst4q_lane_f32(mem + 140, x4, 3);
    float64x2_t e = vld1q_f64((double *) mem); e = vfmaq_laneq_f64(e, e, e, 1); float32x2_t x2 = vcvtx_f32_f64(e); e = vcvt_f64_f32(x2);
    vst1q_f64((double *) mem + 50, vsqrtq_f64(vpaddq_f64(e, e)));
    return vaddq_f32(vaddq_f32(a, r), vaddq_f32(x4.val[1], r2.val[0]));
}
__attribute__((noinline)) int64x2_t i64ops(int64x2_t a, int64x2_t b, int64_t s, uint64x1_t u) {
    a = vaddq_s64(a, b); a = vreinterpretq_s64_u64(vcgtq_s64(a, b)); a = vnegq_s64(a); a = vabsq_s64(a); a = vqabsq_s64(a);
    s = vaddd_s64(s, vgetq_lane_s64(a, 1)); s = vqaddd_s64(s, s); s = vshld_n_s64(s, 3); s = vshrd_n_s64(s, 9); s = vrshrd_n_s64(s, 7);
    s = vcgtd_s64(s, 5) + vceqzd_s64(s) + vtstd_s64(s, s); a = vsetq_lane_s64(s + vaddvq_s64(a), a, 0);
    u = vshl_u64(u, vreinterpret_s64_u64(u)); u = vsra_n_u64(u, u, 3); a = vaddq_s64(a, vreinterpretq_s64_u64(vcombine_u64(u, u)));
    int32_t q = vqmovnd_s64(s) + vqdmulhs_s32((int32_t) s, 3) + vqrdmulhs_s32((int32_t) s, 5) + vqabss_s32((int32_t) s);
    int16_t h = vqaddh_s16((int16_t) q, 4); int8_t bb = vqsubb_s8((int8_t) h, 3);
    return vaddq_s64(a, vdupq_n_s64(q + h + bb + (int64_t) vcvtd_n_f64_s64(s, 3) + vcvtd_n_s64_f64((double) s, 9)));
}
__attribute__((noinline)) float16x8_t halfops(float16x8_t a, float16x8_t b) {
    return vcvt_high_f16_f32(vcvt_f16_f32(vcvt_f32_f16(vget_low_f16(a))), vcvt_f32_f16(vget_high_f16(b)));
}
int neon_intr(float *mem) {
    int32x4_t a = i32ops(vdupq_n_s32(1), vdupq_n_s32(2), vdup_n_s32(3));
    uint8x16_t b = u8ops(vdupq_n_u8(1), vdupq_n_u8(2), vdup_n_u8(3));
    float32x4_t c = f32ops(vdupq_n_f32(1), vdupq_n_f32(2), vdup_n_f32(3), mem);
    int64x2_t d = i64ops(vdupq_n_s64(1), vdupq_n_s64(2), 5, vdup_n_u64(3));
    float16x8_t h = halfops(vreinterpretq_f16_f32(c), vreinterpretq_f16_s32(a));
    return vgetq_lane_s32(a, 0) + vgetq_lane_u8(b, 0) + (int) vgetq_lane_f32(c, 0) + (int) vgetq_lane_s64(d, 0)
        + vgetq_lane_s16(vreinterpretq_s16_f16(h), 3);
}
