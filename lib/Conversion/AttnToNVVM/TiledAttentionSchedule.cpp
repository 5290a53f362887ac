//===- TiledAttentionSchedule.cpp - a kernel's schedule in the tile IR ----===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parts of verifyTiledAttention that read the schedule the passes wrote:
// where the tile signals its dependents, the rotated kv loops' prologue and
// epilogue, and the producer's kv loop.
//
//===----------------------------------------------------------------------===//

#include "TiledAttention.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;

/// The tile's attn.launch_dependents (its verifier keeps it at the top level
/// of a tile): in the consumer region where there is one, where the kernel
/// lowers it as it stands among the tile's kv loops and attn.finalize.
LogicalResult mlir::attn::verifyLaunchDependents(const TiledAttention &tiled,
                                                 Region &tile) {
  // One beside an attn.warp_specialize would run in no role.
  WalkResult outside = tiled.forall.getBody()->walk([&](LaunchDependentsOp op) {
    if (op->getParentRegion() == &tile)
      return WalkResult::advance();
    op.emitError("convert-attn-to-nvvm: attn.launch_dependents must sit in "
                 "the consumer region of the tile's attn.warp_specialize");
    return WalkResult::interrupt();
  });
  if (outside.wasInterrupted())
    return failure();
  auto ops = tile.getOps<LaunchDependentsOp>();
  if (ops.empty())
    return success();
  if (std::next(ops.begin()) != ops.end())
    return (*std::next(ops.begin()))
        .emitError("convert-attn-to-nvvm: a tile signals its dependents "
                   "once; this is its second attn.launch_dependents");
  return success();
}

/// Checks that the ops of `block` (waits aside) are those of `stage` in
/// kv step `step` (waits aside), in order, with the step's values renamed by
/// `map`, which maps each op's results as it goes: the same names,
/// attributes (attn.stage included) and operands (of a release, its tile:
/// the row sums it is ordered after are the schedule's, as the waits are,
/// and verifyStepWaits checks them). A step op for which
/// `mayBeLeftOut` holds may be missing from `block`. Emits `what` and the
/// first op that differs.
static LogicalResult
matchStepOps(Block *block, Block *step, int64_t stage, IRMapping &map,
             const Twine &what,
             function_ref<bool(Operation *)> mayBeLeftOut = nullptr) {
  auto isWait = [](Operation &op) { return isa<WaitTileOp, WaitGemmsOp>(op); };
  SmallVector<Operation *> ops, reference;
  for (Operation &op : block->without_terminator())
    if (!isWait(op))
      ops.push_back(&op);
  for (Operation &op : step->without_terminator())
    if (!isWait(op) && getPipelineStage(&op) == stage)
      reference.push_back(&op);
  auto compared = [](Operation *op) -> OperandRange {
    if (auto release = dyn_cast<RingReleaseOp>(op))
      return release->getOperands().take_front(1);
    return op->getOperands();
  };
  auto matches = [&](Operation *candidate, Operation *ref) {
    return candidate && candidate->getName() == ref->getName() &&
           candidate->getResultTypes() == ref->getResultTypes() &&
           compared(candidate).size() == compared(ref).size() &&
           candidate->getNumRegions() == 0 &&
           candidate->getAttrDictionary() == ref->getAttrDictionary() &&
           llvm::all_of(llvm::zip_equal(compared(candidate), compared(ref)),
                        [&](auto pair) {
                          auto [operand, refOperand] = pair;
                          return operand == map.lookupOrDefault(refOperand);
                        });
  };
  auto mismatch = [&](Operation *at, Operation *ref) {
    InFlightDiagnostic diag =
        (at ? at : block->getTerminator())->emitError("convert-attn-to-nvvm: ")
        << what << "; ";
    if (ref)
      diag << "expected the loop's '" << ref->getName()
           << "' here, with the loop's operands and attributes";
    else
      diag << "the loop's step has no op here";
    return diag;
  };
  size_t next = 0; // the first op of `block` not matched yet
  for (Operation *ref : reference) {
    Operation *candidate = next < ops.size() ? ops[next] : nullptr;
    if (!matches(candidate, ref)) {
      if (mayBeLeftOut && mayBeLeftOut(ref))
        continue;
      return mismatch(candidate, ref);
    }
    map.map(ref->getResults(), candidate->getResults());
    ++next;
  }
  if (next < ops.size())
    return mismatch(ops[next], nullptr);
  return success();
}

