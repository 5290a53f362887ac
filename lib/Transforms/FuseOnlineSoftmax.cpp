//===- FuseOnlineSoftmax.cpp - one online-softmax kv loop -----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Starts from attn.finalize(acc, l, m) where m, l and acc are the results of
// the max, sum and P V loops of attn-tile, and builds one loop carrying
// (m, l, acc). The new body is the P V loop's body with the running max m'
// of this block substituted for the final max, plus the rescale of l and acc.
// The score computation of the max loop and of the P V loop are identical, so
// CSE of the new body leaves a single read of each K block.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"

#define DEBUG_TYPE "attn-fuse-online-softmax"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNFUSEONLINESOFTMAXPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The three loops of the multi-pass softmax feeding one attn.finalize.
struct SoftmaxLoops {
  scf::ForOp maxLoop, sumLoop, pvLoop;
  RowMaxOp rowMax; // in maxLoop, yielded
};

/// Returns the single-result loop producing `v` whose yielded value is
/// defined by an op of type OpTy, or null.
template <typename OpTy>
std::pair<scf::ForOp, OpTy> matchLoopYielding(Value v) {
  auto loop = v.getDefiningOp<scf::ForOp>();
  if (!loop || loop.getNumResults() != 1)
    return {};
  auto yielded = loop.getBody()->getTerminator()->getOperand(0);
  auto producer = yielded.getDefiningOp<OpTy>();
  if (!producer)
    return {};
  return {loop, producer};
}

FailureOr<SoftmaxLoops> matchSoftmaxLoops(FinalizeOp finalize) {
  SoftmaxLoops loops;
  auto [maxLoop, rowMax] = matchLoopYielding<RowMaxOp>(finalize.getRowMax());
  auto [sumLoop, rowSum] = matchLoopYielding<RowSumOp>(finalize.getRowSum());
  auto [pvLoop, pv] = matchLoopYielding<PVOp>(finalize.getAcc());
  if (!maxLoop || !sumLoop || !pvLoop)
    return failure();
  // The running max must be the max loop's carried value (a real reduction),
  // and all three loops must cover the same kv range.
  if (rowMax.getInit() != maxLoop.getRegionIterArgs()[0])
    return failure();
  // The fused loop rescales the running sum itself; a sum loop that scales
  // its own is not attn-tile's plain sum.
  if (rowSum.getInitScale())
    return failure();
  // Equal values or equal constants: each loop may own its step constant.
  auto same = [](Value a, Value b) {
    return isEqualConstantIntOrValue(getAsOpFoldResult(a), getAsOpFoldResult(b));
  };
  for (scf::ForOp other : {sumLoop, pvLoop})
    if (!same(other.getLowerBound(), maxLoop.getLowerBound()) ||
        !same(other.getUpperBound(), maxLoop.getUpperBound()) ||
        !same(other.getStep(), maxLoop.getStep()))
      return failure();
  loops.maxLoop = maxLoop;
  loops.sumLoop = sumLoop;
  loops.pvLoop = pvLoop;
  loops.rowMax = rowMax;
  return loops;
}

/// The exp_diff inside the P V loop that uses the final max.
ExpDiffOp findProbabilities(scf::ForOp pvLoop, Value finalMax) {
  ExpDiffOp found;
  pvLoop.getBody()->walk([&](ExpDiffOp op) {
    if (op.getRowMax() == finalMax)
      found = op;
  });
  return found;
}

