//===- KernelEmitter.h - the sm_90a kernel emitter --------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The class HopperKernel.cpp (the kernel's structure, the role branch of
// attn.warp_specialize, attn.finalize), KernelTileOps.cpp (one lowering
// per tile op of a kv step; TileOpPatterns.cpp makes each lowering a
// conversion pattern), KernelStep.cpp (the tile's ops, cloned into the
// kernel and converted) and KernelGemm.cpp (wgmma) implement: one instance
// emits one kernel, and each pattern lowers with a copy of it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H

#include "FragmentTypes.h"
#include "HopperKernel.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::attn::hopper {

inline constexpr int64_t kWarpgroupThreads = 128;
inline constexpr int64_t kWarpgroupRows =
    WgmmaAccumulatorAttr::kRowsPerWarpgroup; // rows of one wgmma m64 tile

/// Whether `v` is a K or V tile in shared memory (a ring slot), which has
/// no register values.
inline bool isRingTile(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa_and_present<SwizzledSharedAttr>(type.getEncoding());
}

/// Whether `tile` is the Q tile of an attn.qk.
inline bool isQueryTile(Value tile) {
  return llvm::any_of(tile.getUsers(), [&](Operation *user) {
    auto qk = dyn_cast<QKOp>(user);
    return qk && qk.getQuery() == tile;
  });
}

/// One dimension of a kernel's tile space: the forall's induction variable
/// `iv` runs over [0, ceil_div(symbol, ceilDiv) + plus), in the problem's
/// symbols (the runtime computes the grid from them, the kernel decodes its
/// block index with them).
struct TileDim {
  unsigned iv;
  attnc::rt::Symbol symbol;
  int64_t ceilDiv = 1;
  std::optional<attnc::rt::Symbol> plus;
};

/// The tile space of `tiled`'s forall, fastest first (KernelAbi.cpp): query
/// blocks (a varlen kernel's bound on its sequences' query tiles), query
/// heads, batches, and a split tile's kv splits. The grid is x = query
/// blocks, y = heads and z = the rest, delinearized batches fastest.
SmallVector<TileDim> getTileSpace(const TiledAttention &tiled);

/// What one kernel's lowerings share: its tiled attention, layouts and the
/// values the kernel computes once (thread and tile coordinates, tensor maps,
/// descriptors). The emitter sets them up; each tile op's conversion
/// pattern lowers with a copy that builds with its rewriter.
struct KernelState {
  KernelState(const TiledAttention &tiled, KernelAbiAttr abi, MLIRContext *ctx)
      : tiled(tiled), abi(abi), smem(tiled.sharedMemory()),
        producer(tiled.warpSpecialize()), fragments(ctx),
        index(tiled.querySequenceSources(), tiled.keySequenceSources()) {}

  const TiledAttention &tiled;
  /// The kernel's parameters (and launch) in order.
  KernelAbiAttr abi;
  /// tiled.sharedMemory(), by a shorter name.
  SharedMemoryAttr smem;
  /// Whether a producer warpgroup issues the loads (tiled.warpSpecialize(),
  /// which walks the tile: read once, for hasProducer()).
  bool producer;
  /// The per-thread values of each tile type.
  FragmentTypeConverter fragments;
  /// The tile IR's index arithmetic, cloned into the kernel.
  IndexLowering index;

