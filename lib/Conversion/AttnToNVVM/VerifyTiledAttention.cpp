//===- VerifyTiledAttention.cpp - can the kernel lower this tile? ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CombineKernel.h"
#include "TileScale.h"
#include "TiledAttention.h"

#include "attnc/Transforms/PipelineStages.h"
#include "attnc/Transforms/TileOrder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "attnc/Runtime/Manifest.h"

using namespace mlir;
using namespace mlir::attn;

/// Whether `load` reads kv block `iv` of its enclosing scf.for: row
/// `iv * block_n`, the rows the kernel's TMA loads of K and V take.
static bool loadsLoopBlock(TileLoad load) {
  auto loop = load.getOperation()->getParentOfType<scf::ForOp>();
  auto mul = load.getRow().getDefiningOp<arith::MulIOp>();
  APInt rows;
  return loop && mul && mul.getLhs() == loop.getInductionVar() &&
         matchPattern(mul.getRhs(), m_ConstantInt(&rows)) &&
         rows.getSExtValue() == load.getTile().getType().getShape()[0];
}

/// Which result of attn.finalize (0: O, 1: LSE) `tile` is, through the
/// clipping tensor.extract_slice and the attn.warp_specialize that yields
/// it; nullopt for anything else.
static std::optional<unsigned> finalizeResultOf(Value tile) {
  if (auto slice = tile.getDefiningOp<tensor::ExtractSliceOp>())
    tile = slice.getSource();
  if (auto ws = tile.getDefiningOp<WarpSpecializeOp>()) {
    auto yield = cast<YieldOp>(ws.getConsumer().front().getTerminator());
    tile = yield.getValues()[cast<OpResult>(tile).getResultNumber()];
  }
  if (tile.getDefiningOp<FinalizeOp>())
    return cast<OpResult>(tile).getResultNumber();
  return std::nullopt;
}

/// The one shared-memory tile layout the kernel lowers, and the rule a tile
/// in another breaks.
static bool isLoweredSharedTile(SwizzledSharedAttr layout) {
  return layout && layout.getSwizzle() == kSm90aSharedTileSwizzle;
}
static std::string loweredSharedTileRule() {
  return "the kernel lowers " + std::to_string(kSm90aSharedTileSwizzle) +
         "-byte swizzled shared tiles (#attn.swizzled_shared<swizzle = " +
         std::to_string(kSm90aSharedTileSwizzle) + ">)";
}

/// The tile layout `value` must have for the kernel to lower it, or a
/// diagnostic on `user` naming it: `expected` exactly, or (a null
/// `expected`) any 128-byte swizzled shared tile.
static LogicalResult requireLayout(Value value, Operation *user,
                                   Attribute expected) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return success();
  Attribute layout = type.getEncoding();
  auto error = [&](const Twine &rule) -> LogicalResult {
    InFlightDiagnostic diag = user->emitError("convert-attn-to-nvvm: ");
    if (auto result = dyn_cast<OpResult>(value))
      diag << "'" << result.getOwner()->getName() << "' result #"
           << result.getResultNumber();
    else if (auto loop = dyn_cast<scf::ForOp>(user))
      diag << "carried value #"
           << cast<BlockArgument>(value).getArgNumber() -
                  loop.getNumInductionVars();
    return diag << " " << type << rule;
  };
  if (!layout)
    return error(" has no tile layout (run attn-assign-layouts; "
                 "attn-lower-to-nvvm-pipeline does)");
  if (!expected) {
    if (isLoweredSharedTile(dyn_cast<SwizzledSharedAttr>(layout)))
      return success();
    return error(": " + loweredSharedTileRule());
  }
  if (layout != expected) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << expected;
    return error(": expected the layout " + name);
  }
  return success();
}

/// Checks that every tile value of the kernel has the layout it is lowered
/// to.
static LogicalResult verifyTileLayouts(const TiledAttention &tiled,
                                       ArrayRef<KvLoop> kvLoops) {
  QKOp firstQK = kvLoops.front().qk();
  auto scores = cast<RankedTensorType>(firstQK.getScores().getType());
  auto accumulator =
      dyn_cast_or_null<WgmmaAccumulatorAttr>(scores.getEncoding());
  if (!accumulator)
    return requireLayout(
        firstQK.getScores(), firstQK,
        WgmmaAccumulatorAttr::get(firstQK.getContext(),
                                  tiled.blockM() /
                                      WgmmaAccumulatorAttr::kRowsPerWarpgroup));
  auto rows = AccumulatorRowsAttr::get(accumulator.getContext(), accumulator);
  auto check = [&](Value value, Operation *user) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    // A 16-bit tile is K or V in shared memory, or P rounded in registers
    // (attn.truncate), which keeps the accumulator layout.
    if (!type.getElementType().isF32() &&
        !isa_and_present<WgmmaAccumulatorAttr>(type.getEncoding()))
      return requireLayout(value, user, Attribute());
    return requireLayout(value, user,
                         type.getRank() == 2 ? Attribute(accumulator)
                                             : Attribute(rows));
  };
  for (const KvLoop &kv : kvLoops) {
    for (BlockArgument arg : kv.loop.getRegionIterArgs())
      if (failed(check(arg, kv.loop)))
        return failure();
    for (Operation &op : kv.loop.getBody()->without_terminator())
      for (Value result : op.getResults())
        if (failed(check(result, &op)))
          return failure();
  }
  for (Value operand : tiled.finalize()->getOperands())
    if (failed(check(operand, tiled.finalize())))
      return failure();
  // Q, K and V are shared-memory tiles whatever their element type.
  for (TileLoad load :
       {TileLoad(tiled.queryLoad()), tiled.keyLoad(), tiled.valueLoad()})
    if (failed(requireLayout(load.getTile(), load.getOperation(), Attribute())))
      return failure();
  return success();
}

namespace {

/// Checks one tiled attention phase by phase, each checking what
/// the kernel lowering needs of its part of the tile IR; a failed phase has
/// emitted the diagnostic. The phases run in the order below, which is the
/// order the diagnostics of an IR with several problems follow.
class TiledAttentionVerifier {
public:
  explicit TiledAttentionVerifier(scf::ForallOp forall) : forall(forall) {
    tiled.forall = forall;
  }

  LogicalResult verify();

private:
  LogicalResult fail(const Twine &why) {
    return forall.emitError("convert-attn-to-nvvm: ") << why;
  }
  /// The kernel reads the lengths from its parameters; bounds folded for
  /// one static shape would run that shape only.
  LogicalResult requireDynamicLength(Value source, StringRef what);
  /// Whether the kernel can compute `v` (verifyLowerableIndex) from the
  /// tile's inputs and `roots`.
  LogicalResult lowerable(Value v, Operation *user, ArrayRef<Value> roots = {});

