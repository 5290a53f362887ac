//===- TiledAttention.h - the tile IR a Hopper kernel lowers ----*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// convert-attn-to-nvvm lowers the fused (and mask-split) tile IR of one
// attention, tiled in an scf.forall, to a kernel. verifyTiledAttention
// checks that the kernel can lower it, with a diagnostic naming the op and
// the rule where it cannot. TiledAttention is a view of the verified tile:
// its one member is the forall, and every fact the kernel and its ABI read
// (the Q, K and V loads, the kv loops, attn.finalize, the producer's loop,
// the rotated loops' prologue and epilogue, the inputs of a paged, varlen
// or split tile, tile sizes, head dims, element type, heads and layouts) is
// found in the IR where it is read, not copied out of it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_TILEDATTENTION_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_TILEDATTENTION_H

#include "CombineKernel.h"
#include "KvLoops.h"

#include "attnc/Transforms/MaskUtils.h"
#include "attnc/Transforms/TileConfig.h"
#include "attnc/Transforms/TileOrder.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::attn {

// Queries of the tile IR that verifyTiledAttention and the kernel share
// (TiledAttentionInputs.cpp).

/// The split-KV tiling forall whose partials `combine` merges (through the
/// tensor.cast canonicalization leaves after a static split count), if any.
scf::ForallOp getSplitTiles(CombineSplitsOp combine);
/// The attn.combine_splits that merges the partials of split-KV tiles
/// `tiles`, if one does (getSplitTiles' converse).
CombineSplitsOp getSplitCombine(scf::ForallOp tiles);
/// The function's index argument a split count chosen at launch is (as it
/// is, or at least 1: attn-tile's max with 1), or null.
BlockArgument getSplitCountArgument(OpFoldResult count);

/// The function argument whose element `index` is: an index_cast of a
/// tensor.extract of it, as attn-tile reads a cache length or a sequence's
/// offset; null otherwise.
BlockArgument getElementArgument(Value index);
/// The function argument whose element, times `rowsPerElement`, `index` is:
/// getElementArgument's, or where `rowsPerElement` > 1 an arith.muli of it
/// by that constant, as attn-tile scales a varlen sequence's token offsets
/// to packed rows (g a token); null otherwise.
BlockArgument getScaledElementArgument(Value index, int64_t rowsPerElement);
/// The tile's attn.sequence_tile (a varlen tile's scheduler), if any.
SequenceTileOp getSequenceTile(scf::ForallOp tile);

/// A view of the tile IR of one attention that verifyTiledAttention
/// accepted: the tiling forall, and queries of its ops. Two read use lists
/// (the tile order's getReversedQueryBlock, getSplitCombine): the kernel asks
/// them before lowerTileOps clones the tile's ops, whose clones use the
/// forall's values until lowerScalarOperands replaces them.
struct TiledAttention {
  /// The tiling forall: (batch, query head, query block), and a split
  /// tile's kv split. It lives until the pass erases the function, after the
  /// kernel is built (mutable: op accessors are not const).
  mutable scf::ForallOp forall;

  /// The tile sizes and element type, read off the tile types: Q's tile is
  /// block_m x D (bf16 or f16), V's block_n x Dv.
  RankedTensorType queryTileType() const {
    return queryLoad().getTile().getType();
  }
  RankedTensorType valueTileType() const {
    return valueLoad().getTile().getType();
  }
  Type elementType() const { return queryTileType().getElementType(); }
  int64_t blockM() const { return queryTileType().getDimSize(0); }
  int64_t headDim() const { return queryTileType().getDimSize(1); }
  int64_t blockN() const { return valueTileType().getDimSize(0); }
  int64_t valueHeadDim() const { return valueTileType().getDimSize(1); }
  /// Q's layout (its load's; K and V share it), and the kernel's heads: for
  /// a packed Q (attn-pack-gqa) those of the packed view, each holding
  /// packedQueryHeads() of the caller's query heads (the attribute on the
  /// function's Q argument; 1 without it).
  Layout layout() const;
  int64_t headsQ() const;
  int64_t headsKV() const;
  int64_t packedQueryHeads() const;
  /// A packed Q whose g does not divide a warpgroup's 64 rows, which
  /// attn-pack-gqa packs for one token only: its rows are that token's
  /// query heads (the kernel records seq_q = 1, which the runtime checks).
  bool packsOneToken() const {
    return packedQueryHeads() > 1 &&
           WgmmaAccumulatorAttr::kRowsPerWarpgroup % packedQueryHeads() != 0;
  }
  /// Whether the kernel writes the LSE: the tile stores its attn.finalize's
  /// LSE (the forall's second store), or a split tile's combine returns it.
  bool hasLse() const;

