//===- KernelStep.cpp - one kv block of a consumer ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The online-softmax step of one kv block: the S wait, mask, row max and
// sum, exponentials, O rescale and P V issue, in sequence (kvStep) or, in
// the loops attn-pipeline-kv-loops rotated, with the previous block's P V in
// flight (kvStepOverlapped, and the rotation's prologue and epilogue); the
// ring's stage and parity, the ping-pong barriers and the stage release.
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
/// order moves up with it, above the softmax. Row sums are >= 0, +inf or NaN
/// (huge or bad input), so "not less than -1" is always true, and a stage is
/// never left unreleased (the producer would hang).
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
  if (plan.warpSpecialize && releasesKeysEarly())
    arriveOncePerWarpgroup(keyEmptyBarrier(stage), after);
}

void KernelEmitter::releaseValues(Value stage, Value kvBlock,
                                  ArrayRef<Value> after) {
  if (plan.warpSpecialize) {
    arriveOncePerWarpgroup(valueEmptyBarrier(stage), after);
    return;
  }
  // Everyone is done with this stage: refill it with block kb + 2.
  NVVM::Barrier0Op::create(b, loc);
  Value next = add(kvBlock, cIdx(smem.stages));
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
    return {c32(i % smem.stages), c32((i / smem.stages) % 2)};
  }
  Value stages = c32(smem.stages);
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
  return add(wg, c32(smem.turnBarriers.front()));
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

/// Whether `op` hands a ring slot back: each schedule lowers the step's
/// releases where the GEMMs reading the slot's tile have completed.
static bool isRingRelease(Operation &op) { return isa<RingReleaseOp>(op); }

void KernelEmitter::lowerRingSlots(TileValues &values, const KvLoop &kv,
                                   Value iteration) {
  for (Operation &op : kv.loop.getBody()->without_terminator())
    if (isRingSlot(op))
      lowerRingSlot(values, &op, iteration);
}

void KernelEmitter::waitForSlot(const RingSlot &slot, bool isValue) {
  waitBarrier(isValue ? valueBarrier(slot.stage) : keyBarrier(slot.stage),
              slot.phase);
}

SmallVector<Value> KernelEmitter::kvStep(Value kvBlock, Value iteration,
                                         ValueRange carried, const KvLoop &kv) {
  Block *body = kv.loop.getBody();
  TileValues values;
  unflatten(values, kv.loop.getRegionIterArgs(), carried);
  lowerRingSlots(values, kv, iteration);
  PVOp pv = kv.pv();
  const RingSlot valueSlot = values.slots.at(pv.getValue());
  for (Operation &op : body->without_terminator()) {
    // attn.pass_turn ends the turn right after the GEMM issue, and the K
    // release follows the S wait (below).
    if (isRingSlot(op) || isRingRelease(op) || isa<PassTurnOp>(op))
      continue;
    auto qk = dyn_cast<QKOp>(op);
    if (!qk) {
      lowerTileOp(values, &op, kvBlock, iteration);
      continue;
    }
    const RingSlot keySlot = values.slots.at(qk.getKey());
    waitForSlot(keySlot, /*isValue=*/false);
    lowerQK(values, qk);
    if (kv.turn)
      lowerTileOp(values, kv.turn->second, kvBlock, iteration);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    if (kv.keyRelease)
      releaseKeys(keySlot.stage);
    // V landed with K (or soon after): wait now, so that no try-wait loop
    // separates the softmax from P's conversion and the P V issue.
    waitForSlot(valueSlot, /*isValue=*/true);
  }
  // The ops after attn.pv (the row sum) run under the P V wgmma. Without
  // a producer the CTA refills the stage itself.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  if (kv.valueRelease || !plan.warpSpecialize)
    releaseValues(valueSlot.stage, kvBlock);
  return flatten(values, body->getTerminator()->getOperands());
}

/// The attn ops of `block` that compute tiles, in order: ring slots and
/// releases, which each schedule places itself, left out.
static SmallVector<Operation *> tileOpsOf(Block *block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block->without_terminator())
    if (isa<AttnDialect>(op.getDialect()) && !isRingSlot(op) &&
        !isRingRelease(op))
      ops.push_back(&op);
  return ops;
}