  /// Q, the forall's grid, the tile sizes, the outputs.
  LogicalResult verifyGrid();
  /// The producer region's kv loop.
  LogicalResult verifyProducer();
  /// The consumer's kv loops: stages, rotation, carried values, turns.
  LogicalResult verifyConsumerLoops();
  /// The K and V loads, the scale values, the steps' waits.
  LogicalResult verifyKvLoadsAndScales();
  LogicalResult verifyTileTopLevel(Block &tile);
  /// A paged cache's and a varlen batch's inputs, the argument order, and
  /// the indices the kernel clones.
  LogicalResult verifyIndices();
  /// That the forall's terminator stores the tile's O and LSE where the
  /// kernel writes them.
  LogicalResult verifyStores();
  /// The softmax scale: an argument or a compiled-in constant.
  LogicalResult verifyScale();
  /// That the kernel can compute the producer loop's bounds.
  LogicalResult verifyProducerBounds();
  /// Heads, element types, head dims, consumers, and the tile layouts.
  LogicalResult verifyTileShape();
  /// #attn.shared_memory and what follows from it.
  LogicalResult verifySharedMemory();
  /// A packed Q's problem.
  LogicalResult verifyPacking();
  /// With ping-pong turns in the kv loops, the first turn's pass before the
  /// kv ops and the last wait after attn.finalize at the top level of the
  /// consumer region `tile`; without them, no turn there.
  LogicalResult verifyTurnProtocol(Block &tile);

  scf::ForallOp forall;
  TiledAttention tiled;
  /// The consumer's kv loops (verifyConsumerLoops).
  SmallVector<KvLoop> kvLoops;
  FinalizeOp finalize;
  SmallVector<QKOp> scoreGemms;
  WarpSpecializeOp specialized;
};

} // namespace

LogicalResult TiledAttentionVerifier::requireDynamicLength(Value source,
                                                           StringRef what) {
  int64_t seqDim = tiled.layout() == Layout::BSHD ? 1 : 2;
  if (cast<RankedTensorType>(source.getType()).isDynamicDim(seqDim))
    return success();
  return forall.emitError("convert-attn-to-nvvm: the kernel takes the "
                          "sequence lengths at launch time, but ")
         << what << " has the static type " << source.getType()
         << "; run attn-generalize-lengths before attn-tile "
            "(attn-lower-to-nvvm-pipeline does)";
}

// The split count's argument is a kernel parameter; a paged tile's cache
// length is read through the cache_lengths pointer, a varlen tile's
// offsets through cu_seqlens_q and cu_seqlens_k, and the kernel's tile
// scheduler gives the sequence and query block of attn.sequence_tile.
LogicalResult TiledAttentionVerifier::lowerable(Value v, Operation *user,
                                                ArrayRef<Value> roots) {
  SmallVector<Value> all(roots), indexTensors;
  if (BlockArgument splits =
          tiled.kvSplit() ? tiled.kvSplitsArgument() : BlockArgument())
    all.push_back(splits);
  if (LoadPagedTileOp paged = tiled.paged())
    indexTensors.push_back(getElementArgument(paged.getLength()));
  if (LoadVarlenTileOp varlen = tiled.varlen()) {
    indexTensors.push_back(tiled.queryOffsets());
    indexTensors.push_back(
        getElementArgument(tiled.keyLoad().getVarlen().getBegin()));
    llvm::append_range(all, getSequenceTile(forall)->getResults());
  }
  return verifyLowerableIndex(v, user, forall, tiled.querySequenceSources(),
                              tiled.keySequenceSources(), tiled.layout(), all,
                              indexTensors);
}

LogicalResult TiledAttentionVerifier::verifyGrid() {
  // The kernel loads Q once, before the kv loops, and every S GEMM reads
  // it: the tile's Q is the one loaded tile that an attn.qk reads.
  TileLoad queryLoad = tiled.queryLoad();
  for (QKOp qk : scoreGemms)
    if (queryLoad && qk.getQuery() != queryLoad.getTile())
      return qk.emitError("convert-attn-to-nvvm: every attn.qk of a tile "
                          "reads the same Q tile (the tile's load of Q)");
  if (queryLoad.getPaged())
    return queryLoad.getOperation()->emitError(
        "convert-attn-to-nvvm: Q must come from attn.load_tile or "
        "attn.load_varlen_tile, not from a page pool");
  if (!queryLoad || !finalize)
    return fail("expected a tiled attention (attn-tile) in the scf.forall");
  // A fourth induction variable is the kv split of a split-KV attention.
  std::optional<std::pair<Value, OpFoldResult>> split = getKvSplit(forall);
  int64_t gridRank = split ? 4 : 3;
  if (forall.getRank() != gridRank)
    return fail("expected the (batch, query head, query block) forall of "
                "attn-tile (and the kv split with kv_splits), got a forall "
                "of rank " +
                Twine(forall.getRank()));
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || int64_t(mapping->size()) != gridRank)
    return fail("expected the forall's mapping to #gpu.block<x>, <y>, <z> "
                "(attn-tile sets it): the kernel's grid");
  SmallVector<gpu::MappingId> mapped;
  for (Attribute attr : mapping->getValue().take_front(3))
    if (auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr))
      mapped.push_back(block.getBlock());
  for (gpu::MappingId dim :
       {gpu::MappingId::DimX, gpu::MappingId::DimY, gpu::MappingId::DimZ})
    if (llvm::count(mapped, dim) != 1)
      return fail("the forall's mapping must hold #gpu.block<x>, <y> and <z> "
                  "once each");
  // The tile sizes wgmma and the kernel's layouts take, before the kv loops
  // are read (block_n = 1 folds the loops' block arithmetic away). An S
  // GEMM's scores are block_m x block_n.
  if (tiled.blockM() != 64 && tiled.blockM() != 128 && tiled.blockM() != 192)
    return fail("block_m must be 64, 128 or 192 (one consumer warpgroup per "
                "64 rows), got " +
                Twine(tiled.blockM()));
  for (QKOp qk : scoreGemms)
    if (int64_t blockN = qk.getType().getShape()[1];
        blockN % 16 != 0 || blockN < 16 || blockN > 256)
      return fail("block_n must be a multiple of 16 in [16, 256], got " +
                  Twine(blockN));
  if (failed(requireDynamicLength(queryLoad.getSource(), "Q")))
    return failure();
  // The forall's results in order: O, then the LSE if the function uses
  // it. Canonicalization drops an unused O; the kernel always writes O.
  SmallVector<std::optional<unsigned>> written;
  for (Operation &op : forall.getTerminator().getYieldingOps())
    written.push_back(
        finalizeResultOf(cast<tensor::ParallelInsertSliceOp>(op).getSource()));
  if (split) {
    if (failed(verifyKvSplit(tiled)))
      return failure();
    if (written.size() != 2 || written[0] != 0u || written[1] != 1u)
      return fail("a split-KV tile must write the partial O and LSE of its "
                  "attn.finalize (attn-tile's kv_splits tiling)");
    written.pop_back();
  }
  if (written.empty() || written.front() != 0u)
    return fail("the tile must write O (the kernel's output; a function "
                "that returns only the LSE is not supported: return O too)");
  if (written.size() > 2 || (written.size() == 2 && written[1] != 1u))
    return fail("the tile must write O and at most the LSE of its "
                "attn.finalize");
  return success();
}

