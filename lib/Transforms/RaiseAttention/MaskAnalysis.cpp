//===- MaskAnalysis.cpp - what an additive attention mask hides -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Frontends build masks in many ways (a constant, iota tensors compared, one
// linalg.generic of linalg.index arithmetic, row >= col or col - row <= 0 ...).
// Rather than matching each spelling, the mask is evaluated at every (query,
// key) position and the visible set is compared with the ones attn.attention
// can express.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

namespace {

/// Evaluates tensors computed from constants, element by element. Integers,
/// indices and booleans are held as doubles (exact below 2^53), and integer
/// comparisons are signed: mask arithmetic is on small non-negative indices.
class MaskEvaluator {
public:
  /// The element of `tensor` at `index`, or failure with `unsupported` set.
  FailureOr<double> element(Value tensor, ArrayRef<int64_t> index);

  /// `mask` at query row `row` and key column `col`.
  FailureOr<double> at(const AdditiveMask &mask, int64_t row, int64_t col) {
    SmallVector<int64_t> position = mask.position(row, col);
    if (isa<RankedTensorType>(mask.value.getType()))
      return element(mask.value, position);
    Value value = mask.value;
    return scalar(
        value, cast<linalg::GenericOp>(value.getParentBlock()->getParentOp()),
        position);
  }

  std::string unsupported;

private:
  /// `value`, a scalar in the body of `generic` (null outside any) at
  /// iteration `point`.
  FailureOr<double> scalar(Value value, linalg::GenericOp generic,
                           ArrayRef<int64_t> point);
  FailureOr<double> scalarOp(Operation *op, linalg::GenericOp generic,
                             ArrayRef<int64_t> point);
  FailureOr<double> constantElement(DenseElementsAttr dense,
                                    ArrayRef<int64_t> index);
  FailureOr<double> fail(const Twine &why) {
    if (unsupported.empty())
      unsupported = why.str();
    return failure();
  }

  /// Constant tensors as doubles, row-major.
  llvm::DenseMap<Attribute, std::vector<double>> constants;
};

double toDouble(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getType().isInteger(1) ? double(i.getValue().getBoolValue())
                                    : double(i.getValue().getSExtValue());
  return std::numeric_limits<double>::quiet_NaN();
}

bool comparesTrue(arith::CmpIPredicate predicate, double a, double b) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
  case P::ult:
    return a < b;
  case P::sle:
  case P::ule:
    return a <= b;
  case P::sgt:
  case P::ugt:
    return a > b;
  case P::sge:
  case P::uge:
    return a >= b;
  }
  llvm_unreachable("unknown cmpi predicate");
}

std::optional<bool> comparesTrue(arith::CmpFPredicate predicate, double a,
                                 double b) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::OEQ:
    return a == b;
  case P::ONE:
    return a < b || a > b;
  case P::OLT:
    return a < b;
  case P::OLE:
    return a <= b;
  case P::OGT:
    return a > b;
  case P::OGE:
    return a >= b;
  default:
    return std::nullopt;
  }
}

} // namespace

FailureOr<double> MaskEvaluator::constantElement(DenseElementsAttr dense,
                                                 ArrayRef<int64_t> index) {
  auto [it, inserted] = constants.try_emplace(dense);
  std::vector<double> &values = it->second;
  if (inserted)
    for (Attribute element : dense.getValues<Attribute>())
      values.push_back(toDouble(element));
  if (dense.isSplat())
    return values.front();
  int64_t flat = 0;
  for (auto [i, size] : llvm::zip_equal(index, dense.getType().getShape()))
    flat = flat * size + i;
  return values[flat];
}

