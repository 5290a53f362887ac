//===- OrderTiles.cpp - which query block each grid x block takes ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tile order is index arithmetic in the IR: longest-first replaces the
// tiling forall's query-block induction variable by `ub - 1 - iv`, which
// the kernel lowering clones like any other index computation.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/TileOrder.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNORDERTILESPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

std::optional<unsigned> mlir::attn::getQueryBlockDim(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping)
    return std::nullopt;
  for (auto [i, attr] : llvm::enumerate(*mapping))
    if (auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr);
        block && block.getBlock() == gpu::MappingId::DimX)
      return i;
  return std::nullopt;
}

std::optional<std::pair<Value, OpFoldResult>>
mlir::attn::getKvSplit(scf::ForallOp forall) {
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || mapping->size() <= kKvSplitDim)
    return std::nullopt;
  auto block = dyn_cast<gpu::GPUBlockMappingAttr>((*mapping)[kKvSplitDim]);
  if (!block || block.getBlock() != kKvSplitMapping)
    return std::nullopt;
  return std::pair{forall.getInductionVar(kKvSplitDim),
                   forall.getMixedUpperBound()[kKvSplitDim]};
}

Value mlir::attn::getReversedQueryBlock(scf::ForallOp forall) {
  std::optional<unsigned> dim = getQueryBlockDim(forall);
  if (!dim)
    return {};
  Value iv = forall.getInductionVar(*dim);
  if (!iv.hasOneUse())
    return {};
  auto rev = dyn_cast<arith::SubIOp>(*iv.getUsers().begin());
  if (!rev || rev.getRhs() != iv)
    return {};
  auto last = rev.getLhs().getDefiningOp<arith::SubIOp>();
  SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
  if (!last || !matchPattern(last.getRhs(), m_One()) ||
      dyn_cast<Value>(ubs[*dim]) != last.getLhs())
    return {};
  return rev.getResult();
}

namespace {

struct AttnOrderTilesPass
    : public mlir::attn::impl::AttnOrderTilesPassBase<AttnOrderTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (order != "auto" && order != "in-order" && order != "longest-first") {
      getOperation().emitError("attn-order-tiles: order must be in-order, "
                               "longest-first or auto, got '")
          << order << "'";
      return signalPassFailure();
    }
    if (order == "in-order")
      return;
    getOperation().walk([&](scf::ForallOp forall) {
      FinalizeOp finalize;
      forall.getBody()->walk([&](FinalizeOp f) { finalize = f; });
      std::optional<unsigned> dim = getQueryBlockDim(forall);
      if (!finalize || !dim || getReversedQueryBlock(forall))
        return;
      if (order == "auto" && !finalize.getMaskSpec().hidesKeys())
        return;
      SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
      auto ub = dyn_cast<Value>(ubs[*dim]);
      if (!ub) // a static bound: one query block, or lengths not generalized
        return;
      OpBuilder b = OpBuilder::atBlockBegin(forall.getBody());
      Location loc = forall.getLoc();
      Value iv = forall.getInductionVar(*dim);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value last = arith::SubIOp::create(b, loc, ub, one);
      auto rev = arith::SubIOp::create(b, loc, last, iv);
      iv.replaceAllUsesExcept(rev.getResult(), rev);
    });
  }
};

} // namespace