LogicalResult TiledAttentionVerifier::verifyProducer() {
  if (specialized) {
    // The partition attn-warp-specialize chose.
    if (!tiled.producerLoop())
      return specialized.emitError(
          "convert-attn-to-nvvm: the producer region has no kv loop (an "
          "scf.for holding attn.ring_push)");
    // The producer's loop is converted op by op (lowerTileOps): one
    // attn.ring_push of two attn.load_tile results, and index arithmetic.
    Block *producerBody = tiled.producerLoop().getBody();
    int64_t pushes = llvm::range_size(producerBody->getOps<RingPushOp>());
    for (Operation &op : producerBody->without_terminator()) {
      auto push = dyn_cast<RingPushOp>(op);
      if (push &&
          (pushes != 1 || push.getKey().getParentBlock() != producerBody ||
           push.getValue().getParentBlock() != producerBody ||
           !TileLoad::of(push.getKey()) || !TileLoad::of(push.getValue()) ||
           push.getKey() == push.getValue()))
        return op.emitError("convert-attn-to-nvvm: the producer's kv loop "
                            "pushes one K and one V tile, each loaded in the "
                            "loop, once per step");
      bool isIndexArith =
          op.getDialect() == op.getContext()->getLoadedDialect("arith") &&
          llvm::all_of(op.getResultTypes(),
                       [](Type t) { return t.isIntOrIndex(); });
      if (!push && !TileLoad(&op) && !isIndexArith)
        return op.emitError("convert-attn-to-nvvm: no GPU lowering for '")
               << op.getName() << "' in the producer's kv loop";
    }
  }
  return success();
}

/// The consumer warpgroup that a turn op names (`warpgroup(w)`: only that
/// one executes it), if it names one.
static std::optional<int64_t> turnWarpgroup(Operation *op) {
  if (auto wait = dyn_cast<WaitTurnOp>(op))
    return wait.getWarpgroup();
  if (auto pass = dyn_cast<PassTurnOp>(op))
    return pass.getWarpgroup();
  return std::nullopt;
}

/// The kernel converts the top level of a tile (the forall's body, and the
/// consumer region of its attn.warp_specialize; lowerTile): the kv loops,
/// their prologue and epilogue, attn.launch_dependents, attn.finalize, the
/// attn.warp_specialize and Q's load and wait; Q's load must be in the
/// forall's body (thread 0 issues it before the roles split). Every other
/// op must be one the kernel computes before the tile's ops (no effects,
/// no regions): one with effects or regions would be missing from the
/// kernel.
LogicalResult TiledAttentionVerifier::verifyTileTopLevel(Block &tile) {
  TileLoad query = tiled.queryLoad();
  scf::IfOp prologue = tiled.kvPrologue(), epilogue = tiled.kvEpilogue();
  for (Operation &op : tile.without_terminator()) {
    if (TileLoad(&op) == query && &tile != forall.getBody())
      return op.emitError("convert-attn-to-nvvm: Q's load must be in the "
                          "body of the tile's scf.forall, before its "
                          "attn.warp_specialize (thread 0 issues it before "
                          "the roles split)");
    bool lowered =
        isa<FinalizeOp, LaunchDependentsOp>(op) || turnWarpgroup(&op) ||
        (specialized && &op == specialized.getOperation()) ||
        (isa<WaitTileOp>(op) &&
         cast<WaitTileOp>(op).getTile() == query.getTile()) ||
        TileLoad(&op) == query ||
        llvm::any_of(
            kvLoops,
            [&](const KvLoop &kv) { return kv.loop.getOperation() == &op; }) ||
        (prologue &&
         (prologue.getOperation() == &op || epilogue.getOperation() == &op));
    if (lowered || (op.getNumRegions() == 0 && isMemoryEffectFree(&op)))
      continue;
    return op.emitError("convert-attn-to-nvvm: '")
           << op.getName()
           << "' at the top level of a tile has no GPU lowering: there the "
              "kernel lowers the Q load and its wait, attn.warp_specialize, "
              "the kv loops (and their prologue and epilogue), "
              "attn.launch_dependents and attn.finalize, and computes ops "
              "without effects or regions where they are read";
  }
  return success();
}

