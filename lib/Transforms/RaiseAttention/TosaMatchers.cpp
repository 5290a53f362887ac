//===- TosaMatchers.cpp - attention in TOSA -------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TOSA has one op per step and rank-preserving broadcasts, so the form is
// fixed: matmul(Q, transpose(K)), mul by a splat, add of a constant mask,
// softmax as reduce_max, sub, exp, reduce_sum, reciprocal and mul, and
// matmul by V. Casts (tosa.cast) between steps are looked through.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

namespace {

/// `value` seen through float casts.
Value skipCasts(Value value) {
  while (auto cast = value.getDefiningOp<tosa::CastOp>())
    value = cast.getInput();
  return value;
}

template <typename OpTy>
OpTy producer(Value value) {
  return skipCasts(value).getDefiningOp<OpTy>();
}

int64_t rankOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getRank();
}

/// If `mul` multiplies by a splat, the splat and the other operand.
std::optional<std::pair<double, Value>> splatFactor(tosa::MulOp mul) {
  if (std::optional<double> c = matchSplat(skipCasts(mul.getInput2())))
    return std::make_pair(*c, mul.getInput1());
  if (std::optional<double> c = matchSplat(skipCasts(mul.getInput1())))
    return std::make_pair(*c, mul.getInput2());
  return std::nullopt;
}

/// `value` with splat factors (tosa.mul) peeled off into `scale`.
Value peelScale(Value value, double &scale) {
  value = skipCasts(value);
  while (auto mul = value.getDefiningOp<tosa::MulOp>()) {
    auto factor = splatFactor(mul);
    if (!factor)
      break;
    scale *= factor->first;
    value = skipCasts(factor->second);
  }
  return value;
}

/// The input of the reduction `ReduceOp` over the last dimension at `value`.
template <typename ReduceOp>
Matched<Value> matchRowReduction(Value value, StringRef what) {
  auto reduce = producer<ReduceOp>(value);
  if (!reduce)
    return miss("the softmax " + what + " is not a " +
                ReduceOp::getOperationName());
  int64_t last = rankOf(reduce.getInput()) - 1;
  if (reduce.getAxis() != last)
    return miss("the softmax " + what + " reduces axis " +
                Twine(reduce.getAxis()) + ", not the key axis " + Twine(last));
  return skipCasts(reduce.getInput());
}

/// The exponential and the reciprocal that `mul` multiplies, in that order.
std::optional<std::pair<tosa::ExpOp, tosa::ReciprocalOp>>
expTimesReciprocal(tosa::MulOp mul) {
  for (auto [a, b] : {std::pair{mul.getInput1(), mul.getInput2()},
                      std::pair{mul.getInput2(), mul.getInput1()}}) {
    auto exp = producer<tosa::ExpOp>(a);
    auto reciprocal = producer<tosa::ReciprocalOp>(b);
    if (exp && reciprocal)
      return std::make_pair(exp, reciprocal);
  }
  return std::nullopt;
}

/// The scores whose softmax over the last axis is exp * reciprocal.
Matched<Value> matchSoftmax(tosa::ExpOp exp, tosa::ReciprocalOp reciprocal) {
  Matched<Value> summed =
      matchRowReduction<tosa::ReduceSumOp>(reciprocal.getInput1(), "row sum");
  if (!summed)
    return summed.takeError();
  if (*summed != exp.getResult())
    return miss("the softmax divides by the row sum of other values");
  auto sub = producer<tosa::SubOp>(exp.getInput1());
  if (!sub)
    return skipCasts(exp.getInput1());
  Matched<Value> maxed =
      matchRowReduction<tosa::ReduceMaxOp>(sub.getInput2(), "row max");
  if (!maxed)
    return maxed.takeError();
  Value scores = skipCasts(sub.getInput1());
  if (*maxed != scores)
    return miss("the softmax subtracts the row max of other scores");
  return scores;
}

/// The exponential and reciprocal that `probs` multiplies, if it does: the
/// probabilities of a candidate.
std::optional<std::pair<tosa::ExpOp, tosa::ReciprocalOp>>
probabilityFactors(Value probs) {
  auto mul = producer<tosa::MulOp>(probs);
  return mul ? expTimesReciprocal(mul) : std::nullopt;
}

