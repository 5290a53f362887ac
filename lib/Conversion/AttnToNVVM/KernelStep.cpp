//===- KernelStep.cpp - the tile's ops, converted in place ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tile's ops (the forall body's: attn.warp_specialize with the
// producer's loop and the consumer region, or without it the consumer's
// Q wait, kv loops, attn.finalize and attn.launch_dependents) are cloned
// into the kernel and converted there in one conversion: the loops and
// branches by SCF's structural type conversion over FragmentTypeConverter,
// each attn op by its pattern (TileOpPatterns.cpp), so the online-softmax
// step of a kv block runs op by op in IR order with the waits
// (attn.wait_tile, attn.wait_gemms) and releases where attn-insert-waits
// placed them. Before the conversion the consumer's K and V tiles get
// their ring slots from the kv iteration, and a CTA without a producer
// refills each stage at the end of its step. Also the ring's stage and
// parity, the releases and the ping-pong barriers.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "attnc/Transforms/PipelineStages.h"

#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

/// One arrival per warpgroup on `barrier` (a stage handed back to the
/// producer), behind the computation of `after`: ptxas schedules an arrive
/// as early as it can, and the full wgmma wait that precedes it in program
/// order moves up with it, above the softmax. `after` holds row sums (the
/// verifyStepWaits), which are >= 0, +inf or NaN (huge
/// or bad input), so "not less than -1" is always true, and a stage is never
/// left unreleased (the producer would hang).
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
  if (tiled.warpSpecialize() && smem.releasesKeysEarly())
    arriveOncePerWarpgroup(keyEmptyBarrier(stage), after);
}