/// `ub` of a rotated loop's bound `max(ub, begin + 1)`, or null.
static Value unrotatedBound(Value bound, Value begin) {
  auto max = bound.getDefiningOp<arith::MaxSIOp>();
  auto second =
      max ? max.getRhs().getDefiningOp<arith::AddIOp>() : arith::AddIOp();
  if (!second || second.getLhs() != begin ||
      !matchPattern(second.getRhs(), m_One()))
    return {};
  return max.getLhs();
}

/// The prologue's `begin < end`, if it tests that.
static arith::CmpIOp rangeTest(scf::IfOp prologue) {
  auto test = prologue.getCondition().getDefiningOp<arith::CmpIOp>();
  return test && test.getPredicate() == arith::CmpIPredicate::slt
             ? test
             : arith::CmpIOp();
}

Value TiledAttention::kvBegin() const {
  if (scf::IfOp prologue = kvPrologue())
    return rangeTest(prologue).getLhs();
  return kvLoops().front().getLowerBound();
}

Value TiledAttention::kvEnd() const {
  if (scf::IfOp prologue = kvPrologue())
    return rangeTest(prologue).getRhs();
  return kvLoops().back().getUpperBound();
}

SmallVector<Value> mlir::attn::getUnrotatedBounds(const TiledAttention &tiled) {
  Value begin = tiled.kvBegin();
  SmallVector<Value> bounds = {begin};
  for (scf::ForOp loop : tiled.kvLoops())
    bounds.push_back(unrotatedBound(loop.getUpperBound(), begin));
  return bounds;
}

/// The kernel lowers the prologue and epilogue of rotated kv loops
/// (attn-pipeline-kv-loops) op by op like the loops' steps: the prologue is
/// stage 0 of block `begin`, the epilogue stage 1 of the last block, both
/// run where `begin < end`.
LogicalResult mlir::attn::verifyKvPipeline(const TiledAttention &tiled,
                                           ArrayRef<KvLoop> kvLoops) {
  scf::ForOp first = kvLoops.front().loop;
  scf::ForOp last = kvLoops.back().loop;
  FinalizeOp finalize = tiled.finalize();
  auto fail = [](Operation *at, const Twine &why) {
    return at->emitError("convert-attn-to-nvvm: ") << why;
  };
  scf::IfOp prologue = first.getInitArgs().front().getDefiningOp<scf::IfOp>();
  if (!prologue || ValueRange(first.getInitArgs()) != prologue.getResults())
    return fail(first, "a rotated kv loop starts from the results of its "
                       "prologue (the scf.if of attn-pipeline-kv-loops)");
  arith::CmpIOp hasBlocks = rangeTest(prologue);
  if (!hasBlocks)
    return fail(prologue, "the prologue of rotated kv loops runs where the "
                          "kv range is not empty (arith.cmpi slt, begin, "
                          "end)");
  Value begin = hasBlocks.getLhs(), end = hasBlocks.getRhs();
  // Each rotated loop runs blocks max(lb, begin + 1) to max(ub, begin + 1)
  // of the range [begin, end) that the loops partitioned before.
  for (const KvLoop &kv : kvLoops) {
    Value lb = unrotatedBound(kv.loop.getLowerBound(), begin);
    Value ub = unrotatedBound(kv.loop.getUpperBound(), begin);
    if (!lb || !ub || (&kv == &kvLoops.front() && lb != begin) ||
        (&kv == &kvLoops.back() && ub != end))
      return fail(kv.loop, "a rotated kv loop runs blocks max(lb, begin + 1) "
                           "to max(ub, begin + 1) of the prologue's range "
                           "[begin, end)");
  }
  // The prologue is stage 0 of the first masked loop's step (every block
  // may take the mask), else of the first loop's, at block `begin`, started
  // from the values the loops start from.
  Block *peeled = prologue.thenBlock();
  ValueRange starts = prologue.elseYield().getOperands();
  const KvLoop *peeledLoop = &kvLoops.front();
  for (const KvLoop &kv : kvLoops)
    if (kv.mask()) {
      peeledLoop = &kv;
      break;
    }
  Block *step = peeledLoop->loop.getBody();
  IRMapping stage0;
  stage0.map(peeledLoop->loop.getInductionVar(), begin);
  stage0.map(peeledLoop->loop.getRegionIterArgs(), starts);
  if (failed(matchStepOps(peeled, step, /*stage=*/0, stage0,
                          "the prologue of rotated kv loops must be stage 0 "
                          "of the first masked kv loop's step at block "
                          "`begin`")))
    return failure();
  // It yields that step's values, but O, whose stage 1 runs in the next
  // step.
  unsigned accIndex = 0;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(prologue.thenYield().getOperands(),
                                       step->getTerminator()->getOperands()))) {
    auto [yielded, loopYield] = pair;
    if (loopYield.getDefiningOp<PVOp>()) {
      accIndex = i;
      if (yielded != starts[i])
        return fail(prologue, "the prologue leaves O as the loops start it "
                              "(its stage 1 runs in the next step)");
    } else if (yielded != stage0.lookupOrNull(loopYield)) {
      return fail(prologue, "the prologue must yield the step values the "
                            "rotated loop yields, in order (result " +
                                Twine(i) + ")");
    }
  }
  // Without blocks: P = 0, alpha = 1 (stage 1 leaves O as it is), no V.
  for (auto [start, loopYield] :
       llvm::zip_equal(starts, step->getTerminator()->getOperands())) {
    Operation *def = loopYield.getDefiningOp();
    if (isa_and_present<RowMaxOp, RowSumOp, PVOp>(def))
      continue;
    double neutral = isa_and_present<RescaleFactorOp>(def) ? 1.0 : 0.0;
    auto constant = start.getDefiningOp<arith::ConstantOp>();
    auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                          : SplatElementsAttr();
    bool ok =
        isa_and_present<RingPopOp>(def)
            ? bool(start.getDefiningOp<ub::PoisonOp>())
            : splat && splat.getSplatValue<APFloat>().isExactlyValue(neutral);
    if (!ok)
      return fail(prologue, "without kv blocks the prologue yields P = 0, "
                            "alpha = 1 and a ub.poison V tile (stage 1 then "
                            "leaves O as it is)");
  }
  // The epilogue is stage 1 of the last loop's step, on its results.
  auto epilogue = finalize.getAcc().getDefiningOp<scf::IfOp>();
  if (!epilogue || epilogue.getCondition() != prologue.getCondition() ||
      epilogue.getNumResults() != 1 ||
      epilogue.elseYield().getOperand(0) != last.getResult(accIndex))
    return fail(finalize, "attn.finalize of rotated kv loops reads O from "
                          "their epilogue (an scf.if on the prologue's "
                          "condition that yields the last loop's O without "
                          "blocks)");
  // Its V release may be left out: a CTA computes one tile, so no later
  // load waits for the stage.
  Block *lastStep = last.getBody();
  IRMapping stage1;
  stage1.map(last.getRegionIterArgs(), last.getResults());
  if (failed(matchStepOps(
          epilogue.thenBlock(), lastStep, /*stage=*/1, stage1,
          "the epilogue of rotated kv loops must be stage 1 of the last kv "
          "loop's step, on its results",
          [](Operation *op) { return isa<RingReleaseOp>(op); })))
    return failure();
  if (epilogue.thenYield().getOperand(0) !=
      stage1.lookupOrNull(lastStep->getTerminator()->getOperand(accIndex)))
    return fail(epilogue, "the epilogue of rotated kv loops yields the last "
                          "block's attn.pv");
  return success();
}

