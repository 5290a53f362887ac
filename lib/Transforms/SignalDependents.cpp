//===- SignalDependents.cpp - when a split tile lets its combine launch ---===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Puts attn.launch_dependents into every split-KV tile, at its epilogue or
// its start: the kernel lowering signals the combine kernel's programmatic
// launch where the op stands, and makes the launch programmatic only for a
// tile that has one.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/TileOrder.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSIGNALDEPENDENTSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {
/// The block that holds a tile's kv loops and attn.finalize: the consumer
/// region of its attn.warp_specialize, else the forall's body.
Block *tileTopLevel(scf::ForallOp forall, FinalizeOp finalize) {
  Block *block = finalize->getBlock();
  return block->getParentOp() == forall ||
                 isa<WarpSpecializeOp>(block->getParentOp())
             ? block
             : nullptr;
}

struct AttnSignalDependentsPass
    : public mlir::attn::impl::AttnSignalDependentsPassBase<
          AttnSignalDependentsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (at != "epilogue" && at != "start") {
      getOperation().emitError("attn-signal-dependents: at must be epilogue "
                               "or start, got '")
          << at << "'";
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](scf::ForallOp forall) {
      if (!getKvSplit(forall))
        return WalkResult::advance();
      FinalizeOp finalize;
      forall.getBody()->walk([&](FinalizeOp f) { finalize = f; });
      Block *top = finalize ? tileTopLevel(forall, finalize) : nullptr;
      if (!top) {
        forall.emitError("attn-signal-dependents: expected a split-KV tile "
                         "whose attn.finalize sits in the forall's body or "
                         "in the consumer region of its attn.warp_specialize");
        return WalkResult::interrupt();
      }
      if (!top->getOps<LaunchDependentsOp>().empty())
        return WalkResult::advance();
      Operation *before = finalize;
      if (at == "start") {
        auto loops = top->getOps<scf::ForOp>();
        if (loops.empty()) {
          forall.emitError("attn-signal-dependents: at=start needs a kv loop "
                           "(an scf.for) in the tile");
          return WalkResult::interrupt();
        }
        // Dependents may launch before the ping-pong's turns start.
        before = getTurnsStart(*loops.begin());
      }
      OpBuilder b(before);
      LaunchDependentsOp::create(b, before->getLoc());
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
