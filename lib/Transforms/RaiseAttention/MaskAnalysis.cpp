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
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <variant>

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

namespace {

/// A scalar of the mask as the graph computes it: an integer at its type's
/// width (index: 64 bits, i1: a boolean) or a float in its type's semantics.
using Scalar = std::variant<APInt, APFloat>;

/// Evaluates tensors computed from constants, element by element, as the
/// graph does: integer arithmetic wraps at the type's width, predicates and
/// casts read the operands as signed or unsigned as the op says, and float
/// results are rounded to their type.
class MaskEvaluator {
public:
  /// The element of `tensor` at `index`, or failure with `unsupported` set.
  FailureOr<Scalar> element(Value tensor, ArrayRef<int64_t> index);

  /// `mask` at query row `row` and key column `col`.
  FailureOr<Scalar> at(const AdditiveMask &mask, int64_t row, int64_t col) {
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
  FailureOr<Scalar> scalar(Value value, linalg::GenericOp generic,
                           ArrayRef<int64_t> point);
  FailureOr<Scalar> scalarOp(Operation *op, linalg::GenericOp generic,
                             ArrayRef<int64_t> point);
  /// `op` applied to `args`, integer ops and predicates.
  FailureOr<Scalar> integerOp(Operation *op, ArrayRef<Scalar> args);
  /// `op` applied to `args`, float ops and predicates.
  FailureOr<Scalar> floatOp(Operation *op, ArrayRef<Scalar> args);
  /// `op`, a cast, applied to `arg`.
  FailureOr<Scalar> castOp(Operation *op, const Scalar &arg);
  /// arith.addi, subi or muli of `lhs` and `rhs`, wrapped at their width;
  /// failure where it wraps under the op's nsw or nuw flag (poison).
  FailureOr<Scalar> wrappingOp(Operation *op, const APInt &lhs,
                               const APInt &rhs);
  FailureOr<Scalar> constantElement(DenseElementsAttr dense,
                                    ArrayRef<int64_t> index);
  FailureOr<Scalar> fail(const Twine &why) {
    if (unsupported.empty())
      unsupported = why.str();
    return failure();
  }

  /// Constant tensors' elements, row-major.
  llvm::DenseMap<Attribute, std::vector<Scalar>> constants;
};

/// The width integers and indices of `type` are evaluated at.
unsigned bitWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

/// The semantics of float type `type`.
const llvm::fltSemantics &semantics(Type type) {
  return cast<FloatType>(type).getFloatSemantics();
}

/// `value` as a double, rounded to nearest, for reasons.
double printable(APFloat value) {
  bool losesInfo;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

/// The LLVM rounding mode of arith's `mode`.
llvm::RoundingMode roundingMode(arith::RoundingMode mode) {
  using M = arith::RoundingMode;
  switch (mode) {
  case M::to_nearest_even:
    return llvm::RoundingMode::NearestTiesToEven;
  case M::downward:
    return llvm::RoundingMode::TowardNegative;
  case M::upward:
    return llvm::RoundingMode::TowardPositive;
  case M::toward_zero:
    return llvm::RoundingMode::TowardZero;
  case M::to_nearest_away:
    return llvm::RoundingMode::NearestTiesToAway;
  }
  llvm_unreachable("unknown arith rounding mode");
}

/// Whether `predicate` is ordered (false on NaN operands) and not a constant.
bool isOrderedComparison(arith::CmpFPredicate predicate) {
  using P = arith::CmpFPredicate;
  return llvm::is_contained({P::OEQ, P::ONE, P::OLT, P::OLE, P::OGT, P::OGE},
                            predicate);
}

} // namespace

FailureOr<Scalar> MaskEvaluator::constantElement(DenseElementsAttr dense,
                                                 ArrayRef<int64_t> index) {
  if (!isa<FloatType, IntegerType, IndexType>(dense.getElementType()))
    return fail("the mask reads a constant whose elements are neither "
                "integers nor floats");
  auto [it, inserted] = constants.try_emplace(dense);
  std::vector<Scalar> &values = it->second;
  if (inserted)
    for (Attribute element : dense.getValues<Attribute>()) {
      if (auto f = dyn_cast<FloatAttr>(element))
        values.push_back(f.getValue());
      else
        values.push_back(cast<IntegerAttr>(element).getValue());
    }
  if (dense.isSplat())
    return values.front();
  int64_t flat = 0;
  for (auto [i, size] : llvm::zip_equal(index, dense.getType().getShape()))
    flat = flat * size + i;
  return values[flat];
}

FailureOr<Scalar> MaskEvaluator::element(Value tensor,
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

FailureOr<Scalar> MaskEvaluator::scalar(Value value, linalg::GenericOp generic,
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

FailureOr<Scalar> MaskEvaluator::scalarOp(Operation *op,
                                          linalg::GenericOp generic,
                                          ArrayRef<int64_t> point) {
  Attribute constant;
  if (matchPattern(op->getResult(0), m_Constant(&constant))) {
    if (auto f = dyn_cast<FloatAttr>(constant))
      return Scalar(f.getValue());
    if (auto i = dyn_cast<IntegerAttr>(constant))
      return Scalar(i.getValue());
  }
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    assert(index->getParentOp() == generic && "linalg.index of another op");
    return Scalar(
        APInt(IndexType::kInternalStorageBitWidth, point[index.getDim()]));
  }
  SmallVector<Scalar, 3> args;
  for (Value operand : op->getOperands()) {
    FailureOr<Scalar> v = scalar(operand, generic, point);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return std::get<APInt>(args[0]).getBoolValue() ? args[1] : args[2];
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::SIToFPOp, arith::UIToFPOp, arith::ExtFOp,
          arith::TruncFOp>(op))
    return castOp(op, args[0]);
  if (isa<arith::CmpFOp>(op) || isa<FloatType>(op->getResult(0).getType()))
    return floatOp(op, args);
  return integerOp(op, args);
}

FailureOr<Scalar> MaskEvaluator::wrappingOp(Operation *op, const APInt &lhs,
                                            const APInt &rhs) {
  bool signedWrap = false, unsignedWrap = false;
  APInt result;
  if (isa<arith::AddIOp>(op)) {
    result = lhs.sadd_ov(rhs, signedWrap);
    (void)lhs.uadd_ov(rhs, unsignedWrap);
  } else if (isa<arith::SubIOp>(op)) {
    result = lhs.ssub_ov(rhs, signedWrap);
    (void)lhs.usub_ov(rhs, unsignedWrap);
  } else {
    result = lhs.smul_ov(rhs, signedWrap);
    (void)lhs.umul_ov(rhs, unsignedWrap);
  }
  auto flags = cast<arith::ArithIntegerOverflowFlagsInterface>(op);
  if ((signedWrap && flags.hasNoSignedWrap()) ||
      (unsignedWrap && flags.hasNoUnsignedWrap()))
    return fail(op->getName().getStringRef() +
                " wraps under its overflow flags, a poison value that is not "
                "evaluated");
  return Scalar(result);
}

FailureOr<Scalar> MaskEvaluator::integerOp(Operation *op,
                                           ArrayRef<Scalar> args) {
  if (!llvm::all_of(args, [](const Scalar &arg) {
        return std::holds_alternative<APInt>(arg);
      }))
    return fail("the mask uses " + op->getName().getStringRef() +
                ", which is not evaluated");
  auto arg = [&](unsigned i) -> const APInt & {
    return std::get<APInt>(args[i]);
  };
  using R = FailureOr<Scalar>;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
          [&](Operation *op) { return wrappingOp(op, arg(0), arg(1)); })
      .Case<arith::MaxSIOp>(
          [&](auto) { return Scalar(llvm::APIntOps::smax(arg(0), arg(1))); })
      .Case<arith::MinSIOp>(
          [&](auto) { return Scalar(llvm::APIntOps::smin(arg(0), arg(1))); })
      .Case<arith::MaxUIOp>(
          [&](auto) { return Scalar(llvm::APIntOps::umax(arg(0), arg(1))); })
      .Case<arith::MinUIOp>(
          [&](auto) { return Scalar(llvm::APIntOps::umin(arg(0), arg(1))); })
      .Case<arith::AndIOp>([&](auto) { return Scalar(arg(0) & arg(1)); })
      .Case<arith::OrIOp>([&](auto) { return Scalar(arg(0) | arg(1)); })
      .Case<arith::XOrIOp>([&](auto) { return Scalar(arg(0) ^ arg(1)); })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        return Scalar(APInt(
            1, arith::applyCmpPredicate(cmp.getPredicate(), arg(0), arg(1))));
      })
      .Default([&](Operation *other) {
        return fail("the mask uses " + other->getName().getStringRef() +
                    ", which is not evaluated");
      });
}

