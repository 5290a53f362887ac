//===- LinalgMatchers.cpp - attention in linalg on tensors ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Frontends split softmax(scale * Q K^T + mask) V over any number of
// elementwise linalg ops (one op per step, or several steps fused into one
// body, in f32 after an extf or in the input type). The matchers here see
// through that: `flatten` follows a tensor into the body of the elementwise op
// that computes it and a body's identity-mapped input back to the tensor, so
// each step is matched on the scalar op that computes it, whichever op holds
// it. What stops the walk are the ops that change the iteration space:
// contractions, reductions, linalg.softmax, transposes, reshapes, and inputs
// read through a broadcasting map.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineMap.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

namespace {

//===----------------------------------------------------------------------===//
// Seeing through elementwise ops
//===----------------------------------------------------------------------===//

/// The op computing `tensor` elementwise (all loops parallel, the result in
/// iteration order), whose body `flatten` may enter.
linalg::LinalgOp elementwiseProducer(Value tensor) {
  auto op = tensor.getDefiningOp<linalg::LinalgOp>();
  if (!op || isa<linalg::TransposeOp, linalg::FillOp>(op) ||
      op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.isAllParallelLoops() || !op.getBlock() ||
      !op.getIndexingMapMatchingResult(cast<OpResult>(tensor)).isIdentity())
    return {};
  return op;
}

/// The linalg op whose body `arg` belongs to, and the operand it stands for,
/// if that operand is an input.
std::optional<std::pair<linalg::LinalgOp, OpOperand *>>
inputOf(BlockArgument arg) {
  auto op = dyn_cast<linalg::LinalgOp>(arg.getOwner()->getParentOp());
  if (!op)
    return std::nullopt;
  OpOperand *operand = op.getMatchingOpOperand(arg);
  if (!op.isDpsInput(operand))
    return std::nullopt;
  return std::make_pair(op, operand);
}

bool isCast(Value value) {
  return isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(value.getDefiningOp());
}

/// `value` seen through elementwise ops and float casts: the scalar op that
/// computes it, a tensor not computed elementwise, or the block argument of
/// an input read through a broadcasting map.
Value flatten(Value value) {
  while (true) {
    if (isa<RankedTensorType>(value.getType())) {
      linalg::LinalgOp producer = elementwiseProducer(value);
      if (!producer)
        return value;
      value = producer.getBlock()->getTerminator()->getOperand(0);
    } else if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto input = inputOf(arg);
      if (!input ||
          !input->first.getMatchingIndexingMap(input->second).isIdentity())
        return value;
      value = input->second->get();
    } else if (isCast(value)) {
      value = value.getDefiningOp()->getOperand(0);
    } else {
      return value;
    }
  }
}

/// A tensor a flattened expression reads, and the map from the expression's
/// iteration point to the tensor's index.
struct Read {
  /// The tensor, or for an inline mask the scalar (see asMaskRead).
  Value value;
  AffineMap map;
};

/// `flat` (a flattened value) as a tensor read, if it is one.
std::optional<Read> asRead(Value flat) {
  if (auto type = dyn_cast<RankedTensorType>(flat.getType()))
    return Read{flat, AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                        flat.getContext())};
  auto arg = dyn_cast<BlockArgument>(flat);
  if (!arg)
    return std::nullopt;
  auto input = inputOf(arg);
  if (!input)
    return std::nullopt;
  return Read{input->second->get(),
              input->first.getMatchingIndexingMap(input->second)};
}

/// The splat constant `flat` is, if any (a scalar or a splat tensor read).
std::optional<double> splatOf(Value flat) {
  if (!isa<RankedTensorType>(flat.getType()))
    if (std::optional<double> scalar = matchSplat(flat))
      return scalar;
  if (std::optional<Read> read = asRead(flat))
    return matchSplat(read->value);
  return std::nullopt;
}

/// If `flat` is the binary op `OpTy` with a splat operand, the splat and the
/// other operand (flattened).
template <typename OpTy>
std::optional<std::pair<double, Value>> withSplat(Value flat,
                                                  bool splatOnRight = false) {
  auto op = flat.getDefiningOp<OpTy>();
  if (!op)
    return std::nullopt;
  for (int side : {1, 0}) {
    if (side == 0 && splatOnRight)
      break;
    if (std::optional<double> c = splatOf(flatten(op->getOperand(side))))
      return std::make_pair(*c, flatten(op->getOperand(1 - side)));
  }
  return std::nullopt;
}