void KernelEmitter::releaseValues(Value stage, Value kvBlock,
                                  ArrayRef<Value> after) {
  if (tiled.warpSpecialize()) {
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

/// Whether `op` names a ring slot (the stage arithmetic of its iteration)
/// rather than computing a tile: a pop, or a K or V load (Q's load reads
/// its coordinates).
static bool isRingSlot(Operation &op) {
  if (isa<RingPopOp>(op))
    return true;
  TileLoad load(&op);
  return load && !isQueryTile(op.getResult(0));
}

/// Erases the casts between tile values and kernel values that the
/// conversion left unused in `block`.
static void eraseDeadCasts(Block *block) {
  SmallVector<UnrealizedConversionCastOp> casts;
  block->walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  // Each cast's inputs are defined before it: erase users first.
  for (UnrealizedConversionCastOp cast : llvm::reverse(casts))
    if (cast.use_empty())
      cast.erase();
}

/// The patterns read facts off the ops around the one they convert (which
/// tile is a K tile, the row max an exponential subtracts): ops that were
/// already replaced stay in the IR until the conversion ends, which the
/// rollback mode of the driver guarantees.
static ConversionConfig tileConversionConfig() {
  ConversionConfig config;
  config.allowPatternRollback = true;
  return config;
}

/// Erases the ops of `ops` (and nested in them) that nothing reads and
/// that have no effects and no regions, and drops them from `ops`: a tile
/// op whose result nothing reads (an attn.mask left out of a loop's scores,
/// say) is not in the kernel. The tile's stores (the forall terminator's
/// tensor.parallel_insert_slice, a write to the forall's result) stay.
static void eraseUnusedOps(SmallVectorImpl<Operation *> &ops) {
  SmallVector<Operation *> candidates;
  for (Operation *op : ops)
    op->walk([&](Operation *inner) {
      if (inner->getNumRegions() == 0 &&
          !isa<tensor::ParallelInsertSliceOp>(inner))
        candidates.push_back(inner);
    });
  // Users come after the ops they read: erase from the last.
  for (Operation *op : llvm::reverse(candidates))
    if (isOpTriviallyDead(op)) {
      llvm::erase(ops, op);
      op->erase();
    }
}

/// The full wait of each rotated step after its P V, which reads the P
/// carried into the step: the wait keeps those registers live.
static DenseMap<Operation *, PVOp>
findProbsInFlight(ArrayRef<Operation *> kvOps) {
  DenseMap<Operation *, PVOp> probsInFlight;
  for (Operation *op : kvOps)
    op->walk([&](Block *step) {
      if (!isRotatedStep(step))
        return;
      PVOp pv = *step->getOps<PVOp>().begin();
      for (Operation *next = pv->getNextNode(); next;
           next = next->getNextNode())
        if (auto wait = dyn_cast<WaitGemmsOp>(next);
            wait && wait.getPending() == 0) {
          probsInFlight[wait] = pv;
          break;
        }
    });
  return probsInFlight;
}

Value KernelEmitter::ringSlot(Type tileType, Value iteration) {
  auto [stage, phase] = stageAndPhase(iteration);
  return UnrealizedConversionCastOp::create(b, loc, tileType,
                                            ValueRange{stage, phase})
      .getResult(0);
}

Value KernelEmitter::ringIteration(Value kvBlock, Value rangeBegin) {
  return toI32(arith::SubIOp::create(b, loc, kvBlock, rangeBegin));
}

void KernelEmitter::placeRingSlots(ArrayRef<Operation *> kvOps,
                                   Value rangeBegin) {
  OpBuilder::InsertionGuard guard(b);
  // Each step (a loop body, the rotated loops' prologue or epilogue) starts
  // with the ring slots of its K and V tiles: in a loop those of the loop's
  // iteration, in the prologue those of iteration 0; a rotated loop carries
  // the previous block's V, in the slot of the previous iteration.
  SmallVector<Block *> steps;
  SmallVector<Operation *> placed;
  for (Operation *op : kvOps)
    op->walk([&](Block *step) { steps.push_back(step); });
  for (Block *step : steps) {
    auto loop = dyn_cast<scf::ForOp>(step->getParentOp());
    b.setInsertionPointToStart(step);
    SmallVector<Operation *> pops = llvm::to_vector(
        llvm::make_pointer_range(llvm::make_filter_range(*step, isRingSlot)));
    Value iteration;
    if (!pops.empty())
      iteration =
          loop ? ringIteration(loop.getInductionVar(), rangeBegin) : c32(0);
    for (Operation *pop : pops) {
      for (Value tile : pop->getResults())
        tile.replaceAllUsesWith(ringSlot(tile.getType(), iteration));
    }
    // (Erased once the step's slots are built: the insertion point is the
    // first of them.)
    llvm::append_range(placed, pops);
    if (!loop)
      continue;
    for (BlockArgument carried : loop.getRegionIterArgs())
      if (isRingTile(carried)) {
        carried.replaceAllUsesWith(ringSlot(
            carried.getType(),
            arith::SubIOp::create(
                b, loc, ringIteration(loop.getInductionVar(), rangeBegin),
                c32(1))));
      }
  }
  for (Operation *pop : placed)
    pop->erase();
  // After a rotated loop, its V is that of the loop's last block.
  for (Operation *op : kvOps) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    for (Value result : loop.getResults())
      if (isRingTile(result)) {
        b.setInsertionPointAfter(loop);
        result.replaceAllUsesWith(
            ringSlot(result.getType(),
                     ringIteration(arith::SubIOp::create(
                                       b, loc, loop.getUpperBound(), cIdx(1)),
                                   rangeBegin)));
      }
  }
}

void KernelEmitter::refillStages(ArrayRef<Operation *> kvOps) {
  // Without a producer the CTA refills a stage itself once every thread is
  // done with it: after each kv block's P V, at the end of its step.
  OpBuilder::InsertionGuard guard(b);
  for (Operation *op : kvOps) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    auto pvs = loop.getBody()->getOps<PVOp>();
    if (pvs.empty())
      continue;
    Value stage = (*pvs.begin())
                      .getValue()
                      .getDefiningOp<UnrealizedConversionCastOp>()
                      .getInputs()
                      .front();
    b.setInsertionPoint(loop.getBody()->getTerminator());
    releaseValues(stage, loop.getInductionVar());
  }
}

