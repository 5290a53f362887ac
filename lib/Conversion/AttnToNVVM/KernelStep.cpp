//===- KernelStep.cpp - one kv block of a consumer ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The online-softmax step of one kv block, op by op in IR order: the S
// GEMM, mask, row max and sum, exponentials, O rescale and P V issue, and
// the waits (attn.wait_tile, attn.wait_gemms) and releases where
// attn-insert-waits placed them; in the loops attn-pipeline-kv-loops
// rotated, with the previous block's P V in flight, and the rotation's
// prologue and epilogue. Also the ring's stage and parity and the
// ping-pong barriers.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "attnc/Transforms/PipelineStages.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

/// One arrival per warpgroup on `barrier` (a stage handed back to the
/// producer), behind the computation of `after`: ptxas schedules an arrive
/// as early as it can, and the full wgmma wait that precedes it in program
/// order moves up with it, above the softmax. `after` holds row sums (the
/// plan reader's verifyStepWaits), which are >= 0, +inf or NaN (huge or bad
/// input), so "not less than -1" is always true, and a stage is never left
/// unreleased (the producer would hang).
void KernelEmitter::arriveOncePerWarpgroup(Value barrier,
                                           ArrayRef<Value> after) {
  Value wgLeader = eqI(arith::AndIOp::create(b, loc, tid, c32(127)), c32(0));
  for (Value v : after)
    wgLeader = arith::AndIOp::create(
        b, loc, wgLeader,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, v,
                              cF32(-1.0)));
  ifThen(wgLeader, [&] {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), barrier, Value());
  });
}

/// Hands a stage's K back to the producer once its S wgmma completed, where
/// K is released early; otherwise releaseValues frees K and V together (as
/// the block barrier does without a producer).
void KernelEmitter::releaseKeys(Value stage, ArrayRef<Value> after) {
  if (plan.warpSpecialize() && smem.releasesKeysEarly())
    arriveOncePerWarpgroup(keyEmptyBarrier(stage), after);
}

void KernelEmitter::releaseValues(Value stage, Value kvBlock,
                                  ArrayRef<Value> after) {
  if (plan.warpSpecialize()) {
    arriveOncePerWarpgroup(valueEmptyBarrier(stage), after);
    return;
  }
  // Everyone is done with this stage: refill it with block kb + 2.
  NVVM::Barrier0Op::create(b, loc);
  Value next = add(kvBlock, cIdx(smem.getStages()));
  Value refill = arith::AndIOp::create(
      b, loc, isLeader,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, kvEnd));
  ifThen(refill, [&] { issueKeyValueLoads(stage, next); });
}

/// Iteration i of the kv loop uses stage i mod stages, in its
/// (i / stages)-th round: the mbarrier phase parity to wait for.
std::pair<Value, Value> KernelEmitter::stageAndPhase(Value iteration) {
  APInt known;
  if (matchPattern(iteration, m_ConstantInt(&known))) {
    int64_t i = known.getSExtValue();
    return {c32(i % smem.getStages()), c32((i / smem.getStages()) % 2)};
  }
  Value stages = c32(smem.getStages());
  Value stage = arith::RemUIOp::create(b, loc, iteration, stages);
  Value phase = arith::AndIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, iteration, stages), c32(1));
  return {stage, phase};
}

/// Ping-pong turns (attn.wait_turn / attn.pass_turn): warpgroup w waits on
/// its turn barrier (#attn.shared_memory's turn_barriers[w], both
/// warpgroups' 256 threads) until the other warpgroup, done issuing its
/// GEMMs, arrived on it.
Value KernelEmitter::turnBarrier(Value wg) {
  return add(wg, c32(smem.getTurnBarriers().front()));
}

void KernelEmitter::waitForTurn() {
  NVVM::BarrierOp::create(b, loc, Type(), turnBarrier(warpgroup),
                          c32(2 * kWarpgroupThreads), nullptr, Value());
}

void KernelEmitter::passTurn() {
  Value other = arith::SubIOp::create(b, loc, c32(1), warpgroup);
  NVVM::BarrierArriveOp::create(b, loc, turnBarrier(other),
                                c32(2 * kWarpgroupThreads));
}

/// Whether `op` names a ring slot (the stage arithmetic of its iteration,
/// lowered before the step's other ops) rather than computing a tile.
static bool isRingSlot(Operation &op) {
  return isa<RingPopOp, LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp>(op);
}

void KernelEmitter::lowerRingSlots(TileValues &values, Block *step,
                                   Value iteration) {
  for (Operation &op : step->without_terminator())
    if (isRingSlot(op))
      lowerRingSlot(values, &op, iteration);
}

void KernelEmitter::waitForSlot(const RingSlot &slot, bool isValue) {
  waitBarrier(isValue ? valueBarrier(slot.stage) : keyBarrier(slot.stage),
              slot.phase);
}