/// The map of a row vector broadcast along the last dimension of a rank-R
/// space: (d0, ..., d(R-1)) -> (d0, ..., d(R-2)), or the same with a last
/// result 0 (a reduction that kept its dimension).
bool isRowMap(AffineMap map) {
  unsigned rank = map.getNumDims();
  if (rank == 0 || map.getNumSymbols() != 0)
    return false;
  for (unsigned d = 0; d + 1 < rank; ++d)
    if (d >= map.getNumResults() ||
        map.getResult(d) != getAffineDimExpr(d, map.getContext()))
      return false;
  if (map.getNumResults() == rank - 1)
    return true;
  return map.getNumResults() == rank &&
         map.getResult(rank - 1) == getAffineConstantExpr(0, map.getContext());
}

/// If `flat` reads a row vector broadcast along the key dimension, the vector.
std::optional<Value> rowRead(Value flat) {
  std::optional<Read> read = asRead(flat);
  if (!read || !isRowMap(read->map))
    return std::nullopt;
  return read->value;
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

enum class Combiner { Max, Sum };

/// True if `value`, yielded by a reduction body with block arguments `in`
/// and `acc`, combines them with `combiner`.
bool combines(Value value, Value in, Value acc, Combiner combiner) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  auto isPair = [&](Value a, Value b) {
    return (a == in && b == acc) || (a == acc && b == in);
  };
  if (combiner == Combiner::Sum)
    return isa<arith::AddFOp>(op) &&
           isPair(op->getOperand(0), op->getOperand(1));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return isPair(op->getOperand(0), op->getOperand(1));
  auto select = dyn_cast<arith::SelectOp>(op);
  if (!select)
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
  using P = arith::CmpFPredicate;
  return cmp &&
         llvm::is_contained({P::OGT, P::OGE, P::UGT, P::UGE},
                            cmp.getPredicate()) &&
         cmp.getLhs() == select.getTrueValue() &&
         cmp.getRhs() == select.getFalseValue() &&
         isPair(select.getTrueValue(), select.getFalseValue());
}

/// The tensor the row reduction `row` (max or sum over the last dimension,
/// from -inf or 0) reduces.
Matched<Value> matchRowReduction(Value row, Combiner combiner) {
  StringRef what = combiner == Combiner::Max ? "row max" : "row sum";
  auto op = row.getDefiningOp<linalg::LinalgOp>();
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return miss("the softmax " + what + " is not a one-input reduction");
  SmallVector<unsigned> reduced;
  op.getReductionDims(reduced);
  unsigned rank = op.getNumLoops();
  OpOperand *input = op.getDpsInputOperand(0);
  if (!op.getMatchingIndexingMap(input).isIdentity() ||
      reduced.front() != rank - 1 ||
      !isRowMap(op.getIndexingMapMatchingResult(cast<OpResult>(row))))
    return miss("the softmax " + what + " reduces dimension " +
                Twine(reduced.front()) + ", not the key dimension " +
                Twine(rank - 1));
  Block *body = op.getBlock();
  if (!combines(body->getTerminator()->getOperand(0), body->getArgument(0),
                body->getArgument(1), combiner))
    return miss("the softmax " + what + " does not combine with " +
                (combiner == Combiner::Max ? "a maximum" : "an addition"));
  double start = combiner == Combiner::Max
                     ? -std::numeric_limits<double>::infinity()
                     : 0.0;
  if (matchSplat(op.getDpsInitOperand(0)->get()) != start)
    return miss("the softmax " + what + " does not start from " +
                (combiner == Combiner::Max ? "-inf" : "0"));
  return input->get();
}

/// What a NaN guard select(cond, 0, p) of the probabilities `p` tests.
enum class Guard { None, NaN, RowMax };

/// The guard `cond` is: p tested for NaN (cmpf uno / une of it with itself),
/// or a row vector tested for -inf (cmpf oeq), `rowMax`: the row has no
/// visible key.
Guard matchNanGuard(Value cond, Value probs, Value &rowMax) {
  auto cmp = flatten(cond).getDefiningOp<arith::CmpFOp>();
  if (!cmp)
    return Guard::None;
  using P = arith::CmpFPredicate;
  Value lhs = flatten(cmp.getLhs()), rhs = flatten(cmp.getRhs());
  if (cmp.getPredicate() == P::UNO || cmp.getPredicate() == P::UNE)
    return lhs == probs && rhs == probs ? Guard::NaN : Guard::None;
  std::optional<Value> row = rowRead(lhs);
  if (cmp.getPredicate() != P::OEQ || !row ||
      splatOf(rhs) != -std::numeric_limits<double>::infinity())
    return Guard::None;
  rowMax = *row;
  return Guard::RowMax;
}

