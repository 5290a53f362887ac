//===- PipelineKvLoops.cpp - rotate software-pipelined kv loops -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// attn-warp-specialize marks the accumulator update of every consumer kv
// loop `attn.stage = 1` (PipelineStages.h). This pass makes the schedule
// that marking asks for explicit: it peels stage 0 of the first block into a
// prologue and stage 1 of the last into an epilogue, and rotates the loops
// so that step j runs stage 0 of block j with stage 1 of block j-1, the
// values stage 1 reads from stage 0 (P, rounded to V's element type by an
// attn.truncate, alpha and the V tile) carried from one step to the next.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/PipelineStages.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNPIPELINEKVLOOPSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// One kv loop and its ops by stage.
struct StagedLoop {
  mutable scf::ForOp loop;
  /// Stage-1 ops in body order: O's attn.scale_rows, attn.pv and the V
  /// attn.ring_release.
  SmallVector<Operation *> stage1;
  /// The stage-0 values stage 1 reads, in the order they are carried:
  /// register tiles (P), row vectors (alpha), then the V tile.
  SmallVector<Value> crossing;
  /// The position of O among the loop's carried values.
  unsigned accIndex = 0;
};

/// Where a crossing value goes among the carried ones: register tiles first,
/// then row vectors, then shared-memory (ring) tiles.
static int crossingRank(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (v.getDefiningOp<RingPopOp>())
    return 2;
  return type.getRank() == 1 ? 1 : 0;
}

static FailureOr<StagedLoop> readStagedLoop(scf::ForOp loop) {
  StagedLoop staged{loop, {}, {}, 0};
  Block *body = loop.getBody();
  auto fail = [&](Operation *at, const Twine &why) {
    return at->emitError("attn-pipeline-kv-loops: ") << why;
  };
  // The rotation carries what a step computes into the next one.
  for (Value yielded : body->getTerminator()->getOperands()) {
    Operation *def = yielded.getDefiningOp();
    if (!def || def->getBlock() != body)
      return fail(body->getTerminator(),
                  "a software-pipelined kv loop yields the values its step "
                  "computes (the running max, sum and O)");
  }
  auto pvs = body->getOps<PVOp>();
  if (pvs.empty() || !llvm::is_contained(body->getTerminator()->getOperands(),
                                         (*pvs.begin()).getResult()))
    return fail(loop, "a software-pipelined kv loop yields its attn.pv (the "
                      "step's O), which stage 1 computes");
  // P as the step computes it, or already rounded (attn.truncate).
  Value probs = (*pvs.begin()).getProbs();
  if (auto rounded = probs.getDefiningOp<TruncateOp>())
    probs = rounded.getInput();
  if (!probs.getDefiningOp<ExpDiffOp>() || probs.getParentBlock() != body)
    return fail(*pvs.begin(), "stage 1's attn.pv reads the P of its step "
                              "(the step's attn.exp_diff, or its "
                              "attn.truncate), which the rotated loop carries");
  if (failed(verifyPipelineStages(loop)))
    return failure();
  for (Operation &op : body->without_terminator())
    if (getPipelineStage(&op) == 1)
      staged.stage1.push_back(&op);
  // The rotated step releases the V tile after the P V that reads it (the
  // rotation places releases last): a release before it would free the
  // stage while the GEMM reads it, which the rotation would hide.
  auto pv = *pvs.begin();
  for (Operation *op : staged.stage1)
    if (auto release = dyn_cast<RingReleaseOp>(op);
        release && release.getTile() == pv.getValue() &&
        release->isBeforeInBlock(pv))
      return fail(release, "stage 1 must release its V tile after the "
                           "attn.pv that reads it");
  // Stage 1 runs a step later than stage 0: nothing of stage 0 may read it.
  for (Operation &op : body->without_terminator())
    if (getPipelineStage(&op) == 0)
      for (Value operand : op.getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == body && getPipelineStage(def) == 1)
          return fail(&op, "a stage-0 op reads a result of stage 1, which "
                           "runs a step later");
  SetVector<Value> crossing;
  for (Operation *op : staged.stage1)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == body && getPipelineStage(def) == 0 &&
          isa<RankedTensorType>(operand.getType()))
        crossing.insert(operand);
    }
  staged.crossing = crossing.takeVector();
  llvm::stable_sort(staged.crossing, [](Value a, Value b) {
    return crossingRank(a) < crossingRank(b);
  });
  for (auto [i, yielded] :
       llvm::enumerate(body->getTerminator()->getOperands()))
    if (yielded == pv.getResult())
      staged.accIndex = i;
  return staged;
}

/// The value stage 1 starts from where no block ran: P = 0 and alpha = 1
/// leave O as it is; the V tile is never read.
static Value neutralValue(OpBuilder &b, Location loc, Value crossing) {
  auto type = cast<RankedTensorType>(crossing.getType());
  if (crossingRank(crossing) == 2)
    return ub::PoisonOp::create(b, loc, type);
  double value = crossingRank(crossing) == 1 ? 1.0 : 0.0;
  return arith::ConstantOp::create(
      b, loc, type,
      SplatElementsAttr::get(type,
                             b.getFloatAttr(type.getElementType(), value)));
}

