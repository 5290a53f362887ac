//===- InsertWaits.cpp - the waits of each kv step, in the IR ------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A consumer's kv step reads K and V tiles that TMA loads asynchronously and
// issues its GEMMs asynchronously (wgmma). This pass writes where the step
// waits for them: attn.wait_tile before a tile's first GEMM and
// attn.wait_gemms where a GEMM result is read or the step ends, and it moves
// each attn.ring_release after the wait that completes the GEMM reading its
// tile. Q, which every S GEMM reads, is waited for once, before the tile's
// first kv op. convert-attn-to-nvvm lowers the waits where they stand.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/PipelineStages.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNINSERTWAITSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The ops of one kv step (a kv loop's body, or the prologue or epilogue of
/// rotated loops) that its waits are placed around.
struct Step {
  Block *block = nullptr;
  QKOp qk;
  PVOp pv;
  PassTurnOp passTurn;
  WaitTurnOp waitTurn;
  RingReleaseOp keyRelease, valueRelease;
};

/// Reads the step of `block`, or fails where it is not one this pass knows
/// (then the block is left alone; convert-attn-to-nvvm names what is
/// wrong).
static FailureOr<Step> readStep(Block *block) {
  Step step;
  step.block = block;
  for (Operation &op : *block) {
    if (isa<WaitTileOp, WaitGemmsOp>(op))
      return failure(); // already placed
    auto once = [&](auto &slot, auto typed) {
      bool first = !slot;
      slot = typed;
      return first;
    };
    bool ok = true;
    if (auto qk = dyn_cast<QKOp>(op))
      ok = once(step.qk, qk);
    else if (auto pv = dyn_cast<PVOp>(op))
      ok = once(step.pv, pv);
    else if (auto turn = dyn_cast<PassTurnOp>(op))
      ok = once(step.passTurn, turn);
    else if (auto turn = dyn_cast<WaitTurnOp>(op))
      ok = once(step.waitTurn, turn);
    if (!ok)
      return failure();
  }
  if (!step.qk && !step.pv)
    return failure();
  // Only a tile loaded into a ring stage has a landing to wait for.
  if ((step.qk && !WaitTileOp::landsAsynchronously(step.qk.getKey())) ||
      (step.pv && !WaitTileOp::landsAsynchronously(step.pv.getValue())))
    return failure();
  for (auto release : block->getOps<RingReleaseOp>()) {
    if (step.qk && release.getTile() == step.qk.getKey())
      step.keyRelease = release;
    else if (step.pv && release.getTile() == step.pv.getValue())
      step.valueRelease = release;
  }
  return step;
}

static void insertWaits(Step step) {
  OpBuilder b(step.block->getParentOp()->getContext());
  Location loc = (step.qk ? step.qk.getOperation() : step.pv)->getLoc();
  auto waitTile = [&](Value tile) { WaitTileOp::create(b, loc, tile); };
  auto waitGemms = [&](int64_t pending) -> Operation * {
    return WaitGemmsOp::create(b, loc, pending);
  };
  Operation *terminator = step.block->getTerminator();
  bool rotated = isRotatedStep(step.block);
  if (step.qk) {
    // K right before the S GEMM; a rotated step also waits for the previous
    // block's V there, before its ping-pong turn, so that the turn issues
    // both GEMMs back to back.
    Operation *first = rotated && step.waitTurn ? step.waitTurn.getOperation()
                                                : step.qk.getOperation();
    b.setInsertionPoint(first);
    waitTile(step.qk.getKey());
    if (rotated)
      waitTile(step.pv.getValue());
    // S is complete once the step's GEMM issues (and its turn) are done;
    // in a rotated step the previous block's P V stays in flight under the
    // softmax.
    Operation *issued = step.passTurn ? step.passTurn.getOperation()
                        : rotated     ? step.pv.getOperation()
                                      : step.qk.getOperation();
    b.setInsertionPointAfter(issued);
    Operation *scoresWait = waitGemms(rotated ? 1 : 0);
    if (!step.pv) {
      // The prologue: its K is released after the softmax.
      if (step.keyRelease)
        step.keyRelease->moveBefore(terminator);
      return;
    }
    if (!rotated) {
      // V landed with K: waiting for it right after S (and K's release)
      // keeps a try-wait from separating the softmax from P V.
      Operation *after =
          step.keyRelease && step.keyRelease->getPrevNode() == scoresWait
              ? step.keyRelease.getOperation()
              : scoresWait;
      // A tile without a producer is an attn.load_tile of the step (its
      // stage was filled ahead): it names the stage, so it moves up to the
      // wait where its indices allow, else the wait goes after it.
      Value value = step.pv.getValue();
      if (Operation *def = value.getDefiningOp();
          def && def->getBlock() == step.block && after->isBeforeInBlock(def)) {
        bool movable =
            isa<LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp>(def) &&
            llvm::all_of(def->getOperands(), [&](Value v) {
              Operation *operandDef = v.getDefiningOp();
              return !operandDef || operandDef->getBlock() != step.block ||
                     operandDef->isBeforeInBlock(after) || operandDef == after;
            });
        if (movable)
          def->moveAfter(after);
        after = def;
      }
      b.setInsertionPointAfter(after);
      waitTile(value);
    }
  } else {
    // The epilogue: the last block's V, then its P V.
    b.setInsertionPointToStart(step.block);
    waitTile(step.pv.getValue());
  }
  // The step ends with no GEMM in flight; the releases follow. A rotated
  // step's releases arrive after its row sums: ptxas issues an arrival as
  // early as it can, and the full GEMM wait before it would move up with it,
  // above the softmax.
  Operation *end =
      step.valueRelease ? step.valueRelease.getOperation() : terminator;
  if (rotated && step.keyRelease)
    step.keyRelease->moveBefore(end);
  if (rotated) {
    SmallVector<Value> rowSums;
    for (Value v : terminator->getOperands())
      if (v.getDefiningOp<RowSumOp>())
        rowSums.push_back(v);
    for (RingReleaseOp release : {step.keyRelease, step.valueRelease})
      if (release)
        release.getAfterMutable().assign(rowSums);
  }
  b.setInsertionPoint(
      rotated && step.keyRelease ? step.keyRelease.getOperation() : end);
  waitGemms(0);
}