/// The scores `exp` exponentiates: x of exp(x - rowmax(x)), or of exp(x).
Matched<Value> matchExponent(math::ExpOp exp) {
  Value x = flatten(exp.getOperand());
  auto sub = x.getDefiningOp<arith::SubFOp>();
  if (!sub)
    return x;
  std::optional<Value> max = rowRead(flatten(sub.getRhs()));
  if (!max)
    return miss("the softmax subtracts a value that is not a row vector");
  Matched<Value> maxInput = matchRowReduction(*max, Combiner::Max);
  if (!maxInput)
    return maxInput.takeError();
  Value scores = flatten(sub.getLhs());
  if (flatten(*maxInput) != scores)
    return miss("the softmax subtracts the row max of other scores");
  return scores;
}

/// The row-sum tensor `flat` divides by: den of num / den, or r of num * r
/// with r = 1 / den.
std::optional<std::pair<Value, Value>> matchNormalization(Value flat) {
  if (auto div = flat.getDefiningOp<arith::DivFOp>())
    if (std::optional<Value> sum = rowRead(flatten(div.getRhs())))
      return std::make_pair(div.getLhs(), *sum);
  auto mul = flat.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (int side : {1, 0}) {
    std::optional<Value> reciprocal = rowRead(flatten(mul->getOperand(side)));
    if (!reciprocal)
      continue;
    auto inverse = flatten(*reciprocal).getDefiningOp<arith::DivFOp>();
    if (inverse && splatOf(flatten(inverse.getLhs())) == 1.0)
      return std::make_pair(mul->getOperand(1 - side),
                            flatten(inverse.getRhs()));
  }
  return std::nullopt;
}

/// The scores (flattened) of softmax(scores) = `flat` over the last
/// dimension.
Matched<Value> matchUnguardedSoftmax(Value flat) {
  if (auto softmax = flat.getDefiningOp<linalg::SoftmaxOp>()) {
    int64_t last = softmax.getInputOperandRank() - 1;
    if (int64_t(softmax.getDimension()) != last)
      return miss("softmax over dimension " + Twine(softmax.getDimension()) +
                  ", not the key dimension " + Twine(last));
    return flatten(softmax.getInput());
  }
  auto normalization = matchNormalization(flat);
  if (!normalization)
    return miss("the probabilities are not exp(s - max) / sum");
  auto [numerator, sum] = *normalization;
  Matched<Value> sumInput = matchRowReduction(sum, Combiner::Sum);
  if (!sumInput)
    return sumInput.takeError();
  if (flatten(*sumInput) != flatten(numerator))
    return miss("the softmax divides by the row sum of other values");
  // looksLikeProbabilities saw an exponential, and the normalization's
  // other operand is a row vector: the numerator is it.
  return matchExponent(flatten(numerator).getDefiningOp<math::ExpOp>());
}

/// The scores (flattened) whose softmax over the last dimension `probs` is,
/// with an optional NaN guard around it: a row that sees no key gets 0
/// (what attn.attention computes) instead of NaN.
Matched<Value> matchSoftmax(Value probs) {
  Value flat = flatten(probs);
  auto select = flat.getDefiningOp<arith::SelectOp>();
  if (!select)
    return matchUnguardedSoftmax(flat);
  Value kept = flatten(select.getFalseValue());
  Value rowMax;
  Guard guard = matchNanGuard(select.getCondition(), kept, rowMax);
  if (splatOf(flatten(select.getTrueValue())) != 0.0 || guard == Guard::None)
    return miss("the select around the softmax is not a NaN guard "
                "(select(isnan(p) or row max == -inf, 0, p))");
  Matched<Value> scores = matchUnguardedSoftmax(kept);
  if (!scores || guard == Guard::NaN)
    return scores;
  Matched<Value> maxInput = matchRowReduction(rowMax, Combiner::Max);
  if (!maxInput)
    return maxInput.takeError();
  if (flatten(*maxInput) != *scores)
    return miss("the NaN guard tests the row max of other scores");
  return scores;
}