void KernelEmitter::lowerStep(TileValues &values, Block *step, Value kvBlock,
                              Value iteration) {
  auto qks = step->getOps<QKOp>();
  auto pvs = step->getOps<PVOp>();
  QKOp qk = qks.empty() ? QKOp() : *qks.begin();
  PVOp pv = pvs.empty() ? PVOp() : *pvs.begin();
  // A ring tile other than the step's K is a V tile.
  auto isKey = [&](Value tile) { return qk && tile == qk.getKey(); };
  // With P in registers, the registers a P V reads must hold P until its
  // GEMM completes: in a rotated step (its P V reads the previous block's P,
  // carried) they are kept live up to the step's full wait. A release
  // arrives behind the row vectors its `after` operands name
  // (attn-insert-waits gives a rotated step's its row sums).
  bool rotated = isRotatedStep(step);
  SmallVector<Value> probsInFlight;
  for (Operation &op : step->without_terminator()) {
    if (isRingSlot(op))
      continue; // lowered before the step (lowerRingSlots)
    if (auto wait = dyn_cast<WaitTileOp>(op)) {
      waitForSlot(values.slots.at(wait.getTile()), !isKey(wait.getTile()));
      continue;
    }
    if (auto wait = dyn_cast<WaitGemmsOp>(op)) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, wait.getPending());
      if (wait.getPending() == 0 && !probsInFlight.empty()) {
        keepAlive(probsInFlight);
        probsInFlight.clear();
      }
      continue;
    }
    if (auto release = dyn_cast<RingReleaseOp>(op)) {
      SmallVector<Value> after;
      for (Value v : release.getAfter())
        llvm::append_range(after, values.rows.at(v).rows);
      Value stage = values.slots.at(release.getTile()).stage;
      if (isKey(release.getTile()))
        releaseKeys(stage, after);
      else
        releaseValues(stage, kvBlock, after);
      continue;
    }
    if (rotated && &op == pv.getOperation()) {
      probsInFlight = lowerPV(values, pv);
      continue;
    }
    lowerTileOp(values, &op, kvBlock, iteration);
  }
  // Without a producer the CTA refills the stage itself once every thread
  // is done with it.
  if (!plan.warpSpecialize() && pv)
    releaseValues(values.slots.at(pv.getValue()).stage, kvBlock);
}

SmallVector<Value> KernelEmitter::kvStep(Value kvBlock, Value iteration,
                                         ValueRange carried, const KvLoop &kv) {
  Block *body = kv.loop.getBody();
  TileValues values;
  unflatten(values, kv.loop.getRegionIterArgs(), carried);
  lowerRingSlots(values, body, iteration);
  // A rotated loop carries the previous block's V: its ring slot is that of
  // the previous iteration.
  if (kv.rotated()) {
    auto [stage, phase] =
        stageAndPhase(arith::SubIOp::create(b, loc, iteration, c32(1)));
    values.slots[kv.pv().getValue()] = RingSlot{stage, phase};
  }
  lowerStep(values, body, kvBlock, iteration);
  return flatten(values, body->getTerminator()->getOperands());
}

SmallVector<Value> KernelEmitter::overlapPrologue(const TileValues &initial,
                                                  Value kvBegin) {
  Block *peeled = plan.pipeline->prologue.thenBlock();
  TileValues values = initial;
  lowerRingSlots(values, peeled, c32(0));
  lowerStep(values, peeled, kvBegin, Value());
  // O stays as the loops start it: its stage 1 runs in the next step.
  return flatten(values, plan.pipeline->prologue.thenYield().getOperands());
}

SmallVector<Value> KernelEmitter::overlapNoBlocks(const TileValues &initial) {
  // Stage 1 of a block that does not exist: P = 0, alpha = 1.
  scf::IfOp prologue = plan.pipeline->prologue;
  TileValues values = initial;
  ValueRange yielded = prologue.elseYield().getOperands();
  for (Value v : yielded)
    if (auto constant = v.getDefiningOp<arith::ConstantOp>();
        constant && constant->getBlock() == prologue.elseBlock())
      lowerConstant(values, constant);
  return flatten(values, yielded);
}

Value KernelEmitter::overlapEpilogue(ValueRange carried, Value lastIteration) {
  scf::ForOp last = plan.kvLoops.back().loop;
  Block *update = plan.pipeline->epilogue.thenBlock();
  TileValues values;
  unflatten(values, last.getResults(), carried);
  auto [stage, phase] = stageAndPhase(lastIteration);
  for (Value result : last.getResults())
    if (isRingTile(result))
      values.slots[result] = RingSlot{stage, phase};
  // attn-pipeline-kv-loops leaves the V release out; one in IR written by
  // hand is lowered as written: an arrival nothing waits for.
  lowerStep(values, update, kvEnd, Value());
  return packedTile(values, (*update->getOps<PVOp>().begin()).getResult());
}
