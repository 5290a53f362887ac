//===- SoftwareExp2.h - exp2 on the FMA pipe --------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one definition of the software exp2 of attn.exp_diff's
// `software_exp2_period` (FlashAttention-4's exponential emulation): the
// sm_90a lowering emits it for the selected scores, and the numerical unit
// test (test/Unit/SoftwareExp2Test.cpp) JIT-compiles the same ops on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_CONVERSION_SOFTWAREEXP2_H
#define ATTNC_CONVERSION_SOFTWAREEXP2_H

#include "mlir/IR/Builders.h"

namespace mlir::attn {

/// The largest relative error of buildSoftwareExp2 against exp2 for
/// x in [-126, 127], f32 evaluation included (7.484e-5 measured by
/// test/Unit/SoftwareExp2Test.cpp on every f32 in [-2, -0.5) and [0.25, 1)
/// and every 61st f32 in [-130, 127]).
inline constexpr double kSoftwareExp2MaxRelativeError = 7.5e-5;

/// Emits y ~= 2^x for an f32 `x` with arith ops and llvm.intr.fma only (FADD,
/// FFMA, FMUL, integer shift and add, one compare and select: no MUFU and no
/// float-to-int conversion, which runs at the same 16/clk/SM as MUFU.EX2 on
/// sm_90). Relative error at most kSoftwareExp2MaxRelativeError for
/// x in [-126, 127]; exactly +0 for x < -126 and x = -inf, where MUFU.EX2
/// (.ftz) gives 0 as well; NaN for NaN. x > 127.5 is outside its domain
/// (attn.exp_diff's x = (s - m) c is at most a rounding error above 0).
Value buildSoftwareExp2(OpBuilder &b, Location loc, Value x);

/// The largest |x| buildBoundedSoftwareExp2 takes: 2^n for n in
/// [-126, 126] is a normal f32.
inline constexpr double kBoundedSoftwareExp2Domain = 126.0;

/// Emits y ~= 2^(s m) for f32 `s` and `multiplier` m whose product is
/// finite and at most kBoundedSoftwareExp2Domain in magnitude (never -inf):
/// a fixed max's exponent of soft-capped scores that passed no mask
/// (attn-softcap-fixed-max). The first fma both multiplies and rounds to an
/// integer, and no underflow select is needed: three instructions fewer
/// than buildSoftwareExp2 of a separate s m. Relative error at most
/// kSoftwareExp2MaxRelativeError; NaN for NaN.
Value buildBoundedSoftwareExp2(OpBuilder &b, Location loc, Value s,
                               Value multiplier);

} // namespace mlir::attn

#endif // ATTNC_CONVERSION_SOFTWAREEXP2_H