/// True if `p` looks like attention probabilities: what the anchor's LHS
/// must be for a failed match to be a near miss.
bool looksLikeProbabilities(Value p) {
  Value flat = flatten(p);
  if (auto select = flat.getDefiningOp<arith::SelectOp>())
    flat = flatten(select.getFalseValue());
  if (flat.getDefiningOp<linalg::SoftmaxOp>())
    return true;
  if (!isa_and_nonnull<arith::DivFOp, arith::MulFOp>(flat.getDefiningOp()))
    return false;
  return llvm::any_of(flat.getDefiningOp()->getOperands(), [](Value v) {
    return flatten(v).getDefiningOp<math::ExpOp>() != nullptr;
  });
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// A zero-initialized contraction with two inputs and one output.
bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumDpsInputs() == 2 &&
         linalgOp.getNumDpsInits() == 1 &&
         linalg::isaContractionOpInterface(linalgOp);
}

/// The indexing map (batch..., a, b) over the contraction space
/// (batch..., m, n, k) of an output of rank `rank`; `a`/`b` name the loops
/// 'm', 'n' or 'k'.
AffineMap contractionMap(unsigned rank, char a, char b, MLIRContext *ctx) {
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d + 2 < rank; ++d)
    results.push_back(getAffineDimExpr(d, ctx));
  auto loop = [&](char name) {
    return getAffineDimExpr(rank - 2 +
                                (name == 'm'   ? 0
                                 : name == 'n' ? 1
                                               : 2),
                            ctx);
  };
  results.push_back(loop(a));
  results.push_back(loop(b));
  return AffineMap::get(rank + 1, 0, results, ctx);
}

/// The maps of `op`'s two inputs if its output is (batch..., m, n).
std::optional<std::pair<AffineMap, AffineMap>> inputMaps(linalg::LinalgOp op) {
  unsigned rank = op.getRank(op.getDpsInitOperand(0));
  if (op.getNumLoops() != rank + 1 ||
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)) !=
          contractionMap(rank, 'm', 'n', op.getContext()))
    return std::nullopt;
  return std::make_pair(op.getMatchingIndexingMap(op.getDpsInputOperand(0)),
                        op.getMatchingIndexingMap(op.getDpsInputOperand(1)));
}

/// `operand` with splat scale factors (mulf by a splat in elementwise ops)
/// peeled off and multiplied into `scale`; `operand` itself when what is
/// left is not a tensor (the operand is computed otherwise).
Value peelScales(Value operand, double &scale) {
  double factor = 1.0;
  Value flat = flatten(operand);
  while (auto scaled = withSplat<arith::MulFOp>(flat)) {
    factor *= scaled->first;
    flat = scaled->second;
  }
  if (!isa<RankedTensorType>(flat.getType()))
    return operand;
  scale *= factor;
  return flat;
}

/// `key` read as [batch..., n, k] by a contraction that reads it as
/// [batch..., k, n]: the tensor it was transposed from.
Matched<OperandView> viewTransposedKey(Value key, PeelScale peel) {
  auto transpose = matchTranspose(peel(key));
  int64_t rank = cast<RankedTensorType>(key.getType()).getRank();
  SmallVector<int64_t> swapLast = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(swapLast[rank - 1], swapLast[rank - 2]);
  if (!transpose)
    return miss("Q K^T reads K as [.., D, N], but K is not a transpose");
  if (transpose->second == swapLast)
    return viewOperand(transpose->first, /*allowGqa=*/true, peel);
  // [B, S, H, D] -> [B, H, D, S] in one transpose.
  if (transpose->second == ArrayRef<int64_t>{0, 2, 3, 1}) {
    OperandView view;
    view.bshd = peel(transpose->first);
    ArrayRef<int64_t> s =
        cast<RankedTensorType>(view.bshd->getType()).getShape();
    view.shape = {s[0], s[2], s[1], s[3]};
    return view;
  }
  return miss("K is transposed by an unexpected permutation");
}

struct QueryKey {
  OperandView query, key;
};

