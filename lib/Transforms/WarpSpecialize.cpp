//===- WarpSpecialize.cpp - producer and consumer warpgroups --------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Inside one query tile (the body of the tiling scf.forall):
//
//   %q = attn.load_tile %Q[...]                 %q = attn.load_tile %Q[...]
//   scf.for %kb ... {                           %o:2 = attn.warp_specialize ...
//     %k = attn.load_tile %K[.., %kb * BN]        producer {
//     ... attn.qk %q, %k ...                        scf.for %kb = b to e {
//     %v = attn.load_tile %V[.., %kb * BN]            %k = attn.load_tile ..
//     ... attn.pv %p, %v, %acc ...        =>          %v = attn.load_tile ..
//   }                                                 attn.ring_push %k, %v
//   %o:2 = attn.finalize ...                        }
//   ... uses of %o ...                            } consumer {
//                                                   scf.for %kb ... {
//                                                     %k, %v = attn.ring_pop
//                                                     ... (unchanged) ...
//                                                   }
//                                                   attn.finalize, attn.yield
//                                                 }
//
// The producer walks [begin, end), the range the kv loops of attn-tile /
// attn-split-masked-loops partition: the very bound values of the
// consumers' first and last loop, so it pushes exactly as many tiles as the
// consumers pop, in the same order. Where canonicalization folded
// single-trip consumer loops of static shapes, it builds the range anew
// (buildKvBlockRange). Its loads compute their row from the producer's own
// block index.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/MaskUtils.h"
#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/PipelineStages.h"
#include "attnc/Transforms/TileConfig.h"
#include "attnc/Transforms/TileOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attn-warp-specialize"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNWARPSPECIALIZEPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// One K/V tile pair the consumers read: the loads feeding an attn.qk and the
/// attn.pv of the same block.
struct KvLoads {
  TileLoad key, value;
};

/// What the partition needs to know about one query tile.
struct QueryTile {
  TileLoad query;
  FinalizeOp finalize;
  SmallVector<KvLoads> kvLoads;
  MaskSpec mask;
};

/// The attn.qk whose scores `probs` (an attn.pv operand) were computed from,
/// through the softmax steps of the same block.
QKOp scoresOf(Value probs) {
  Value v = probs;
  while (Operation *def = v.getDefiningOp()) {
    if (auto qk = dyn_cast<QKOp>(def))
      return qk;
    if (auto exp = dyn_cast<ExpDiffOp>(def))
      v = exp.getScores();
    else if (auto rounded = dyn_cast<TruncateOp>(def))
      v = rounded.getInput();
    else if (auto mask = dyn_cast<MaskOp>(def))
      v = mask.getScores();
    else if (auto cap = dyn_cast<SoftcapOp>(def))
      v = cap.getScores();
    else
      return {};
  }
  return {};
}