LogicalResult TiledAttentionVerifier::verifyConsumerLoops() {
  // The kernel runs the kv loops the IR holds, with the IR's bounds and
  // score modifiers (KvLoops.h).
  Region &loopRegion =
      specialized ? specialized.getConsumer() : forall.getRegion();
  FailureOr<SmallVector<KvLoop>> loops = readKvLoops(loopRegion);
  if (failed(loops))
    return failure();
  kvLoops = std::move(*loops);
  // The kernel carries the running max, sum and O from loop to loop in its
  // registers and starts them from splat constants: the first loop's inits,
  // or those its prologue yields without blocks.
  scf::ForOp firstLoop = kvLoops.front().loop;
  // The intra-warpgroup overlap is the loops' two-stage software pipeline
  // (attn.stage), rotated by attn-pipeline-kv-loops, in every kv loop or in
  // none.
  for (const KvLoop &kv : kvLoops)
    if (failed(verifyPipelineStages(kv.loop)))
      return failure();
  bool staged = isSoftwarePipelined(firstLoop);
  bool rotated = kvLoops.front().rotated();
  for (const KvLoop &kv : kvLoops)
    if (isSoftwarePipelined(kv.loop) != staged || kv.rotated() != rotated)
      return kv.loop.emitError("convert-attn-to-nvvm: the kv loops of a tile "
                               "are software-pipelined (attn.stage) and "
                               "rotated all alike or not at all");
  if (staged && !specialized)
    return firstLoop.emitError("convert-attn-to-nvvm: a software-pipelined "
                               "kv loop (attn.stage) needs the producer "
                               "warpgroup of attn.warp_specialize");
  if (staged && !rotated)
    return firstLoop.emitError(
        "convert-attn-to-nvvm: software-pipelined kv loops (attn.stage) run "
        "as attn-pipeline-kv-loops rotates them: run that pass before this "
        "one");
  if (rotated && !staged)
    return firstLoop.emitError(
        "convert-attn-to-nvvm: a rotated kv loop keeps attn.stage = 1 on its "
        "stage-1 ops (the previous block's attn.scale_rows of O, attn.pv and "
        "V release)");
  // The rotated loops' prologue and epilogue: the epilogue is what
  // attn.finalize reads O from.
  if (rotated && failed(verifyKvPipeline(tiled, kvLoops)))
    return failure();
  SmallVector<Value> starts;
  for (auto [init, yielded] :
       llvm::zip_equal(rotated ? tiled.kvPrologue().elseYield().getOperands()
                               : firstLoop.getInitArgs(),
                       firstLoop.getBody()->getTerminator()->getOperands()))
    if (isa_and_present<RowMaxOp, RowSumOp, PVOp>(yielded.getDefiningOp()))
      starts.push_back(init);
  for (Value init : starts) {
    auto constant = init.getDefiningOp<arith::ConstantOp>();
    if (!constant || !isa<SplatElementsAttr>(constant.getValue()))
      return firstLoop.emitError("convert-attn-to-nvvm: the first kv loop "
                                 "must start its carried values from splat "
                                 "constants (the online softmax's m = -inf, "
                                 "l = 0, O = 0)");
  }
  // Each thread holds a partial running sum (the quad's four add up in
  // attn.finalize): only a zero start splits into partial sums.
  for (auto [init, yielded] :
       llvm::zip(starts, firstLoop.getBody()->getTerminator()->getOperands()))
    if (yielded.getDefiningOp<RowSumOp>() &&
        !cast<SplatElementsAttr>(
             init.getDefiningOp<arith::ConstantOp>().getValue())
             .getSplatValue<APFloat>()
             .isPosZero())
      return firstLoop.emitError("convert-attn-to-nvvm: the running sum must "
                                 "start from +0 (each thread holds a partial "
                                 "sum)");
  // attn.stage orders a kv loop's iterations, and ping-pong turns pair up
  // the two warpgroups' kv steps: anywhere else the kernel has no schedule
  // for them.
  Block &tileBlock = loopRegion.front();
  Value queryTile = tiled.queryLoad().getTile();
  auto isQueryWait = [&](Operation *op) {
    auto wait = dyn_cast<WaitTileOp>(op);
    return wait && wait.getTile() == queryTile;
  };
  // The rotated loops' prologue and epilogue steps, if any.
  scf::IfOp prologue = tiled.kvPrologue(), epilogue = tiled.kvEpilogue();
  WalkResult stray = forall.getBody()->walk([&](Operation *op) {
    if (isQueryWait(op)) {
      if (op->getBlock() == &tileBlock)
        return WalkResult::advance();
      op->emitError("convert-attn-to-nvvm: the consumers wait for Q once, "
                    "at the top level of the tile before its first kv op "
                    "(attn-insert-waits places the waits)");
      return WalkResult::interrupt();
    }
    bool staged = op->hasAttr(AttnDialect::getStageAttrName());
    bool turn = isa<WaitTurnOp, PassTurnOp>(op);
    // One warpgroup's turn (the protocol's first pass and last wait) at the
    // tile's top level: verifyTurnProtocol's.
    if (turnWarpgroup(op) && op->getBlock() == &tileBlock)
      return WalkResult::advance();
    bool stepOnly = isa<RingPopOp, RingReleaseOp, WaitTileOp, WaitGemmsOp>(op);
    Operation *parent = op->getParentOp();
    // The prologue's and epilogue's else branches only yield values.
    bool inPipeline = prologue && (op->getBlock() == prologue.thenBlock() ||
                                   op->getBlock() == epilogue.thenBlock());
    bool inKvLoop = llvm::any_of(kvLoops, [&](const KvLoop &kv) {
      return kv.loop.getOperation() == parent;
    });
    if ((!staged && !turn && !stepOnly) ||
        ((inPipeline || inKvLoop) && !turnWarpgroup(op)))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitError("convert-attn-to-nvvm: ");
    if (staged)
      diag << "attn.stage belongs on the ops of a consumer kv loop (or of the "
              "epilogue of rotated kv loops)";
    else if (turnWarpgroup(op))
      diag << "a turn of one warpgroup belongs at the top level of the "
              "consumer region (the first turn's pass before the kv ops, the "
              "last wait after attn.finalize)";
    else if (turn)
      diag << "a ping-pong turn belongs around the attn.qk of a consumer kv "
              "loop (or of the prologue of rotated kv loops)";
    else
      diag << "'" << op->getName()
           << "' belongs in a kv step: a consumer kv loop, or the prologue "
              "or epilogue of rotated kv loops";
    return WalkResult::interrupt();
  });
  if (stray.wasInterrupted())
    return failure();
  // Every S GEMM reads Q, which TMA loads asynchronously: the kernel waits
  // for it where the IR does, once, before the kv ops.
  Operation *firstKvOp = tiled.softwarePipelined()
                             ? tiled.kvPrologue().getOperation()
                             : kvLoops.front().loop.getOperation();
  if (firstKvOp->getBlock() != &tileBlock)
    return firstKvOp->emitError(
        "convert-attn-to-nvvm: the rotated loops' prologue stands in the "
        "block of the kv loops");
  auto queryWaits = llvm::make_filter_range(
      tileBlock.getOps<WaitTileOp>(),
      [&](WaitTileOp wait) { return isQueryWait(wait); });
  if (queryWaits.empty())
    return firstKvOp->emitError(
        "convert-attn-to-nvvm: the tile's S GEMMs read Q before an "
        "attn.wait_tile of it (attn-insert-waits places the waits)");
  // The wait in the wrong place: the first after the first kv op, or the
  // second.
  WaitTileOp queryWait = *queryWaits.begin();
  if (queryWait->isBeforeInBlock(firstKvOp) &&
      std::next(queryWaits.begin()) != queryWaits.end())
    queryWait = *std::next(queryWaits.begin());
  if (queryWait != *queryWaits.begin() ||
      !queryWait->isBeforeInBlock(firstKvOp))
    return queryWait.emitError(
        "convert-attn-to-nvvm: the consumers wait for Q once, at the top "
        "level of the tile before its first kv op (attn-insert-waits places "
        "the waits)");
  if (failed(verifyLaunchDependents(tiled, loopRegion)))
    return failure();
  for (auto [previous, next] : llvm::zip(kvLoops, llvm::drop_begin(kvLoops)))
    if (next.loop.getInitArgs() != previous.loop.getResults())
      return next.loop.emitError("convert-attn-to-nvvm: a kv loop must carry "
                                 "on the previous kv loop's results, in "
                                 "order");
  scf::ForOp lastLoop = kvLoops.back().loop;
  for (Value operand :
       {finalize.getAcc(), finalize.getRowSum(), finalize.getRowMax()})
    if (operand.getDefiningOp() != lastLoop.getOperation() &&
        !(tiled.softwarePipelined() && operand == finalize.getAcc()) &&
        !(operand == finalize.getRowMax() && isFixedMax(operand)))
      return finalize.emitError("convert-attn-to-nvvm: attn.finalize must "
                                "read the last kv loop's results (or a "
                                "fixed max)");
  // A fixed max is one constant: the LSE adds the one the exponentials
  // subtracted.
  if (isFixedMax(finalize.getRowMax())) {
    WalkResult mismatch = forall.walk([&](ExpDiffOp exp) {
      if (exp.getRowMax() == finalize.getRowMax())
        return WalkResult::advance();
      exp.emitError("convert-attn-to-nvvm: every attn.exp_diff of a tile "
                    "with a fixed max subtracts the one attn.finalize reads");
      return WalkResult::interrupt();
    });
    if (mismatch.wasInterrupted())
      return failure();
  }
  if (failed(verifyTileTopLevel(loopRegion.front())) ||
      (specialized && failed(verifyTileTopLevel(*forall.getBody()))))
    return failure();
  // Ping-pong turns pair up the two warpgroups' steps: every loop takes
  // them, or none does.
  for (const KvLoop &kv : kvLoops)
    if (kv.turn.has_value() != tiled.pingPong())
      return kv.loop.emitError("convert-attn-to-nvvm: the kv loops of a tile "
                               "take ping-pong turns (attn.wait_turn, "
                               "attn.pass_turn) all alike or not at all");
  return success();
}