void KernelEmitter::fillStages() {
  ifThen(isLeader, [&] {
    for (int64_t s = 0; s < smem.getStages(); ++s) {
      Value kb = add(kvBegin, cIdx(s));
      Value inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kb, kvEnd);
      ifThen(inRange, [&] { issueKeyValueLoads(c32(s), kb); });
    }
  });
}

/// Each role computes the index arithmetic its ops read at the start of
/// its region, after its setmaxnreg (lowerWarpSpecialize): computed before
/// the role branch, the consumers' kv bounds held up the producer's
/// setmaxnreg.dec, and so the consumers' setmaxnreg.inc, which waits for
/// those registers. The tile's stores (the forall terminator's, after the
/// tile's other ops) read theirs computed right before them, at the end of
/// the consumer region with a producer: not held through the kv loops. The
/// other ops outside a role region (the whole tile without a producer) read
/// theirs computed before the tile's first op. (The kv range's start, which
/// the ring iterations count from, is each role's too: the producer's
/// loop's lower bound, the consumers' lowered in lowerTileOps; without a
/// producer, the entry's: tileBounds.)
void KernelEmitter::lowerScalarOperands(ArrayRef<Operation *> tileOps,
                                        ArrayRef<Value> scalars) {
  llvm::SmallPtrSet<Value, 16> isScalar(llvm::from_range, scalars);
  // The uses of each scalar, by where they are computed: at the start of a
  // role's region (the block), or before an op (the tile's first, or the
  // stores' place).
  using Place = std::pair<Block *, Operation *>;
  llvm::MapVector<Place, llvm::MapVector<Value, SmallVector<OpOperand *>>>
      usesByPlace;
  // The stores run after the rest of the tile: with a producer in the
  // consumers, after their region's ops (WarpSpecializeLowering).
  auto isStore = [](Operation *op) {
    return isa<tensor::ExtractSliceOp, tensor::ParallelInsertSliceOp>(op);
  };
  auto specialized = llvm::find_if(
      tileOps, [](Operation *op) { return isa<WarpSpecializeOp>(op); });
  auto firstStore = llvm::find_if(tileOps, isStore);
  Operation *storesPlace =
      specialized != tileOps.end()
          ? cast<WarpSpecializeOp>(*specialized)
                .getConsumer()
                .front()
                .getTerminator()
          : (firstStore != tileOps.end() ? *firstStore : nullptr);
  for (Operation *op : tileOps)
    op->walk([&](Operation *nested) {
      Place place = {nullptr, isStore(op) ? storesPlace : tileOps.front()};
      for (Operation *parent = nested; parent != op;) {
        Region *region = parent->getParentRegion();
        parent = region->getParentOp();
        if (isa<WarpSpecializeOp>(parent))
          place = {&region->front(), nullptr};
      }
      for (OpOperand &use : nested->getOpOperands())
        if (isScalar.contains(use.get()))
          usesByPlace[place][use.get()].push_back(&use);
    });
  OpBuilder::InsertionGuard guard(b);
  for (auto &[place, uses] : usesByPlace) {
    if (place.first)
      b.setInsertionPointToStart(place.first);
    else
      b.setInsertionPoint(place.second);
    SmallVector<Value> values = llvm::to_vector(llvm::make_first_range(uses));
    for (auto [lowered, valueUses] :
         llvm::zip_equal(index.lower(b, values), make_second_range(uses)))
      for (OpOperand *use : valueUses)
        use->set(lowered);
  }
}

