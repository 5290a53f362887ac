//===- KvLoops.cpp - the kv loops of a tile, as the kernel runs them ------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KvLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;

static constexpr StringLiteral kPrefix = "convert-attn-to-nvvm: ";

/// The position of the sequence dimension in a tensor of `layout`.
static int64_t seqDimIndex(Layout layout) {
  return layout == Layout::BSHD ? 1 : 2;
}

/// The chain of score modifiers that starts at `scores` (attn.qk's result):
/// as long as the only user is an attn.mask or attn.softcap, it is the next
/// link. Returns the chain's last value.
static Value collectScoreModifiers(Value scores,
                                   SmallVectorImpl<Operation *> &chain) {
  while (scores.hasOneUse()) {
    Operation *user = *scores.getUsers().begin();
    if (!isa<MaskOp, SoftcapOp>(user))
      break;
    chain.push_back(user);
    scores = user->getResult(0);
  }
  return scores;
}

/// `kv` if the column offset of each of its masks is one the kernel
/// computes.
static FailureOr<KvLoop> verifyMaskColumns(const KvLoop &kv) {
  for (Operation *op : kv.scoreModifiers) {
    auto mask = dyn_cast<MaskOp>(op);
    if (!mask)
      continue;
    // The kernel's mask compares this thread's columns against constants
    // relative to the block's first column.
    auto mul = mask.getColOffset().getDefiningOp<arith::MulIOp>();
    APInt blockN;
    if (!mul || mul.getLhs() != kv.loop.getInductionVar() ||
        !matchPattern(mul.getRhs(), m_ConstantInt(&blockN)) ||
        blockN.getSExtValue() != mask.getType().getShape()[1])
      return mask.emitError(kPrefix)
             << "the mask's column offset must be the kv loop's induction "
                "variable times block_n";
  }
  return kv;
}

