//===- Tile.cpp - tile attn.attention into block loops --------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites attn.attention into the blocked FlashAttention form with the
// classic three-pass softmax (max, sum, P V). The output is the contract the
// online-softmax fusion pass matches:
//
//   scf.forall (b, h, qb) shared_outs(O[, LSE]) {
//     Qt = load_tile Q[b, h, qb * BM]
//     m  = scf.for kb in [begin, end) iter(-inf)  { S = qk(Qt, Kt); ...; row_max }
//     l  = scf.for kb in [begin, end) iter(0)     { ...; exp_diff(S, m); row_sum }
//     acc = scf.for kb in [begin, end) iter(0)    { ...; exp_diff(S, m); pv }
//     Ot, LSEt = finalize(acc, l, m)
//     parallel_insert_slice Ot (and LSEt), clipped to the sequence
//   }
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"
#include "attnc/Transforms/MaskUtils.h"
#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/TileConfig.h"
#include "attnc/Transforms/TileOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

#define DEBUG_TYPE "attn-tile"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNTILEPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// Everything the loop bodies need, computed once outside the loops.
struct TileContext {
  AttentionOp op;
  int64_t blockM, blockN;
  MaskSpec mask;
  Value batch, head, kvHead, rowBegin, seqQ, seqK;
  /// With varlen: the tile's sequence's rows of the packed Q and K, V
  /// ([queryBegin, queryEnd), [keyBegin, keyEnd)); seqQ and seqK are their
  /// lengths and rowBegin is relative to queryBegin.
  Value queryBegin, queryEnd, keyBegin, keyEnd;
  /// The query count the masks see: seqQ, or with packed query heads each
  /// head's tokens (seqQ / g).
  Value maskSeqQ;
  Value queryTile;
  RankedTensorType scoresType, rowsType;
  /// The softmax scale (f32), for attn.softcap.
  Value scale;
};

/// Loads the block_n x `columns` tile of K or V (`source`) whose first key
/// is `colBegin`: from the tensor, or from the page pool of a paged cache.
Value loadKvTile(OpBuilder &b, Location loc, const TileContext &ctx,
                 Value source, int64_t columns, Value colBegin) {
  AttentionOp op = ctx.op;
  auto type = RankedTensorType::get(
      {ctx.blockN, columns},
      cast<RankedTensorType>(source.getType()).getElementType());
  if (op.isPaged())
    return LoadPagedTileOp::create(b, loc, type, source, op.getBlockTable(),
                                   ctx.batch, ctx.kvHead, colBegin, ctx.seqK);
  if (op.isVarlen())
    return LoadVarlenTileOp::create(b, loc, type, source, ctx.kvHead, colBegin,
                                    ctx.keyBegin, ctx.keyEnd, op.getLayout());
  return LoadTileOp::create(b, loc, type, source, ctx.batch, ctx.kvHead,
                            colBegin, op.getLayout());
}

/// Emits S for kv block `kb`: load K, S = Q K^T, softcap, mask.
Value buildMaskedScores(OpBuilder &b, Location loc, const TileContext &ctx,
                        Value kb) {
  AttentionOp op = ctx.op;
  Value colBegin = arith::MulIOp::create(
      b, loc, kb, arith::ConstantIndexOp::create(b, loc, ctx.blockN));
  Value keyTile =
      loadKvTile(b, loc, ctx, op.getKey(), op.getHeadDim(), colBegin);
  Value scores = QKOp::create(b, loc, ctx.scoresType, ctx.queryTile, keyTile);
  if (std::optional<APFloat> cap = op.getSoftcap())
    scores = SoftcapOp::create(b, loc, scores.getType(), scores, ctx.scale,
                               b.getF32FloatAttr(cap->convertToFloat()),
                               /*output_scale=*/FloatAttr());
  DenseI64ArrayAttr window;
  if (ctx.mask.window)
    window = b.getDenseI64ArrayAttr(*ctx.mask.window);
  IntegerAttr packedQueryHeads;
  if (ctx.mask.packedQueryHeads > 1)
    packedQueryHeads = b.getI64IntegerAttr(ctx.mask.packedQueryHeads);
  return MaskOp::create(b, loc, scores.getType(), scores, ctx.rowBegin,
                        colBegin, ctx.maskSeqQ, ctx.seqK, ctx.mask.kind, window,
                        packedQueryHeads);
}