FailureOr<QueryTile> analyzeTile(scf::ForallOp forall, FinalizeOp finalize) {
  QueryTile tile;
  tile.finalize = finalize;
  // The mask as attn-tile recorded it: the loops' attn.mask ops may have
  // folded away for static shapes.
  tile.mask = finalize.getMaskSpec();
  // Each block's P V, by the scores its P came from.
  DenseMap<Operation *, PVOp> pvOfScores;
  WalkResult pairs = forall.getBody()->walk([&](PVOp pv) -> WalkResult {
    QKOp qk = scoresOf(pv.getProbs());
    if (!qk || !pvOfScores.try_emplace(qk, pv).second)
      return pv.emitOpError("attn-warp-specialize: expected P to come from "
                            "the scores of one attn.qk, used by one attn.pv"),
             WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (pairs.wasInterrupted())
    return failure();
  llvm::SmallPtrSet<Operation *, 8> seenLoads;
  WalkResult walk = forall.getBody()->walk([&](Operation *op) -> WalkResult {
    auto qk = dyn_cast<QKOp>(op);
    if (!qk)
      return WalkResult::advance();
    TileLoad query = TileLoad::of(qk.getQuery());
    TileLoad key = TileLoad::of(qk.getKey());
    if (!query || !key || query.getPaged() ||
        bool(query.getVarlen()) != bool(key.getVarlen()))
      return qk.emitOpError(
                 "attn-warp-specialize: Q and K must come from "
                 "attn.load_tile (K also from attn.load_paged_tile), or "
                 "both from attn.load_varlen_tile"),
             WalkResult::interrupt();
    if (tile.query && tile.query != query)
      return qk.emitOpError("attn-warp-specialize: expected one Q tile per "
                            "query block"),
             WalkResult::interrupt();
    tile.query = query;
    PVOp pv = pvOfScores.lookup(qk);
    // attn-tile's three-pass nest computes S in loops without P V.
    if (!pv)
      return qk.emitOpError("attn-warp-specialize: these scores reach no "
                            "attn.pv: the kv loops are not one online-softmax "
                            "step (run attn-fuse-online-softmax first)"),
             WalkResult::interrupt();
    TileLoad value = TileLoad::of(pv.getValue());
    if (!value || bool(value.getPaged()) != bool(key.getPaged()) ||
        bool(value.getVarlen()) != bool(key.getVarlen()))
      return qk.emitOpError("attn-warp-specialize: expected the attn.pv of "
                            "this block, with V loaded as K is, next to it"),
             WalkResult::interrupt();
    // One load of one tensor for both (K and V are the same value, and CSE
    // merged their loads): the ring holds K and V as separate tiles.
    if (key.getOperation() == value.getOperation())
      return qk.emitOpError("attn-warp-specialize: K and V are one tile, "
                            "loaded once from one tensor: the kernel streams "
                            "K and V as two tiles of two tensors (pass V as "
                            "an argument of its own)"),
             WalkResult::interrupt();
    // Each load becomes one pop: a tile shared by two blocks cannot.
    if (!seenLoads.insert(key.getOperation()).second ||
        !seenLoads.insert(value.getOperation()).second)
      return qk.emitOpError("attn-warp-specialize: expected each kv block to "
                            "load its own K and V tiles"),
             WalkResult::interrupt();
    tile.kvLoads.push_back({key, value});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (tile.kvLoads.empty())
    return forall.emitError("attn-warp-specialize: no attn.qk in the tile");
  return tile;
}

/// The op of `block` that is or holds `op`.
Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Whether `v` is available right before `first` (an op of the tile's body):
/// the producer's loads reuse the batch and head operands of the consumers'.
bool availableBefore(Value v, Operation *first) {
  Block *body = first->getBlock();
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == body ||
           !body->getParentOp()->isAncestor(arg.getOwner()->getParentOp());
  Operation *inBody = body->findAncestorOpInBlock(*v.getDefiningOp());
  return !inBody || inBody->isBeforeInBlock(first);
}

/// The kv range of the tile anew (buildKvBlockRange, clipped to a split),
/// for a producer whose consumers' kv loops do not hold the whole range:
/// canonicalization folds the single-trip loops of static shapes.
std::pair<Value, Value> buildProducerRange(OpBuilder &b, Location loc,
                                           QueryTile &tile,
                                           scf::ForallOp forall) {
  TileLoad query = tile.query;
  TileLoad key = tile.kvLoads.front().key;
  // A dense tile's rows are its tensor's, a varlen tile's its sequence's,
  // and a paged tile's keys its sequence's cache length.
  auto seqLength = [&](TileLoad load) -> Value {
    if (LoadPagedTileOp paged = load.getPaged())
      return paged.getLength();
    if (LoadVarlenTileOp varlen = load.getVarlen())
      return arith::SubIOp::create(b, loc, varlen.getEnd(), varlen.getBegin());
    auto dense = cast<LoadTileOp>(load.getOperation());
    unsigned dim = physicalDim(2, dense.getLayout());
    return tensor::DimOp::create(b, loc, dense.getSource(), dim);
  };
  int64_t blockM = query.getTile().getType().getDimSize(0);
  int64_t blockN = key.getTile().getType().getDimSize(0);
  Value seqK = seqLength(key);
  // Packed query heads: the masks' Nq is each head's tokens.
  Value seqQ = seqLength(query);
  if (query.getVarlen())
    seqK = keysOfVarlenTile(b, loc, query.getRow(), seqQ, seqK);
  if (std::optional<uint64_t> group = tile.finalize.getPackedQueryHeads())
    seqQ = arith::DivUIOp::create(
        b, loc, seqQ, arith::ConstantIndexOp::create(b, loc, *group));
  KvBlockRange range = buildKvBlockRange(b, loc, query.getRow(), seqQ, seqK,
                                         blockM, blockN, tile.mask);
  // A split-KV tile streams its split's blocks only, as its loops take.
  if (std::optional<std::pair<Value, OpFoldResult>> split = getKvSplit(forall))
    clipKvBlockRangeToSplit(
        b, loc, range, seqK, blockN, split->first,
        getValueOrCreateConstantIndexOp(b, loc, split->second));
  return {range.begin, range.end};
}

/// The consumers' kv range, [first kv loop's lower bound, last kv loop's
/// upper bound), which the producer then walks (convert-attn-to-nvvm checks
/// that it walks these very values). Where canonicalization folded a
/// single-trip loop of static shapes, a kv block sits in the tile's body and
/// no loop holds the whole range: std::nullopt, and the caller builds it
/// anew. Where every block is in a kv loop, the loops must partition one
/// range, one block a step, from bounds computed before `first` (the op the
/// consumer region starts at); anything else is an error.
FailureOr<std::optional<std::pair<Value, Value>>>
getConsumerRange(const QueryTile &tile, Operation *first) {
  Block *body = first->getBlock();
  SmallVector<scf::ForOp> loops;
  for (KvLoads loads : tile.kvLoads) {
    Operation *key = loads.key.getOperation();
    auto loop = dyn_cast<scf::ForOp>(body->findAncestorOpInBlock(*key));
    if (!loop)
      return std::optional<std::pair<Value, Value>>();
    if (key->getParentOp() != loop)
      return key->emitOpError("attn-warp-specialize: expected the K load "
                              "of a kv block directly in its kv loop");
    if (!llvm::is_contained(loops, loop))
      loops.push_back(loop);
  }
  llvm::sort(loops,
             [](scf::ForOp a, scf::ForOp b) { return a->isBeforeInBlock(b); });
  for (auto [i, loop] : llvm::enumerate(loops)) {
    if (!matchPattern(loop.getStep(), m_One()))
      return loop.emitOpError("attn-warp-specialize: expected a kv loop of "
                              "one block a step");
    if (i + 1 < loops.size() &&
        loop.getUpperBound() != loops[i + 1].getLowerBound())
      return loop.emitOpError(
          "attn-warp-specialize: expected the kv loops to partition one "
          "range: the next kv loop starts at this one's upper bound");
  }
  Value begin = loops.front().getLowerBound();
  Value end = loops.back().getUpperBound();
  if (!availableBefore(begin, first) || !availableBefore(end, first))
    return loops.front().emitOpError(
        "attn-warp-specialize: expected the kv range's bounds (the first kv "
        "loop's lower bound, the last's upper bound) to be computed before "
        "the first kv loop, where the producer can read them");
  return std::optional(std::make_pair(begin, end));
}

class Partitioner {
public:
  Partitioner(OpBuilder &b, QueryTile &tile, const RegisterBudget &regs,
              int64_t consumers, int64_t stages, bool pingPong, bool overlap)
      : b(b), tile(tile), regs(regs), consumers(consumers), stages(stages),
        pingPong(pingPong), overlap(overlap) {}

  LogicalResult run(scf::ForallOp forall);

private:
  void buildProducer(WarpSpecializeOp ws, Location loc, scf::ForallOp forall,
                     std::optional<std::pair<Value, Value>> consumerRange);
  void buildConsumer(WarpSpecializeOp ws, ArrayRef<Operation *> moved);

  OpBuilder &b;
  QueryTile &tile;
  RegisterBudget regs;
  int64_t consumers, stages;
  bool pingPong, overlap;
};

LogicalResult Partitioner::run(scf::ForallOp forall) {
  Block *body = forall.getBody();
  // The consumer region: from the first op that reads a K tile through
  // attn.finalize. Everything before it (Q load, kv bounds) stays shared.
  Operation *first = ancestorIn(body, tile.kvLoads.front().key.getOperation());
  for (KvLoads loads : tile.kvLoads) {
    Operation *op = ancestorIn(body, loads.key.getOperation());
    if (op->isBeforeInBlock(first))
      first = op;
  }
  Operation *last = tile.finalize;
  if (last->getBlock() != body || last->isBeforeInBlock(first))
    return tile.finalize.emitOpError(
        "attn-warp-specialize: expected attn.finalize after the kv loops, in "
        "the query tile's body");
  SmallVector<Operation *> moved;
  for (Operation *op = first;; op = op->getNextNode()) {
    moved.push_back(op);
    if (op == last)
      break;
  }
  // Only the tile's results may leave the consumers.
  for (Operation *op : moved) {
    if (op == last)
      continue;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!llvm::is_contained(moved, ancestorIn(body, user)))
          return user->emitOpError("attn-warp-specialize: uses a value of the "
                                   "kv loops other than attn.finalize's "
                                   "results");
  }

  FailureOr<std::optional<std::pair<Value, Value>>> consumerRange =
      getConsumerRange(tile, first);
  if (failed(consumerRange))
    return failure();
  b.setInsertionPoint(first);
  Location loc = tile.finalize.getLoc();
  auto ws =
      WarpSpecializeOp::create(b, loc, tile.finalize->getResultTypes(),
                               consumers, stages, regs.producer, regs.consumer);
  buildProducer(ws, loc, forall, *consumerRange);
  buildConsumer(ws, moved);
  // Ping-pong: each step's S GEMM is issued in this warpgroup's turn.
  // Warpgroup 0 has the first turn (warpgroup 1 passes it before the kv
  // loops) and consumes the arrival that leaves pending after the tile.
  if (pingPong) {
    Block &consumer = ws.getConsumer().front();
    auto loops = llvm::to_vector(consumer.getOps<scf::ForOp>());
    for (auto loop : loops)
      for (auto qk : llvm::make_early_inc_range(loop.getOps<QKOp>())) {
        b.setInsertionPoint(qk);
        WaitTurnOp::create(b, qk.getLoc(), IntegerAttr());
        b.setInsertionPointAfter(qk);
        PassTurnOp::create(b, qk.getLoc(), IntegerAttr());
      }
    if (!loops.empty()) {
      b.setInsertionPoint(loops.front());
      PassTurnOp::create(b, loc, b.getI64IntegerAttr(1));
      b.setInsertionPointAfter(tile.finalize);
      WaitTurnOp::create(b, loc, b.getI64IntegerAttr(0));
    }
  }
  // The intra-warpgroup overlap: a two-stage software pipeline of each kv
  // loop, its accumulator update deferred to the next block.
  if (overlap)
    for (auto loop : ws.getConsumer().front().getOps<scf::ForOp>())
      for (Operation *op : getAccumulatorUpdate(loop))
        setPipelineStage(op, 1);
  return success();
}

void Partitioner::buildProducer(
    WarpSpecializeOp ws, Location loc, scf::ForallOp forall,
    std::optional<std::pair<Value, Value>> consumerRange) {
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&ws.getProducer());
  TileLoad key = tile.kvLoads.front().key;
  TileLoad value = tile.kvLoads.front().value;
  int64_t blockN = key.getTile().getType().getDimSize(0);
  auto [begin, end] =
      consumerRange ? *consumerRange : buildProducerRange(b, loc, tile, forall);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, begin, end, one);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value row =
      arith::MulIOp::create(b, loc, loop.getInductionVar(),
                            arith::ConstantIndexOp::create(b, loc, blockN));
  // Batch and (kv) head are the tile's: computed before the kv loops.
  auto load = [&](TileLoad like) -> Value {
    if (LoadPagedTileOp paged = like.getPaged())
      return LoadPagedTileOp::create(b, loc, paged.getTile().getType(),
                                     paged.getPool(), paged.getBlockTable(),
                                     paged.getBatch(), paged.getHead(), row,
                                     paged.getLength());
    if (LoadVarlenTileOp varlen = like.getVarlen())
      return LoadVarlenTileOp::create(b, loc, varlen.getTile().getType(),
                                      varlen.getSource(), varlen.getHead(),
                                      row, varlen.getBegin(), varlen.getEnd(),
                                      varlen.getLayout());
    auto dense = cast<LoadTileOp>(like.getOperation());
    return LoadTileOp::create(b, loc, dense.getTile().getType(),
                              dense.getSource(), dense.getBatch(),
                              dense.getHead(), row, dense.getLayout());
  };
  Value k = load(key), v = load(value);
  RingPushOp::create(b, loc, k, v);
  b.setInsertionPointToEnd(block);
  YieldOp::create(b, loc, ValueRange{});
}

void Partitioner::buildConsumer(WarpSpecializeOp ws,
                                ArrayRef<Operation *> moved) {
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&ws.getConsumer());
  FinalizeOp finalize = tile.finalize;
  for (Value result : finalize->getResults())
    result.replaceAllUsesWith(
        ws.getResult(cast<OpResult>(result).getResultNumber()));
  for (Operation *op : moved)
    op->moveBefore(block, block->end());
  b.setInsertionPointToEnd(block);
  YieldOp::create(b, finalize.getLoc(), finalize->getResults());
  for (KvLoads loads : tile.kvLoads) {
    Operation *key = loads.key.getOperation();
    b.setInsertionPoint(key);
    auto pop =
        RingPopOp::create(b, key->getLoc(), loads.key.getTile().getType(),
                          loads.value.getTile().getType());
    loads.key.getTile().replaceAllUsesWith(pop.getKey());
    loads.value.getTile().replaceAllUsesWith(pop.getValue());
    key->erase();
    loads.value.getOperation()->erase();
    // K goes back once S is computed, V at the end of the step.
    Block *step = pop->getBlock();
    for (auto qk : step->getOps<QKOp>())
      if (qk.getKey() == pop.getKey()) {
        b.setInsertionPointAfter(qk);
        RingReleaseOp::create(b, qk.getLoc(), pop.getKey(), ValueRange());
      }
    b.setInsertionPoint(step->getTerminator());
    RingReleaseOp::create(b, pop.getLoc(), pop.getValue(), ValueRange());
  }
}

LogicalResult checkLoadOperands(QueryTile &tile, Operation *first) {
  for (KvLoads loads : tile.kvLoads)
    for (TileLoad load : {loads.key, loads.value}) {
      SmallVector<Value> operands = {load.getHead()};
      if (Value batch = load.getBatch())
        operands.push_back(batch);
      if (LoadPagedTileOp paged = load.getPaged())
        operands.push_back(paged.getLength());
      if (LoadVarlenTileOp varlen = load.getVarlen())
        llvm::append_range(operands,
                           ValueRange{varlen.getBegin(), varlen.getEnd()});
      if (llvm::any_of(operands,
                       [&](Value v) { return !availableBefore(v, first); }))
        return load.getOperation()->emitOpError(
            "attn-warp-specialize: batch and head (and a paged load's "
            "length, a varlen load's rows) of K/V loads must be defined "
            "before the kv loops");
    }
  return success();
}

struct AttnWarpSpecializePass final
    : public mlir::attn::impl::AttnWarpSpecializePassBase<
          AttnWarpSpecializePass> {
  using Base::Base;

  /// Gives the attn.exp_diff ops of the kv loops of the specialized tile in
  /// `forall` the software_exp2_period the option or the table asks for.
  void annotateExponentials(scf::ForallOp forall, int64_t headDim) {
    int64_t period = softwareExp2Period;
    if (period == 0 && !target.empty()) {
      // A soft-capped softmax whose exponentials subtract a fixed max
      // (attn-softcap-fixed-max: a constant, not an attn.row_max).
      bool softcap =
          forall.getBody()
              ->walk([](SoftcapOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      bool fixedMaxSoftcap =
          softcap && !forall.getBody()
                          ->walk([&](ExpDiffOp exp) {
                            return isFixedMax(exp.getRowMax())
                                       ? WalkResult::advance()
                                       : WalkResult::interrupt();
                          })
                          .wasInterrupted();
      period = getDefaultSoftwareExp2Period(headDim, fixedMaxSoftcap, target);
    }
    if (period <= 0)
      return;
    IntegerAttr attr =
        IntegerAttr::get(IntegerType::get(&getContext(), 64), period);
    forall.getBody()->walk([&](ExpDiffOp exp) {
      auto loop = exp->getParentOfType<scf::ForOp>();
      if (loop && forall->isProperAncestor(loop))
        exp.setSoftwareExp2PeriodAttr(attr);
    });
  }

  void runOnOperation() override {
    if (stages < 0 || stages == 1) {
      getOperation().emitError("attn-warp-specialize: stages must be 0 (the "
                               "target's table) or at least 2, got ")
          << static_cast<int64_t>(stages);
      return signalPassFailure();
    }
    if (!target.empty() &&
        failed(verifyTileTarget(getOperation(), getArgument(), target)))
      return signalPassFailure();
    if (softwareExp2Period < -1) {
      getOperation().emitError("attn-warp-specialize: software-exp2-period "
                               "must be 0 (the target's table), -1 (off) or "
                               "at least 1, got ")
          << static_cast<int64_t>(softwareExp2Period);
      return signalPassFailure();
    }
    SmallVector<std::pair<scf::ForallOp, FinalizeOp>> tiles;
    getOperation().walk([&](scf::ForallOp forall) {
      for (auto finalize : forall.getBody()->getOps<FinalizeOp>())
        tiles.emplace_back(forall, finalize);
    });
    OpBuilder b(&getContext());
    for (auto [forall, finalize] : tiles) {
      FailureOr<QueryTile> tile = analyzeTile(forall, finalize);
      if (failed(tile))
        return signalPassFailure();
      int64_t headDim = tile->query.getTile().getType().getDimSize(1);
      if (!target.empty() && !getDefaultWarpSpecialization(headDim, target))
        continue;
      int64_t blockM = tile->query.getTile().getType().getDimSize(0);
      if (blockM != 64 && blockM != 128 && blockM != 192) {
        forall.emitError("attn-warp-specialize: block_m must be 64, 128 or "
                         "192 (one consumer warpgroup per 64 query rows), "
                         "got ")
            << blockM;
        return signalPassFailure();
      }
      Operation *first = forall.getBody()->findAncestorOpInBlock(
          *tile->kvLoads.front().key.getOperation());
      if (failed(checkLoadOperands(*tile, first)))
        return signalPassFailure();
      int64_t consumers = blockM / 64;
      // With a target, its table may also decline ping-pong for this tile.
      bool tilePingPong =
          pingPong && (target.empty() || getDefaultPingPong(headDim, target));
      int64_t blockN =
          tile->kvLoads.front().key.getTile().getType().getDimSize(0);
      int64_t valueHeadDim =
          tile->kvLoads.front().value.getTile().getType().getDimSize(1);
      ConsumerSchedule schedule =
          target.empty() ? ConsumerSchedule{2, false}
                         : getDefaultConsumerSchedule(
                               {blockM, blockN}, headDim, valueHeadDim,
                               tile->mask.window.has_value(), target);
      if (stages > 0)
        schedule.stages = stages;
      if (overlap != TableChoice::Auto)
        schedule.overlap = overlap == TableChoice::On;
      Partitioner partitioner(
          b, *tile,
          getWarpSpecializedRegisterBudget(
              consumers, bool(tile->kvLoads.front().key.getPaged())),
          consumers, schedule.stages, tilePingPong && consumers == 2,
          schedule.overlap);
      if (failed(partitioner.run(forall)))
        return signalPassFailure();
      ++numSpecialized;
      annotateExponentials(forall, headDim);
    }
  }
};

} // namespace
