//===- SplitKv.cpp - a launch-chosen kv split count for decode steps ------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A decode step has few query rows per (batch, kv head), so its grid is
// B x Hkv tiles however long the cache: flash-decoding splits each row's
// keys across CTAs. Whether that pays depends on the launch (B and the cache
// length change every step), so the split count is a function argument, the
// kernel's kv_splits parameter, which the runtime's split heuristic sets at
// each launch (1 when the grid already fills the SMs). An attention of
// dynamic rows (one kernel for prefill and decode) is split as the
// dynamic-rows option, or for auto the target's table, says.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/TileConfig.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "attn-split-kv"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSPLITKVPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

struct AttnSplitKvPass final
    : public mlir::attn::impl::AttnSplitKvPassBase<AttnSplitKvPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxRows < -1) {
      module.emitError("attn-split-kv: max-rows must be -1 (any static "
                       "count) or a row count, got ")
          << static_cast<int64_t>(maxRows);
      return signalPassFailure();
    }
    if (failed(verifyTileTarget(module, getArgument(), target)))
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      // A new argument would break the calls of a called function.
      if (!func.isExternal() && func.getBody().hasOneBlock() &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.walk([&](AttentionOp op) { split(func, op); });
  }

  /// Whether to split `op`: a decode step, whose query rows per (batch, kv
  /// head), the packed rows after attn-pack-gqa, are static and at most
  /// maxRows, or dynamic where dynamicRows (or for auto the target's
  /// table) asks for those too. A varlen batch's rows per sequence are
  /// known only at launch (its static rows are the whole batch's).
  bool shouldSplit(AttentionOp op) {
    if (op.getKvSplits())
      return false;
    std::optional<int64_t> rows =
        op.isVarlen() ? std::nullopt : op.getStaticQueryRows();
    if (rows)
      return maxRows < 0 || *rows <= maxRows;
    if (dynamicRows == TableChoice::Auto)
      return getDefaultDynamicRowSplit(op.getHeadDim(), target);
    return dynamicRows == TableChoice::On;
  }

  void split(func::FuncOp func, AttentionOp op) {
    if (!shouldSplit(op))
      return;
    Block &body = func.getBody().front();
    IndexType index = IndexType::get(&getContext());
    if (failed(func.insertArgument(func.getNumArguments(), index,
                                   DictionaryAttr(), op.getLoc())))
      return signalPassFailure();
    op.getKvSplitsMutable().assign(body.getArguments().back());
    ++numSplit;
  }
};

} // namespace