static FailureOr<KvLoop> readKvLoop(scf::ForOp loop) {
  KvLoop kv{loop, {}};
  auto fail = [&](Operation *at, const Twine &why) -> FailureOr<KvLoop> {
    return at->emitError(kPrefix) << why;
  };
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) || step != 1)
    return fail(loop, "a kv loop must step by one kv block");

  QKOp qk;
  RowMaxOp rowMax;
  ExpDiffOp expDiff;
  RowSumOp rowSum;
  PVOp pv;
  RescaleFactorOp rescale;
  WaitTurnOp waitTurn;
  PassTurnOp passTurn;
  RingPopOp pop;
  TruncateOp truncate;
  SmallVector<RingReleaseOp, 2> releases;
  int scaledRows = 0;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto once = [&](auto &slot, auto typed) -> LogicalResult {
      if (slot)
        return op.emitError(kPrefix)
               << "a kv loop holds one '" << op.getName()
               << "' per step of the online softmax, found a second";
      slot = typed;
      return success();
    };
    LogicalResult ok =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](QKOp o) { return once(qk, o); })
            .Case([&](RowMaxOp o) { return once(rowMax, o); })
            .Case([&](ExpDiffOp o) { return once(expDiff, o); })
            .Case([&](RowSumOp o) { return once(rowSum, o); })
            .Case([&](PVOp o) { return once(pv, o); })
            .Case([&](RescaleFactorOp o) { return once(rescale, o); })
            .Case([&](WaitTurnOp o) { return once(waitTurn, o); })
            .Case([&](PassTurnOp o) { return once(passTurn, o); })
            .Case([&](RingPopOp o) { return once(pop, o); })
            .Case([&](TruncateOp o) { return once(truncate, o); })
            .Case([&](RingReleaseOp o) {
              releases.push_back(o);
              return success();
            })
            .Case([&](ScaleRowsOp) {
              ++scaledRows;
              return success();
            })
            .Case<MaskOp, SoftcapOp, LoadTileOp, LoadPagedTileOp,
                  LoadVarlenTileOp, WaitTileOp, WaitGemmsOp>(
                [](Operation *) { return success(); })
            .Default([&](Operation *other) -> LogicalResult {
              if (other->getDialect() ==
                      other->getContext()->getLoadedDialect("arith") &&
                  other->getNumRegions() == 0 &&
                  llvm::all_of(other->getResultTypes(),
                               [](Type t) { return t.isIntOrIndex(); }))
                return success();
              return other->emitError(kPrefix)
                     << "no GPU lowering for '" << other->getName()
                     << "' in a kv loop";
            });
    if (failed(ok))
      return failure();
  }
  // A rotated loop (attn-pipeline-kv-loops) carries what stage 1 reads from
  // stage 0 to the next step: there a stage-1 operand that is an iter arg
  // stands for the value the step yields for it.
  Block *body = loop.getBody();
  auto stepValue = [&](Value v) -> Value {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0)
      return v;
    return body->getTerminator()->getOperand(arg.getArgNumber() - 1);
  };
  // The three-pass nest of attn-tile (row max, row sum, P V in separate
  // loops) is not lowered; the kernel never substitutes the fused algorithm.
  auto missing = [&](StringRef what) {
    return fail(loop, "this kv loop is not one step of the fused online "
                      "softmax (run attn-fuse-online-softmax first): it has "
                      "no " +
                          what);
  };
  if (!qk)
    return missing("attn.qk");
  // A step of a fixed max (attn-softcap-fixed-max) subtracts a constant and
  // rescales nothing.
  bool fixedMax = expDiff && !rowMax && !rescale && scaledRows == 0 &&
                  isFixedMax(expDiff.getRowMax());
  if (!fixedMax && (!rowMax || !rowMax.getInit()))
    return missing("attn.row_max carried across blocks");
  if (!fixedMax && !rescale)
    return missing("attn.rescale_factor");
  if (!fixedMax && scaledRows == 0)
    return missing("attn.scale_rows of the accumulator");
  if (scaledRows > 1)
    return fail(loop, "a kv loop rescales only the accumulator with "
                      "attn.scale_rows (the running sum by its attn.row_sum's "
                      "init_scale), found " +
                          Twine(scaledRows));
  if (!expDiff)
    return missing("attn.exp_diff");
  if (!rowSum || !rowSum.getInit())
    return missing("attn.row_sum carried across blocks");
  if (!pv)
    return missing("attn.pv");
  // A rotated step issues the previous block's stage 1 (O's attn.scale_rows
  // and attn.pv) right after its S GEMM, the kernel's order.
  bool rotated = isRotatedStep(body);
  Operation *lastIssue = qk;
  if (rotated) {
    // A running max's O update is its attn.scale_rows, then the attn.pv.
    Operation *next = qk->getNextNode();
    if (!fixedMax)
      next = isa<ScaleRowsOp>(next) ? next->getNextNode() : nullptr;
    if (next != pv)
      return fail(pv, fixedMax
                          ? "a rotated kv step issues the previous block's "
                            "attn.pv right after its attn.qk"
                          : "a rotated kv step issues the previous block's "
                            "attn.scale_rows and attn.pv right after its "
                            "attn.qk");
    lastIssue = pv;
  }
  // A ping-pong turn issues the step's GEMMs: the S GEMM, and in a rotated
  // loop the previous block's P V.
  // (Only the waits for the step's K and V may stand between the turn's
  // start and the S GEMM.)
  auto nextIssue = [](Operation *op) {
    op = op->getNextNode();
    while (isa<WaitTileOp>(op))
      op = op->getNextNode();
    return op;
  };
  if (waitTurn || passTurn) {
    if (!waitTurn || !passTurn || nextIssue(waitTurn) != qk ||
        lastIssue->getNextNode() != passTurn)
      return fail(waitTurn ? waitTurn.getOperation() : passTurn.getOperation(),
                  "a ping-pong turn is attn.wait_turn right before the "
                  "step's attn.qk and attn.pass_turn right after its last "
                  "GEMM (the attn.qk, or the attn.pv of a rotated loop)");
    kv.turn = {waitTurn, passTurn};
  }
  // The step releases its popped K and its V (a rotated step: the previous
  // step's), V last; nothing else. verifyStepWaits checks that each release
  // follows the wait that completed the GEMMs reading its tile.
  if (pop || !releases.empty()) {
    auto releaseOf = [&](Value tile) -> RingReleaseOp {
      for (RingReleaseOp release : releases)
        if (stepValue(release.getTile()) == tile)
          return release;
      return {};
    };
    RingReleaseOp keyRelease = pop ? releaseOf(pop.getKey()) : RingReleaseOp();
    RingReleaseOp valueRelease =
        pop ? releaseOf(pop.getValue()) : RingReleaseOp();
    if (!pop || releases.size() != 2 || !keyRelease || !valueRelease ||
        valueRelease->getNextNode() != loop.getBody()->getTerminator())
      return fail(releases.empty() ? pop.getOperation()
                                   : releases.front().getOperation(),
                  "a kv step releases its popped K and its V (a rotated "
                  "step: the previous step's), V last, each once "
                  "(attn.ring_release)");
    kv.keyRelease = keyRelease;
    kv.valueRelease = valueRelease;
  }
  Value scores = collectScoreModifiers(qk.getScores(), kv.scoreModifiers);
  // The step's first reader of the scores (a fixed max has no row max).
  Operation *scoresReader =
      rowMax ? rowMax.getOperation() : expDiff.getOperation();
  if ((rowMax && rowMax.getScores() != scores) || expDiff.getScores() != scores)
    return fail(scoresReader, "the row max and the exponentials must read the "
                              "scores after their modifiers (attn.mask, "
                              "attn.softcap), each applied once in a chain");
  // The manifest describes the softmax by the softcap's cap alone: the row
  // max and the exponentials scale the scores alike, by exactly what the
  // softcap left to them (attn-defer-softcap-cap), or not at all.
  auto scaleOf = [](std::optional<APFloat> scale) {
    return scale ? scale->convertToFloat() : 1.0f;
  };
  float expScoreScale = scaleOf(expDiff.getScoreScale());
  float scoreScale = rowMax ? scaleOf(rowMax.getScoreScale()) : expScoreScale;
  if (scoreScale != expScoreScale)
    return expDiff->emitError(kPrefix)
           << "the row max and the exponentials must scale the scores alike "
              "(score_scale "
           << scoreScale << " vs " << expScoreScale << ")";
  float capLeft = 1.0f;
  for (Operation *op : kv.scoreModifiers)
    if (auto softcap = dyn_cast<SoftcapOp>(op))
      capLeft = softcap.getCap().convertToFloat() /
                softcap.getOutputScaleOrCap().convertToFloat();
  if (scoreScale != capLeft)
    return scoresReader->emitError(kPrefix)
           << "the scores' score_scale (" << scoreScale
           << ") must be what the step's attn.softcap leaves to its users, "
              "cap / output_scale ("
           << capLeft << "; 1 without a softcap)";
  // P V reads P as it is or rounded (attn.truncate, whose only reader it
  // is).
  Value probs = stepValue(pv.getProbs());
  if (truncate &&
      (truncate.getInput() != expDiff.getResult() ||
       probs != truncate.getResult() || !truncate.getResult().hasOneUse()))
    return fail(truncate, "attn.truncate rounds the step's attn.exp_diff "
                          "for its attn.pv, and only for it");
  if (truncate)
    probs = truncate.getInput();
  if (probs != expDiff.getResult() || rowSum.getProbs() != expDiff.getResult())
    return fail(pv, "attn.pv and attn.row_sum must read the attn.exp_diff "
                    "of the same step");
  // Each tile op is lowered onto the fragments of the values it reads: the
  // loop's carried values and the results of the ops before it in the body
  // (and the Q, K and V tiles). The roles the lowering relies on are
  // checked here.
  for (Operation &op : body->without_terminator()) {
    if (op.getDialect() != qk->getDialect())
      continue;
    for (OpOperand &operand : op.getOpOperands()) {
      Value v = operand.get();
      // Q, K and V tiles: verifyTiledAttention checks where they come from, and
      // which a step waits for (verifyStepWaits; Q's wait, its walk over
      // the tile).
      if (!isa<RankedTensorType>(v.getType()) ||
          isa<QKOp, LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp, WaitTileOp>(
              op) ||
          (isa<PVOp>(op) && operand.getOperandNumber() == 1) ||
          (fixedMax && v == expDiff.getRowMax()))
        continue;
      bool carried =
          isa<BlockArgument>(v) && cast<BlockArgument>(v).getOwner() == body;
      Operation *def = v.getDefiningOp();
      if (!carried && !(def && def->getBlock() == body))
        return fail(&op, "a tile operand of a kv loop's op must be computed "
                         "in the loop or carried by it (operand " +
                             Twine(operand.getOperandNumber()) + ")");
    }
  }
  // The carried value `v` is yielded as (null if none).
  auto carriedAs = [&](Value v) -> Value {
    for (auto [yielded, arg] : llvm::zip_equal(
             body->getTerminator()->getOperands(), loop.getRegionIterArgs()))
      if (yielded == v)
        return arg;
    return {};
  };
  if (fixedMax) {
    // Without a rescale the running sum and O are added to as they are.
    Value carriedSum = carriedAs(rowSum.getResult());
    if (!carriedSum || rowSum.getInit() != carriedSum || rowSum.getInitScale())
      return fail(rowSum, "attn.row_sum of a fixed max must add to the "
                          "carried running sum as it is (its init, no "
                          "init_scale)");
    if (!carriedAs(pv.getResult()) || pv.getAcc() != carriedAs(pv.getResult()))
      return fail(pv, "attn.pv's accumulator must be the carried O (a fixed "
                      "max rescales nothing)");
    return verifyMaskColumns(kv);
  }
  Value carriedMax = carriedAs(rowMax.getResult());
  if (!carriedMax || rowMax.getInit() != carriedMax)
    return fail(rowMax, "the step's attn.row_max must start from the running "
                        "max (its init) and be carried to the next block");
  if (rescale.getOldMax() != carriedMax ||
      rescale.getNewMax() != rowMax.getResult())
    return fail(rescale, "attn.rescale_factor must compare the carried "
                         "running max with the step's attn.row_max");
  if (expDiff.getRowMax() != rowMax.getResult())
    return fail(expDiff, "attn.exp_diff must subtract the step's attn.row_max");
  // The running sum and O are rescaled by this step's factor before the
  // step adds to them: the sum by its row sum's init_scale, in stage 0 (the
  // factor itself), O by an attn.scale_rows (in a rotated loop stage 1, by
  // the factor carried from the step before: the overlapped schedule
  // carries exactly P and that factor from one block to the next).
  if (!carriedAs(rowSum.getResult()) ||
      rowSum.getInit() != carriedAs(rowSum.getResult()) ||
      rowSum.getInitScale() != rescale.getResult())
    return fail(rowSum, "attn.row_sum must add to the carried running sum, "
                        "scaled by the step's attn.rescale_factor (its init "
                        "and init_scale)");
  auto scaled = pv.getAcc().getDefiningOp<ScaleRowsOp>();
  if (!scaled || stepValue(scaled.getFactor()) != rescale.getResult() ||
      !carriedAs(pv.getResult()) ||
      scaled.getInput() != carriedAs(pv.getResult()))
    return fail(pv, "attn.pv's accumulator must be the carried O, scaled by "
                    "the step's attn.rescale_factor");
  return verifyMaskColumns(kv);
}