FailureOr<Scalar> MaskEvaluator::floatOp(Operation *op, ArrayRef<Scalar> args) {
  if (!llvm::all_of(args, [](const Scalar &arg) {
        return std::holds_alternative<APFloat>(arg);
      }))
    return fail("the mask uses " + op->getName().getStringRef() +
                ", which is not evaluated");
  auto arg = [&](unsigned i) -> const APFloat & {
    return std::get<APFloat>(args[i]);
  };
  // Operands and result have one type: each result is rounded to it.
  auto rounded = [&](APFloat::opStatus (APFloat::*apply)(
                     const APFloat &, APFloat::roundingMode)) {
    APFloat result = arg(0);
    (result.*apply)(arg(1), APFloat::rmNearestTiesToEven);
    return Scalar(result);
  };
  using R = FailureOr<Scalar>;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<arith::AddFOp>([&](auto) { return rounded(&APFloat::add); })
      .Case<arith::SubFOp>([&](auto) { return rounded(&APFloat::subtract); })
      .Case<arith::MulFOp>([&](auto) { return rounded(&APFloat::multiply); })
      .Case<arith::DivFOp>([&](auto) { return rounded(&APFloat::divide); })
      .Case<arith::NegFOp>([&](auto) { return Scalar(llvm::neg(arg(0))); })
      .Case<arith::MaximumFOp>(
          [&](auto) { return Scalar(llvm::maximum(arg(0), arg(1))); })
      .Case<arith::MinimumFOp>(
          [&](auto) { return Scalar(llvm::minimum(arg(0), arg(1))); })
      .Case<arith::MaxNumFOp>(
          [&](auto) { return Scalar(llvm::maxnum(arg(0), arg(1))); })
      .Case<arith::MinNumFOp>(
          [&](auto) { return Scalar(llvm::minnum(arg(0), arg(1))); })
      .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) -> R {
        if (!isOrderedComparison(cmp.getPredicate()))
          return fail("the mask compares floats with an unordered predicate");
        return Scalar(APInt(
            1, arith::applyCmpPredicate(cmp.getPredicate(), arg(0), arg(1))));
      })
      .Default([&](Operation *other) {
        return fail("the mask uses " + other->getName().getStringRef() +
                    ", which is not evaluated");
      });
}