FailureOr<double> MaskEvaluator::element(Value tensor,
                                         ArrayRef<int64_t> index) {
  DenseElementsAttr dense;
  if (matchPattern(tensor, m_Constant(&dense)))
    return constantElement(dense, index);
  // A graph constant: no block argument reaches it.
  Operation *op = tensor.getDefiningOp();
  assert(op && "the mask reads a block argument");
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return scalar(fill.getInputs()[0], nullptr, {});
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    SmallVector<int64_t> inner;
    for (auto [d, i] : llvm::enumerate(index))
      if (!llvm::is_contained(broadcast.getDimensions(), int64_t(d)))
        inner.push_back(i);
    return element(broadcast.getInput(), inner);
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return fail("the mask is computed by " + op->getName().getStringRef() +
                ", which is not evaluated");
  auto result = cast<OpResult>(tensor);
  AffineMap outputMap = generic.getIndexingMapMatchingResult(result);
  if (!outputMap.isIdentity() || generic.getNumReductionLoops() != 0)
    return fail("the mask's linalg.generic is not elementwise");
  Value yielded =
      generic.getBody()->getTerminator()->getOperand(result.getResultNumber());
  return scalar(yielded, generic, index);
}

FailureOr<double> MaskEvaluator::scalar(Value value, linalg::GenericOp generic,
                                        ArrayRef<int64_t> point) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A graph constant reads only the block arguments of its own ops.
    assert(generic && arg.getOwner() == generic.getBody() &&
           "the mask reads an outer block argument");
    OpOperand *operand = generic.getMatchingOpOperand(arg);
    if (!generic.isDpsInput(operand))
      return fail("the mask's linalg.generic reads its init");
    AffineMap map = generic.getMatchingIndexingMap(operand);
    return element(operand->get(), map.compose(point));
  }
  return scalarOp(value.getDefiningOp(), generic, point);
}

FailureOr<double> MaskEvaluator::scalarOp(Operation *op,
                                          linalg::GenericOp generic,
                                          ArrayRef<int64_t> point) {
  Attribute constant;
  if (matchPattern(op->getResult(0), m_Constant(&constant)) &&
      isa<FloatAttr, IntegerAttr>(constant))
    return toDouble(constant);
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    assert(index->getParentOp() == generic && "linalg.index of another op");
    return double(point[index.getDim()]);
  }
  SmallVector<double, 3> args;
  for (Value operand : op->getOperands()) {
    FailureOr<double> v = scalar(operand, generic, point);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  using R = FailureOr<double>;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<arith::AddIOp, arith::AddFOp>(
          [&](auto) { return args[0] + args[1]; })
      .Case<arith::SubIOp, arith::SubFOp>(
          [&](auto) { return args[0] - args[1]; })
      .Case<arith::MulIOp, arith::MulFOp>(
          [&](auto) { return args[0] * args[1]; })
      .Case<arith::DivFOp>([&](auto) { return args[0] / args[1]; })
      .Case<arith::NegFOp>([&](auto) { return -args[0]; })
      .Case<arith::MaxSIOp, arith::MaximumFOp, arith::MaxNumFOp>(
          [&](auto) { return std::max(args[0], args[1]); })
      .Case<arith::MinSIOp, arith::MinimumFOp, arith::MinNumFOp>(
          [&](auto) { return std::min(args[0], args[1]); })
      .Case<arith::AndIOp>([&](auto) { return double(args[0] && args[1]); })
      .Case<arith::OrIOp>([&](auto) { return double(args[0] || args[1]); })
      .Case<arith::XOrIOp>(
          [&](auto) { return double(bool(args[0]) != bool(args[1])); })
      .Case<arith::SelectOp>(
          [&](auto) { return args[0] != 0 ? args[1] : args[2]; })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        return double(comparesTrue(cmp.getPredicate(), args[0], args[1]));
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) -> R {
        std::optional<bool> r =
            comparesTrue(cmp.getPredicate(), args[0], args[1]);
        if (!r)
          return fail("the mask compares floats with an unordered predicate");
        return double(*r);
      })
      // Casts between index, integer and float types keep the value.
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::SIToFPOp,
            arith::UIToFPOp, arith::ExtSIOp, arith::ExtUIOp, arith::ExtFOp,
            arith::TruncFOp>([&](auto) { return args[0]; })
      .Default([&](Operation *other) {
        return fail("the mask uses " + other->getName().getStringRef() +
                    ", which is not evaluated");
      });
}