  /// The positions of the forall's induction variables that its mapping
  /// puts on #gpu.block<z> (batch), <y> (query head) and <x> (query block)
  /// (verifyTiledAttention checked that it holds each once).
  unsigned batchIv() const { return mappedIv(gpu::MappingId::DimZ); }
  unsigned headIv() const { return mappedIv(gpu::MappingId::DimY); }
  unsigned queryBlockIv() const { return mappedIv(gpu::MappingId::DimX); }
  unsigned mappedIv(gpu::MappingId block) const;
  /// A split-KV tile (attn-tile's kv_splits, getKvSplit): the forall's
  /// induction variable kKvSplitDim is the kv split, the tile writes the f32
  /// partial O and LSE of its split, and its attn.combine_splits
  /// (getSplitCombine) merges them.
  bool kvSplit() const { return getKvSplit(forall).has_value(); }
  /// The split count, the forall's bound: compiled in, or computed (arith)
  /// from the function's index argument that the runtime chooses at launch
  /// (the kernel's `kv_splits` parameter; getSplitCountArgument).
  std::optional<int64_t> fixedKvSplits() const {
    return getConstantIntValue(getKvSplit(forall)->second);
  }
  BlockArgument kvSplitsArgument() const {
    return getSplitCountArgument(getKvSplit(forall)->second);
  }
  /// What the tile's attn.combine_splits merges (readCombineShape).
  hopper::CombineShape combineShape() const {
    hopper::CombineShape shape =
        *hopper::readCombineShape(getSplitCombine(forall));
    shape.packedQueryHeads = packedQueryHeads();
    shape.varlen = static_cast<bool>(varlen());
    return shape;
  }
  /// A split count chosen at launch may be 1 (large batches fill the SMs):
  /// then the tile writes O (TMA, from the output buffer) and the LSE itself
  /// and the runtime launches no combine kernel, which would only copy them. A
  /// compiled-in count is more than one.
  bool writesOutputAtOneSplit() const {
    return kvSplit() && kvSplitsArgument();
  }
  /// A paged KV cache: K and V are page pools [pages, pageSize, heads, D]
  /// read with attn.load_paged_tile (null otherwise), the page of a kv
  /// block's rows read from its block table, and the tile's keys its
  /// `length`, an element of the cache lengths (getElementArgument: the
  /// kernel's block_table and cache_lengths pointers).
  LoadPagedTileOp paged() const { return keyLoad().getPaged(); }
  /// A variable-length batch: Q, K, V and O pack the sequences in batch 0,
  /// read with attn.load_varlen_tile (Q's, or null), each load's rows
  /// delimited by elements of the offsets (getElementArgument: the kernel's
  /// cu_seqlens_q and cu_seqlens_k pointers; Q's scaled by g where the
  /// kernel packs query heads: queryOffsets()). The tile's attn.sequence_tile
  /// (getSequenceTile) maps the forall's query tile to its sequence and
  /// query block (the kernel's tile scheduler). O is written with stores
  /// that stop at the sequence's end, not with TMA, which would write on
  /// into the next sequence.
  LoadVarlenTileOp varlen() const { return queryLoad().getVarlen(); }
  /// A varlen tile's cu_seqlens_q argument, whose elements times
  /// packedQueryHeads() delimit Q's rows; null for another tile or where Q's
  /// rows are not such elements (verifyVarlen's diagnostic).
  BlockArgument queryOffsets() const {
    if (!varlen())
      return BlockArgument();
    return getScaledElementArgument(varlen().getBegin(), packedQueryHeads());
  }
  /// The rows of one TMA box of K or V: a kv block, or its part in one page.
  int64_t kvBoxRows() const {
    return paged() ? std::min(paged().getPageSize(), blockN()) : blockN();
  }
  /// The Q tile's load (its row is the tile's first query row): the load of
  /// the first attn.qk's query that is one (verifyTiledAttention checked that
  /// every attn.qk reads it).
  TileLoad queryLoad() const;
  /// The last attn.qk's K load (its head is the kv head of the query head:
  /// GQA) and the last attn.pv's V load; verifyTiledAttention checked that
  /// every kv loop loads K and V as the first does, at its own block.
  TileLoad keyLoad() const;
  TileLoad valueLoad() const;
  /// The load of a kv step's K or V `tile`: its attn.load_tile (or paged or
  /// varlen form), or with warp specialization the one the producer pushes
  /// as the attn.ring_pop result `tile` is (K result 0, V result 1); null
  /// for another tile.
  TileLoad kvTileLoad(Value tile, bool isKey) const;
  /// The tile's attn.finalize: reads the last kv loop's results.
  FinalizeOp finalize() const;
  /// The consumer's kv loops in order (the tile's own without a producer):
  /// the scf.for ops at the top of its region that hold an attn.qk, which
  /// verifyTiledAttention read and checked (readKvLoops).
  SmallVector<scf::ForOp> kvLoops() const;
  /// The producer region's kv loop (the scf.for that holds its
  /// attn.ring_push), with warp specialization; null without.
  scf::ForOp producerLoop() const;
  /// The tensors whose sequence dimension is Nq (Q's) and Nk (K's and V's;
  /// a page pool's rows are pages, not the sequence: its load's length).
  SmallVector<Value> querySequenceSources() const {
    return {queryLoad().getSource()};
  }
  SmallVector<Value> keySequenceSources() const {
    SmallVector<Value> sources;
    for (TileLoad load : {keyLoad(), valueLoad()})
      if (!load.getPaged())
        sources.push_back(load.getSource());
    return sources;
  }
  /// The rotated kv loops' prologue and epilogue (attn-pipeline-kv-loops;
  /// null where the loops are not rotated): stage 0 of block `begin` (the
  /// scf.if the first loop starts from) and stage 1 of the last block (the
  /// scf.if attn.finalize reads O from), each run where `begin < end`.
  scf::IfOp kvPrologue() const {
    if (!softwarePipelined())
      return {};
    return kvLoops().front().getInitArgs().front().getDefiningOp<scf::IfOp>();
  }
  scf::IfOp kvEpilogue() const {
    if (!softwarePipelined())
      return {};
    return finalize().getAcc().getDefiningOp<scf::IfOp>();
  }
  /// The kv range [begin, end) the loops partition: the first loop's lower
  /// and the last loop's upper bound, or for rotated loops the operands of
  /// their prologue's `begin < end`, the range before the rotation.
  Value kvBegin() const;
  Value kvEnd() const;