FailureOr<Scalar> MaskEvaluator::castOp(Operation *op, const Scalar &arg) {
  Type type = op->getResult(0).getType();
  if (auto *integer = std::get_if<APInt>(&arg)) {
    // Integer to integer: sign- or zero-extended, or truncated, as the op
    // reads its operand.
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
      return Scalar(integer->sextOrTrunc(bitWidth(type)));
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
      return Scalar(integer->zextOrTrunc(bitWidth(type)));
    // Integer to float: rounded to nearest, ties to even.
    APFloat result(semantics(type));
    result.convertFromAPInt(*integer, isa<arith::SIToFPOp>(op),
                            APFloat::rmNearestTiesToEven);
    return Scalar(result);
  }
  // Float to float: extf is exact, truncf rounds by its mode (default to
  // nearest, ties to even).
  llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven;
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (std::optional<arith::RoundingMode> given = trunc.getRoundingmode())
      mode = roundingMode(*given);
  APFloat result = std::get<APFloat>(arg);
  bool losesInfo;
  result.convert(semantics(type), mode, &losesInfo);
  return Scalar(result);
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
  // Compared by division: nq * nk of two large static lengths overflows.
  if (nq > 0 && nk > kMaxPositions / nq)
    return miss("the mask has " + Twine(nq) + " x " + Twine(nk) +
                " positions, more than the " + Twine(kMaxPositions) +
                " evaluated");
  MaskEvaluator evaluator;
  std::vector<bool> visible(nq * nk);
  for (int64_t i = 0; i < nq; ++i)
    for (int64_t j = 0; j < nk; ++j) {
      FailureOr<Scalar> v = evaluator.at(mask, i, j);
      if (failed(v))
        return miss("mask not recognised: " + evaluator.unsupported);
      // The mask is added to float scores: it is a float.
      const APFloat &added = std::get<APFloat>(*v);
      bool hides = added.isInfinity() && added.isNegative();
      if (!added.isZero() && !hides)
        return miss("mask not recognised: it adds " +
                    printNumber(printable(added)) + " at (" + Twine(i) + ", " +
                    Twine(j) + "), neither 0 nor -inf");
      visible[i * nk + j] = added.isZero();
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
