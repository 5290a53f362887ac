//===- Operands.cpp - attention operands behind reshapes and transposes ---===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Frontends feed attention's matmuls with [B * H, S, D] tensors reshaped from
// [B, H, S, D] (or transposed first from [B, S, H, D]), and expand key/value
// heads for GQA. These views look through those ops in linalg/tensor and in
// TOSA alike, and hold the constant helpers both matchers use.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

std::string raise::printNumber(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

llvm::Error raise::miss(const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

static int64_t rankOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getRank() : -1;
}

/// The static shape a tosa.reshape or tosa.tile takes from a tosa.const_shape.
static std::optional<SmallVector<int64_t>> constShape(Value shape) {
  SmallVector<int64_t> values;
  if (!shape.getDefiningOp() ||
      !tosa::getConstShapeValues(shape.getDefiningOp(), values))
    return std::nullopt;
  return values;
}

/// If `value` reshapes a tensor by grouping its dimensions as `groups`
/// (tensor.collapse_shape, or a tosa.reshape to the same shape), its source.
static std::optional<Value>
matchCollapse(Value value, ArrayRef<ReassociationIndices> groups) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) {
    if (collapse.getReassociationIndices() != groups)
      return std::nullopt;
    return collapse.getSrc();
  }
  auto reshape = value.getDefiningOp<tosa::ReshapeOp>();
  if (!reshape)
    return std::nullopt;
  Value source = reshape.getInput1();
  ArrayRef<int64_t> from = shapeOf(source), to = shapeOf(value);
  if (rankOf(source) != groups.back().back() + 1 || to.size() != groups.size())
    return std::nullopt;
  for (auto [size, group] : llvm::zip_equal(to, groups)) {
    int64_t product = 1;
    for (int64_t d : group)
      product *= from[d];
    if (ShapedType::isDynamic(size) || product != size)
      return std::nullopt;
  }
  return source;
}

std::optional<std::pair<Value, SmallVector<int64_t>>>
raise::matchTranspose(Value value) {
  if (auto t = value.getDefiningOp<linalg::TransposeOp>())
    return std::make_pair(t.getInput(),
                          SmallVector<int64_t>(t.getPermutation()));
  if (auto t = value.getDefiningOp<tosa::TransposeOp>())
    return std::make_pair(
        t.getInput1(),
        SmallVector<int64_t>(t.getPerms().begin(), t.getPerms().end()));
  return std::nullopt;
}

/// If `value` ([B, Hkv * G, N, D]) repeats each key/value head of a
/// [B, Hkv, N, D] tensor G times (head h reads head h / G), that tensor:
/// linalg.broadcast into [B, Hkv, G, N, D] then collapsed, or TOSA's
/// reshape to [B, Hkv, 1, N, D], tile and reshape back.
static std::optional<Value> matchGqaExpand(Value value) {
  std::optional<Value> expanded = matchCollapse(value, {{0}, {1, 2}, {3}, {4}});
  if (!expanded)
    return std::nullopt;
  if (auto broadcast = expanded->getDefiningOp<linalg::BroadcastOp>()) {
    if (broadcast.getDimensions() != ArrayRef<int64_t>{2})
      return std::nullopt;
    return broadcast.getInput();
  }
  auto tile = expanded->getDefiningOp<tosa::TileOp>();
  if (!tile)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> multiples =
      constShape(tile.getMultiples());
  if (!multiples || (*multiples)[0] != 1 || (*multiples)[1] != 1 ||
      (*multiples)[3] != 1 || (*multiples)[4] != 1)
    return std::nullopt;
  auto unitHead = tile.getInput1().getDefiningOp<tosa::ReshapeOp>();
  if (!unitHead || shapeOf(unitHead.getResult())[2] != 1 ||
      rankOf(unitHead.getInput1()) != 4)
    return std::nullopt;
  return unitHead.getInput1();
}