LogicalResult mlir::attn::verifyStepWaits(Block *step) {
  // The GEMMs in flight, oldest first, and the tiles waited for.
  SmallVector<Operation *> inFlight;
  DenseSet<Value> landed, released;
  auto fail = [](Operation *at, const Twine &why) {
    return at->emitError(kPrefix) << why
                                  << " (attn-insert-waits places the "
                                     "waits)";
  };
  // The step's K and V tiles: the only ones it waits for and releases.
  SmallVector<Value> tiles;
  for (Operation &op : *step)
    if (auto qk = dyn_cast<QKOp>(op))
      tiles.push_back(qk.getKey());
    else if (auto pv = dyn_cast<PVOp>(op))
      tiles.push_back(pv.getValue());
  for (Operation &op : step->without_terminator()) {
    for (Value operand : op.getOperands())
      if (released.contains(operand))
        return fail(&op, "this op reads a tile after its attn.ring_release "
                         "(the producer may already refill its stage)");
    if (isa<WaitTileOp, RingReleaseOp>(op) &&
        !llvm::is_contained(tiles, op.getOperand(0)))
      return fail(&op, "a kv step waits for and releases only the K and V "
                       "tiles its GEMMs read");
    if (auto wait = dyn_cast<WaitTileOp>(op)) {
      landed.insert(wait.getTile());
      continue;
    }
    if (auto wait = dyn_cast<WaitGemmsOp>(op)) {
      size_t pending = wait.getPending();
      if (inFlight.size() > pending)
        inFlight.erase(inFlight.begin(), inFlight.end() - pending);
      continue;
    }
    for (Value operand : op.getOperands())
      if (llvm::is_contained(inFlight, operand.getDefiningOp()))
        return fail(&op, "this op reads the result of a GEMM still in "
                         "flight: an attn.wait_gemms must complete it first");
    if (auto release = dyn_cast<RingReleaseOp>(op)) {
      // The arrival's test holds for row sums only, which the step's
      // lowering has computed before: any other value could keep a stage
      // from ever being released (the producer would hang).
      for (Value after : release.getAfter())
        if (auto sum = after.getDefiningOp<RowSumOp>();
            !sum || sum->getBlock() != step)
          return fail(&op, "a release is ordered after row sums its step "
                           "computes (attn.row_sum results in the step)");
      released.insert(release.getTile());
      for (Operation *gemm : inFlight)
        if (llvm::is_contained(gemm->getOperands(), release.getTile()))
          return fail(&op, "the tile is released while a GEMM that reads "
                           "it is in flight: release it after the "
                           "attn.wait_gemms that completes that GEMM");
    }
    Value tile = isa<QKOp>(op)   ? cast<QKOp>(op).getKey()
                 : isa<PVOp>(op) ? cast<PVOp>(op).getValue()
                                 : Value();
    if (!tile)
      continue;
    if (!landed.contains(tile))
      return fail(&op, Twine("this GEMM reads its ") +
                           (isa<QKOp>(op) ? "K" : "V") +
                           " tile before an attn.wait_tile of it");
    inFlight.push_back(&op);
  }
  Operation *end = step->getTerminator();
  for (Value operand : end->getOperands())
    if (llvm::is_contained(inFlight, operand.getDefiningOp()))
      return fail(end, "the step yields the result of a GEMM still in "
                       "flight: an attn.wait_gemms must complete it first");
  return success();
}