/// The producer region streams the blocks the consumers' kv loops pop, in
/// order: one kv loop, at the region's top, from the consumers' first block
/// to their last (the very bound values, which attn-warp-specialize gives
/// it), one block a step, beside ops without effects or regions (its step's
/// constant). A producer that pushed other blocks, or a
/// different number of them, would leave the consumers or itself waiting
/// forever.
LogicalResult mlir::attn::verifyProducerLoop(const TiledAttention &tiled) {
  scf::ForOp loop = tiled.producerLoop();
  Region &producer = tiled.warpSpecialization().getProducer();
  auto fail = [](Operation *at, const Twine &why) {
    return at->emitError("convert-attn-to-nvvm: ") << why;
  };
  int64_t pushes = 0;
  producer.walk([&](RingPushOp) { ++pushes; });
  if (pushes != 1 || loop->getParentRegion() != &producer)
    return fail(loop, "the producer region holds one kv loop (attn.ring_push "
                      "once a step), at its top level");
  for (Operation &op : producer.front().without_terminator())
    if (&op != loop.getOperation() &&
        (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
      return fail(&op, "the producer region holds its kv loop and ops "
                       "without effects or regions (its bounds' arithmetic) "
                       "only");
  if (!matchPattern(loop.getStep(), m_One()) ||
      loop.getLowerBound() != tiled.kvBegin() ||
      loop.getUpperBound() != tiled.kvEnd())
    return fail(loop, "the producer's kv loop pushes the blocks the "
                      "consumers' kv loops pop, one a step: its bounds are "
                      "their first loop's lower bound and their last loop's "
                      "upper bound (the same values)");
  return success();
}