Value buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                  float value) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(value)));
}

/// Builds `scf.for kb in [begin, end) iter_args(init)` whose body yields
/// `step(kb, carried)`.
Value buildKvLoop(OpBuilder &b, Location loc, Value begin, Value end,
                  Value init,
                  function_ref<Value(OpBuilder &, Location, Value, Value)>
                      step) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, begin, end, one, ValueRange{init},
      [&](OpBuilder &nested, Location nestedLoc, Value kb, ValueRange iter) {
        Value next = step(nested, nestedLoc, kb, iter[0]);
        scf::YieldOp::create(nested, nestedLoc, next);
      });
  return loop.getResult(0);
}

/// Offsets/sizes of one (batch, head, rows) slab of a 4-D tensor in `layout`.
void slabSlice(OpBuilder &b, Location loc, Layout layout, Value batch,
               Value head, Value rowBegin, Value rows, int64_t headDim,
               SmallVectorImpl<OpFoldResult> &offsets,
               SmallVectorImpl<OpFoldResult> &sizes) {
  SmallVector<OpFoldResult> logicalOffsets = {batch, head, rowBegin,
                                              b.getIndexAttr(0)};
  SmallVector<OpFoldResult> logicalSizes = {b.getIndexAttr(1),
                                            b.getIndexAttr(1), rows,
                                            b.getIndexAttr(headDim)};
  offsets.assign(4, OpFoldResult());
  sizes.assign(4, OpFoldResult());
  for (unsigned d = 0; d < 4; ++d) {
    offsets[physicalDim(d, layout)] = logicalOffsets[d];
    sizes[physicalDim(d, layout)] = logicalSizes[d];
  }
}

