//===- SoftcapFixedMax.cpp - a soft-capped softmax without a running max --===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces the running row max of a soft-capped online softmax by a fixed
// max of 0: the soft-cap bounds the scores, so the exponentials cannot
// overflow without it (the pass's description gives the bounds).
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNSOFTCAPFIXEDMAXPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// An attention's running max: its steps' attn.row_max ops, each in a kv
/// loop (carried across its blocks) or peeled out of one, and the operands
/// that read its start (-inf): the first step's init (or its loop's) and,
/// for a step outside a loop, its attn.rescale_factor's old max.
struct RunningMax {
  SmallVector<RowMaxOp> steps;
  SmallVector<OpOperand *> starts;
};

/// Whether every reader of the max values `values` (the steps' results and
/// what carries them) is one that a fixed max lets go or keeps: the next
/// step's attn.row_max (its init), an attn.rescale_factor of two of them,
/// the attn.exp_diff of a step's own result (getFixedMaxExponent checks
/// it), `finalize`, and the scf.for and scf.yield that carry them. `start`
/// is the max before the first step.
bool onlyMaxReaders(const DenseSet<Value> &values, Value start,
                    ArrayRef<RowMaxOp> steps, FinalizeOp finalize) {
  auto isStep = [&](Value v) {
    auto step = v.getDefiningOp<RowMaxOp>();
    return step && llvm::is_contained(steps, step);
  };
  for (Value v : values)
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      bool ok =
          TypeSwitch<Operation *, bool>(user)
              .Case([&](RowMaxOp step) {
                return llvm::is_contained(steps, step) && step.getInit() == v;
              })
              .Case([&](RescaleFactorOp factor) {
                return (values.contains(factor.getOldMax()) ||
                        factor.getOldMax() == start) &&
                       values.contains(factor.getNewMax());
              })
              .Case([&](ExpDiffOp exp) {
                return exp.getRowMax() == v && isStep(v);
              })
              .Case([&](FinalizeOp reader) {
                return reader == finalize && reader.getRowMax() == v;
              })
              .Case([&](scf::YieldOp yield) {
                auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
                return loop &&
                       values.contains(
                           loop.getRegionIterArgs()[use.getOperandNumber()]);
              })
              .Case([&](scf::ForOp loop) {
                OpOperand *init = &use;
                return values.contains(loop.getTiedLoopRegionIterArg(init));
              })
              .Default(false);
      if (!ok)
        return false;
    }
  return true;
}

/// Whether `v` starts at 0: a splat zero, or an iter arg whose loop starts
/// it from one.
bool startsAtZero(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (OpOperand *init = loop.getTiedLoopInit(arg))
        v = init->get();
  return matchPattern(v, m_AnyZeroFloat());
}

/// Whether what the first step `first` rescales starts at 0. Its factor is
/// 0 (the old max is -inf), which discards the running sum's and O's
/// initial values; a fixed max keeps them, so they must be 0.
bool accumulatesFromZero(RowMaxOp first) {
  for (Operation *user : first.getInit().getUsers()) {
    auto factor = dyn_cast<RescaleFactorOp>(user);
    if (!factor)
      continue;
    for (OpOperand &use : factor->getUses()) {
      bool zero = TypeSwitch<Operation *, bool>(use.getOwner())
                      .Case([&](ScaleRowsOp scale) {
                        return startsAtZero(scale.getInput());
                      })
                      .Case([&](RowSumOp sum) {
                        return sum.getInitScale() &&
                               &use == &sum.getInitScaleMutable()[0] &&
                               startsAtZero(sum.getInit());
                      })
                      .Default(false);
      if (!zero)
        return false;
    }
  }
  return true;
}

