//===- SoftwareExp2.cpp - exp2 on the FMA pipe ----------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Cody-Waite range reduction x = n + f, n = round(x), f in [-0.5, 0.5]:
//
//   t = x + 1.5 * 2^23     rounds x to the nearest integer n (ties to even),
//                          exactly, for |x| < 2^22; the low mantissa bits of
//                          t are n's two's complement (t's bits are
//                          0x4B400000 + n)
//   r = t - 1.5 * 2^23     n as a float, exact
//   f = x - r              exact
//   p = c0 + f (c1 + f (c2 + f c3))          ~= 2^f, three fma (Horner)
//   y = p * bitcast((bits(t) << 23) + 0x3F800000)     p * 2^n
//
// buildBoundedSoftwareExp2 takes x = s m as a product whose magnitude is at
// most 126 and never -inf (a fixed max of soft-capped, unmasked scores):
// t = fma(s, m, 1.5 * 2^23) rounds the exact product, -n = 1.5 * 2^23 - t
// exactly, f = fma(s, m, -n) with one rounding, and no select.
//
// The shift drops 0x4B400000's bits and leaves n << 23 (mod 2^32), so the
// exponent of 1.0 plus n is 2^n for n in [-126, 127] with no float-to-int
// conversion; the integer bits are not added to p's directly, so that a NaN
// p stays NaN (NaN * anything). x < -126 (2^x subnormal or 0, which the
// .ftz MUFU.EX2 flushes to 0) and x = -inf (t = -inf, f = NaN) are selected
// to +0: the select makes a clamp of x unnecessary, an x far below -126 only
// computes a value it discards. At x in [-126, -125.5] the product may be
// subnormal by p's error (p(0) = c0 < 1), which the non-ftz FMUL keeps.
//
// The coefficients: the minimax polynomial of degree 3 for the relative
// error of 2^f on [-0.5, 0.5] (Remez exchange at 40 digits: 7.478e-5,
// equioscillating at 5 points), rounded to f32. The relative error is
// shift-invariant (2^(f + 1/2) = sqrt(2) 2^f), so a floor reduction to
// [0, 1) would give the same bound, but a floor (cvt.rmi, or add.rm, an
// NVVM intrinsic the CPU test could not run) costs more than the one
// round-to-nearest FADD. In f32 arithmetic the largest error measured is
// 7.484e-5 (kSoftwareExp2MaxRelativeError bounds it; FlashAttention-4's
// degree-3 polynomial on [0, 1), with c0 = 1, has 8.8e-5). Degree 4 would
// give 2.6e-6 for one more fma, which P rounded to bf16 (2^-9) or f16
// (2^-11) for P V cannot use.
//
//===----------------------------------------------------------------------===//

#include "attnc/Conversion/SoftwareExp2.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {
/// 2^f ~= c0 + c1 f + c2 f^2 + c3 f^3 on [-0.5, 0.5] (see above).
constexpr float kExp2Coefficients[] = {
    0x1.fff692p-1f, // 0.99992806
    0x1.62f31ap-1f, // 0.69326097
    0x1.f0de1ap-3f, // 0.24261112
    0x1.c3f760p-5f, // 0.05517167
};
/// 1.5 * 2^23: adding it rounds an |x| < 2^22 to an integer.
constexpr float kRoundToInteger = 0x1.8p23f;
} // namespace

namespace {
Value cF32(OpBuilder &b, Location loc, float v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

/// p(f) * 2^n from t = x + 1.5 * 2^23 (n in t's low bits) and f = x - n.
Value scaleByExponent(OpBuilder &b, Location loc, Value t, Value f) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto cI32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  Value p = cF32(b, loc, kExp2Coefficients[3]);
  for (int k = 2; k >= 0; --k)
    p = LLVM::FMAOp::create(b, loc, p, f, cF32(b, loc, kExp2Coefficients[k]));
  Value exponent = arith::ShLIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, t), cI32(23));
  Value scale = arith::BitcastOp::create(
      b, loc, f32, arith::AddIOp::create(b, loc, exponent, cI32(0x3F800000)));
  return arith::MulFOp::create(b, loc, p, scale);
}
} // namespace

Value mlir::attn::buildSoftwareExp2(OpBuilder &b, Location loc, Value x) {
  Value t = arith::AddFOp::create(b, loc, x, cF32(b, loc, kRoundToInteger));
  Value r = arith::SubFOp::create(b, loc, t, cF32(b, loc, kRoundToInteger));
  Value f = arith::SubFOp::create(b, loc, x, r);
  Value y = scaleByExponent(b, loc, t, f);
  Value underflow = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                          cF32(b, loc, -126.0f));
  return arith::SelectOp::create(b, loc, underflow, cF32(b, loc, 0.0f), y);
}

Value mlir::attn::buildBoundedSoftwareExp2(OpBuilder &b, Location loc, Value s,
                                           Value multiplier) {
  // The fma rounds the exact product: t = round(s m) + 1.5 * 2^23 with one
  // rounding, and f = s m - n with one more, within 2^-25 of f.
  Value t =
      LLVM::FMAOp::create(b, loc, s, multiplier, cF32(b, loc, kRoundToInteger));
  Value negN = arith::SubFOp::create(b, loc, cF32(b, loc, kRoundToInteger), t);
  Value f = LLVM::FMAOp::create(b, loc, s, multiplier, negN);
  return scaleByExponent(b, loc, t, f);
}