FailureOr<SmallVector<KvLoop>> mlir::attn::readKvLoops(Region &region) {
  SmallVector<KvLoop> loops;
  for (auto loop : region.front().getOps<scf::ForOp>()) {
    bool hasScores = false;
    loop.walk([&](QKOp) { hasScores = true; });
    if (!hasScores)
      continue;
    FailureOr<KvLoop> kv = readKvLoop(loop);
    if (failed(kv))
      return failure();
    if (!loops.empty() &&
        loops.back().loop.getUpperBound() != loop.getLowerBound())
      return loop.emitError(kPrefix)
             << "the kv loops must partition one range: this loop must "
                "begin where the previous one ends";
    loops.push_back(*kv);
  }
  if (loops.empty())
    return region.getParentOp()->emitError(kPrefix)
           << "expected a kv loop (an scf.for holding attn.qk)";
  return loops;
}

LogicalResult mlir::attn::verifyLowerableIndex(
    Value value, Operation *user, scf::ForallOp forall,
    ArrayRef<Value> seqQSources, ArrayRef<Value> seqKSources, Layout layout,
    ArrayRef<Value> extraRoots, ArrayRef<Value> indexTensors) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second || llvm::is_contained(extraRoots, v))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == forall.getBody() &&
          arg.getArgNumber() < forall.getRank())
        continue;
      return user->emitError(kPrefix)
             << "cannot lower an operand that is a block argument other "
                "than the tiling forall's induction variables and the "
                "function's scale argument";
    }
    Operation *def = v.getDefiningOp();
    if (auto dim = dyn_cast<tensor::DimOp>(def)) {
      bool isLength = (llvm::is_contained(seqQSources, dim.getSource()) ||
                       llvm::is_contained(seqKSources, dim.getSource()));
      if (isLength && dim.getConstantIndex() == seqDimIndex(layout))
        continue;
      return user->emitError(kPrefix)
             << "cannot lower a tensor.dim that is not the sequence length "
                "of Q, K or V (the kernel's length parameters)";
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(def);
        extract && llvm::is_contained(indexTensors, extract.getTensor())) {
      llvm::append_range(work, extract.getIndices());
      continue;
    }
    if (def->getDialect() == def->getContext()->getLoadedDialect("arith") &&
        def->getNumRegions() == 0) {
      llvm::append_range(work, def->getOperands());
      continue;
    }
    return user->emitError(kPrefix)
           << "cannot lower an operand computed by '" << def->getName()
           << "' (only arith on the tiling forall's induction variables, the "
              "sequence lengths and the scale argument reaches the kernel)";
  }
  return success();
}

