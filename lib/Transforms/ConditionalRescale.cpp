//===- ConditionalRescale.cpp - O's rescale skipped where maxima held -----===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Marks the accumulator's attn.scale_rows `conditional` where it rescales by
// its own kv step's alpha, so that the GPU kernel's rescale of O follows the
// IR instead of a lowering option.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNCONDITIONALRESCALEPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

// Outside an anonymous namespace: the pass base defines the (option-less)
// pass's create function as a friend, which must keep external linkage.
struct AttnConditionalRescalePass final
    : public mlir::attn::impl::AttnConditionalRescalePassBase<
          AttnConditionalRescalePass> {
  void runOnOperation() override {
    // Only a rescale by its own step's alpha: the kernel knows there which
    // rows' maxima moved. The rotated loops' O update takes the previous
    // step's alpha, carried, and is always multiplied.
    getOperation().walk([](ScaleRowsOp op) {
      if (op.getInput().getType().getRank() == 2 && op.rescalesByStepFactor())
        op.setConditional(true);
    });
  }
};