/// Rounds the P that stage 1's attn.pv reads to V's element type in stage 0
/// (attn.truncate right before the P V), so that the rotated loop carries
/// it in 16 bits: half the registers of f32 P, live next to the next
/// block's S in flight. P already rounded, and f32 V (which the GPU
/// lowering rejects), are left alone.
static void roundCarriedProbs(StagedLoop &staged) {
  PVOp pv = *staged.loop.getBody()->getOps<PVOp>().begin();
  auto probsType = cast<RankedTensorType>(pv.getProbs().getType());
  Type valueElement = pv.getValue().getType().getElementType();
  if (!probsType.getElementType().isF32() || valueElement.isF32())
    return;
  OpBuilder b(pv);
  auto roundedType = RankedTensorType::get(probsType.getShape(), valueElement,
                                           probsType.getEncoding());
  Value probs = pv.getProbs();
  Value rounded = TruncateOp::create(b, pv.getLoc(), roundedType, probs);
  pv.getProbsMutable().assign(rounded);
  llvm::replace(staged.crossing, probs, rounded);
}

/// Rotates the kv loops `loops` (in order, chained) of one consumer region.
static void rotate(ArrayRef<StagedLoop> loops) {
  scf::ForOp first = loops.front().loop, last = loops.back().loop;
  Location loc = first.getLoc();
  OpBuilder b(first);
  Value begin = first.getLowerBound(), end = last.getUpperBound();
  Value hasBlocks =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, begin, end);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value second = arith::AddIOp::create(b, loc, begin, one);
  ValueRange inits = first.getInitArgs();

  // The prologue: stage 0 of block `begin`, with the score modifiers of
  // the first masked loop.
  const StagedLoop *peeled = &loops.front();
  for (const StagedLoop &staged : loops)
    if (!staged.loop.getBody()->getOps<MaskOp>().empty()) {
      peeled = &staged;
      break;
    }
  SmallVector<Type> carriedTypes(first.getResultTypes());
  for (Value v : peeled->crossing)
    carriedTypes.push_back(v.getType());
  auto prologue = scf::IfOp::create(b, loc, carriedTypes, hasBlocks,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prologue.thenBlock());
    IRMapping map;
    Block *body = peeled->loop.getBody();
    map.map(peeled->loop.getInductionVar(), begin);
    map.map(peeled->loop.getRegionIterArgs(), inits);
    for (Operation &op : body->without_terminator())
      if (getPipelineStage(&op) == 0)
        b.clone(op, map);
    SmallVector<Value> yields;
    for (auto [i, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands()))
      yields.push_back(i == peeled->accIndex ? inits[i] : map.lookup(yielded));
    for (Value v : peeled->crossing)
      yields.push_back(map.lookup(v));
    scf::YieldOp::create(b, loc, yields);

    b.setInsertionPointToStart(prologue.elseBlock());
    SmallVector<Value> neutral(inits);
    for (Value v : peeled->crossing)
      neutral.push_back(neutralValue(b, loc, v));
    scf::YieldOp::create(b, loc, neutral);
  }

  // The rotated loops: stage 0 of block j, stage 1 of block j-1 right after
  // its S GEMM (before the attn.pass_turn that follows it: a ping-pong turn
  // issues both GEMMs), the V release last.
  ValueRange carried = prologue.getResults();
  Value lb = arith::MaxSIOp::create(b, loc, begin, second);
  for (const StagedLoop &staged : loops) {
    scf::ForOp loop = staged.loop;
    Value ub = arith::MaxSIOp::create(b, loc, loop.getUpperBound(), second);
    auto rotated = scf::ForOp::create(b, loc, lb, ub, loop.getStep(), carried);
    rotated->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Block *body = loop.getBody();
    unsigned n = loop.getNumRegionIterArgs();
    ValueRange args = rotated.getRegionIterArgs();
    // Stage 0 reads this block's values; stage 1 the previous block's:
    // the carried O and crossing values.
    IRMapping current, previous;
    current.map(loop.getInductionVar(), rotated.getInductionVar());
    current.map(loop.getRegionIterArgs(), args.take_front(n));
    previous.map(loop.getRegionIterArgs(), args.take_front(n));
    previous.map(staged.crossing, args.drop_front(n));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rotated.getBody());
    auto isRelease = [](Operation *op) { return isa<RingReleaseOp>(op); };
    auto qk = *body->getOps<QKOp>().begin();
    for (Operation &op : body->without_terminator()) {
      if (getPipelineStage(&op) == 1)
        continue;
      b.clone(op, current);
      if (&op != qk.getOperation())
        continue;
      for (Operation *update : staged.stage1)
        if (!isRelease(update))
          b.clone(*update, previous);
    }
    for (Operation *update : staged.stage1)
      if (isRelease(update))
        b.clone(*update, previous);
    SmallVector<Value> yields;
    for (auto [i, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands()))
      yields.push_back(i == staged.accIndex ? previous.lookup(yielded)
                                            : current.lookup(yielded));
    for (Value v : staged.crossing)
      yields.push_back(current.lookup(v));
    scf::YieldOp::create(b, loc, yields);
    carried = rotated.getResults();
    lb = ub;
  }
  // The epilogue: stage 1 of the last block, without its V release: a CTA
  // computes one tile, so no later load waits for the stage.
  const StagedLoop &tail = loops.back();
  unsigned n = last.getNumRegionIterArgs();
  auto epilogue = scf::IfOp::create(
      b, loc, TypeRange{carried[tail.accIndex].getType()}, hasBlocks,
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(epilogue.thenBlock());
    IRMapping previous;
    previous.map(last.getRegionIterArgs(), carried.take_front(n));
    previous.map(tail.crossing, carried.drop_front(n));
    for (Operation *update : tail.stage1)
      if (!isa<RingReleaseOp>(update))
        b.clone(*update, previous);
    Value acc = last.getBody()->getTerminator()->getOperand(tail.accIndex);
    scf::YieldOp::create(b, loc, previous.lookup(acc));
    b.setInsertionPointToStart(epilogue.elseBlock());
    scf::YieldOp::create(b, loc, carried[tail.accIndex]);
  }
  for (auto [i, result] : llvm::enumerate(last.getResults()))
    result.replaceAllUsesWith(i == tail.accIndex ? epilogue.getResult(0)
                                                 : carried[i]);
  for (const StagedLoop &staged : llvm::reverse(loops))
    staged.loop.erase();
}