Matched<OperandView> raise::viewOperand(Value value, bool allowGqa,
                                        PeelScale peel) {
  OperandView view;
  value = peel(value);
  int64_t rank = rankOf(value);
  if (rank == 4) {
    view.bhsd = value;
  } else if (rank == 3) {
    if (std::optional<Value> split = matchCollapse(value, {{0, 1}, {2}, {3}}))
      view.bhsd = peel(*split);
  } else if (rank != 2) {
    return miss("operand " + Twine(rank) +
                "-D: expected 2-D, 3-D (batch * heads) or 4-D");
  }
  if (!view.bhsd) {
    // No batch or heads in the graph: one of each.
    view.merged = value;
    view.shape.assign(4 - rank, 1);
    llvm::append_range(view.shape, shapeOf(value));
    return view;
  }
  if (allowGqa)
    if (std::optional<Value> heads = matchGqaExpand(view.bhsd))
      view.bhsd = peel(*heads);
  view.shape.assign(shapeOf(view.bhsd).begin(), shapeOf(view.bhsd).end());
  auto transpose = matchTranspose(view.bhsd);
  if (!transpose || transpose->second != ArrayRef<int64_t>{0, 2, 1, 3})
    return view;
  view.bshd = peel(transpose->first);
  // A scale peeled below the transpose is not in the BSHD tensor: the BHSD
  // one is rebuilt from it.
  if (*view.bshd != transpose->first)
    view.bhsd = nullptr;
  return view;
}

std::optional<double> raise::matchSplat(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return matchSplat(fill.getInputs()[0]);
  FloatAttr scalar;
  if (matchPattern(value, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
  DenseElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat() ||
      !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

bool raise::isGraphConstant(Value value) {
  // A mask is a handful of ops; a larger slice is not one.
  constexpr unsigned kMaxOps = 64;
  llvm::SetVector<Operation *> seen;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *op = v.getDefiningOp();
    if (!op)
      return false; // A function or loop argument.
    if (!seen.insert(op))
      continue;
    // A size depends on the shape of its operand, not on its values.
    if (isa<tensor::DimOp>(op))
      continue;
    if (seen.size() > kMaxOps || !isMemoryEffectFree(op))
      return false;
    bool external = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Region *home = operand.getParentRegion();
        if (op->isProperAncestor(home->getParentOp()) ||
            home->getParentOp() == op)
          continue; // Defined inside `op`.
        if (isa<BlockArgument>(operand))
          external = true;
        else
          worklist.push_back(operand);
      }
    });
    if (external)
      return false;
  }
  return true;
}

/// True if `op` only converts its one input's elements to another float
/// type.
static bool isElementCast(Operation *op) {
  if (isa<tosa::CastOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 1 ||
      !linalgOp.isAllParallelLoops() || !linalgOp.getBlock() ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Value yielded = linalgOp.getBlock()->getTerminator()->getOperand(0);
  Operation *cast = yielded.getDefiningOp();
  return isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(cast) &&
         cast->getOperand(0) == linalgOp.getBlock()->getArgument(0);
}

Value raise::throughOutputCast(Value result, Type element) {
  if (getElementTypeOrSelf(result.getType()) == element || !result.hasOneUse())
    return result;
  Operation *user = *result.user_begin();
  if (user->getNumResults() != 1 || !isElementCast(user) ||
      getElementTypeOrSelf(user->getResult(0).getType()) != element)
    return result;
  return user->getResult(0);
}

llvm::Error raise::checkConsistent(const AttentionMatch &match) {
  if (match.scale <= 0)
    return miss("scale " + printNumber(match.scale) + " is not positive");
  ArrayRef<int64_t> q = match.query.shape, k = match.key.shape,
                    v = match.value.shape;
  if (k[0] != q[0] || v[0] != q[0])
    return miss("Q, K and V have different batch sizes");
  if (v[1] != k[1] || v[2] != k[2])
    return miss("K and V have different heads or lengths");
  if (ShapedType::isDynamic(q[1]) || ShapedType::isDynamic(k[1]))
    return miss("the number of heads is dynamic");
  // Head dims agree (the contraction shares them) and query heads are
  // key/value heads times the GQA group, by construction of the views.
  assert(k[3] == q[3] && q[1] % k[1] == 0 && "inconsistent operand views");
  Type element = getElementTypeOrSelf(match.result.getType());
  for (const OperandView *view : {&match.query, &match.key, &match.value}) {
    if (getElementTypeOrSelf(view->source().getType()) != element)
      return miss("Q, K, V and the output do not share one element type");
  }
  return llvm::Error::success();
}

llvm::Error raise::completeMatch(AttentionMatch &match, Value value,
                                 function_ref<Matched<MaskSpec>()> classify) {
  Matched<OperandView> view =
      viewOperand(value, /*allowGqa=*/true, [](Value v) { return v; });
  if (!view)
    return view.takeError();
  match.value = *view;
  Matched<MaskSpec> mask = classify();
  if (!mask)
    return mask.takeError();
  match.mask = *mask;
  match.result = throughOutputCast(
      match.result, getElementTypeOrSelf(match.query.source().getType()));
  return checkConsistent(match);
}