LogicalResult KernelEmitter::lowerTileOps(ArrayRef<Operation *> ops) {
  MLIRContext *ctx = b.getContext();
  llvm::SmallPtrSet<Operation *, 16> lowered(llvm::from_range, ops);
  Block *tile = ops.front()->getBlock();
  // Whether `v` is computed by these ops (or is an argument of a block of
  // theirs).
  auto isLowered = [&](Operation *op) {
    Operation *top = tile->findAncestorOpInBlock(*op);
    return top && lowered.contains(top);
  };
  auto inLoweredOps = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return isLowered(def ? def : v.getParentBlock()->getParentOp());
  };
  // What the ops read from before them: the loops' initial tiles (splat
  // constants, converted with the rest), the index and scale arithmetic,
  // cloned by `index` after the ops are (lowerScalarOperands), and tensors
  // that no kernel value stands for: the tensors the loads read (through
  // the kernel's parameters instead) and the operands of the K and V pops,
  // whose results placeRingSlots replaces.
  IRMapping clones;
  llvm::SetVector<Value> scalars;
  // The clones the conversion lowers: the ops and their initial tiles.
  SmallVector<Operation *> converted;
  auto placeholder = [&](Value v) {
    clones.map(
        v, UnrealizedConversionCastOp::create(b, loc, v.getType(), ValueRange())
               .getResult(0));
  };
  auto mapOutside = [&](Value v) {
    if (clones.contains(v) || inLoweredOps(v))
      return;
    if (!isa<TensorType>(v.getType())) {
      scalars.insert(v);
      return;
    }
    if (auto constant = v.getDefiningOp<arith::ConstantOp>()) {
      Operation *initial = b.clone(*constant);
      converted.push_back(initial);
      return clones.map(v, initial->getResult(0));
    }
    placeholder(v);
  };
  // A ring slot's operands stand for nothing: mapped after every other
  // op's, so that a value another op reads is lowered.
  SmallVector<Value> slotOperands;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (isRingSlot(*nested))
          slotOperands.push_back(operand);
        else
          mapOutside(operand);
    });
  for (Value operand : slotOperands)
    if (!clones.contains(operand) && !scalars.contains(operand) &&
        !inLoweredOps(operand))
      placeholder(operand);
  SmallVector<Operation *> tileOps;
  for (Operation *op : ops)
    tileOps.push_back(b.clone(*op, clones));
  lowerScalarOperands(tileOps, scalars.getArrayRef());
  // The consumer's ops: its region's, or the tile's without a producer.
  SmallVector<Operation *> kvOps = tileOps;
  Block *consumerRegion = nullptr;
  if (hasProducer()) {
    consumerRegion =
        &cast<WarpSpecializeOp>(
             clones.lookup(tiled.warpSpecialization().getOperation()))
             .getConsumer()
             .front();
    kvOps = llvm::to_vector(
        llvm::make_pointer_range(consumerRegion->without_terminator()));
  }
  // Without a producer, thread 0 is producer and consumer: after Q's load
  // it fills every stage, and refills each after the block barrier that
  // ends its use (refillStages).
  if (!hasProducer()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(clones.lookup(tiled.queryLoad().getOperation()));
    fillStages();
  }
  // The consumers count their ring iterations from the range's start,
  // computed after their setmaxnreg (the entry's without a producer).
  Value consumerKvBegin = kvBegin;
  if (consumerRegion) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(consumerRegion);
    consumerKvBegin = index.lower(b, kvRangeBegin());
  }
  placeRingSlots(kvOps, consumerKvBegin);
  if (!hasProducer())
    refillStages(kvOps);
  eraseUnusedOps(tileOps);
  llvm::append_range(converted, tileOps);
  DenseMap<Operation *, PVOp> probsInFlight = findProbsInFlight(tileOps);

  ConversionTarget target(*ctx);
  target.addIllegalDialect<AttnDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  // The tile's stores, and the slices of its registers they store.
  target.addIllegalOp<tensor::ParallelInsertSliceOp>();
  target.addDynamicallyLegalOp<tensor::ExtractSliceOp>(
      [](tensor::ExtractSliceOp slice) {
        return !slice.getSourceType().getEncoding();
      });
  // Tile constants and poison become kernel values too.
  target.addDynamicallyLegalOp<arith::ConstantOp, ub::PoisonOp>(
      [](Operation *op) {
        return !isa<RankedTensorType>(op->getResult(0).getType());
      });
  RewritePatternSet patterns(ctx);
  populateTilePatterns(*this, fragments, probsInFlight, patterns);
  scf::populateSCFStructuralTypeConversionsAndLegality(fragments, patterns,
                                                       target);
  if (failed(applyPartialConversion(converted, target, std::move(patterns),
                                    tileConversionConfig())))
    return failure();

  eraseDeadCasts(b.getInsertionBlock());
  return success();
}