Value IndexLowering::lower(OpBuilder &b, Value value, const IRMapping *local) {
  IRMapping clones;
  return lower(b, value, local, clones);
}

SmallVector<Value> IndexLowering::lower(OpBuilder &b, ValueRange values,
                                        const IRMapping *local) {
  IRMapping clones;
  return llvm::map_to_vector(
      values, [&](Value v) { return lower(b, v, local, clones); });
}

Value IndexLowering::lower(OpBuilder &b, Value value, const IRMapping *local,
                           IRMapping &clones) {
  if (local)
    if (Value v = local->lookupOrNull(value))
      return v;
  if (Value v = mapping.lookupOrNull(value))
    return v;
  if (Value v = clones.lookupOrNull(value))
    return v;
  Operation *def = value.getDefiningOp();
  assert(def && "verifyLowerableIndex admits no other block argument");
  if (auto dim = dyn_cast<tensor::DimOp>(def))
    return llvm::is_contained(seqQSources, dim.getSource()) ? seqQ : seqK;
  if (auto extract = dyn_cast<tensor::ExtractOp>(def)) {
    Value pointer = indexTensors.lookup(extract.getTensor());
    Value i = lower(b, extract.getIndices().front(), local, clones);
    Location loc = extract.getLoc();
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
    Value ptr = LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI32Type(),
                                    pointer, ValueRange{i64});
    Value element = LLVM::LoadOp::create(b, loc, b.getI32Type(), ptr, 4);
    clones.map(value, element);
    return element;
  }
  // Clone the op with lowered operands; `clones` holds this call's clones.
  for (Value operand : def->getOperands())
    clones.map(operand, lower(b, operand, local, clones));
  Operation *clone = b.clone(*def, clones);
  clones.map(def->getResults(), clone->getResults());
  return clones.lookup(value);
}