LogicalResult TiledAttentionVerifier::verifyTurnProtocol(Block &tile) {
  // The top-level turns of one warpgroup, in order.
  SmallVector<Operation *> turns;
  for (Operation &op : tile)
    if (isa<WaitTurnOp, PassTurnOp>(op))
      turns.push_back(&op);
  Operation *firstKvOp = tiled.softwarePipelined()
                             ? tiled.kvPrologue().getOperation()
                             : kvLoops.front().loop.getOperation();
  auto isTurn = [](Operation *op, bool pass, int64_t warpgroup) {
    return (pass ? isa<PassTurnOp>(op) : isa<WaitTurnOp>(op)) &&
           turnWarpgroup(op) == warpgroup;
  };
  bool balanced = turns.size() == 2 && isTurn(turns[0], true, 1) &&
                  turns[0]->isBeforeInBlock(firstKvOp) &&
                  isTurn(turns[1], false, 0) &&
                  tiled.finalize()->isBeforeInBlock(turns[1]);
  if (tiled.pingPong() ? balanced : turns.empty())
    return success();
  Operation *at = turns.empty() ? firstKvOp : turns.front();
  if (!tiled.pingPong())
    return at->emitError("convert-attn-to-nvvm: a turn of one warpgroup "
                         "without ping-pong turns in the kv loops");
  return at->emitError("convert-attn-to-nvvm: the kv loops take ping-pong "
                       "turns, so the consumer region holds one "
                       "'attn.pass_turn warpgroup(1)' before the kv ops "
                       "(warpgroup 0 has the first turn) and one "
                       "'attn.wait_turn warpgroup(0)' after attn.finalize "
                       "(its pending arrival consumed), and no other turn "
                       "at its top level");
}

/// Whether `a` and `b` load the same tensor's rows of the same batch and
/// head (through the same block table and length, or of the same
/// sequence's rows) into the same tile type: the loads of K (or V) in two kv
/// loops, which differ in their block (the row) only.
static bool loadsSameOperand(TileLoad a, TileLoad b) {
  Operation *x = a.getOperation(), *y = b.getOperation();
  if (x->getName() != y->getName() ||
      x->getResultTypes() != y->getResultTypes() ||
      x->getAttrDictionary() != y->getAttrDictionary())
    return false;
  unsigned row = a.getRowOperand().getOperandNumber();
  for (OpOperand &operand : x->getOpOperands())
    if (operand.getOperandNumber() != row &&
        operand.get() != y->getOperand(operand.getOperandNumber()))
      return false;
  return true;
}

