//===- TileScale.cpp - the scale values of a tile, read off its ops -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TileScale.h"

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Runtime/Manifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::attn;

/// Whether `value` is computed from `root`.
static bool dependsOn(Value value, Value root) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == root)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

SmallVector<std::pair<Operation *, Value>>
mlir::attn::getScaleOperands(scf::ForallOp tile) {
  SmallVector<std::pair<Operation *, Value>> operands;
  tile.getBody()->walk(
      [&](FinalizeOp op) { operands.emplace_back(op, op.getScale()); });
  tile.getBody()->walk([&](Operation *op) {
    if (isa<ExpDiffOp, RescaleFactorOp>(op))
      operands.emplace_back(op, op->getOperand(op->getNumOperands() - 1));
    else if (auto cap = dyn_cast<SoftcapOp>(op))
      operands.emplace_back(op, cap.getScale());
  });
  return operands;
}

Value mlir::attn::getScaleLog2(scf::ForallOp tile) {
  for (auto [op, value] : getScaleOperands(tile))
    if (isa<ExpDiffOp, RescaleFactorOp>(op))
      return value;
  return {};
}

BlockArgument mlir::attn::getScaleArgument(scf::ForallOp tile) {
  auto func = tile->getParentOfType<FunctionOpInterface>();
  if (!func)
    return {};
  auto arguments =
      llvm::make_filter_range(func.getArguments(), [](BlockArgument arg) {
        return arg.getType().isF32();
      });
  if (arguments.empty())
    return {};
  BlockArgument argument = *arguments.begin();
  bool read = llvm::any_of(getScaleOperands(tile), [&](auto &operand) {
    return dependsOn(operand.second, argument);
  });
  return read ? argument : BlockArgument();
}

bool mlir::attn::takesScaleLog2(scf::ForallOp tile) {
  BlockArgument argument = getScaleArgument(tile);
  Value scaleLog2 = getScaleLog2(tile);
  auto mul =
      scaleLog2 ? scaleLog2.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  FloatAttr factor;
  return argument && mul && mul.getLhs() == argument &&
         matchPattern(mul.getRhs(), m_Constant(&factor)) &&
         factor.getValueAsDouble() == attnc::rt::kLog2E;
}

std::optional<float> mlir::attn::getConstantScale(scf::ForallOp tile) {
  if (getScaleArgument(tile))
    return std::nullopt;
  // The softmax scale: the last attn.softcap's, else attn.finalize's.
  Value softmaxScale;
  for (auto [op, value] : getScaleOperands(tile))
    if (isa<FinalizeOp, SoftcapOp>(op))
      softmaxScale = value;
  FloatAttr constant;
  if (!softmaxScale || !matchPattern(softmaxScale, m_Constant(&constant)))
    return std::nullopt;
  return constant.getValueAsDouble();
}