/// Q and K of the contraction Q K^T `op`, with the scales applied to them
/// multiplied into `scale`.
Matched<QueryKey> matchQueryKey(linalg::LinalgOp op, double &scale) {
  auto maps = inputMaps(op);
  unsigned rank = op.getRank(op.getDpsInitOperand(0));
  MLIRContext *ctx = op.getContext();
  if (!maps || maps->first != contractionMap(rank, 'm', 'k', ctx))
    return miss("Q K^T does not contract Q over its last dimension");
  auto peel = [&](Value v) { return peelScales(v, scale); };
  Matched<OperandView> query =
      viewOperand(op.getDpsInputOperand(0)->get(), /*allowGqa=*/false, peel);
  if (!query)
    return query.takeError();
  Value k = op.getDpsInputOperand(1)->get();
  Matched<OperandView> key =
      maps->second == contractionMap(rank, 'n', 'k', ctx)
          ? viewOperand(k, /*allowGqa=*/true, peel)
      : maps->second == contractionMap(rank, 'k', 'n', ctx)
          ? viewTransposedKey(k, peel)
          : miss("Q K^T does not contract K over its head dimension");
  if (!key)
    return key.takeError();
  return QueryKey{*query, *key};
}

//===----------------------------------------------------------------------===//
// Scores
//===----------------------------------------------------------------------===//

/// True if the scalar `value` of a linalg body is computed from linalg.index
/// and graph constants alone.
bool isIndexExpression(Value value, unsigned depth = 0) {
  constexpr unsigned kMaxDepth = 32;
  if (depth > kMaxDepth)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto input = inputOf(arg);
    return input && isGraphConstant(input->second->get());
  }
  Operation *op = value.getDefiningOp();
  if (!isa<linalg::LinalgOp>(op->getParentOp()))
    return isGraphConstant(value);
  if (isa<linalg::IndexOp>(op))
    return true;
  return isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
         llvm::all_of(op->getOperands(), [&](Value operand) {
           return isIndexExpression(operand, depth + 1);
         });
}

/// `operand` of the addition of a mask to the scores, as the mask it is: a
/// tensor computed from constants, or a scalar computed from linalg.index
/// in the adding op's body (an inline mask; its `map` is the identity).
std::optional<Read> asMaskRead(Value operand) {
  if (std::optional<Read> read = asRead(operand))
    return isGraphConstant(read->value) ? read : std::nullopt;
  if (!isIndexExpression(operand))
    return std::nullopt;
  auto owner =
      dyn_cast<linalg::GenericOp>(operand.getParentBlock()->getParentOp());
  if (!owner)
    return std::nullopt;
  return Read{operand, AffineMap::getMultiDimIdentityMap(owner.getNumLoops(),
                                                         operand.getContext())};
}

struct Scores {
  linalg::LinalgOp qk;
  double scale = 1.0;
  std::optional<Read> mask;
};

/// `flat` as scale (mulf or divf by splats) and one additive mask (addf of a
/// tensor computed from constants) of a contraction's result.
Matched<Scores> matchScores(Value flat) {
  Scores scores;
  while (!isContraction(flat.getDefiningOp())) {
    if (auto scaled = withSplat<arith::MulFOp>(flat)) {
      scores.scale *= scaled->first;
      flat = scaled->second;
      continue;
    }
    if (auto divided = withSplat<arith::DivFOp>(flat, /*splatOnRight=*/true)) {
      scores.scale /= divided->first;
      flat = divided->second;
      continue;
    }
    if (flat.getDefiningOp<arith::MulFOp>() ||
        flat.getDefiningOp<arith::DivFOp>())
      return miss("the scores are scaled by a value that is not a splat "
                  "constant");
    if (auto add = flat.getDefiningOp<arith::AddFOp>()) {
      std::optional<Value> rest;
      for (int side : {1, 0}) {
        Value operand = add->getOperand(side);
        while (isCast(operand))
          operand = operand.getDefiningOp()->getOperand(0);
        std::optional<Read> read = asMaskRead(operand);
        if (!read)
          continue;
        if (scores.mask)
          return miss("the scores add two masks");
        scores.mask = read;
        rest = flatten(add->getOperand(1 - side));
        break;
      }
      if (!rest)
        return miss("the scores add a tensor that is not computed from "
                    "constants (not a mask)");
      flat = *rest;
      continue;
    }
    Operation *op = flat.getDefiningOp();
    return miss("the softmax input is computed by " +
                (op ? op->getName().getStringRef() : StringRef("an argument")) +
                ", not by scaling and masking Q K^T");
  }
  scores.qk = cast<linalg::LinalgOp>(flat.getDefiningOp());
  return scores;
}