  /// The shared-memory layouts of the tiles as swizzled atoms: Q, K and V
  /// those of their types (attn-assign-layouts; O goes out through
  /// #attn.shared_memory's output buffer, in Q's layout); P, when it goes
  /// through shared memory, #attn.shared_memory's probs_layout
  /// (attn-allocate-shared-memory). verifyTiledAttention checked that each tile
  /// has one.
  SwizzledAtoms queryAtoms() const { return atomsOf(queryLoad().getTile()); }
  SwizzledAtoms keyAtoms() const { return atomsOf(keyLoad().getTile()); }
  SwizzledAtoms valueAtoms() const { return atomsOf(valueLoad().getTile()); }
  SwizzledAtoms probsAtoms() const {
    SharedMemoryAttr smem = sharedMemory();
    SwizzledSharedAttr layout = smem ? smem.getProbsLayout() : nullptr;
    return layout ? layout.getAtoms() : SwizzledAtoms();
  }
  static SwizzledAtoms atomsOf(Value tile) {
    return cast<SwizzledSharedAttr>(
               cast<RankedTensorType>(tile.getType()).getEncoding())
        .getAtoms();
  }
  /// The first kv loop's attn.qk.
  QKOp firstScoreGemm() const {
    return *kvLoops().front().getBody()->getOps<QKOp>().begin();
  }
  /// The consumer warpgroups, one per 64 query rows: those of the S, P and
  /// O tiles' #attn.wgmma_accumulator (verifyTiledAttention checked that the
  /// tiles and attn.warp_specialize's consumers agree).
  int64_t consumerWarpgroups() const {
    auto scores =
        cast<RankedTensorType>(firstScoreGemm().getScores().getType());
    return cast<WgmmaAccumulatorAttr>(scores.getEncoding()).getWarpgroups();
  }

