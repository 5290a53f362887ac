//===- SplitMaskedLoops.cpp - mask only the edge kv blocks ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kv loop `for kb in [lo, hi)` whose body masks S with column offset
// kb * BN becomes
//
//   for kb in [lo, fb)  { ... attn.mask ... }   // window's left edge
//   for kb in [fb, fe)  { ... }                 // every key visible: no mask
//   for kb in [fe, hi)  { ... attn.mask ... }   // diagonal and ragged tail
//
// with fb, fe the query block's fully visible range (buildKvBlockRange),
// clamped so the three ranges partition [lo, hi). Each loop is tagged with
// `attn.kv_range` = "lead" | "full" | "tail" for the GPU lowering.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/MaskUtils.h"
#include "attnc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "attn-split-masked-loops"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSPLITMASKEDLOOPSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

static constexpr StringLiteral kKvRangeAttr = "attn.kv_range";

namespace {

/// The mask in `loop`'s body whose column offset is `iv * blockN` and whose
/// other operands are loop-invariant; sets `blockN`.
MaskOp findSplittableMask(scf::ForOp loop, int64_t &blockN) {
  MaskOp found;
  for (auto mask : loop.getBody()->getOps<MaskOp>()) {
    auto mul = mask.getColOffset().getDefiningOp<arith::MulIOp>();
    APInt step;
    if (!mul || mul.getLhs() != loop.getInductionVar() ||
        !matchPattern(mul.getRhs(), m_ConstantInt(&step)))
      continue;
    if (step.getSExtValue() != cast<RankedTensorType>(mask.getType()).getShape()[1])
      continue;
    if (!llvm::all_of(ValueRange{mask.getRowOffset(), mask.getSeqQ(),
                                 mask.getSeqK()},
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    if (found)
      return {}; // Two masks: leave the loop alone.
    found = mask;
    blockN = step.getSExtValue();
  }
  return found;
}

scf::ForOp cloneWithRange(RewriterBase &rewriter, scf::ForOp loop, Value lo,
                          Value hi, ValueRange inits, StringRef part) {
  auto clone = cast<scf::ForOp>(rewriter.clone(*loop));
  rewriter.modifyOpInPlace(clone, [&] {
    clone.setLowerBound(lo);
    clone.setUpperBound(hi);
    clone.getInitArgsMutable().assign(inits);
    clone->setAttr(kKvRangeAttr, rewriter.getStringAttr(part));
  });
  return clone;
}

void splitLoop(RewriterBase &rewriter, scf::ForOp loop, MaskOp mask,
               int64_t blockN) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  MaskSpec spec = mask.getMaskSpec();
  int64_t blockM = cast<RankedTensorType>(mask.getType()).getShape()[0];
  KvBlockRange range =
      buildKvBlockRange(rewriter, loc, mask.getRowOffset(), mask.getSeqQ(),
                        mask.getSeqK(), blockM, blockN, spec);
  auto clamp = [&](Value v, Value lo, Value hi) -> Value {
    return rewriter.createOrFold<arith::MinSIOp>(
        loc, rewriter.createOrFold<arith::MaxSIOp>(loc, v, lo), hi);
  };
  Value lo = loop.getLowerBound(), hi = loop.getUpperBound();
  // Only a window's left edge can hide keys before the full range.
  Value fullBegin = spec.window ? clamp(range.fullBegin, lo, hi) : lo;
  Value fullEnd = clamp(range.fullEnd, fullBegin, hi);

  ValueRange carried = loop.getInitArgs();
  if (spec.window)
    carried = cloneWithRange(rewriter, loop, lo, fullBegin, carried, "lead")
                  .getResults();
  scf::ForOp full =
      cloneWithRange(rewriter, loop, fullBegin, fullEnd, carried, "full");
  full.getBody()->walk([&](MaskOp clonedMask) {
    rewriter.replaceOp(clonedMask, clonedMask.getScores());
  });
  scf::ForOp tail =
      cloneWithRange(rewriter, loop, fullEnd, hi, full.getResults(), "tail");
  rewriter.replaceOp(loop, tail.getResults());
}

struct AttnSplitMaskedLoopsPass final
    : public mlir::attn::impl::AttnSplitMaskedLoopsPassBase<AttnSplitMaskedLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::tuple<scf::ForOp, MaskOp, int64_t>> work;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kKvRangeAttr))
        return;
      int64_t blockN = 0;
      if (MaskOp mask = findSplittableMask(loop, blockN))
        work.emplace_back(loop, mask, blockN);
    });
    IRRewriter rewriter(&getContext());
    for (auto [loop, mask, blockN] : work) {
      splitLoop(rewriter, loop, mask, blockN);
      ++numSplit;
    }
  }
};

} // namespace
