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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

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

void KernelEmitter::waitForSlot(ValueRange slot, bool isValue) {
  waitBarrier(isValue ? valueBarrier(slot[0]) : keyBarrier(slot[0]), slot[1]);
}

void KernelEmitter::lowerWaitGemms(int64_t pending, ArrayRef<Value> live) {
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pending);
  if (!live.empty())
    keepAlive(live);
}

void KernelEmitter::lowerRingRelease(bool isKey, Value stage,
                                     ArrayRef<Value> after) {
  assert(hasProducer() && "a ring release hands a stage to the producer");
  if (isKey)
    releaseKeys(stage, after);
  else
    releaseValues(stage, /*kvBlock=*/Value(), after);
}

/// Whether `op` names a ring slot (the stage arithmetic of its iteration,
/// lowered before the step's other ops) rather than computing a tile.
static bool isRingSlot(Operation &op) {
  return isa<RingPopOp, LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp>(op);
}

/// The kernel values a conversion left for `irValue` at the cast `sink`
/// (`irValue` to its converted types) built before it: the inputs of the
/// cast chain that ends in `sink` and starts at values of those types.
static SmallVector<Value> convertedValues(UnrealizedConversionCastOp sink) {
  Value v = sink.getInputs().front();
  while (auto cast = v.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (TypeRange(cast.getInputs()) == sink.getResultTypes())
      return SmallVector<Value>(cast.getInputs());
    if (cast.getInputs().size() != 1)
      break;
    v = cast.getInputs().front();
  }
  llvm::report_fatal_error("convert-attn-to-nvvm: a kv step's result was "
                           "not converted to its kernel values");
}

/// Erases the casts between tile values and kernel values that a step's
/// conversion left unused in `block`.
static void eraseDeadCasts(Block *block) {
  SmallVector<UnrealizedConversionCastOp> casts;
  block->walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  // Each cast's inputs are defined before it: erase users first.
  for (UnrealizedConversionCastOp cast : llvm::reverse(casts))
    if (cast.use_empty())
      cast.erase();
}

SmallVector<Value> KernelEmitter::lowerStep(const TileValues &values,
                                            Block *step, Value kvBlock,
                                            Value iteration,
                                            ValueRange results) {
  MLIRContext *ctx = b.getContext();
  auto castTo = [&](Type type, ValueRange kernelValues) {
    return UnrealizedConversionCastOp::create(b, loc, type, kernelValues)
        .getResult(0);
  };
  // The clones read the kv block (the loop's induction variable, or the
  // rotated loops' begin in their prologue) ...
  IRMapping clones;
  if (auto loop = dyn_cast<scf::ForOp>(step->getParentOp()))
    clones.map(loop.getInductionVar(), kvBlock);
  else if (plan.pipeline)
    clones.map(plan.pipeline->begin, kvBlock);
  // ... and their K and V tiles in the ring slots of `iteration`.
  for (Operation &op : step->without_terminator())
    if (isRingSlot(op)) {
      auto [stage, phase] = stageAndPhase(iteration);
      for (Value tile : op.getResults())
        clones.map(tile, castTo(tile.getType(), {stage, phase}));
    }
  // A rotated loop carries the previous block's V: its ring slot is that of
  // the previous iteration.
  for (BlockArgument carried : step->getArguments())
    if (isRingTile(carried)) {
      auto [stage, phase] =
          stageAndPhase(arith::SubIOp::create(b, loc, iteration, c32(1)));
      clones.map(carried, castTo(carried.getType(), {stage, phase}));
    }
  // A value from outside the step: a tile's kernel values, else the index
  // and scale arithmetic that computes it.
  IRMapping local = clones;
  auto mapOutside = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (clones.contains(v) || (def && def->getBlock() == step))
      return;
    if (!isa<RankedTensorType>(v.getType())) {
      clones.map(v, index.lower(b, v, &local));
      return;
    }
    auto known = values.find(v);
    if (known != values.end()) {
      clones.map(v, castTo(v.getType(), known->second));
      return;
    }
    // Q, which attn.qk reads at its own offset in shared memory: no kernel
    // value stands for it.
    assert(isa<SwizzledSharedAttr>(
               cast<RankedTensorType>(v.getType()).getEncoding()) &&
           "a kv step reads the tiles of the loops' values and Q");
    clones.map(v, castTo(v.getType(), {}));
  };
  SmallVector<Operation *> converted;
  for (Operation &op : step->without_terminator()) {
    // A tile op whose result nothing reads is not in the kernel.
    if (isRingSlot(op) || (op.use_empty() && isMemoryEffectFree(&op)))
      continue;
    for (Value operand : op.getOperands())
      mapOutside(operand);
    converted.push_back(b.clone(op, clones));
  }
  // The results, each as a cast to its kernel values' types, read after
  // the conversion.
  SmallVector<UnrealizedConversionCastOp> sinks;
  for (Value result : results) {
    if (isRingTile(result))
      continue;
    mapOutside(result);
    sinks.push_back(UnrealizedConversionCastOp::create(
        b, loc, fragments.convertTileType(result.getType()),
        clones.lookup(result)));
  }

  // The stage of the step's V, which a CTA without a producer refills.
  Value refilledStage;
  auto pvs = step->getOps<PVOp>();
  if (!hasProducer() && !pvs.empty())
    refilledStage = clones.lookup((*pvs.begin()).getValue())
                        .getDefiningOp<UnrealizedConversionCastOp>()
                        .getInputs()
                        .front();

  ConversionTarget target(*ctx);
  target.addIllegalDialect<AttnDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(ctx);
  populateKvStepPatterns(*this, fragments, isRotatedStep(step), patterns);
  if (failed(applyPartialConversion(converted, target, std::move(patterns))))
    llvm::report_fatal_error("convert-attn-to-nvvm: a kv step's tile op has "
                             "no lowering (the plan reader admits none)");

  SmallVector<Value> flat;
  for (UnrealizedConversionCastOp sink : sinks) {
    llvm::append_range(flat, convertedValues(sink));
    sink.erase();
  }
  eraseDeadCasts(b.getInsertionBlock());
  // Without a producer the CTA refills the stage itself once every thread
  // is done with it.
  if (refilledStage)
    releaseValues(refilledStage, kvBlock);
  return flat;
}

SmallVector<Value> KernelEmitter::kvStep(Value kvBlock, Value iteration,
                                         ValueRange carried, const KvLoop &kv) {
  Block *body = kv.loop.getBody();
  TileValues values;
  unflatten(values, kv.loop.getRegionIterArgs(), carried);
  return lowerStep(values, body, kvBlock, iteration,
                   body->getTerminator()->getOperands());
}

SmallVector<Value> KernelEmitter::overlapPrologue(const TileValues &initial,
                                                  Value kvBegin) {
  // O stays as the loops start it: its stage 1 runs in the next step.
  return lowerStep(initial, plan.pipeline->prologue.thenBlock(), kvBegin,
                   c32(0), plan.pipeline->prologue.thenYield().getOperands());
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
      values[result] = {stage, phase};
  // attn-pipeline-kv-loops leaves the V release out; one in IR written by
  // hand is lowered as written: an arrival nothing waits for.
  Value acc = (*update->getOps<PVOp>().begin()).getResult();
  return lowerStep(values, update, kvEnd, Value(), acc).front();
}