struct AttnPipelineKvLoopsPass
    : mlir::attn::impl::AttnPipelineKvLoopsPassBase<AttnPipelineKvLoopsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](WarpSpecializeOp specialized) {
      auto fail = [&](Operation *at, const Twine &why) {
        at->emitError("attn-pipeline-kv-loops: ") << why;
        return WalkResult::interrupt();
      };
      SmallVector<scf::ForOp> kvLoops;
      for (auto loop : specialized.getConsumer().front().getOps<scf::ForOp>())
        if (!loop.getBody()->getOps<QKOp>().empty())
          kvLoops.push_back(loop);
      // Rotated loops (this pass ran) read stage 1's P from an iter arg.
      if (llvm::any_of(kvLoops, [](scf::ForOp loop) {
            return isRotatedStep(loop.getBody());
          }))
        return WalkResult::advance();
      if (kvLoops.empty() || !isSoftwarePipelined(kvLoops.front())) {
        for (scf::ForOp loop : kvLoops)
          if (isSoftwarePipelined(loop))
            return fail(loop, "the kv loops of a tile are software-pipelined "
                              "(attn.stage) all alike or not at all");
        return WalkResult::advance();
      }
      SmallVector<StagedLoop> loops;
      for (scf::ForOp loop : kvLoops) {
        if (!isSoftwarePipelined(loop))
          return fail(loop, "the kv loops of a tile are software-pipelined "
                            "(attn.stage) all alike or not at all");
        FailureOr<StagedLoop> read = readStagedLoop(loop);
        if (failed(read))
          return WalkResult::interrupt();
        loops.push_back(*read);
      }
      scf::ForOp first = kvLoops.front();
      for (auto [previous, next] : llvm::zip(loops, llvm::drop_begin(loops))) {
        // (A lambda may not capture a structured binding before C++20.)
        scf::ForOp nextLoop = next.loop;
        bool chained =
            llvm::all_of(previous.loop->getUses(), [&](OpOperand &use) {
              return use.getOwner() == nextLoop.getOperation() &&
                     use.getOperandNumber() >= nextLoop.getNumControlOperands();
            });
        if (next.loop.getInitArgs() != previous.loop.getResults() ||
            next.loop.getLowerBound() != previous.loop.getUpperBound() ||
            !chained)
          return fail(next.loop, "a kv loop must carry on the previous kv "
                                 "loop's results, which nothing else reads, "
                                 "and begin where it ends");
        if (TypeRange(ValueRange(next.crossing)) !=
                TypeRange(ValueRange(previous.crossing)) ||
            next.accIndex != previous.accIndex)
          return fail(next.loop, "the kv loops of a tile must carry the "
                                 "same values from stage 0 to stage 1");
      }
      if (loops.front().crossing.empty() ||
          crossingRank(loops.front().crossing.back()) != 2)
        return fail(first, "stage 1 of a kv loop must read the step's V "
                           "tile of attn.ring_pop");
      for (StagedLoop &staged : loops)
        roundCarriedProbs(staged);
      rotate(loops);
      ++numRotated;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