LogicalResult TiledAttentionVerifier::verifyKvLoadsAndScales() {
  bool sawKey = false, sawValue = false;
  // The attn.load_tile (or attn.load_paged_tile) of a K or V tile, which
  // must read its kv loop's block (the rows the kernel's TMA loads take);
  // null after a diagnostic.
  auto kvLoad = [&](Operation *user, Value tile, bool isKey) -> TileLoad {
    StringRef what = isKey ? "K" : "V";
    if (OpResult popped = RingPopOp::ofTile(tile);
        popped && popped.getResultNumber() != (isKey ? 0u : 1u)) {
      user->emitError("convert-attn-to-nvvm: ")
          << user->getName() << " reads the popped " << (isKey ? "V" : "K")
          << " tile where it takes " << what << " (attn.ring_pop's result "
          << (isKey ? 0 : 1) << ")";
      return {};
    }
    TileLoad load = tiled.kvTileLoad(tile, isKey);
    if (!load) {
      user->emitError("convert-attn-to-nvvm: ")
          << what << " tiles must come from attn.load_tile, "
          << "attn.load_paged_tile or attn.load_varlen_tile (directly or "
             "through the producer's attn.ring_push)";
      return {};
    }
    if (!loadsLoopBlock(load)) {
      load.getOperation()->emitError("convert-attn-to-nvvm: the ")
          << what
          << " tile's row must be its kv loop's induction variable times "
             "block_n";
      return {};
    }
    return load;
  };
  // The kernel loads K and V of every kv loop as it loads the first one's
  // (one tensor map, head and batch): a loop that reads another tensor,
  // head or sequence would silently read the first one's.
  TileLoad firstKeyLoad, firstValueLoad;
  auto checkSameOperand = [&](TileLoad &first, TileLoad load) -> LogicalResult {
    if (!first)
      first = load;
    if (loadsSameOperand(first, load))
      return success();
    InFlightDiagnostic diag = load.getOperation()->emitError(
        "convert-attn-to-nvvm: every kv loop must load this tile as the "
        "first loads it (the same tensor, batch and head, page table and "
        "length, or sequence rows; tile type and layout), at its own block");
    diag.attachNote(first.getOperation()->getLoc()) << "the first load";
    return diag;
  };
  Value scaleLog2;
  WalkResult walk = forall.getBody()->walk([&](Operation *op) -> WalkResult {
    if (auto pv = dyn_cast<PVOp>(op)) {
      TileLoad valueLoad = kvLoad(op, pv.getValue(), /*isKey=*/false);
      if (!valueLoad || failed(checkSameOperand(firstValueLoad, valueLoad)))
        return WalkResult::interrupt();
      sawValue = true;
    } else if (auto qk = dyn_cast<QKOp>(op)) {
      TileLoad keyLoad = kvLoad(op, qk.getKey(), /*isKey=*/true);
      if (!keyLoad || failed(checkSameOperand(firstKeyLoad, keyLoad)))
        return WalkResult::interrupt();
      sawKey = true;
    } else if (isa<ExpDiffOp, RescaleFactorOp>(op)) {
      // The kernel computes one exp2 multiplier for the whole tile.
      Value operand = op->getOperand(op->getNumOperands() - 1);
      if (scaleLog2 && scaleLog2 != operand) {
        op->emitError("convert-attn-to-nvvm: every attn.exp_diff and "
                      "attn.rescale_factor of a tile must take the same "
                      "scale_log2 value (the kernel computes it once)");
        return WalkResult::interrupt();
      }
      scaleLog2 = operand;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Each kv step waits for the tiles and GEMM results it reads where the IR
  // says (attn-insert-waits), which the kernel lowers as they stand.
  SmallVector<Block *> steps;
  for (const KvLoop &kv : kvLoops)
    steps.push_back(kv.loop.getBody());
  if (tiled.softwarePipelined()) {
    steps.push_back(tiled.kvPrologue().thenBlock());
    steps.push_back(tiled.kvEpilogue().thenBlock());
  }
  for (Block *step : steps)
    if (failed(verifyStepWaits(step)))
      return failure();
  // readKvLoops requires attn.qk and attn.pv in every kv loop.
  assert(sawKey && sawValue && "a kv loop without attn.qk or attn.pv");
  for (Value source : tiled.keySequenceSources())
    if (failed(requireDynamicLength(source, "K or V")))
      return failure();

  return success();
}

LogicalResult TiledAttentionVerifier::verifyIndices() {
  // Every index the kernel clones from the IR must be computable there.
  if ((tiled.keyLoad().getPaged() || tiled.valueLoad().getPaged()) &&
      failed(verifyPagedKv(tiled)))
    return failure();
  if ((tiled.queryLoad().getVarlen() || tiled.keyLoad().getVarlen() ||
       tiled.valueLoad().getVarlen()) &&
      failed(verifyVarlen(tiled)))
    return failure();
  if (failed(verifyArgumentOrder(tiled)))
    return failure();
  // The kernel loads K and V at the batch and kv head of K's load.
  if (tiled.valueLoad().getHead() != tiled.keyLoad().getHead() ||
      tiled.valueLoad().getBatch() != tiled.keyLoad().getBatch())
    return tiled.valueLoad().getOperation()->emitError(
        "convert-attn-to-nvvm: V must be loaded at K's batch and head (the "
        "kernel loads both at those of K's load)");
  if (tiled.paged() && failed(lowerable(tiled.paged().getLength(),
                                        tiled.keyLoad().getOperation())))
    return failure();
  // The query block and a varlen tile's index may read the forall's
  // query-block bound (attn-order-tiles), which the kernel takes from the
  // grid.
  SmallVector<Value> gridBound;
  if (auto bound =
          dyn_cast<Value>(forall.getMixedUpperBound()[tiled.queryBlockIv()]))
    gridBound.push_back(bound);
  // Q is loaded at its load's batch, head and row, K and V at K's batch and
  // head (their rows are the kv loops' blocks). A varlen load has no batch.
  TileLoad query = tiled.queryLoad(), key = tiled.keyLoad();
  for (auto [load, index] :
       {std::pair(query, query.getBatch()), std::pair(query, query.getHead()),
        std::pair(query, query.getRow()), std::pair(key, key.getBatch()),
        std::pair(key, key.getHead())})
    if (index && failed(lowerable(index, load.getOperation(), gridBound)))
      return failure();
  if (LoadVarlenTileOp varlen = tiled.varlen()) {
    SequenceTileOp tile = getSequenceTile(forall);
    if (failed(lowerable(tile.getTile(), tile, gridBound)) ||
        failed(lowerable(varlen.getBegin(), varlen)) ||
        failed(lowerable(varlen.getEnd(), varlen)) ||
        failed(lowerable(tiled.keyLoad().getVarlen().getBegin(),
                         tiled.keyLoad().getOperation())))
      return failure();
  }
  if (scf::IfOp prologue = tiled.kvPrologue()) {
    for (Value bound : getUnrotatedBounds(tiled))
      if (failed(lowerable(bound, prologue)))
        return failure();
    for (auto mask : prologue.thenBlock()->getOps<MaskOp>())
      for (Value operand : {mask.getRowOffset(), mask.getColOffset(),
                            mask.getSeqQ(), mask.getSeqK()})
        if (failed(lowerable(operand, mask)))
          return failure();
  }
  for (const KvLoop &kv : kvLoops) {
    if (failed(lowerable(kv.loop.getLowerBound(), kv.loop)) ||
        failed(lowerable(kv.loop.getUpperBound(), kv.loop)))
      return failure();
    Value iv = kv.loop.getInductionVar();
    for (Operation *op : kv.scoreModifiers)
      if (auto mask = dyn_cast<MaskOp>(op))
        for (Value operand : {mask.getRowOffset(), mask.getColOffset(),
                              mask.getSeqQ(), mask.getSeqK()})
          if (failed(lowerable(operand, mask, iv)))
            return failure();
  }
  return success();
}

// The kernel writes a tile's leading rows, all of O's columns, at the
// store's offsets (a split tile's split first, then the batch, head and row
// in the layout of the tensor written: O's; the LSE's [B, H, Nq]; a split's
// partials [S, B, H, Nq, Dv] and [S, B, H, Nq]). It stores the rows below
// Nq (a varlen tile's: below its sequence's end, the Q load's), which the
// TMA box clips or the row stores skip: the slice's rows must be that
// count, attn-tile's min(Nq - row, block_m) of the store's row (varlen:
// max(min(length - row, block_m), 0), the store's row being the sequence's
// first plus that row).
LogicalResult TiledAttentionVerifier::verifyStores() {
  TileLoad query = tiled.queryLoad();
  LoadVarlenTileOp varlen = query.getVarlen();
  // Whether `rows` is min(length - row, block_m), either way round.
  auto isRowsBelow = [&](Value rows, Value row,
                         function_ref<bool(Value)> isLength) {
    auto min = rows ? rows.getDefiningOp<arith::MinSIOp>() : arith::MinSIOp();
    if (!min)
      return false;
    for (auto [left, blockRows] : {std::pair(min.getLhs(), min.getRhs()),
                                   std::pair(min.getRhs(), min.getLhs())}) {
      auto sub = left.getDefiningOp<arith::SubIOp>();
      if (sub && isLength(sub.getLhs()) && sub.getRhs() == row &&
          isConstantIntValue(blockRows, tiled.blockM()))
        return true;
    }
    return false;
  };
  // Whether `rows` are the tile's rows below the length, for a store at
  // row `at`.
  auto isTileRows = [&](OpFoldResult rows, OpFoldResult at) {
    auto value = dyn_cast<Value>(rows);
    auto row = dyn_cast<Value>(at);
    if (varlen) {
      // At the sequence's first row plus `row`; the sequence's length is
      // end - begin of Q's rows, never below row.
      auto sum = row ? row.getDefiningOp<arith::AddIOp>() : arith::AddIOp();
      if (!sum || (sum.getLhs() != varlen.getBegin() &&
                   sum.getRhs() != varlen.getBegin()))
        return false;
      Value inSequence =
          sum.getLhs() == varlen.getBegin() ? sum.getRhs() : sum.getLhs();
      auto max =
          value ? value.getDefiningOp<arith::MaxSIOp>() : arith::MaxSIOp();
      return max && isConstantIntValue(max.getRhs(), 0) &&
             isRowsBelow(max.getLhs(), inSequence, [&](Value length) {
               auto sub = length.getDefiningOp<arith::SubIOp>();
               return sub && sub.getLhs() == varlen.getEnd() &&
                      sub.getRhs() == varlen.getBegin();
             });
    }
    return row && isRowsBelow(value, row, [&](Value length) {
             auto dim = length.getDefiningOp<tensor::DimOp>();
             return dim && dim.getSource() == query.getSource() &&
                    dim.getConstantIndex() ==
                        int64_t(physicalDim(2, tiled.layout()));
           });
  };
  for (Operation &op : forall.getTerminator().getYieldingOps()) {
    auto store = cast<tensor::ParallelInsertSliceOp>(op);
    auto fail = [&](const Twine &rule) {
      return store.emitError("convert-attn-to-nvvm: the tile's store ") << rule;
    };
    bool isOutput = finalizeResultOf(store.getSource()) == 0u;
    // O is 4-D, the LSE 3-D; a split's partials have the split in front.
    int64_t rank = (isOutput ? 4 : 3) + (tiled.kvSplit() ? 1 : 0);
    if (store.getDestType().getRank() != rank)
      return fail("must write " + Twine(isOutput ? "O" : "the LSE") +
                  " into a " + Twine(rank) + "-D tensor, got " +
                  Twine(store.getDestType().getRank()) + "-D");
    if (!store.hasUnitStride())
      return fail("must have unit strides");
    // The kernel clones the offsets' and rows' index arithmetic with the
    // store's.
    for (Value index :
         llvm::concat<Value>(store.getOffsets(), store.getSizes()))
      if (failed(lowerable(index, store)))
        return failure();
    // O is in Q's layout; the LSE and the split partials are [B, H, Nq].
    unsigned first = tiled.kvSplit() ? 1 : 0;
    unsigned rowDim =
        first +
        (isOutput && !tiled.kvSplit() ? physicalDim(2, tiled.layout()) : 2);
    if (isOutput && !isConstantIntValue(store.getMixedOffsets().back(), 0))
      return fail("must write O from its first column");
    if (isOutput && store.getStaticSizes().back() != tiled.valueHeadDim())
      return fail("must write all " + Twine(tiled.valueHeadDim()) +
                  " columns of O");
    // The tile's rows go along Nq, in one batch and head (and split).
    auto slice = store.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    OpFoldResult tileRows =
        slice ? slice.getMixedSizes().front()
              : OpFoldResult(Builder(store).getIndexAttr(tiled.blockM()));
    for (auto [dim, size] : llvm::enumerate(store.getMixedSizes())) {
      bool isColumns = isOutput && int64_t(dim) + 1 == rank;
      if (dim == rowDim ? !isEqualConstantIntOrValue(size, tileRows)
                        : !isColumns && !isConstantIntValue(size, 1))
        return fail("must write the tile's rows along Nq (dim " +
                    Twine(rowDim) + "), one of every other dim" +
                    (isOutput ? " but O's columns" : ""));
    }
    // A varlen tile's rows end at its sequence's end: the slice says so.
    if (!slice && varlen)
      return fail("must write a tensor.extract_slice of the tile's rows "
                  "below its sequence's length");
    if (!slice)
      continue;
    if (!slice.hasUnitStride() ||
        !llvm::all_of(slice.getMixedOffsets(), [](OpFoldResult offset) {
          return isConstantIntValue(offset, 0);
        }))
      return fail("must write the leading rows of attn.finalize's "
                  "results (a tensor.extract_slice at offset 0 with unit "
                  "strides)");
    // A static row count is not min(Nq - row, block_m): isTileRows rejects
    // it below.
    if (auto rows = dyn_cast<Value>(slice.getMixedSizes().front());
        rows && failed(lowerable(rows, store)))
      return failure();
    if (!isTileRows(slice.getMixedSizes().front(),
                    store.getMixedOffsets()[rowDim]))
      return fail(Twine("must write the tile's rows below ") +
                  (varlen ? "its sequence's length" : "Nq") + " (attn-tile's " +
                  (varlen ? "max(min(length - row, block_m), 0) at the "
                            "sequence's first row plus row"
                          : "min(Nq - row, block_m) at row") +
                  "), which the kernel stores");
  }
  return success();
}

LogicalResult TiledAttentionVerifier::verifyScale() {
  // The scale values come from constants and at most one f32 argument of
  // the function (attn-generalize-scale), which the kernel takes at launch.
  auto func = forall->getParentOfType<FunctionOpInterface>();
  SmallVector<Value> scaleArguments;
  if (func)
    for (BlockArgument arg : func.getArguments())
      if (arg.getType().isF32())
        scaleArguments.push_back(arg);
  if (scaleArguments.size() > 1)
    return fail("the function has " + Twine(scaleArguments.size()) +
                " f32 arguments; a kernel takes one (the softmax scale)");
  // readKvLoops requires an attn.exp_diff in every kv loop.
  assert(getScaleLog2(forall) && "a kv loop without attn.exp_diff");
  // The kernel computes the scale operands at its entry: the kernel takes
  // the argument if any of them is computed from it (getScaleArgument);
  // otherwise every one is a constant and the scale is compiled in.
  for (auto [user, value] : getScaleOperands(forall))
    if (failed(lowerable(value, user, scaleArguments)))
      return failure();
  return success();
}

LogicalResult TiledAttentionVerifier::verifyProducerBounds() {
  if (scf::ForOp producer = tiled.producerLoop();
      producer && (failed(lowerable(producer.getLowerBound(), producer)) ||
                   failed(lowerable(producer.getUpperBound(), producer))))
    return failure();

  return success();
}

LogicalResult TiledAttentionVerifier::verifyTileShape() {
  // One CTA row per query head on the grid's y dimension.
  if (tiled.headsQ() > 65535)
    return fail("heads_q = " + Twine(tiled.headsQ()) +
                " exceeds the 65535 query heads a grid's y dimension holds");
  Type el = tiled.elementType();
  if (!el.isBF16() && !el.isF16())
    return fail(Twine("element type must be bf16 or f16 for wgmma, got ") +
                (el.isF32() ? "f32" : "another type"));
  for (auto [what, dim] :
       {std::pair<StringRef, int64_t>{"head dim", tiled.headDim()},
        {"value head dim", tiled.valueHeadDim()}})
    if (dim % 8 != 0 || dim < 32 || dim > 256)
      return fail(what +
                  " must be a multiple of 8 from 32 to 256 (wgmma n and "
                  "16-byte TMA rows), got " +
                  Twine(dim));

  // The combine kernel merges the tile's partials into O of the
  // attention's element type (the manifest's dtype, and what the tile
  // writes itself at one split).
  if (tiled.kvSplit()) {
    CombineSplitsOp combine = getSplitCombine(forall);
    hopper::CombineShape shape = tiled.combineShape();
    if (shape.elementType != el || shape.heads != tiled.headsQ() ||
        shape.valueHeadDim != tiled.valueHeadDim())
      return combine.emitError("convert-attn-to-nvvm: attn.combine_splits "
                               "must merge the split tile's rows into O of "
                               "the attention's element type (")
             << el << ", " << tiled.headsQ() << " heads, value head dim "
             << tiled.valueHeadDim() << "), got " << shape.elementType << ", "
             << shape.heads << " heads, value head dim " << shape.valueHeadDim;
  }

  constexpr int64_t kRows = WgmmaAccumulatorAttr::kRowsPerWarpgroup;
  if (specialized &&
      int64_t(specialized.getConsumerWarpgroups()) * kRows != tiled.blockM())
    return specialized.emitError("convert-attn-to-nvvm: consumers(")
           << specialized.getConsumerWarpgroups()
           << ") must be block_m / 64 = " << tiled.blockM() / kRows
           << ": each consumer warpgroup computes 64 query rows (one "
              "wgmma m64 tile)";
  // O is the attention's output in Q's element type, or a split's f32
  // partial (which the combine rounds).
  Type output = tiled.finalize().getOutput().getType().getElementType();
  Type expected = tiled.kvSplit() ? Float32Type::get(el.getContext()) : el;
  if (output != expected)
    return tiled.finalize().emitError("convert-attn-to-nvvm: attn.finalize's "
                                      "output must be ")
           << expected
           << (tiled.kvSplit() ? " (a split tile's partial O)"
                               : " (Q's element type)")
           << ", got " << output;
  // wgmma multiplies tiles of one element type.
  for (TileLoad load : {tiled.keyLoad(), tiled.valueLoad()})
    if (load.getTile().getType().getElementType() != el)
      return load.getOperation()->emitError(
                 "convert-attn-to-nvvm: K and V tiles must have Q's element "
                 "type ")
             << el << ", got " << load.getTile().getType().getElementType();
  // Where each tile value lives, as attn-assign-layouts recorded it (the
  // accumulator layout's warpgroups are block_m / 64: its verifier).
  if (failed(verifyTileLayouts(tiled, kvLoops)))
    return failure();

  return success();
}

LogicalResult TiledAttentionVerifier::verifySharedMemory() {
  // Shared memory as attn-allocate-shared-memory laid it out; whether P
  // goes through it follows.
  auto smem = forall->getAttrOfType<SharedMemoryAttr>(
      AttnDialect::getSharedMemoryAttrName());
  if (!smem)
    return fail("the tile has no #attn.shared_memory (run "
                "attn-allocate-shared-memory; attn-lower-to-nvvm-pipeline "
                "does)");
  if (specialized && smem.getStages() != int64_t(specialized.getStages()))
    return fail("#attn.shared_memory has " + Twine(smem.getStages()) +
                " K/V stages but attn.warp_specialize has " +
                Twine(specialized.getStages()));
  if (SwizzledSharedAttr probsLayout = smem.getProbsLayout()) {
    if (!isLoweredSharedTile(probsLayout))
      return fail("#attn.shared_memory's probs_layout is " +
                  Twine(probsLayout.getSwizzle()) + "-byte swizzled; " +
                  loweredSharedTileRule());
  }
  if (std::optional<int64_t> splits =
          tiled.kvSplit() ? tiled.fixedKvSplits() : std::nullopt;
      splits && (*splits < 2 || *splits > 65535))
    return fail("a compiled-in kv split count must be in [2, 65535] (grid "
                "z is batch x splits), got " +
                Twine(*splits));
  if (tiled.softwarePipelined() && !tiled.probsInRegisters())
    return fail("the intra-warpgroup overlap (attn.stage = 1) needs P in "
                "registers, but #attn.shared_memory has a P buffer");
  // The attribute's verifier checked alignment and overlaps (and that O
  // staged over Q fits Q's buffer); the buffers must also hold this tile.
  SharedMemoryLayout needed({tiled.blockM(), tiled.blockN()}, tiled.headDim(),
                            tiled.valueHeadDim(),
                            {tiled.queryAtoms(), tiled.keyAtoms(),
                             tiled.valueAtoms(), tiled.probsAtoms()},
                            smem.getStages(), tiled.probsInRegisters());
  int64_t neededQueryBytes =
      tiled.queryAtoms().tileBytes(tiled.blockM(), tiled.headDim());
  if (smem.getQueryBytes() < neededQueryBytes ||
      smem.getOutputBytes() < needed.outputBytes ||
      smem.getKeyStageBytes() < needed.keyStageBytes ||
      smem.getValueStageBytes() < needed.valueStageBytes ||
      smem.getProbsBytes().value_or(0) < needed.probsBytes.value_or(0))
    return fail("#attn.shared_memory is too small for the tile: it needs " +
                Twine(neededQueryBytes) + " bytes of Q, " +
                Twine(needed.outputBytes) + " of O, " +
                Twine(needed.keyStageBytes) + " per K stage and " +
                Twine(needed.valueStageBytes) + " per V stage");
  if (smem.getSize() > SharedMemoryLayout::kMaxBytes)
    return fail("#attn.shared_memory has " + Twine(smem.getSize()) +
                " bytes, more than the " +
                Twine(SharedMemoryLayout::kMaxBytes) +
                " a CTA may use on sm_90a");
  // The kernel indexes the named barriers by consumer warpgroup.
  auto consecutive = [](ArrayRef<int64_t> ids) {
    for (auto [a, b] : llvm::zip(ids, llvm::drop_begin(ids)))
      if (b != a + 1)
        return false;
    return true;
  };
  if (static_cast<int64_t>(smem.getWarpgroupBarriers().size()) !=
          tiled.consumerWarpgroups() ||
      !consecutive(smem.getWarpgroupBarriers()))
    return fail("#attn.shared_memory's warpgroup_barriers must hold one id "
                "per consumer warpgroup (" +
                Twine(tiled.consumerWarpgroups()) + "), consecutive");
  if (tiled.pingPong() != !smem.getTurnBarriers().empty())
    return fail(tiled.pingPong() ? "the kv loops take ping-pong turns but "
                                   "#attn.shared_memory has no turn_barriers"
                                 : "#attn.shared_memory has turn_barriers but "
                                   "the kv loops take no ping-pong turns");
  if (tiled.pingPong() &&
      (static_cast<int64_t>(smem.getTurnBarriers().size()) !=
           tiled.consumerWarpgroups() ||
       !consecutive(smem.getTurnBarriers())))
    return fail("#attn.shared_memory's turn_barriers must hold one id per "
                "consumer warpgroup (" +
                Twine(tiled.consumerWarpgroups()) + "), consecutive");
  return success();
}

LogicalResult TiledAttentionVerifier::verifyPacking() {
  // A packed Q (attn-pack-gqa) holds the query heads of one kv head as
  // rows: the runtime's view of the caller's Q is the argument's packing,
  // the tile's masks and ranges the attention's (attn.finalize repeats it),
  // each kv head has one packed head, and every mask places a row at its
  // query position (its packed_query_heads).
  int64_t tilePacking = tiled.finalize().getPackedQueryHeads().value_or(1);
  if (tilePacking != tiled.packedQueryHeads())
    return fail("the tile's rows are " +
                (tilePacking > 1 ? Twine(tilePacking) + " packed query heads"
                                 : Twine("one query head's")) +
                " (attn.finalize's packed_query_heads), but Q " +
                (tiled.packedQueryHeads() > 1
                     ? "packs " + Twine(tiled.packedQueryHeads())
                     : Twine("is not a packed argument")) +
                " (attn.packed_query_heads, which the runtime's view "
                "follows); attn-pack-gqa sets both");
  if (tiled.packedQueryHeads() > 1) {
    if (tiled.headsQ() != tiled.headsKV())
      return fail(
          "Q has attn.packed_query_heads = " + Twine(tiled.packedQueryHeads()) +
          ", but only an attention with as many (packed) query heads as kv "
          "heads computes a packed problem (attn-pack-gqa)");
  }
  for (const KvLoop &kv : kvLoops) {
    MaskOp mask = kv.mask();
    if (!mask)
      continue;
    int64_t maskPacking = mask.getPackedQueryHeads().value_or(1);
    if (maskPacking != tiled.packedQueryHeads())
      return mask.emitError("convert-attn-to-nvvm: this mask takes its rows "
                            "as ")
             << (maskPacking > 1 ? Twine(maskPacking) + " packed query heads"
                                 : Twine("one query head's"))
             << " (packed_query_heads), but Q's rows are "
             << (tiled.packedQueryHeads() > 1
                     ? Twine(tiled.packedQueryHeads()) + " packed query heads"
                     : Twine("one query head's"))
             << " (attn.packed_query_heads)";
  }
  return success();
}

LogicalResult TiledAttentionVerifier::verify() {
  forall.getBody()->walk([&](Operation *op) {
    if (auto f = dyn_cast<FinalizeOp>(op))
      finalize = f;
    else if (auto qk = dyn_cast<QKOp>(op))
      scoreGemms.push_back(qk);
    else if (auto ws = dyn_cast<WarpSpecializeOp>(op))
      specialized = ws;
  });
  if (failed(verifyGrid()) || failed(verifyProducer()) ||
      failed(verifyConsumerLoops()) || failed(verifyKvLoadsAndScales()) ||
      failed(verifyIndices()) || failed(verifyStores()) ||
      failed(verifyScale()) || failed(verifyProducerBounds()) ||
      failed(verifyTileShape()) || failed(verifySharedMemory()) ||
      failed(verifyPacking()))
    return failure();
  if (tiled.warpSpecialize() && failed(verifyProducerLoop(tiled)))
    return failure();
  return verifyTurnProtocol(*tiled.finalize()->getBlock());
}

FailureOr<TiledAttention>
mlir::attn::verifyTiledAttention(scf::ForallOp forall) {
  if (failed(TiledAttentionVerifier(forall).verify()))
    return failure();
  return TiledAttention{forall};
}