/// True if the inline mask `value` reads the iteration point of a batch
/// dimension of its rank-`rank` op (linalg.index or an input's map).
bool readsBatchDims(Value value, int64_t rank) {
  auto inBatch = [&](AffineMap map, ArrayRef<int64_t> shape) {
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (expr.isFunctionOfDim(0) && rank > 2 && shape[position] != 1)
        return true;
    for (int64_t d = 1; d < rank - 2; ++d)
      if (map.isFunctionOfDim(d))
        return true;
    return false;
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto input = inputOf(arg);
    auto type = cast<ShapedType>(input->second->get().getType());
    return inBatch(input->first.getMatchingIndexingMap(input->second),
                   type.getShape());
  }
  Operation *op = value.getDefiningOp();
  if (!isa<linalg::LinalgOp>(op->getParentOp()))
    return false;
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return int64_t(index.getDim()) < rank - 2;
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return readsBatchDims(operand, rank);
  });
}

/// The mask `read` in the score space of `qk` (batch..., m, n), which must
/// not vary over batch or heads.
Matched<MaskSpec> classifyScoreMask(const Read &read, linalg::LinalgOp qk) {
  ArrayRef<int64_t> scoreShape =
      cast<RankedTensorType>(qk->getResult(0).getType()).getShape();
  int64_t rank = scoreShape.size();
  auto notBroadcast = [] {
    return miss("mask not recognised: it is not broadcast over batch and "
                "heads");
  };
  SmallVector<int64_t> maskShape;
  if (auto type = dyn_cast<RankedTensorType>(read.value.getType())) {
    maskShape.assign(type.getShape().begin(), type.getShape().end());
    for (auto [position, expr] : llvm::enumerate(read.map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      bool batchDim = dim && int64_t(dim.getPosition()) < rank - 2;
      if ((batchDim && maskShape[position] != 1) ||
          (!dim && !isa<AffineConstantExpr>(expr)))
        return notBroadcast();
    }
  } else if (readsBatchDims(read.value, rank)) {
    return notBroadcast();
  }
  AdditiveMask mask{read.value, [&](int64_t i, int64_t j) {
                      SmallVector<int64_t> point(rank, 0);
                      point[rank - 2] = i;
                      point[rank - 1] = j;
                      SmallVector<int64_t> index = read.map.compose(point);
                      for (auto [d, size] : llvm::zip(index, maskShape))
                        if (size == 1)
                          d = 0;
                      return index;
                    }};
  return classifyMask(mask, scoreShape[rank - 2], scoreShape[rank - 1]);
}

} // namespace

std::optional<Matched<AttentionMatch>>
raise::matchLinalgAttention(Operation *anchor) {
  if (!isContraction(anchor))
    return std::nullopt;
  auto pv = cast<linalg::LinalgOp>(anchor);
  Value probs = pv.getDpsInputOperand(0)->get();
  if (!looksLikeProbabilities(probs))
    return std::nullopt;
  auto result = [&]() -> Matched<AttentionMatch> {
    AttentionMatch match;
    match.result = anchor->getResult(0);
    unsigned rank = pv.getRank(pv.getDpsInitOperand(0));
    auto maps = inputMaps(pv);
    MLIRContext *ctx = anchor->getContext();
    if (!maps || maps->first != contractionMap(rank, 'm', 'k', ctx) ||
        maps->second != contractionMap(rank, 'k', 'n', ctx))
      return miss("P V does not contract P's key dimension with V's rows");
    if (matchSplat(pv.getDpsInitOperand(0)->get()) != 0.0)
      return miss("P V accumulates into a tensor that is not zero");
    Matched<Value> logits = matchSoftmax(probs);
    if (!logits)
      return logits.takeError();
    Matched<Scores> scores = matchScores(*logits);
    if (!scores)
      return scores.takeError();
    if (matchSplat(scores->qk.getDpsInitOperand(0)->get()) != 0.0)
      return miss("Q K^T accumulates into a tensor that is not zero");
    match.scale = scores->scale;
    Matched<QueryKey> qk = matchQueryKey(scores->qk, match.scale);
    if (!qk)
      return qk.takeError();
    match.query = qk->query;
    match.key = qk->key;
    if (llvm::Error error = completeMatch(
            match, pv.getDpsInputOperand(1)->get(), [&]() -> Matched<MaskSpec> {
              if (!scores->mask)
                return MaskSpec();
              return classifyScoreMask(*scores->mask, scores->qk);
            }))
      return std::move(error);
    return match;
  }();
  return std::move(result);
}