struct Scores {
  tosa::MatMulOp qk;
  double scale = 1.0;
  std::optional<Value> mask;
};

/// `value` as splat factors and one constant additive mask of a matmul.
Matched<Scores> matchScores(Value value) {
  Scores scores;
  while (!value.getDefiningOp<tosa::MatMulOp>()) {
    if (auto mul = value.getDefiningOp<tosa::MulOp>()) {
      auto factor = splatFactor(mul);
      if (!factor)
        return miss("the scores are multiplied by a tensor that is not a "
                    "splat constant");
      scores.scale *= factor->first;
      value = skipCasts(factor->second);
      continue;
    }
    if (auto add = value.getDefiningOp<tosa::AddOp>()) {
      Value rest;
      for (auto [mask, other] : {std::pair{add.getInput2(), add.getInput1()},
                                 std::pair{add.getInput1(), add.getInput2()}})
        if (isGraphConstant(skipCasts(mask))) {
          if (scores.mask)
            return miss("the scores add two masks");
          scores.mask = skipCasts(mask);
          rest = other;
          break;
        }
      if (!rest)
        return miss("the scores add a tensor that is not computed from "
                    "constants (not a mask)");
      value = skipCasts(rest);
      continue;
    }
    Operation *op = value.getDefiningOp();
    return miss("the softmax input is computed by " +
                (op ? op->getName().getStringRef() : StringRef("an argument")) +
                ", not by scaling and masking Q K^T");
  }
  scores.qk = value.getDefiningOp<tosa::MatMulOp>();
  return scores;
}

/// The mask `tensor`, broadcast over the leading dimensions of a score.
Matched<MaskSpec> classifyScoreMask(Value tensor, tosa::MatMulOp qk) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(tensor.getType()).getShape();
  ArrayRef<int64_t> scoreShape = qk.getType().getShape();
  if (shape.size() != 3 || shape[0] != 1)
    return miss("mask not recognised: it is not broadcast over batch and "
                "heads");
  AdditiveMask mask{tensor, [&](int64_t i, int64_t j) {
                      return SmallVector<int64_t>{0, shape[1] == 1 ? 0 : i,
                                                  shape[2] == 1 ? 0 : j};
                    }};
  return classifyMask(mask, scoreShape[1], scoreShape[2]);
}

/// K of Q K^T = matmul(Q, transpose(K, [0, 2, 1])).
Matched<OperandView> viewKey(Value keyT, PeelScale peel) {
  auto transpose = matchTranspose(peel(keyT));
  if (!transpose || transpose->second != ArrayRef<int64_t>{0, 2, 1})
    return miss("Q K^T reads K as [.., D, N], but K is not a transpose");
  return viewOperand(transpose->first, /*allowGqa=*/true, peel);
}

} // namespace

std::optional<Matched<AttentionMatch>>
raise::matchTosaAttention(Operation *anchor) {
  auto pv = dyn_cast<tosa::MatMulOp>(anchor);
  auto factors = pv ? probabilityFactors(pv.getA()) : std::nullopt;
  if (!factors)
    return std::nullopt;
  auto result = [&]() -> Matched<AttentionMatch> {
    AttentionMatch match;
    match.result = pv.getResult();
    Matched<Value> logits = matchSoftmax(factors->first, factors->second);
    if (!logits)
      return logits.takeError();
    Matched<Scores> scores = matchScores(*logits);
    if (!scores)
      return scores.takeError();
    // Float matmuls have zero zero points (the verifier requires it).
    match.scale = scores->scale;
    auto peel = [&](Value v) { return peelScale(v, match.scale); };
    Matched<OperandView> query =
        viewOperand(scores->qk.getA(), /*allowGqa=*/false, peel);
    if (!query)
      return query.takeError();
    match.query = *query;
    Matched<OperandView> key = viewKey(scores->qk.getB(), peel);
    if (!key)
      return key.takeError();
    match.key = *key;
    if (llvm::Error error =
            completeMatch(match, pv.getB(), [&]() -> Matched<MaskSpec> {
              if (!scores->mask)
                return MaskSpec();
              return classifyScoreMask(*scores->mask, scores->qk);
            }))
      return std::move(error);
    return match;
  }();
  return std::move(result);
}