  // Kernel-wide values.
  Value smemBase, tmQuery, tmKey, tmValue;
  Value tid, lane, warpInGroup, isLeader;
  /// The thread's warpgroup in the CTA, and among the consumers (with a
  /// producer warpgroup, CTA warpgroup 0, one less).
  Value ctaWarpgroup, warpgroup;
  /// This thread's first accumulator row within the query tile.
  Value rowInTile;
  /// The batch and kv head (i32) of K's load, at which the kernel loads K
  /// and V (verifyTiledAttention: every kv loop loads them as the first does, V
  /// at K's head and batch) and reads a paged tile's block table.
  Value batch, kvHead;
  Value seqQ, seqK;
  /// Without a producer, the tile's kv range (index), lowered at the
  /// kernel's entry: its first block, which is ring iteration 0, and its
  /// end, up to which the CTA's leader thread fills and refills the ring.
  /// (With a producer, each role computes the start after its setmaxnreg:
  /// the producer's loop's lower bound, and the consumers' in lowerTileOps.)
  Value kvBegin, kvEnd;
  /// Varlen and split-KV kernels: the batch size (a kernel parameter).
  Value batchCount;
  /// Split-KV kernels: the split count where it is chosen at launch (a
  /// kernel parameter).
  Value splitCount;
  /// A split kernel that writes O itself at one split: whether this launch
  /// has one split (i1), and the O tensor map and LSE pointer (null where
  /// the kernel has no LSE) it then writes.
  Value singleSplit, singleSplitOutput, singleSplitLse;
  /// Paged kernels: the block table, its row length, and the CTA's tile's
  /// keys (its sequence's cache length, i32).
  Value blockTable, pagesPerSeq, keys;
  /// Varlen kernels: the cu_seqlens_q pointer.
  Value queryOffsets;
  /// Where the tile's store writes O (a tensor map, or a pointer for a varlen
  /// kernel's packed O and a split kernel's partial O) and the LSE (a
  /// pointer; null where the kernel writes none).
  Value outputDest, lseDest;
  /// pagesOfBlock's loads, by the kv block value they are for.
  /// (Shared by the copies the producer's patterns lower with: the K and V
  /// loads of a block read its pages once.)
  std::shared_ptr<DenseMap<Value, SmallVector<Value>>> blockPages =
      std::make_shared<DenseMap<Value, SmallVector<Value>>>();
  /// Descriptors of shared-memory offset 0: K-major operands (Q, K, P: rows
  /// of 128 bytes, 8-row groups 1024 B apart) and V (MN-major: 64-column
  /// atoms block_n rows apart).
  Value kMajorDescriptor, valueMajorDescriptor;
};

/// Emits the kernel body; one instance per kernel.
class KernelEmitter : KernelBuilder, KernelState {
public:
  KernelEmitter(OpBuilder &b, Location loc, const TiledAttention &tiled,
                KernelAbiAttr abi)
      : KernelBuilder(b, loc), KernelState(tiled, abi, b.getContext()) {}
  /// The same kernel's lowerings, building with `b` (a pattern's rewriter)
  /// at `loc` (the op's).
  KernelEmitter(OpBuilder &b, const KernelEmitter &kernel, Location loc)
      : KernelBuilder(b, loc), KernelState(kernel) {}

  /// Fails where the conversion of the tile's ops failed (with a
  /// diagnostic).
  LogicalResult emit(LLVM::LLVMFuncOp func);

  /// A value per row the thread holds of a row vector.
  using RowValues = std::array<Value, kRowsPerThread>;