/// The top-level op of a tile (an op of the consumer region of its
/// attn.warp_specialize, or of the tiling forall's body) that holds `op`;
/// null in the producer region.
static Operation *tileTopLevelOp(Operation *op) {
  while (op->getParentOp() &&
         !isa<WarpSpecializeOp, scf::ForallOp>(op->getParentOp()))
    op = op->getParentOp();
  auto ws = dyn_cast_if_present<WarpSpecializeOp>(op->getParentOp());
  if (ws && op->getParentRegion() != &ws.getConsumer())
    return nullptr;
  return op->getParentOp() ? op : nullptr;
}

/// Waits for Q, which TMA loads asynchronously before the kv ops, right
/// before the first top-level op of its tile that holds an S GEMM (a kv
/// loop, or the rotated loops' prologue), unless the tile waits for it
/// already.
static void insertQueryWait(QKOp firstScores) {
  Value query = firstScores.getQuery();
  Operation *first = tileTopLevelOp(firstScores);
  if (!first || !WaitTileOp::landsAsynchronously(query))
    return;
  // A kv block outside any loop: before its pop, turn and K wait.
  if (first == firstScores.getOperation())
    while (first->getPrevNode() &&
           isa<RingPopOp, WaitTurnOp, WaitTileOp>(first->getPrevNode()))
      first = first->getPrevNode();
  // Each warpgroup has Q before the turns start.
  first = getTurnsStart(first);
  for (auto wait : first->getBlock()->getOps<WaitTileOp>())
    if (wait.getTile() == query)
      return;
  OpBuilder b(first);
  WaitTileOp::create(b, firstScores.getLoc(), query);
}

struct AttnInsertWaitsPass
    : mlir::attn::impl::AttnInsertWaitsPassBase<AttnInsertWaitsPass> {
  void runOnOperation() override {
    SetVector<Block *> blocks;
    // The first S GEMM of each tile, in IR order.
    llvm::MapVector<Block *, QKOp> firstScores;
    getOperation().walk([&](Operation *op) {
      if (isa<QKOp, PVOp>(op))
        blocks.insert(op->getBlock());
      if (auto qk = dyn_cast<QKOp>(op))
        if (Operation *top = tileTopLevelOp(qk))
          firstScores.try_emplace(top->getBlock(), qk);
    });
    for (Block *block : blocks) {
      FailureOr<Step> step = readStep(block);
      if (failed(step))
        continue;
      insertWaits(*step);
      ++numSteps;
    }
    // After the steps' waits: a step whose block is the tile's own (a kv
    // block outside any loop) would otherwise count as placed already.
    for (auto [tile, qk] : firstScores)
      insertQueryWait(qk);
  }
};

} // namespace