  /// The tile's attn.warp_specialize (attn-warp-specialize), if any: a
  /// producer warpgroup issues the TMA loads (FA3's warp specialization),
  /// with the op's setmaxnreg budgets.
  WarpSpecializeOp warpSpecialization() const;
  bool warpSpecialize() const { return bool(warpSpecialization()); }
  /// The kv loops are software-pipelined (attn.stage) and rotated: the
  /// softmax of block j runs while P V of block j-1 does (needs warp
  /// specialization).
  bool softwarePipelined() const {
    return isRotatedStep(kvLoops().front().getBody());
  }
  /// The two consumer warpgroups take turns issuing their GEMMs (FA3's
  /// ping-pong): the kv loops hold attn.wait_turn / attn.pass_turn (every
  /// loop or none: verifyTiledAttention's).
  bool pingPong() const {
    return !kvLoops().front().getBody()->getOps<WaitTurnOp>().empty();
  }
  /// Buffers, mbarriers and the K/V ring's stages: the forall's
  /// #attn.shared_memory, which the kernel uses as it is (verifyTiledAttention
  /// checked it).
  SharedMemoryAttr sharedMemory() const {
    return forall->getAttrOfType<SharedMemoryAttr>(
        AttnDialect::getSharedMemoryAttrName());
  }
  int64_t warpgroups() const {
    return consumerWarpgroups() + (warpSpecialize() ? 1 : 0);
  }

  /// O += P V reads P from registers (wgmma RS): the forall's
  /// #attn.shared_memory has no P buffer. Otherwise P goes through shared
  /// memory and wgmma SS (kept as FA3's "without RS" ablation).
  bool probsInRegisters() const { return !sharedMemory().getProbs(); }
  /// Whether the tile holds an attn.launch_dependents: the kernel signals
  /// its programmatic dependents where the op stands in the tile's region.
  bool signalsDependents() const;
  /// A split-KV tile's combine kernel is a programmatic dependent launch
  /// (#attn.split_kv's programmatic_launch) where the tile signals it.
  bool programmaticCombineLaunch() const {
    return kvSplit() && signalsDependents();
  }
};

/// The view of the attention tiled in `forall` once the kernel can lower
/// it, or a diagnostic naming the op and the rule it breaks (and failure).
FailureOr<TiledAttention> verifyTiledAttention(scf::ForallOp forall);

// Parts of verifyTiledAttention, each checking one aspect of the tile (whose
// loads and loops the earlier parts checked) or emitting a diagnostic.

/// That a paged tile reads its page pools, block table and cache lengths
/// as the kernel does (TiledAttentionInputs.cpp).
LogicalResult verifyPagedKv(const TiledAttention &tiled);
/// That a varlen tile reads its offsets and schedules its tiles as the
/// kernel does.
LogicalResult verifyVarlen(const TiledAttention &tiled);
/// That a split-KV tile's partials go to one attn.combine_splits and its
/// split count is one the kernel takes.
LogicalResult verifyKvSplit(const TiledAttention &tiled);
/// That the tile reads each input from the function argument at its role's
/// position (getKernelInputOrder).
LogicalResult verifyArgumentOrder(const TiledAttention &tiled);
/// That the tile's attn.launch_dependents, if any, is one, in `tile`: the
/// consumer region or the forall's (TiledAttentionSchedule.cpp).
LogicalResult verifyLaunchDependents(const TiledAttention &tiled, Region &tile);
/// That rotated kv loops `loops` (attn-pipeline-kv-loops) have the prologue
/// and epilogue the kernel lowers (TiledAttention::kvPrologue, kvEpilogue).
LogicalResult verifyKvPipeline(const TiledAttention &tiled,
                               ArrayRef<KvLoop> loops);
/// The bounds of rotated kv loops before the rotation: `begin`, and each
/// loop's `ub` of its upper bound `max(ub, begin + 1)`
/// (verifyKvPipeline checked that form).
SmallVector<Value> getUnrotatedBounds(const TiledAttention &tiled);
/// That the producer's kv loop streams the blocks the consumers pop.
LogicalResult verifyProducerLoop(const TiledAttention &tiled);

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_TILEDATTENTION_H