  //===--- one lowering per tile op of a kv step (KernelTileOps.cpp) ------===//
  // Each takes its op's operands as kernel values (FragmentTypes.h: the
  // struct of an accumulator-layout tile, the two rows of a row vector, the
  // ring stage and phase parity of a shared-memory tile) and returns its
  // results'. The wgmma issues are fenced and committed; their waits are
  // the IR's attn.wait_gemms. TileOpPatterns.cpp makes each a pattern.
  /// attn.qk: issues S = Q K^T.
  Value lowerQK(QKOp op, ValueRange key);
  /// attn.mask: hidden scores become -inf. `offsets` are the row offset,
  /// column offset, seq_q and seq_k (index).
  Value lowerMask(MaskOp op, Value scores, ValueRange offsets);
  /// attn.softcap: s = output_scale * tanh(s * scale / cap).
  Value lowerSoftcap(SoftcapOp op, Value scores, Value scale);
  RowValues lowerRowMax(RowMaxOp op, Value scores, ValueRange init);
  RowValues lowerRescaleFactor(RescaleFactorOp op, ValueRange oldMax,
                               ValueRange newMax, Value scaleLog2);
  /// attn.scale_rows of the accumulator (O *= alpha; a `conditional` one
  /// by its step's own alpha only in warps where a row max moved).
  Value lowerScaleRows(ScaleRowsOp op, Value acc, ValueRange alpha);
  Value lowerExpDiff(ExpDiffOp op, Value scores, ValueRange rowMax,
                     Value scaleLog2);
  /// attn.row_sum; `init` and `initScale` are empty where absent.
  RowValues lowerRowSum(RowSumOp op, Value probs, ValueRange init,
                        ValueRange initScale);
  /// attn.truncate: each pair of adjacent elements rounded into one i32.
  Value lowerTruncate(TruncateOp op, Value input);
  /// A splat arith.constant of tile type `type` (the loops' initial m, l
  /// and O; a rotated loop's P and alpha for a tile without kv blocks).
  SmallVector<Value> lowerConstant(RankedTensorType type, double value);
  /// attn.pv: O += P V, an f32 P rounded to V's element type first.
  Value lowerPV(PVOp op, Value acc, Value probs, ValueRange value);
  /// The registers a P V reads as its A operand (or stores to shared
  /// memory): P as 32-bit pairs of V's element type. With P in registers
  /// they must stay unchanged until the GEMM completes.
  SmallVector<Value> probsOperand(PVOp op, Value probs);
  /// attn.wait_tile of a ring tile at `slot` (stage, phase).
  void waitForSlot(ValueRange slot, bool isValue);
  /// Q's attn.load_tile (or attn.load_varlen_tile) `query`, whose
  /// coordinates are kernel values: the leader thread TMA-loads the tile
  /// into Q's buffer (with a producer, in the role branch:
  /// lowerWarpSpecialize); returns Q's slot (stage 0, phase 0: the buffer
  /// is filled once).
  SmallVector<Value> lowerQueryLoad(TileLoad query);
  /// The TMA load of `query` at its coordinates (its batch, head and row;
  /// a varlen load's row after its sequence's first).
  void issueQueryLoad(TileLoad query);
  /// prefetch.tensormap of each tensor-map parameter of the kernel, whose
  /// entry block is `entry`.
  void prefetchTensorMaps(Block *entry);
  /// attn.wait_tile of Q: phase 0 of its barrier.
  void waitForQuery() { waitBarrier(queryBarrier(), c32(0)); }
  /// attn.launch_dependents: griddepcontrol.launch_dependents.
  void lowerLaunchDependents();
  /// attn.wait_gemms: waits until at most `pending` wgmma groups are in
  /// flight; then `live` (a rotated step's P registers) may be reused.
  void lowerWaitGemms(int64_t pending, ArrayRef<Value> live);
  /// attn.ring_release of K (`isKey`) or V at ring stage `stage`, behind
  /// the row sums `after`; only with a producer warpgroup.
  void lowerRingRelease(bool isKey, Value stage, ArrayRef<Value> after);
  /// A producer's attn.load_tile of K (`isKey`) or V of kv block `kvBlock`
  /// (index): waits until the ring slot of its iteration is free, then
  /// TMA-loads the block into it; returns the slot (stage, phase).
  /// `waitsForStage`: the load is its step's first (with one empty barrier
  /// per stage only that one waits). Its ring iteration counts from
  /// `rangeBegin`, the kv range's start (where the producer's loop starts).
  SmallVector<Value> lowerProducerLoad(bool isKey, bool waitsForStage,
                                       Value kvBlock, Value rangeBegin);
  /// attn.wait_turn and attn.pass_turn: the ping-pong barriers ...
  void waitForTurn();
  void passTurn();
  /// ... built by `turn`, in consumer warpgroup `warpgroup` only where the
  /// op names one.
  void lowerTurn(std::optional<int64_t> warpgroup, function_ref<void()> turn) {
    if (warpgroup)
      ifThen(eqI(this->warpgroup, c32(*warpgroup)), turn);
    else
      turn();
  }