SmallVector<Value> KernelEmitter::kvStepOverlapped(Value kvBlock,
                                                   Value iteration,
                                                   ValueRange carried,
                                                   const KvLoop &kv) {
  Block *body = kv.loop.getBody();
  // This block's stage 0 and the previous block's stage 1, which reads the
  // P, alpha and V the loop carries.
  TileValues values;
  unflatten(values, kv.loop.getRegionIterArgs(), carried);
  lowerRingSlots(values, kv, iteration);
  QKOp qk = kv.qk();
  PVOp pv = kv.pv();
  values.slots[pv.getValue()] = RingSlot{};
  std::tie(values.slots[pv.getValue()].stage,
           values.slots[pv.getValue()].phase) =
      stageAndPhase(arith::SubIOp::create(b, loc, iteration, c32(1)));
  const RingSlot keySlot = values.slots.at(qk.getKey());
  const RingSlot prevValueSlot = values.slots.at(pv.getValue());
  SmallVector<Operation *> stage0, stage1;
  for (Operation *op : tileOpsOf(body))
    (getPipelineStage(op) == 1 ? stage1 : stage0).push_back(op);

  // FA3's order: issue S(j), then block j-1's stage 1 (O *= alpha(j-1) while
  // S runs, O += P(j-1) V(j-1)), and run the softmax of block j with only S
  // waited for. Nothing after the P V issue writes O or the P registers
  // before the full wait (such writes made ptxas put the wait above the
  // softmax). With ping-pong the two issues are this warpgroup's turn.
  // P(j-1) goes to the element type before the K wait: live next to S(j) in
  // flight, the f32 values made the masked loops spill.
  SmallVector<Value> prevProbs = packProbs(tileElements(values, pv.getProbs()));
  waitForSlot(keySlot, /*isValue=*/false);
  waitForSlot(prevValueSlot, /*isValue=*/true);
  auto qkAt = llvm::find(stage0, qk.getOperation());
  for (Operation *op : llvm::make_range(stage0.begin(), qkAt))
    lowerTileOp(values, op, kvBlock, iteration);
  lowerQK(values, qk);
  for (Operation *op : stage1) {
    if (op == pv.getOperation())
      lowerPV(values, pv, prevProbs);
    else
      lowerTileOp(values, op, Value(), Value());
  }
  // The turn ends after both GEMM issues.
  if (kv.turn)
    lowerTileOp(values, kv.turn->second, kvBlock, iteration);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1); // S(j) is ready
  for (Operation *op : llvm::make_range(std::next(qkAt), stage0.end()))
    if (!isa<PassTurnOp>(op))
      lowerTileOp(values, op, kvBlock, iteration);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0); // P V done
  keepAlive(prevProbs);
  // After the softmax: an arrive ptxas hoisted took the full wait above it.
  ValueRange yielded = body->getTerminator()->getOperands();
  SmallVector<Value> after;
  for (Value v : yielded)
    if (v.getDefiningOp<RowSumOp>())
      llvm::append_range(after, values.rows.at(v).rows);
  // Both releases after the full wait: the step's K (S(j) was waited for
  // above) and block j-1's V (stage 1).
  if (kv.keyRelease)
    releaseKeys(keySlot.stage, after);
  if (kv.valueRelease)
    releaseValues(prevValueSlot.stage, kvBlock, after);
  return flatten(values, yielded);
}

SmallVector<Value> KernelEmitter::overlapPrologue(const TileValues &initial,
                                                  Value kvBegin,
                                                  Value iterationBase) {
  Block *peeled = plan.pipeline->prologue.thenBlock();
  TileValues values = initial;
  Value iteration = plan.persistent ? iterationBase : c32(0);
  for (Operation &op : peeled->without_terminator())
    if (isRingSlot(op))
      lowerRingSlot(values, &op, iteration);
  SmallVector<Operation *> stage0 = tileOpsOf(peeled);
  auto qkAt =
      llvm::find_if(stage0, [](Operation *op) { return isa<QKOp>(op); });
  QKOp qk = cast<QKOp>(*qkAt);
  const RingSlot keySlot = values.slots.at(qk.getKey());
  for (Operation *op : llvm::make_range(stage0.begin(), qkAt))
    lowerTileOp(values, op, kvBegin, Value());
  waitForSlot(keySlot, /*isValue=*/false);
  lowerQK(values, qk);
  auto turnEnd = peeled->getOps<PassTurnOp>();
  if (!turnEnd.empty())
    lowerTileOp(values, *turnEnd.begin(), kvBegin, Value());
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  for (Operation *op : llvm::make_range(std::next(qkAt), stage0.end()))
    if (!isa<PassTurnOp>(op))
      lowerTileOp(values, op, kvBegin, Value());
  if (!peeled->getOps<RingReleaseOp>().empty())
    releaseKeys(keySlot.stage);
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
  PVOp pv = *update->getOps<PVOp>().begin();
  const RingSlot valueSlot = values.slots.at(pv.getValue());
  waitForSlot(valueSlot, /*isValue=*/true);
  for (Operation *op : tileOpsOf(update))
    lowerTileOp(values, op, Value(), Value());
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  // The next tile's loads reuse this stage; in a kernel of one tile no
  // load waits for the last block's V release, which is then left out.
  if (plan.persistent && !update->getOps<RingReleaseOp>().empty())
    releaseValues(valueSlot.stage, kvEnd);
  return packedTile(values, pv.getResult());
}