LogicalResult tileAttention(RewriterBase &rewriter, AttentionOp op,
                            TileConfig config) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Layout layout = op.getLayout();
  auto dimOf = [&](Value tensor, unsigned logical) -> Value {
    return tensor::DimOp::create(rewriter, loc, tensor,
                                 physicalDim(logical, layout));
  };
  auto outputType = op.getOutput().getType();
  int64_t numQueryHeads = op.getNumQueryHeads();
  int64_t headDim = op.getHeadDim(), valueHeadDim = op.getValueHeadDim();
  int64_t groupSize = numQueryHeads / op.getNumKVHeads();
  // A varlen tile of packed query heads holds whole tokens of its sequence
  // (attn.sequence_tile counts blocks of block_m / g tokens).
  int64_t rowsPerToken = op.getPackedQueryHeads().value_or(1);
  if (op.isVarlen() && config.blockM % rowsPerToken != 0)
    return op.emitOpError("attn-tile: a varlen tile of packed query heads "
                          "holds whole tokens, so block_m = ")
           << config.blockM
           << " must be a multiple of packed_query_heads = " << rowsPerToken;

  // A varlen batch has one sequence per offset pair; its Nq bounds every
  // sequence's.
  Value batch =
      op.isVarlen()
          ? arith::SubIOp::create(
                rewriter, loc,
                tensor::DimOp::create(rewriter, loc, op.getCuSeqlensQ(), 0),
                arith::ConstantIndexOp::create(rewriter, loc, 1))
                .getResult()
          : dimOf(op.getQuery(), 0);
  Value seqQ = dimOf(op.getQuery(), 2);
  // The outputs' batch: the packed batch of 1 with varlen.
  Value tensorBatch = op.isVarlen() ? dimOf(op.getQuery(), 0) : batch;
  // A paged cache's lengths are per sequence: read in each tile.
  Value seqK = op.isPaged() ? Value() : dimOf(op.getKey(), 2);
  Value numQueryBlocks = arith::CeilDivSIOp::create(
      rewriter, loc, seqQ,
      arith::ConstantIndexOp::create(rewriter, loc, config.blockM));
  // A varlen batch's tiles: the sequences' query blocks one after the other
  // (attn.sequence_tile), at most ceil(total_q / block_m) + B of them, for
  // the one packed batch of the outputs.
  if (op.isVarlen())
    numQueryBlocks = arith::AddIOp::create(rewriter, loc, numQueryBlocks, batch);

  // Destinations: O in its own layout, LSE as [B, Hq, Nq]; with kv_splits
  // the partials of every split, [S, B, Hq, Nq, Dv] and [S, B, Hq, Nq] in
  // f32, which attn.combine_splits merges after the tiles.
  // One split is the unsplit attention; a split count below 1 at launch
  // counts as 1.
  Value kvSplits = op.getKvSplits();
  if (kvSplits && matchPattern(kvSplits, m_One()))
    kvSplits = Value();
  if (kvSplits)
    kvSplits = arith::MaxSIOp::create(
        rewriter, loc, kvSplits,
        arith::ConstantIndexOp::create(rewriter, loc, 1));
  SmallVector<Value> outputs;
  if (kvSplits) {
    int64_t dyn = ShapedType::kDynamic;
    outputs.push_back(tensor::EmptyOp::create(
        rewriter, loc,
        ArrayRef<int64_t>{dyn, dyn, numQueryHeads, dyn, valueHeadDim},
        rewriter.getF32Type(), ValueRange{kvSplits, tensorBatch, seqQ}));
    outputs.push_back(tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{dyn, dyn, numQueryHeads, dyn},
        rewriter.getF32Type(), ValueRange{kvSplits, tensorBatch, seqQ}));
  }
  SmallVector<Value> dynamicOut;
  for (unsigned d = 0; d < 4 && !kvSplits; ++d)
    if (outputType.isDynamicDim(d))
      dynamicOut.push_back(tensor::DimOp::create(rewriter, loc, op.getQuery(), d));
  if (!kvSplits)
    outputs.push_back(
        tensor::EmptyOp::create(rewriter, loc, outputType.getShape(),
                                outputType.getElementType(), dynamicOut));
  if (Value lse = op.getLse(); lse && !kvSplits) {
    auto lseType = cast<RankedTensorType>(lse.getType());
    SmallVector<Value> dynamicLse;
    Value logical[3] = {tensorBatch, Value(), seqQ};
    for (unsigned d = 0; d < 3; ++d)
      if (lseType.isDynamicDim(d))
        dynamicLse.push_back(logical[d]);
    outputs.push_back(tensor::EmptyOp::create(rewriter, loc, lseType.getShape(),
                                              lseType.getElementType(),
                                              dynamicLse));
  }

  MaskSpec mask = op.getMaskSpec();
  // The scale values, computed once before the tiles (a constant, or from
  // the scale argument: the kernel computes them once per thread). With a
  // softcap the scores are already scaled when they reach the softmax.
  auto f32Constant = [&](float value) -> Value {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getF32FloatAttr(value));
  };
  Value scale = op.materializeScale(rewriter);
  Value log2e = f32Constant(attnc::rt::kLog2E);
  bool softcapped = op.getSoftcap().has_value();
  Value softmaxScale = softcapped ? f32Constant(1.0f) : scale;
  Value scaleLog2 =
      softcapped ? log2e
                 : rewriter.createOrFold<arith::MulFOp>(loc, scale, log2e);

  SmallVector<OpFoldResult> upperBounds = {
      op.isVarlen() ? OpFoldResult(rewriter.getIndexAttr(1)) : batch,
      rewriter.getIndexAttr(numQueryHeads), numQueryBlocks};
  // One CTA per tile: query blocks along x (the hardware launches x
  // fastest), heads along y, batches along z. The mapping also keeps
  // canonicalization from folding a dimension of extent 1 away.
  MLIRContext *mlirCtx = rewriter.getContext();
  SmallVector<Attribute> mappedDims = {
      gpu::GPUBlockMappingAttr::get(mlirCtx, gpu::MappingId::DimZ),
      gpu::GPUBlockMappingAttr::get(mlirCtx, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(mlirCtx, gpu::MappingId::DimX)};
  // The kv split of a tile, a fourth dimension of blocks.
  if (kvSplits) {
    upperBounds.push_back(kvSplits);
    mappedDims.push_back(
        gpu::GPUBlockMappingAttr::get(mlirCtx, kKvSplitMapping));
  }
  ArrayAttr mapping = rewriter.getArrayAttr(mappedDims);
  auto forall =
      scf::ForallOp::create(rewriter, loc, upperBounds, outputs, mapping);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getBody());
  Value b = forall.getInductionVar(0), h = forall.getInductionVar(1),
        qb = forall.getInductionVar(2);
  // A varlen tile is a query block of one sequence. The offsets count
  // tokens, and packed rows are g a token (token-major): a packed tile
  // holds block_m / g of a sequence's tokens (whole: checked above).
  if (op.isVarlen()) {
    Type indexType = rewriter.getIndexType();
    auto tile = SequenceTileOp::create(rewriter, loc, indexType, indexType,
                                       op.getCuSeqlensQ(), qb,
                                       config.blockM / rowsPerToken);
    b = tile.getSequence();
    qb = tile.getQueryBlock();
  }

  TileContext ctx;
  ctx.op = op;
  ctx.blockM = config.blockM;
  ctx.blockN = config.blockN;
  ctx.mask = mask;
  ctx.batch = b;
  ctx.head = h;
  ctx.kvHead = groupSize == 1
                   ? h
                   : arith::DivUIOp::create(
                         rewriter, loc, h,
                         arith::ConstantIndexOp::create(rewriter, loc,
                                                        groupSize))
                         .getResult();
  ctx.rowBegin = arith::MulIOp::create(
      rewriter, loc, qb,
      arith::ConstantIndexOp::create(rewriter, loc, config.blockM));
  ctx.seqQ = seqQ;
  if (op.isVarlen()) {
    auto offset = [&](Value offsets, Value index) {
      return extractIndex(rewriter, loc, offsets, index);
    };
    // Sequence b's packed rows are [g cu_seqlens_q[b], g cu_seqlens_q[b+1]).
    auto queryRow = [&](Value index) {
      Value token = offset(op.getCuSeqlensQ(), index);
      if (rowsPerToken == 1)
        return token;
      return arith::MulIOp::create(
                 rewriter, loc, token,
                 arith::ConstantIndexOp::create(rewriter, loc, rowsPerToken))
          .getResult();
    };
    Value next = arith::AddIOp::create(
        rewriter, loc, b, arith::ConstantIndexOp::create(rewriter, loc, 1));
    ctx.queryBegin = queryRow(b);
    ctx.queryEnd = queryRow(next);
    ctx.keyBegin = offset(op.getCuSeqlensK(), b);
    ctx.keyEnd = offset(op.getCuSeqlensK(), next);
    ctx.seqQ =
        arith::SubIOp::create(rewriter, loc, ctx.queryEnd, ctx.queryBegin);
    seqK = arith::SubIOp::create(rewriter, loc, ctx.keyEnd, ctx.keyBegin);
  }
  ctx.maskSeqQ = ctx.seqQ;
  if (rowsPerToken > 1)
    ctx.maskSeqQ = arith::DivUIOp::create(
        rewriter, loc, ctx.seqQ,
        arith::ConstantIndexOp::create(rewriter, loc, rowsPerToken));
  if (op.isPaged())
    seqK = extractIndex(rewriter, loc, op.getCacheLengths(), b);
  ctx.seqK = seqK;
  ctx.scale = scale;
  auto queryTileType = RankedTensorType::get(
      {config.blockM, headDim}, op.getQuery().getType().getElementType());
  ctx.queryTile =
      op.isVarlen()
          ? LoadVarlenTileOp::create(rewriter, loc, queryTileType,
                                     op.getQuery(), h, ctx.rowBegin,
                                     ctx.queryBegin, ctx.queryEnd, layout)
                .getResult()
          : LoadTileOp::create(rewriter, loc, queryTileType, op.getQuery(), b,
                               h, ctx.rowBegin, layout)
                .getResult();
  ctx.scoresType = RankedTensorType::get({config.blockM, config.blockN},
                                         rewriter.getF32Type());
  ctx.rowsType = RankedTensorType::get({config.blockM}, rewriter.getF32Type());
  auto accType = RankedTensorType::get({config.blockM, valueHeadDim},
                                       rewriter.getF32Type());

  // A varlen tile past its sequence's rows (attn.sequence_tile's tiles past
  // every block) runs no kv block.
  Value rangeKeys =
      op.isVarlen()
          ? keysOfVarlenTile(rewriter, loc, ctx.rowBegin, ctx.seqQ, seqK)
          : seqK;
  KvBlockRange range =
      buildKvBlockRange(rewriter, loc, ctx.rowBegin, ctx.maskSeqQ, rangeKeys,
                        config.blockM, config.blockN, mask);
  // A split outside the tile's range runs no block and gives O = 0,
  // LSE = -inf.
  if (kvSplits)
    clipKvBlockRangeToSplit(rewriter, loc, range, seqK, config.blockN,
                            forall.getInductionVar(kKvSplitDim), kvSplits);
  float negInf = -std::numeric_limits<float>::infinity();

  // Pass 1: row max.
  Value rowMax = buildKvLoop(
      rewriter, loc, range.begin, range.end,
      buildFilled(rewriter, loc, ctx.rowsType, negInf),
      [&](OpBuilder &nb, Location l, Value kb, Value m) -> Value {
        Value s = buildMaskedScores(nb, l, ctx, kb);
        return RowMaxOp::create(nb, l, ctx.rowsType, s, m,
                                /*score_scale=*/FloatAttr());
      });
  // Pass 2: row sum of exp2((S - m) * scale log2 e).
  Value rowSum = buildKvLoop(
      rewriter, loc, range.begin, range.end,
      buildFilled(rewriter, loc, ctx.rowsType, 0.0f),
      [&](OpBuilder &nb, Location l, Value kb, Value sum) -> Value {
        Value s = buildMaskedScores(nb, l, ctx, kb);
        Value p = ExpDiffOp::create(nb, l, s.getType(), s, rowMax, scaleLog2,
                                    /*software_exp2_period=*/IntegerAttr(),
                                    /*score_scale=*/FloatAttr());
        return RowSumOp::create(nb, l, ctx.rowsType, p, sum);
      });
  // Pass 3: P V.
  Value acc = buildKvLoop(
      rewriter, loc, range.begin, range.end,
      buildFilled(rewriter, loc, accType, 0.0f),
      [&](OpBuilder &nb, Location l, Value kb, Value accIn) -> Value {
        Value s = buildMaskedScores(nb, l, ctx, kb);
        Value p = ExpDiffOp::create(nb, l, s.getType(), s, rowMax, scaleLog2,
                                    /*software_exp2_period=*/IntegerAttr(),
                                    /*score_scale=*/FloatAttr());
        Value colBegin = arith::MulIOp::create(
            nb, l, kb, arith::ConstantIndexOp::create(nb, l, ctx.blockN));
        Value valueTile =
            loadKvTile(nb, l, ctx, op.getValue(), valueHeadDim, colBegin);
        return PVOp::create(nb, l, accIn.getType(), p, valueTile, accIn);
      });

  // A split's output is a partial: normalized, in f32.
  Type outElementType =
      kvSplits ? rewriter.getF32Type() : outputType.getElementType();
  auto outTileType =
      RankedTensorType::get({config.blockM, valueHeadDim}, outElementType);
  auto finalize = FinalizeOp::create(
      rewriter, loc, outTileType, ctx.rowsType, acc, rowSum, rowMax,
      softmaxScale, MaskKindAttr::get(rewriter.getContext(), mask.kind),
      mask.window ? rewriter.getDenseI64ArrayAttr(*mask.window)
                  : DenseI64ArrayAttr(),
      op.getPackedQueryHeadsAttr());

  // Store the rows that exist: min(BM, Nq - rowBegin), none for a varlen
  // tile past its sequence, at the sequence's rows of the packed O.
  Value rows = arith::MinSIOp::create(
      rewriter, loc,
      arith::ConstantIndexOp::create(rewriter, loc, config.blockM),
      arith::SubIOp::create(rewriter, loc, ctx.seqQ, ctx.rowBegin));
  Value outRow = ctx.rowBegin, outBatch = b;
  if (op.isVarlen()) {
    rows = arith::MaxSIOp::create(
        rewriter, loc, rows, arith::ConstantIndexOp::create(rewriter, loc, 0));
    outRow = arith::AddIOp::create(rewriter, loc, ctx.queryBegin, ctx.rowBegin);
    outBatch = arith::ConstantIndexOp::create(rewriter, loc, 0);
  }
  OpFoldResult zeroAttr = rewriter.getIndexAttr(0),
               oneAttr = rewriter.getIndexAttr(1);
  Value outRows = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({ShapedType::kDynamic, valueHeadDim},
                            outElementType),
      finalize.getOutput(), ArrayRef<OpFoldResult>{zeroAttr, zeroAttr},
      ArrayRef<OpFoldResult>{rows, rewriter.getIndexAttr(valueHeadDim)},
      ArrayRef<OpFoldResult>{oneAttr, oneAttr});
  Value lseRows;
  if (op.getLse() || kvSplits)
    lseRows = tensor::ExtractSliceOp::create(
        rewriter, loc,
        RankedTensorType::get({ShapedType::kDynamic}, rewriter.getF32Type()),
        finalize.getLse(), ArrayRef<OpFoldResult>{zeroAttr},
        ArrayRef<OpFoldResult>{rows}, ArrayRef<OpFoldResult>{oneAttr});

  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  if (kvSplits) {
    Value split = forall.getInductionVar(kKvSplitDim);
    tensor::ParallelInsertSliceOp::create(
        rewriter, loc, outRows, forall.getRegionIterArgs()[0],
        ArrayRef<OpFoldResult>{split, outBatch, h, outRow, zeroAttr},
        ArrayRef<OpFoldResult>{oneAttr, oneAttr, oneAttr, rows,
                               rewriter.getIndexAttr(valueHeadDim)},
        SmallVector<OpFoldResult>(5, oneAttr));
    tensor::ParallelInsertSliceOp::create(
        rewriter, loc, lseRows, forall.getRegionIterArgs()[1],
        ArrayRef<OpFoldResult>{split, outBatch, h, outRow},
        ArrayRef<OpFoldResult>{oneAttr, oneAttr, oneAttr, rows},
        SmallVector<OpFoldResult>(4, oneAttr));
    rewriter.setInsertionPointAfter(forall);
    auto lseType =
        op.getLse()
            ? cast<RankedTensorType>(op.getLse().getType())
            : RankedTensorType::get(
                  {ShapedType::kDynamic, numQueryHeads, ShapedType::kDynamic},
                  rewriter.getF32Type());
    auto combine = CombineSplitsOp::create(rewriter, loc, outputType, lseType,
                                           forall.getResult(0),
                                           forall.getResult(1), layout);
    if (op.getLse())
      rewriter.replaceOp(op, combine.getResults());
    else
      rewriter.replaceOp(op, combine.getOutput());
    return success();
  }
  SmallVector<OpFoldResult> offsets, sizes;
  slabSlice(rewriter, loc, layout, outBatch, h, outRow, rows, valueHeadDim,
            offsets, sizes);
  SmallVector<OpFoldResult> strides(4, oneAttr);
  tensor::ParallelInsertSliceOp::create(rewriter, loc, outRows,
                                        forall.getRegionIterArgs()[0], offsets,
                                        sizes, strides);
  if (lseRows)
    tensor::ParallelInsertSliceOp::create(
        rewriter, loc, lseRows, forall.getRegionIterArgs()[1],
        ArrayRef<OpFoldResult>{outBatch, h, outRow},
        ArrayRef<OpFoldResult>{oneAttr, oneAttr, rows},
        ArrayRef<OpFoldResult>{oneAttr, oneAttr, oneAttr});

  rewriter.replaceOp(op, forall.getResults());
  return success();
}

struct AttnTilePass final : public mlir::attn::impl::AttnTilePassBase<AttnTilePass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation(), getArgument(), target, blockM,
                                 blockN)))
      return signalPassFailure();
    SmallVector<AttentionOp> ops;
    getOperation().walk([&](AttentionOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (AttentionOp op : ops) {
      TileConfig config = chooseTileConfig(op, blockM, blockN, target);
      if (failed(tileAttention(rewriter, op, config)))
        return signalPassFailure();
      ++numTiled;
    }
  }
};

} // namespace
