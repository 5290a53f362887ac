//===- RaiseAttention.h - attention matchers, linalg/TOSA -----*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces attn-raise-attention is built from. A dialect matcher (linalg or
// TOSA) anchors at the contraction P V and walks up to softmax, mask, scale
// and Q K^T; the operand views (reshapes, transposes, GQA expansions) and the
// mask classifier are shared by both. Every step returns either what it
// matched or the reason the candidate is not attention.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_TRANSFORMS_RAISEATTENTION_RAISEATTENTION_H
#define ATTNC_LIB_TRANSFORMS_RAISEATTENTION_RAISEATTENTION_H

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::attn::raise {

/// A matcher's result: what it matched, or why the candidate is not
/// attention (the text of the near-miss remark).
template <typename T>
using Matched = llvm::Expected<T>;

/// The failure of a match step, with the reason a user reads.
llvm::Error miss(const Twine &why);

/// `value` as printf's %g writes it, for reasons.
std::string printNumber(double value);

/// One attention operand as a 4-D tensor. `bhsd` is the operand in
/// [B, H, S, D] order: an existing value, or, when the graph has no batch or
/// head dimension, `merged` (the 2-D or 3-D value the contraction reads)
/// expanded with leading unit dimensions at rewrite time. `bshd` is the
/// tensor `bhsd` was transposed from, when the graph has one.
struct OperandView {
  Value bhsd;
  Value merged;
  std::optional<Value> bshd;
  /// [B, H, S, D] (known without `bhsd` existing yet).
  SmallVector<int64_t, 4> shape;

  /// A value of the graph holding the operand, whichever view it has.
  Value source() const { return bhsd ? bhsd : bshd ? *bshd : merged; }
};

/// Strips splat scale factors off an operand, multiplying them into the
/// match's scale; returns its argument when there are none.
using PeelScale = function_ref<Value(Value)>;

/// Reads the operand `value` of a contraction (rank 2, 3 or 4) as an
/// attention operand: merged batch and heads ([B * H, S, D], from a
/// tensor.collapse_shape or tosa.reshape), a GQA expansion of key/value heads
/// when `allowGqa`, and a [0, 2, 1, 3] transpose from BSHD, with `peel`
/// stripping scale factors before each of those steps.
Matched<OperandView> viewOperand(Value value, bool allowGqa, PeelScale peel);

/// If `value` is a transpose (linalg.transpose or tosa.transpose), its input
/// and permutation.
std::optional<std::pair<Value, SmallVector<int64_t>>>
matchTranspose(Value value);

/// The additive mask of a score, 0 where the key is visible and -inf where
/// it is not: a tensor, or a scalar computed in the body of the
/// linalg.generic that adds it. `position(i, j)` is where query row i and key
/// column j are: the tensor's index, or the generic's iteration point.
struct AdditiveMask {
  Value value;
  std::function<SmallVector<int64_t>(int64_t row, int64_t col)> position;
};

/// The mask kind and window an additive mask over an `nq` x `nk` score
/// computes, found by evaluating it at every position (constants, and
/// linalg.generic bodies of index arithmetic and comparisons). The mask must
/// be a graph constant (isGraphConstant), or a scalar of a linalg.generic
/// body computed from linalg.index and graph constants.
Matched<MaskSpec> classifyMask(const AdditiveMask &mask, int64_t nq,
                               int64_t nk);

/// True if `value` is computed from constants and sizes alone (no function
/// argument reaches it except through tensor.dim, and no op with side
/// effects does): a mask.
bool isGraphConstant(Value value);

/// A splat floating-point constant: arith.constant / tosa.const of a splat
/// tensor or a scalar, or linalg.fill of one.
std::optional<double> matchSplat(Value value);

/// Everything the rewrite needs to replace one attention graph.
struct AttentionMatch {
  OperandView query, key, value;
  double scale = 1.0;
  MaskSpec mask;
  /// The value the attention output replaces (the result of P V, of rank 2,
  /// 3 or 4).
  Value result;
};

/// The linalg form anchored at `anchor`: std::nullopt if `anchor` is not a
/// contraction of probabilities at all (no remark), else the match or the
/// near miss.
std::optional<Matched<AttentionMatch>> matchLinalgAttention(Operation *anchor);

/// The TOSA form anchored at a tosa.matmul, as above.
std::optional<Matched<AttentionMatch>> matchTosaAttention(Operation *anchor);

/// `result` of P V, or, when its only user casts it (tosa.cast, or an
/// elementwise linalg op of one arith.extf / arith.truncf) to the operands'
/// element type `element`, the cast value: a bf16 graph's f32 accumulator
/// rounded back to bf16 is what attn.attention computes.
Value throughOutputCast(Value result, Type element);

/// Shared last steps of both matchers: the scale must be positive, the three
/// views must have one batch, agreeing sequence and head dims, and query
/// heads a multiple of key/value heads.
llvm::Error checkConsistent(const AttentionMatch &match);

/// The steps both matchers end with, once Q, K, the scale and the result are
/// in `match`: V's view from `value` (unscaled: a factor on V would scale the
/// output), the mask `classify` gives, the result through its output cast,
/// and checkConsistent.
llvm::Error completeMatch(AttentionMatch &match, Value value,
                          function_ref<Matched<MaskSpec>()> classify);

} // namespace mlir::attn::raise

#endif // ATTNC_LIB_TRANSFORMS_RAISEATTENTION_RAISEATTENTION_H