LogicalResult fuse(RewriterBase &rewriter, FinalizeOp finalize) {
  FailureOr<SoftmaxLoops> matched = matchSoftmaxLoops(finalize);
  if (failed(matched))
    return failure();
  SoftmaxLoops loops = *matched;
  Value finalMax = loops.maxLoop.getResult(0);
  ExpDiffOp probs = findProbabilities(loops.pvLoop, finalMax);
  if (!probs)
    return failure();
  auto pvYield = loops.pvLoop.getBody()->getTerminator();

  Location loc = loops.pvLoop.getLoc();
  rewriter.setInsertionPoint(loops.pvLoop);
  SmallVector<Value> inits = {loops.maxLoop.getInitArgs()[0],
                              loops.sumLoop.getInitArgs()[0],
                              loops.pvLoop.getInitArgs()[0]};
  auto fused = scf::ForOp::create(rewriter, loc, loops.maxLoop.getLowerBound(),
                                  loops.maxLoop.getUpperBound(),
                                  loops.maxLoop.getStep(), inits);
  Block *body = fused.getBody();
  rewriter.setInsertionPointToStart(body);
  Value kb = fused.getInductionVar();
  Value m = fused.getRegionIterArgs()[0], l = fused.getRegionIterArgs()[1],
        acc = fused.getRegionIterArgs()[2];

  // m' = row_max of this block's scores combined with the running max.
  IRMapping maxMapping;
  maxMapping.map(loops.maxLoop.getInductionVar(), kb);
  maxMapping.map(loops.maxLoop.getRegionIterArgs()[0], m);
  for (Operation &op : loops.maxLoop.getBody()->without_terminator())
    rewriter.clone(op, maxMapping);
  Value newMax = maxMapping.lookup(loops.rowMax.getResult());

  // Rescale what was accumulated under the old max. The ops come in the
  // order a kernel issues them (the GPU lowering runs them in IR order):
  // the row sum right after the exponentials, O's rescale right before
  // P V, so neither P in f32 nor the rescaled O is live longer than needed.
  Value scaleLog2 = probs.getScaleLog2();
  Value factor =
      RescaleFactorOp::create(rewriter, loc, m.getType(), m, newMax, scaleLog2);

  // The P V body under the running max.
  IRMapping pvMapping;
  pvMapping.map(loops.pvLoop.getInductionVar(), kb);
  pvMapping.map(loops.pvLoop.getRegionIterArgs()[0], acc);
  pvMapping.map(finalMax, newMax);
  for (Operation &op : loops.pvLoop.getBody()->without_terminator())
    rewriter.clone(op, pvMapping);
  Value newAcc = pvMapping.lookup(pvYield->getOperand(0));
  Value fusedProbs = pvMapping.lookup(probs.getResult());
  rewriter.setInsertionPointAfterValue(fusedProbs);
  // l' = l * factor + row_sum(P): the row sum's own init_scale.
  Value newSum =
      RowSumOp::create(rewriter, loc, l.getType(), fusedProbs, l, factor);
  SmallVector<OpOperand *> accUses =
      llvm::map_to_vector(acc.getUses(), [](OpOperand &use) { return &use; });
  for (OpOperand *use : accUses) {
    rewriter.setInsertionPoint(use->getOwner());
    Value scaledAcc =
        ScaleRowsOp::create(rewriter, loc, acc.getType(), acc, factor);
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(scaledAcc); });
  }
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, loc, ValueRange{newMax, newSum, newAcc});

  rewriter.modifyOpInPlace(finalize, [&] {
    finalize.getRowMaxMutable().assign(fused.getResult(0));
    finalize.getRowSumMutable().assign(fused.getResult(1));
    finalize.getAccMutable().assign(fused.getResult(2));
  });
  rewriter.eraseOp(loops.pvLoop);
  rewriter.eraseOp(loops.sumLoop);
  rewriter.eraseOp(loops.maxLoop);

  // Merge the duplicated K load / QK / mask of the two cloned bodies.
  DominanceInfo domInfo(fused);
  eliminateCommonSubExpressions(rewriter, domInfo, fused);
  return success();
}

struct AttnFuseOnlineSoftmaxPass final
    : public mlir::attn::impl::AttnFuseOnlineSoftmaxPassBase<AttnFuseOnlineSoftmaxPass> {
  void runOnOperation() override {
    SmallVector<FinalizeOp> finalizes;
    getOperation().walk([&](FinalizeOp op) { finalizes.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (FinalizeOp finalize : finalizes)
      if (succeeded(fuse(rewriter, finalize)))
        ++numFused;
  }
};

} // namespace