/// Whether `spec` shows key `j` to query `i` of an `nq` x `nk` score (the
/// semantics of attn.attention's mask and window).
static bool keyVisible(const MaskSpec &spec, int64_t i, int64_t j, int64_t nq,
                       int64_t nk) {
  int64_t diagonal =
      i + (spec.kind == MaskKind::CausalBottomRight ? nk - nq : 0);
  if (spec.kind != MaskKind::None && j > diagonal)
    return false;
  if (spec.window)
    return j >= diagonal - (*spec.window)[0] &&
           j <= diagonal + (*spec.window)[1];
  return true;
}

/// The mask spec with diagonal offset `offset` (0: top left, nk - nq: bottom
/// right) whose window fits the visible set's diagonal distances
/// [lowest, highest]; sides reaching the score's edge are unbounded.
static std::optional<MaskSpec> candidateSpec(int64_t offset, int64_t lowest,
                                             int64_t highest, int64_t nq,
                                             int64_t nk) {
  constexpr int64_t kUnbounded = std::numeric_limits<int32_t>::max();
  bool leftBounded = lowest > -(nq - 1) - offset;
  bool rightBounded = highest < (nk - 1) - offset;
  int64_t left = leftBounded ? -lowest : kUnbounded;
  MaskSpec spec;
  if (rightBounded && highest == 0) {
    spec.kind = offset == 0 ? MaskKind::Causal : MaskKind::CausalBottomRight;
    if (leftBounded)
      spec.window = SmallVector<int64_t, 2>{left, 0};
    return spec;
  }
  // Windows around the top-left diagonal only: attn.attention has no
  // unmasked bottom-right diagonal.
  if (offset != 0 || (rightBounded && highest < 0) ||
      (leftBounded && lowest > 0))
    return std::nullopt;
  if (leftBounded || rightBounded)
    spec.window =
        SmallVector<int64_t, 2>{left, rightBounded ? highest : kUnbounded};
  return spec;
}

Matched<MaskSpec> raise::classifyMask(const AdditiveMask &mask, int64_t nq,
                                      int64_t nk) {
  constexpr int64_t kMaxPositions = int64_t(1) << 22;
  if (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk))
    return miss("the mask is over dynamic sequence lengths");
  if (nq * nk > kMaxPositions)
    return miss("the mask has " + Twine(nq * nk) +
                " positions, more than the " + Twine(kMaxPositions) +
                " evaluated");
  MaskEvaluator evaluator;
  std::vector<bool> visible(nq * nk);
  for (int64_t i = 0; i < nq; ++i)
    for (int64_t j = 0; j < nk; ++j) {
      FailureOr<double> v = evaluator.at(mask, i, j);
      if (failed(v))
        return miss("mask not recognised: " + evaluator.unsupported);
      if (*v != 0 && *v != -std::numeric_limits<double>::infinity())
        return miss("mask not recognised: it adds " + printNumber(*v) +
                    " at (" + Twine(i) + ", " + Twine(j) +
                    "), neither 0 nor -inf");
      visible[i * nk + j] = *v == 0;
    }

  // Bottom-right first: where its causal mask fits, it is the one to name
  // (a top-left window [inf, nk - nq] hides the same keys).
  SmallVector<int64_t, 2> offsets;
  if (nk != nq)
    offsets.push_back(nk - nq);
  offsets.push_back(0);
  for (int64_t offset : offsets) {
    int64_t lowest = std::numeric_limits<int64_t>::max();
    int64_t highest = std::numeric_limits<int64_t>::min();
    for (int64_t i = 0; i < nq; ++i)
      for (int64_t j = 0; j < nk; ++j)
        if (visible[i * nk + j]) {
          lowest = std::min(lowest, j - i - offset);
          highest = std::max(highest, j - i - offset);
        }
    if (lowest > highest)
      return miss("mask not recognised: it hides every key");
    std::optional<MaskSpec> spec =
        candidateSpec(offset, lowest, highest, nq, nk);
    if (!spec)
      continue;
    bool same = true;
    for (int64_t i = 0; i < nq && same; ++i)
      for (int64_t j = 0; j < nk && same; ++j)
        same = visible[i * nk + j] == keyVisible(*spec, i, j, nq, nk);
    if (same)
      return *spec;
  }
  return miss("mask not recognised: it is not causal, bottom-right causal "
              "or a sliding window");
}