/// The running max that attn.finalize `finalize` reads: steps, each
/// starting from the one before (in a loop: carried), from a splat -inf.
/// Fails for any other form, or a max with another reader.
FailureOr<RunningMax> traceRunningMax(FinalizeOp finalize) {
  RunningMax max;
  DenseSet<Value> values;
  Value m = finalize.getRowMax();
  OpOperand *start = nullptr;
  while (true) {
    values.insert(m);
    if (auto step = m.getDefiningOp<RowMaxOp>(); step && step.getInit()) {
      max.steps.push_back(step);
      start = &step.getInitMutable()[0];
    } else if (auto loop = m.getDefiningOp<scf::ForOp>()) {
      unsigned i = cast<OpResult>(m).getResultNumber();
      Value iterArg = loop.getRegionIterArgs()[i];
      auto step = loop.getYieldedValues()[i].getDefiningOp<RowMaxOp>();
      if (!step || step->getParentOp() != loop || step.getInit() != iterArg)
        return failure();
      values.insert(iterArg);
      values.insert(step.getResult());
      max.steps.push_back(step);
      start = &loop.getInitArgsMutable()[i];
    } else {
      break;
    }
    m = start->get();
  }
  if (max.steps.empty() || !matchPattern(m, m_NegInfFloat()))
    return failure();
  // The start is a constant that other ops may share: only its uses as the
  // first step's max start the max.
  values.erase(m);
  max.starts.push_back(start);
  for (OpOperand &use : m.getUses())
    if (auto factor = dyn_cast<RescaleFactorOp>(use.getOwner());
        factor && &use == &factor.getOldMaxMutable() &&
        values.contains(factor.getNewMax()))
      max.starts.push_back(&use);
  if (!onlyMaxReaders(values, m, max.steps, finalize) ||
      !accumulatesFromZero(max.steps.back()))
    return failure();
  return max;
}

/// Whether P (`probs`) reaches attn.pv rounded to bf16 or as f32: f16
/// cannot hold the unnormalized probabilities of a fixed max.
bool roundsProbsWide(Value probs) {
  auto isWide = [](Type t) {
    Type element = getElementTypeOrSelf(t);
    return element.isBF16() || element.isF32();
  };
  for (Operation *user : probs.getUsers()) {
    if (auto truncate = dyn_cast<TruncateOp>(user)) {
      if (!isWide(truncate.getResult().getType()) ||
          !roundsProbsWide(truncate.getResult()))
        return false;
    } else if (auto pv = dyn_cast<PVOp>(user)) {
      if (!isWide(pv.getValue().getType()))
        return false;
    } else if (!isa<RowSumOp>(user)) {
      return false;
    }
  }
  return true;
}

/// The binary exponent E of the largest probability of step `step`
/// (2^-E < p < 2^E) with a fixed max, where the max can be fixed: one
/// attn.exp_diff reads the step's max, of the same soft-capped scores
/// alike scaled, and P stays wide.
std::optional<double> getFixedMaxExponent(RowMaxOp step) {
  auto exps =
      llvm::filter_to_vector(step->getUsers(), llvm::IsaPred<ExpDiffOp>);
  if (exps.size() != 1)
    return std::nullopt;
  auto exp = cast<ExpDiffOp>(exps.front());
  if (exp.getScores() != step.getScores() ||
      exp.getScoreScale() != step.getScoreScale() ||
      !roundsProbsWide(exp.getResult()))
    return std::nullopt;
  return getScaledSoftcapBound(exp);
}

struct AttnSoftcapFixedMaxPass final
    : public mlir::attn::impl::AttnSoftcapFixedMaxPassBase<
          AttnSoftcapFixedMaxPass> {
  using Base::Base;

  void runOnOperation() override {
    // 2^E must stay a finite f32 (and the software exp2's exponent in
    // range), and the sums of many of them too.
    if (maxExponent < 0 || maxExponent > 126) {
      getOperation().emitError("attn-softcap-fixed-max: max-exponent must be "
                               "in [0, 126], got ")
          << maxExponent;
      return signalPassFailure();
    }
    SmallVector<RunningMax> fixable;
    getOperation().walk([&](FinalizeOp finalize) {
      FailureOr<RunningMax> max = traceRunningMax(finalize);
      if (failed(max) || !llvm::all_of(max->steps, [&](RowMaxOp step) {
            std::optional<double> exponent = getFixedMaxExponent(step);
            return exponent && *exponent <= maxExponent;
          }))
        return;
      fixable.push_back(*max);
    });
    if (fixable.empty())
      return;
    OpBuilder b(&getContext());
    for (RunningMax &max : fixable) {
      // The first loop starts from the fixed max, and each step keeps the
      // max it starts from.
      Operation *first = max.starts.front()->getOwner();
      b.setInsertionPoint(first);
      auto type = cast<RankedTensorType>(max.starts.front()->get().getType());
      Value fixed = arith::ConstantOp::create(
          b, first->getLoc(), type,
          DenseElementsAttr::get(type, APFloat(0.0f)));
      for (OpOperand *start : max.starts)
        start->set(fixed);
      for (RowMaxOp step : max.steps) {
        step.replaceAllUsesWith(step.getInit());
        step.erase();
      }
      ++numFixed;
    }
    // The loops then carry the max unchanged, the factors are 1: their
    // canonicalizations and the attn ops' folds remove them.
    RewritePatternSet patterns(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
