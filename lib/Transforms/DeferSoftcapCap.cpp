//===- DeferSoftcapCap.cpp - a soft-cap's cap applied by its users --------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Moves the multiplication by a soft-cap's cap from every score into the ops
// that can apply it more cheaply: the row max (once per row) and the
// exponentials (folded into their multiplier).
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNDEFERSOFTCAPCAPPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The ops that read `scores` (through attn.mask ops) as scores they can
/// scale: attn.row_max and attn.exp_diff. Fails if any other op reads them.
LogicalResult collectScaledUsers(Value scores,
                                 SmallVectorImpl<Operation *> &users) {
  for (OpOperand &use : scores.getUses()) {
    Operation *user = use.getOwner();
    if (auto mask = dyn_cast<MaskOp>(user)) {
      if (failed(collectScaledUsers(mask.getResult(), users)))
        return failure();
      continue;
    }
    auto rowMax = dyn_cast<RowMaxOp>(user);
    auto expDiff = dyn_cast<ExpDiffOp>(user);
    if ((rowMax && &use == &rowMax.getScoresMutable()) ||
        (expDiff && &use == &expDiff.getScoresMutable())) {
      users.push_back(user);
      continue;
    }
    return failure();
  }
  return success();
}

/// `factor` times the op's score scale (1 if it has none).
FloatAttr scaledScoreScale(Builder &b, std::optional<APFloat> scoreScale,
                           const APFloat &factor) {
  APFloat scaled = factor;
  if (scoreScale)
    scaled.multiply(*scoreScale, APFloat::rmNearestTiesToEven);
  return b.getF32FloatAttr(scaled.convertToFloat());
}

struct AttnDeferSoftcapCapPass final
    : public mlir::attn::impl::AttnDeferSoftcapCapPassBase<
          AttnDeferSoftcapCapPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](SoftcapOp softcap) {
      // The head dim is the query tile's columns; a softcap of scores that
      // no attn.qk computed is left alone.
      auto qk = softcap.getScores().getDefiningOp<QKOp>();
      if (!qk || qk.getQuery().getType().getShape()[1] > maxHeadDim)
        return;
      APFloat outputScale = softcap.getOutputScaleOrCap();
      if (outputScale.isExactlyValue(1.0))
        return;
      SmallVector<Operation *> users;
      if (failed(collectScaledUsers(softcap.getResult(), users)))
        return;
      for (Operation *user : users) {
        if (auto rowMax = dyn_cast<RowMaxOp>(user))
          rowMax.setScoreScaleAttr(
              scaledScoreScale(b, rowMax.getScoreScale(), outputScale));
        else if (auto expDiff = dyn_cast<ExpDiffOp>(user))
          expDiff.setScoreScaleAttr(
              scaledScoreScale(b, expDiff.getScoreScale(), outputScale));
      }
      softcap.setOutputScaleAttr(b.getF32FloatAttr(1.0f));
      ++numDeferred;
    });
  }
};

} // namespace