  //===--- the tile's structure (HopperKernel.cpp) ------------------------===//
  /// attn.finalize: O = acc / l in the registers of its output type (f32
  /// values, or 16-bit element pairs), and LSE = m scale + ln l (0 and
  /// -inf where l = 0). `rowSum` holds the thread's partial sums of its
  /// rows.
  std::pair<Value, RowValues> lowerFinalize(FinalizeOp op, Value acc,
                                            ValueRange rowSum,
                                            ValueRange rowMax, Value scale);
  /// Where a store of the forall's terminator writes the tile: the logical
  /// coordinates of its offsets (i32; a split tile's split first), whatever
  /// the layout of the tensor it writes.
  struct StoreCoordinates {
    Value split, batch, head, row;
  };
  /// The coordinates of `store` (a tensor.parallel_insert_slice whose
  /// offsets are kernel values) of O (`isOutput`) or the LSE.
  StoreCoordinates storeCoordinates(tensor::ParallelInsertSliceOp store,
                                    bool isOutput);
  /// The store of the tile's O (`output`, its registers) by the forall's
  /// terminator, at `at`: with TMA from the output buffer, a varlen tile's
  /// rows below its sequence's, a split tile's f32 partial (or at one
  /// split, O itself). Rows past Nq (or the sequence's) are clipped by the
  /// TMA box or skipped (verifyTiledAttention checked that the store writes the
  /// tile's rows below that length).
  void lowerOutputStore(Value output, const StoreCoordinates &at);
  /// The store of the tile's LSE (this thread's rows) to lseDest at `at`:
  /// rows below Nq, by one lane of each quad.
  void lowerLseStore(ValueRange lse, const StoreCoordinates &at);
  /// attn.warp_specialize: the role branch. The producer warpgroup
  /// (warpgroup 0) lowers its registers to `producer_registers`, and its
  /// leader thread issues Q's load and runs the producer region; the
  /// consumer
  /// warpgroups raise theirs to `consumer_registers` and run the consumer
  /// region. Returns the ops before which each region's ops go (the
  /// producer's under its leader thread).
  std::pair<Operation *, Operation *> lowerWarpSpecialize(WarpSpecializeOp op);
  /// Whether the kernel has a producer warpgroup.
  bool hasProducer() const { return producer; }

private:
  //===--- shared memory, barriers, TMA -----------------------------------===//
  Value smemPtr(int64_t offset, Value dynamicOffset = {});
  Value smemAddr32(int64_t offset, Value dynamicOffset = {});
  // mbarriers at the offsets of the forall's #attn.shared_memory.
  Value queryBarrier() { return smemPtr(smem.getQueryFull()); }
  Value keyBarrier(Value stage) {
    return smemPtr(smem.getKeyFull(), mul(stage, c32(8)));
  }
  Value valueBarrier(Value stage) {
    return smemPtr(smem.getValueFull(), mul(stage, c32(8)));
  }
  /// Consumers arrive here when they are done with a stage's K.
  Value keyEmptyBarrier(Value stage) {
    return smemPtr(smem.getKeyEmpty(), mul(stage, c32(8)));
  }
  /// Consumers arrive here when they are done with a stage's V (and K, when
  /// not released early).
  Value valueEmptyBarrier(Value stage) {
    return smemPtr(smem.getValueEmpty(), mul(stage, c32(8)));
  }
  void waitBarrier(Value bar, Value phase) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, phase, c32(0x989680));
  }
  void expectBytes(Value bar, int64_t bytes) {
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), bar, c32(bytes),
                                           NVVM::MemScopeKind::CTA,
                                           /*relaxed=*/false, Value());
  }
  /// One TMA box of `tensorMap` at `coords` (innermost first) into shared
  /// memory at `dst`, completing on mbarrier `bar`.
  void tmaLoad(Value tensorMap, Value dst, ArrayRef<Value> coords, Value bar);
  /// TMA-loads `rows` rows x `cols` columns of one head into the buffer at
  /// `dstOffset` in the layout `atoms`, one atom per box at the atom's
  /// column and `outerCoords` (the map's other coordinates, innermost
  /// first), and expects the boxes' bytes on `bar`.
  void loadTile(Value tensorMap, SwizzledAtoms atoms, int64_t dstOffset,
                Value dstDynamicOffset, int64_t rows, int64_t cols,
                ArrayRef<Value> outerCoords, Value bar);
  /// The coordinates past the column of Q's or O's map (queryMapBox) for
  /// the rows from `row` on (i32) of query head `head` and batch `batch`:
  /// (row, head, batch), or where the kernel packs query heads, (j, n, h,
  /// b) of packed row `row` = n * g + j, `row` a multiple of g unless the
  /// packed rows are one token's (then j = row and n = 0).
  SmallVector<Value> queryMapCoordinates(Value row, Value head, Value batch);
  /// The paged form of loadTile for kv block `kvBlock` of the CTA's tile:
  /// one box per page part (TiledAttention::kvBoxRows), at the page the block
  /// table names and the part's rows in it.
  void loadPagedTile(Value tensorMap, SwizzledAtoms atoms, int64_t dstOffset,
                     Value dstDynamicOffset, int64_t cols, Value kvBlock,
                     Value bar);
  /// The pages of kv block `kvBlock`'s parts (-1 past the sequence's
  /// keys), read from the block table once for its K and V loads.
  ArrayRef<Value> pagesOfBlock(Value kvBlock);
  /// TMA-loads kv block `kvBlock` of K (or V) into ring stage `stage`.
  void issueKvLoad(bool isKey, Value stage, Value kvBlock);
  void issueKeyValueLoads(Value stage, Value kvBlock) {
    issueKvLoad(/*isKey=*/true, stage, kvBlock);
    issueKvLoad(/*isKey=*/false, stage, kvBlock);
  }

  //===--- wgmma ----------------------------------------------------------===//
  Value descriptorBase(SwizzledAtoms atoms, int64_t leadingBytes);
  Value descriptorAt(Value base, int64_t byteOffset, Value dynamicByteOffset);
  Value kMajorSlice(SwizzledAtoms atoms, int64_t bufferOffset,
                    int64_t bufferRows, int64_t k16, Value rowOffset);
  Value wgmmaSS(Value acc, Value a, Value bDesc, int64_t n, Type element,
                bool accumulate, bool bTransposed);
  // The GEMMs of `op`: their shapes, element types and shared-memory
  // layouts come from its operands' types (the per-kernel descriptor bases
  // from the tiled attention's); K and V are in ring stage `stage`.
  Value scoresGemm(QKOp op, Value stage);
  Value outputGemm(PVOp op, Value acc, ArrayRef<Value> probs, Value stage);
  Value outputGemmFromShared(PVOp op, Value acc, ArrayRef<Value> probs,
                             Value stage);
  Value valueDescriptor(RankedTensorType value, Value stage, int64_t k16);
  SmallVector<Value> unpack(Value structValue, int64_t n);
  Value pack(ArrayRef<Value> values, Type structType);
  /// `lo` and `hi` (f32) rounded to `element` (bf16, f16) in one i32.
  Value packPair(Value lo, Value hi, Type element);

  //===--- tile values: the consumer's IR values in registers ------------===//
  /// The elements of an accumulator-layout tile's struct.
  SmallVector<Value> unpackTile(Value tile) {
    return unpack(tile,
                  cast<LLVM::LLVMStructType>(tile.getType()).getBody().size());
  }
  /// -(m c) of the rows `m` of row max `rowMax` under multiplier `c` (a
  /// masked row that saw no key yet has m = -inf and uses 0, so that
  /// exp2(-inf - m) is 0). Its attn.rescale_factor and attn.exp_diff each
  /// compute it; CSE keeps one.
  RowValues negScaledMax(Value rowMax, ValueRange m, Value c);
  Value tanhApprox(Value x);
  Value quadReduce(Value x, bool isMax);
  /// Element pairs (2k, 2k + 1) of `p` rounded to `element`, one i32 each.
  SmallVector<Value> packPairs(ArrayRef<Value> p, Type element);
  Value rescale(Value acc, ValueRange alpha);

  //===--- the kv loops, their ring and barriers (KernelStep.cpp) ---------===//
  /// One arrival per consumer warpgroup on `barrier`, behind `after`.
  void arriveOncePerWarpgroup(Value barrier, ArrayRef<Value> after);
  /// Frees `stage`'s K (where K is released early; else a no-op).
  void releaseKeys(Value stage, ArrayRef<Value> after = {});
  /// Frees `stage`'s V (and K, where not released early) for the next loads;
  /// without a producer, a block barrier and the refill of the stage.
  void releaseValues(Value stage, Value kvBlock, ArrayRef<Value> after = {});
  std::pair<Value, Value> stageAndPhase(Value iteration);
  void keepAlive(ArrayRef<Value> values);
  Value turnBarrier(Value wg);
  /// The named barrier of this consumer warpgroup's 128 threads.
  Value warpgroupBarrier() {
    return add(warpgroup, c32(smem.getWarpgroupBarriers().front()));
  }
  /// The tile value of a K or V tile in the ring slot of kv iteration
  /// `iteration` (i32): a cast of its stage and phase parity.
  Value ringSlot(Type tileType, Value iteration);
  /// The ring iteration (i32) of kv block `kvBlock` (index): its distance
  /// from the kv range's start `rangeBegin` (index).
  Value ringIteration(Value kvBlock, Value rangeBegin);
  /// Gives each K and V tile of the kv ops `kvOps` (clones in the kernel)
  /// its ring slot, computed from the kv iteration: an attn.ring_pop's or
  /// attn.load_tile's results and a rotated loop's carried V, inside the
  /// loop and after it; the iterations count from `rangeBegin`.
  void placeRingSlots(ArrayRef<Operation *> kvOps, Value rangeBegin);
  /// Without a producer: the end of each kv loop's step refills its V's
  /// stage (releaseValues).
  void refillStages(ArrayRef<Operation *> kvOps);
  /// Lowers the tile's ops `ops` (the forall body's, in IR order) at the
  /// insertion point: clones them into the kernel, places the consumer's
  /// ring slots and converts them, the loops and branches by SCF's
  /// structural type conversion and each attn op by its pattern. Fails
  /// where the conversion failed (with a diagnostic).
  LogicalResult lowerTileOps(ArrayRef<Operation *> ops);
  /// Replaces the operands of the clones `tileOps` that are `scalars` (index
  /// and scale values of the tile IR) with their kernel values.
  void lowerScalarOperands(ArrayRef<Operation *> tileOps,
                           ArrayRef<Value> scalars);
  /// The i32 value of a tile-space symbol in the kernel: a parameter or a
  /// compiled-in constant.
  Value symbolValue(attnc::rt::Symbol symbol);
  /// The extents of tile-space dims `dims`.
  SmallVector<Value> tileExtents(ArrayRef<TileDim> dims);
  /// The coordinates of `linear` in a space of these extents, fastest
  /// first, and one more dim, the outermost, that takes the quotient.
  SmallVector<Value> delinearize(Value linear, ArrayRef<Value> extents);
  /// Makes the tile at `coords` of tile space `space` the CTA's tile: the
  /// forall's induction variables, K's batch and kv head, and this
  /// thread's rowInTile.
  void setTile(ArrayRef<TileDim> space, ArrayRef<Value> coords);
  /// The start of the kv range the tile's kv loops partition (the range
  /// before a rotation, for rotated loops), in the tile IR.
  Value kvRangeBegin() const;
  /// Without a producer, lowers the kv range: kvBegin and kvEnd.
  void tileBounds();
  /// Without a producer: the leader thread fills every ring stage before
  /// the kv ops (refillStages refills them).
  void fillStages();
  /// The CTA's tile: the ops of the forall's body, by lowerTileOps (after
  /// tileBounds()).
  LogicalResult lowerTile();
  /// Stores this warpgroup's rows of O, given as element pairs (pair k
  /// holds values 2k and 2k + 1), through the output buffer with TMA at
  /// `at`.
  void storeOutputTile(ArrayRef<Value> pairs, Value outputMap,
                       const StoreCoordinates &at);
  /// Varlen kernels (VarlenTiles.cpp): the (sequence, query block) of linear
  /// tile `tile` (i32, attn.sequence_tile), from the offsets at `offsets`;
  /// every lane of the warp must take part.
  std::pair<Value, Value> lowerSequenceTile(Value tile, Value offsets);
  /// The row of the packed Q and O (i32) where the current varlen tile's
  /// sequence ends (the next one's first), read from the offsets at each
  /// call.
  Value sequenceEnd();
  /// Writes this warpgroup's rows of O, given as element pairs, through the
  /// output buffer to the packed O at pointer `output`, from row `at.row`
  /// on, rows below its sequence's only.
  void storeSequenceRows(ArrayRef<Value> pairs, Value output,
                         const StoreCoordinates &at);
  void storePartialOutput(ArrayRef<Value> o, Value partial,
                          const StoreCoordinates &at);
  /// This thread's place in its warpgroup's accumulator fragments
  /// (#attn.wgmma_accumulator), computed where they are used: its first
  /// row of the warpgroup's 64 (a warp holds 16 rows, a quad of lanes a
  /// pair of them) ...
  Value fragmentRow() {
    constexpr int64_t kQuad = WgmmaAccumulatorAttr::kLanesPerRowPair;
    static_assert(llvm::isPowerOf2_64(kQuad), "a quad of 2^k lanes");
    return add(mul(warpInGroup, c32(WgmmaAccumulatorAttr::kRowsPerWarp)),
               arith::ShRUIOp::create(b, loc, lane, c32(llvm::Log2_64(kQuad))));
  }
  /// ... and its first column (each lane of a quad holds two adjacent
  /// columns of every 8), to which WgmmaAccumulatorAttr::getRegisterColumn
  /// adds each register's, from `thread`: its lane or its thread id (a
  /// quad lies within a warp). The mask takes the thread id: were it the
  /// epilogue's expression, LLVM would merge the two and move code of an
  /// SS kernel's kv loop, and its PTX would differ from the kernels last
  /// timed.
  Value fragmentColumn(Value thread) {
    constexpr int64_t kQuad = WgmmaAccumulatorAttr::kLanesPerRowPair;
    return mul(arith::AndIOp::create(b, loc, thread, c32(kQuad - 1)), c32(2));
  }
  /// Row `r` of the two this thread holds of the accumulator fragments, of
  /// a tile whose first row is `firstRow` (i32).
  Value threadRow(Value firstRow, int r) {
    Value row = add(firstRow, rowInTile);
    return r == 0 ? row : add(row, c32(WgmmaAccumulatorAttr::kRowPairDistance));
  }
  /// The i64 index of row `row` at `at`'s split, batch and head in the LSE
  /// [B, H, Sq] (or, split, [S, B, H, Sq]).
  Value rowIndex(const StoreCoordinates &at, Value row);
  /// The 128-byte swizzle (the only one the kernel writes into;
  /// verifyTiledAttention admits no other for Q, in whose layout O is staged,
  /// nor for P's): 16-byte chunk c of row r of an atom sits at chunk c ^ (r %
  /// 8). The row's phase r % 8, computed once per row ...
  Value swizzlePhase(Value row) {
    // Other modes permute by other row bits (64 bytes: (r / 2) % 4).
    static_assert(kSm90aSharedTileSwizzle == 128, "the 128-byte mode");
    constexpr int64_t kChunks = SwizzledAtoms{kSm90aSharedTileSwizzle}.chunks();
    return arith::AndIOp::create(b, loc, row, c32(kChunks - 1));
  }
  /// ... and where chunk `chunk` of a row of phase `phase` sits.
  Value swizzledChunk(Value chunk, Value phase) {
    return arith::XOrIOp::create(b, loc, chunk, phase);
  }
  void storeRowsSwizzled(ArrayRef<Value> pairs, SwizzledAtoms atoms,
                         int64_t bufferOffset, int64_t bufferRows);
  void publishWarpgroupWrites();
};

/// The conversion patterns of the tile's attn ops, one per op (those of a
/// kv step, Q's load and wait, attn.finalize, attn.launch_dependents, the
/// ping-pong turns, attn.warp_specialize, the producer's K and V loads and
/// attn.ring_push), each lowering with `kernel`'s values
/// (TileOpPatterns.cpp). `probsInFlight`: the attn.wait_gemms that frees
/// the registers of a rotated step's P V, which reads the P carried into
/// the step, and that P V.
void populateTilePatterns(const KernelEmitter &kernel,
                          const TypeConverter &converter,
                          const DenseMap<Operation *, PVOp> &probsInFlight,
                          RewritePatternSet &patterns);

/// The box of the tensor map of Q (or O) of the kernel for `tiled`, innermost
/// first, for `rows` rows of `columns` columns (the kernel's
/// queryMapCoordinates are its coordinates): over (d, s, h, b), or where the
/// kernel packs g query heads per kv head (d, g, s, h, b), whose rows are
/// token-major (packed row n * g + j is token n of the kv head's query head
/// j): `rows` / g whole tokens, or `rows` query heads of one token where the
/// packed Q holds one (TiledAttention::packsOneToken; heads past g read as
/// zeros and are not stored).
SmallVector<int64_t> queryMapBox(const TiledAttention &tiled, int64_t columns,
                                 int64_t rows);

/// The launch interface of the kernel for `tiled` (KernelAbi.cpp): its
/// signature and manifest are built from it; a split-KV kernel's holds
/// `splitKv`, its combine kernel's.
KernelAbiAttr buildKernelAbi(MLIRContext *ctx, const TiledAttention &tiled,
                             SplitKvAttr splitKv = {});

/// Declares the kernel `name` at `b`'s insertion point: its signature is
/// `params` (#attn.kernel_param: a tensor map as a 128-byte byval grid
/// constant, a pointer as a global pointer, i32 and f32 as scalars), with
/// `threads` threads per CTA.
LLVM::LLVMFuncOp declareKernel(OpBuilder &b, Location loc, StringRef name,
                               ArrayRef<Attribute> params, int64_t threads);

} // namespace mlir::attn::hopper

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
