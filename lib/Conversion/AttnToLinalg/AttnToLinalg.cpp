//===- AttnToLinalg.cpp - attn ops to linalg on tensors -------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU reference lowering. Every attn op becomes destination-style
// linalg.generic ops on tensors computing in f32; the surrounding loops
// (scf.forall / scf.for from the tiling passes) are kept, so the numerics of
// each pipeline stage can be run as they are. Indexing maps carry the layout
// (bhsd / bshd) and the GQA head mapping (h floordiv G).
//
//===----------------------------------------------------------------------===//

#include "attnc/Conversion/Passes.h"
#include "attnc/Transforms/MaskUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

#define DEBUG_TYPE "convert-attn-to-linalg"

namespace mlir::attn {
#define GEN_PASS_DEF_CONVERTATTNTOLINALGPASS
#include "attnc/Conversion/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

using utils::IteratorType;
using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

constexpr IteratorType kPar = IteratorType::parallel;
constexpr IteratorType kRed = IteratorType::reduction;

//===----------------------------------------------------------------------===//
// Scalar helpers (inside linalg bodies)
//===----------------------------------------------------------------------===//

Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}
Value negInf(OpBuilder &b, Location loc) {
  return f32Const(b, loc, -std::numeric_limits<float>::infinity());
}
Value toF32(OpBuilder &b, Location loc, Value x) {
  if (x.getType().isF32())
    return x;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), x);
}
Value fromF32(OpBuilder &b, Location loc, Value x, Type type) {
  if (type.isF32())
    return x;
  return arith::TruncFOp::create(b, loc, type, x);
}
Value isNegInf(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                               negInf(b, loc));
}
Value isZero(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                               f32Const(b, loc, 0.0));
}
Value fma(OpBuilder &b, Location loc, Value acc, Value x, Value y) {
  return arith::AddFOp::create(b, loc, acc,
                               arith::MulFOp::create(b, loc, x, y));
}

//===----------------------------------------------------------------------===//
// Tensor helpers
//===----------------------------------------------------------------------===//

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}
Value filled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
             double value) {
  Value empty = emptyTensor(b, loc, sizes, b.getF32Type());
  return linalg::FillOp::create(b, loc, ValueRange{f32Const(b, loc, value)},
                                ValueRange{empty})
      .getResult(0);
}
SmallVector<OpFoldResult> sizesOf(OpBuilder &b, Location loc, Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

/// One linalg.generic with a single init; `maps` lists inputs then init.
Value generic(OpBuilder &b, Location loc, ValueRange inputs, Value init,
              ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
              BodyFn body) {
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, body(nb, nl, args));
      });
  return op.getResult(0);
}

AffineMap mapOf(MLIRContext *ctx, unsigned numDims,
                ArrayRef<AffineExpr> results) {
  return AffineMap::get(numDims, 0, results, ctx);
}

/// The map of a 4-D operand given its logical (b, h, s, d) index expressions.
AffineMap operandMap(MLIRContext *ctx, unsigned numDims, Layout layout,
                     ArrayRef<AffineExpr> logical) {
  SmallVector<AffineExpr, 4> physical(4);
  for (unsigned d = 0; d < 4; ++d)
    physical[physicalDim(d, layout)] = logical[d];
  return mapOf(ctx, numDims, physical);
}

/// O[b, h, i, e] = acc / l (0 where l = 0: a row without a visible key),
/// rounded to `init`'s element type and written in `layout`; acc is
/// [B, Hq, Nq, Dv] and l [B, Hq, Nq].
Value normalizedOutput(OpBuilder &b, Location loc, Value acc, Value sum,
                       Value init, Layout layout) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  Type elementType = cast<RankedTensorType>(init.getType()).getElementType();
  return generic(b, loc, {acc, sum}, init,
                 {mapOf(ctx, 4, {d0, d1, d2, d3}), mapOf(ctx, 4, {d0, d1, d2}),
                  operandMap(ctx, 4, layout, {d0, d1, d2, d3})},
                 {kPar, kPar, kPar, kPar},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value o = arith::DivFOp::create(nb, l, a[0], a[1]);
                   o = arith::SelectOp::create(nb, l, isZero(nb, l, a[1]),
                                               f32Const(nb, l, 0.0), o);
                   return fromF32(nb, l, o, elementType);
                 });
}

/// LSE[b, h, i] = m + ln l (-inf where l = 0), into `init`.
Value logSumExp(OpBuilder &b, Location loc, Value max, Value sum, Value init) {
  AffineMap id3 = AffineMap::getMultiDimIdentityMap(3, b.getContext());
  return generic(b, loc, {max, sum}, init, {id3, id3, id3}, {kPar, kPar, kPar},
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value r = arith::AddFOp::create(
                       nb, l, a[0], math::LogOp::create(nb, l, a[1]));
                   return arith::SelectOp::create(nb, l, isZero(nb, l, a[1]),
                                                  negInf(nb, l), r);
                 });
}

//===----------------------------------------------------------------------===//
// attn.attention: the untiled textbook computation
//===----------------------------------------------------------------------===//

/// The keys of a paged cache as a dense BHSD [B, Hkv, max_pages *
/// page_size, D] tensor: key t of sequence b from its page; keys past the
/// sequence's length (masked later) from page 0, since their table entries
/// may be anything.
Value gatherPages(OpBuilder &b, Location loc, AttentionOp op, Value pool) {
  auto poolType = cast<RankedTensorType>(pool.getType());
  int64_t pageSize = op.getPageSize();
  Value table = op.getBlockTable(), lengths = op.getCacheLengths();
  OpFoldResult keys = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<tensor::DimOp>(loc, table, 1),
      arith::ConstantIndexOp::create(b, loc, pageSize));
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, table, 0),
                                     b.getIndexAttr(poolType.getDimSize(2)),
                                     keys,
                                     b.getIndexAttr(poolType.getDimSize(3))};
  Value init = emptyTensor(b, loc, sizes, poolType.getElementType());
  return generic(
      b, loc, {}, init, {AffineMap::getMultiDimIdentityMap(4, b.getContext())},
      {kPar, kPar, kPar, kPar}, [&](OpBuilder &nb, Location l, ValueRange) {
        Value seq = linalg::IndexOp::create(nb, l, 0);
        Value head = linalg::IndexOp::create(nb, l, 1);
        Value key = linalg::IndexOp::create(nb, l, 2);
        Value dim = linalg::IndexOp::create(nb, l, 3);
        Value length = extractIndex(nb, l, lengths, seq);
        Value zero = arith::ConstantIndexOp::create(nb, l, 0);
        Value inBounds = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               key, length);
        Value safeKey = arith::SelectOp::create(nb, l, inBounds, key, zero);
        Value page = arith::ConstantIndexOp::create(nb, l, pageSize);
        Value pageIndex = arith::SelectOp::create(
            nb, l, inBounds,
            extractIndex(nb, l, table,
                         {seq, arith::DivUIOp::create(nb, l, safeKey, page)}),
            zero);
        return tensor::ExtractOp::create(
                   nb, l, pool,
                   ValueRange{pageIndex,
                              arith::RemUIOp::create(nb, l, safeKey, page),
                              head, dim})
            .getResult();
      });
}

/// Which of the `count` sequences of a varlen batch packed row `row` belongs
/// to: the number of sequences that end at or before it (`count` for a row
/// past the last one).
Value sequenceOf(OpBuilder &b, Location loc, Value offsets, Value count,
                 Value row) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, 0), count, one,
      ValueRange{arith::ConstantIndexOp::create(b, loc, 0)},
      [&](OpBuilder &nb, Location l, Value seq, ValueRange iter) {
        Value end = extractIndex(
            nb, l, offsets, arith::AddIOp::create(nb, l, seq, one).getResult());
        Value ended =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sle, end, row);
        scf::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(
                nb, l, ended, arith::AddIOp::create(nb, l, iter[0], one),
                iter[0])});
      });
  return loop.getResult(0);
}

/// Whether packed query row `i` of a varlen attention of `count` sequences
/// sees packed key `j`: both in one sequence, and visible under `mask` at
/// their positions in it. With packed query heads the offsets count tokens,
/// g rows each (row i is token i / g).
Value varlenKeyVisible(OpBuilder &b, Location loc, AttentionOp op, Value count,
                       Value i, Value j, const MaskSpec &mask) {
  Value cuQ = op.getCuSeqlensQ(), cuK = op.getCuSeqlensK();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  std::optional<uint64_t> group = op.getPackedQueryHeads();
  auto groupSize = [&] {
    return arith::ConstantIndexOp::create(b, loc, *group);
  };
  Value token = i;
  if (group)
    token = arith::DivUIOp::create(b, loc, i, groupSize());
  Value seq = sequenceOf(b, loc, cuQ, count, token);
  Value inSequence = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, seq,
                            sequenceOf(b, loc, cuK, count, j)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, seq, count));
  // A row past the last sequence reads the last one's offsets (unused).
  Value safeSeq = arith::MinSIOp::create(
      b, loc, seq, arith::SubIOp::create(b, loc, count, one));
  auto offset = [&](Value offsets, Value index) {
    return extractIndex(b, loc, offsets, index);
  };
  Value next = arith::AddIOp::create(b, loc, safeSeq, one);
  Value qBegin = offset(cuQ, safeSeq), kBegin = offset(cuK, safeSeq);
  Value firstRow = qBegin;
  if (group)
    firstRow = arith::MulIOp::create(b, loc, qBegin, groupSize());
  Value seqQ = arith::SubIOp::create(b, loc, offset(cuQ, next), qBegin);
  Value seqK = arith::SubIOp::create(b, loc, offset(cuK, next), kBegin);
  // The mask takes a packed row to its position itself.
  Value visible = buildKeyVisible(
      b, loc, arith::SubIOp::create(b, loc, i, firstRow),
      arith::SubIOp::create(b, loc, j, kBegin), seqQ, seqK, mask);
  return arith::AndIOp::create(b, loc, inSequence, visible);
}

SmallVector<Value> lowerAttention(OpBuilder &b, AttentionOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Layout layout = op.getLayout();
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  // A paged cache is gathered into dense BHSD K and V; its lengths are per
  // sequence.
  Layout kvLayout = layout;
  if (op.isPaged()) {
    k = gatherPages(b, loc, op, k);
    v = gatherPages(b, loc, op, v);
    kvLayout = Layout::BHSD;
  }
  auto dimOf = [&](Value t, unsigned logical) -> OpFoldResult {
    return tensor::getMixedSize(b, loc, t, physicalDim(logical, layout));
  };
  auto kvDimOf = [&](Value t, unsigned logical) -> OpFoldResult {
    return tensor::getMixedSize(b, loc, t, physicalDim(logical, kvLayout));
  };
  OpFoldResult batch = dimOf(q, 0), heads = dimOf(q, 1), seqQ = dimOf(q, 2),
               seqK = kvDimOf(k, 2), valueDim = kvDimOf(v, 3);
  int64_t group = op.getNumQueryHeads() / op.getNumKVHeads();
  Value scale = op.materializeScale(b);
  std::optional<APFloat> softcap = op.getSoftcap();
  MaskSpec mask = op.getMaskSpec();

  AffineExpr d0, d1, d2, d3, d4;
  bindDims(ctx, d0, d1, d2, d3, d4);
  AffineExpr kvHead = group == 1 ? d1 : d1.floorDiv(group);

  // S[b, h, i, j] = sum_d Q[b, h, i, d] K[b, h / G, j, d]
  Value scores =
      generic(b, loc, {q, k}, filled(b, loc, {batch, heads, seqQ, seqK}, 0.0),
              {operandMap(ctx, 5, layout, {d0, d1, d2, d4}),
               operandMap(ctx, 5, kvLayout, {d0, kvHead, d3, d4}),
               mapOf(ctx, 5, {d0, d1, d2, d3})},
              {kPar, kPar, kPar, kPar, kRed},
              [&](OpBuilder &nb, Location l, ValueRange a) {
                return fma(nb, l, a[2], toF32(nb, l, a[0]), toF32(nb, l, a[1]));
              });

  AffineMap id4 = mapOf(ctx, 4, {d0, d1, d2, d3});
  AffineMap rows4 = mapOf(ctx, 4, {d0, d1, d2});
  Value seqQV = getValueOrCreateConstantIndexOp(b, loc, seqQ);
  Value seqKV = getValueOrCreateConstantIndexOp(b, loc, seqK);
  // Packed query heads: a head's rows hold g heads' Nq tokens each.
  Value maskSeqQ = seqQV;
  if (std::optional<uint64_t> group = op.getPackedQueryHeads())
    maskSeqQ = arith::DivUIOp::create(
        b, loc, seqQV, arith::ConstantIndexOp::create(b, loc, *group));
  // The number of sequences of a varlen batch, read once outside the loops.
  Value sequences;
  if (op.isVarlen())
    sequences = arith::SubIOp::create(
        b, loc, tensor::DimOp::create(b, loc, op.getCuSeqlensQ(), 0),
        arith::ConstantIndexOp::create(b, loc, 1));
  // Scale, soft-cap, mask.
  scores = generic(
      b, loc, {}, scores, {id4}, {kPar, kPar, kPar, kPar},
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value s = arith::MulFOp::create(nb, l, a[0], scale);
        if (softcap) {
          Value cap = f32Const(nb, l, softcap->convertToDouble());
          s = arith::MulFOp::create(
              nb, l, cap,
              math::TanhOp::create(nb, l,
                                   arith::DivFOp::create(nb, l, s, cap)));
        }
        Value i = linalg::IndexOp::create(nb, l, 2);
        Value j = linalg::IndexOp::create(nb, l, 3);
        Value keys = seqKV;
        if (op.isPaged())
          keys = extractIndex(nb, l, op.getCacheLengths(),
                              linalg::IndexOp::create(nb, l, 0).getResult());
        Value visible =
            op.isVarlen() ? varlenKeyVisible(nb, l, op, sequences, i, j, mask)
                          : buildKeyVisible(nb, l, i, j, maskSeqQ, keys, mask);
        return arith::SelectOp::create(nb, l, visible, s, negInf(nb, l));
      });

  SmallVector<OpFoldResult> rowSizes = {batch, heads, seqQ};
  Value rowMax = generic(
      b, loc, {scores}, filled(b, loc, rowSizes, -INFINITY), {id4, rows4},
      {kPar, kPar, kPar, kRed}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return arith::MaximumFOp::create(nb, l, a[0], a[1]);
      });
  Value probs = generic(
      b, loc, {rowMax}, scores, {rows4, id4}, {kPar, kPar, kPar, kPar},
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value e = math::ExpOp::create(nb, l,
                                      arith::SubFOp::create(nb, l, a[1], a[0]));
        return arith::SelectOp::create(nb, l, isNegInf(nb, l, a[0]),
                                       f32Const(nb, l, 0.0), e);
      });
  Value rowSum = generic(
      b, loc, {probs}, filled(b, loc, rowSizes, 0.0), {id4, rows4},
      {kPar, kPar, kPar, kRed}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return arith::AddFOp::create(nb, l, a[0], a[1]);
      });

  // acc[b, h, i, e] = sum_j P[b, h, i, j] V[b, h / G, j, e]
  Value acc = generic(b, loc, {probs, v},
                      filled(b, loc, {batch, heads, seqQ, valueDim}, 0.0),
                      {mapOf(ctx, 5, {d0, d1, d2, d4}),
                       operandMap(ctx, 5, kvLayout, {d0, kvHead, d4, d3}),
                       mapOf(ctx, 5, {d0, d1, d2, d3})},
                      {kPar, kPar, kPar, kPar, kRed},
                      [&](OpBuilder &nb, Location l, ValueRange a) {
                        return fma(nb, l, a[2], a[0], toF32(nb, l, a[1]));
                      });

  auto outputType = op.getOutput().getType();
  Type elementType = outputType.getElementType();
  // O has Q's layout with the value head dim.
  SmallVector<OpFoldResult> outputSizes = sizesOf(b, loc, q);
  outputSizes[physicalDim(3, layout)] = valueDim;
  Value output =
      normalizedOutput(b, loc, acc, rowSum,
                       emptyTensor(b, loc, outputSizes, elementType), layout);
  if (!op.getLse())
    return {output};
  Value lse = logSumExp(b, loc, rowMax, rowSum,
                        emptyTensor(b, loc, rowSizes, b.getF32Type()));
  return {output, lse};
}

//===----------------------------------------------------------------------===//
// attn.combine_splits: the exact merge of split kv ranges
//===----------------------------------------------------------------------===//

SmallVector<Value> lowerCombineSplits(OpBuilder &b, CombineSplitsOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value partialOutput = op.getPartialOutput(), partialLse = op.getPartialLse();
  // Logical dim d (b, h, i, e) of the results: the partials' size.
  auto sizeOf = [&](unsigned dim) {
    return tensor::getMixedSize(b, loc, partialOutput, dim + 1);
  };
  SmallVector<OpFoldResult> rowSizes = {sizeOf(0), sizeOf(1), sizeOf(2)};
  AffineExpr d0, d1, d2, d3, d4;
  bindDims(ctx, d0, d1, d2, d3, d4);
  // Dims (b, h, i, s) for the row reductions, (b, h, i, e, s) for O.
  AffineMap lseBySplit = mapOf(ctx, 4, {d3, d0, d1, d2});
  AffineMap rows = mapOf(ctx, 4, {d0, d1, d2});
  // A split without a visible key has LSE_s = -inf: its weight is 0.
  auto weight = [](OpBuilder &nb, Location l, Value lse, Value max) -> Value {
    Value w =
        math::ExpOp::create(nb, l, arith::SubFOp::create(nb, l, lse, max));
    return arith::SelectOp::create(nb, l, isNegInf(nb, l, max),
                                   f32Const(nb, l, 0.0), w);
  };
  Value max = generic(b, loc, {partialLse}, filled(b, loc, rowSizes, -INFINITY),
                      {lseBySplit, rows}, {kPar, kPar, kPar, kRed},
                      [&](OpBuilder &nb, Location l, ValueRange a) {
                        return arith::MaximumFOp::create(nb, l, a[0], a[1]);
                      });
  Value sum = generic(b, loc, {partialLse, max}, filled(b, loc, rowSizes, 0.0),
                      {lseBySplit, rows, rows}, {kPar, kPar, kPar, kRed},
                      [&](OpBuilder &nb, Location l, ValueRange a) {
                        return arith::AddFOp::create(nb, l, a[2],
                                                     weight(nb, l, a[0], a[1]));
                      });
  Value acc = generic(
      b, loc, {partialOutput, partialLse, max},
      filled(b, loc, {sizeOf(0), sizeOf(1), sizeOf(2), sizeOf(3)}, 0.0),
      {mapOf(ctx, 5, {d4, d0, d1, d2, d3}), mapOf(ctx, 5, {d4, d0, d1, d2}),
       mapOf(ctx, 5, {d0, d1, d2}), mapOf(ctx, 5, {d0, d1, d2, d3})},
      {kPar, kPar, kPar, kPar, kRed},
      [&](OpBuilder &nb, Location l, ValueRange a) {
        return fma(nb, l, a[3], weight(nb, l, a[1], a[2]), a[0]);
      });

  Layout layout = op.getLayout();
  Type elementType = op.getOutput().getType().getElementType();
  SmallVector<OpFoldResult> outputSizes(4);
  for (unsigned d = 0; d < 4; ++d)
    outputSizes[physicalDim(d, layout)] = sizeOf(d);
  Value output = normalizedOutput(
      b, loc, acc, sum, emptyTensor(b, loc, outputSizes, elementType), layout);
  Value lse = logSumExp(b, loc, max, sum,
                        emptyTensor(b, loc, rowSizes, b.getF32Type()));
  // The partials' sizes may be static where the results' types are dynamic
  // (and the reverse): the results take the op's types.
  auto castTo = [&](Value v, Type type) -> Value {
    return v.getType() == type ? v : tensor::CastOp::create(b, loc, type, v);
  };
  output = castTo(output, op.getOutput().getType());
  lse = castTo(lse, op.getLse().getType());
  return {output, lse};
}

//===----------------------------------------------------------------------===//
// Tile ops: one linalg.generic each
//===----------------------------------------------------------------------===//

struct TileMaps {
  MLIRContext *ctx;
  AffineExpr i, j, k;
  explicit TileMaps(MLIRContext *ctx) : ctx(ctx) { bindDims(ctx, i, j, k); }
  AffineMap get(unsigned numDims, ArrayRef<AffineExpr> r) {
    return mapOf(ctx, numDims, r);
  }
};

/// The `tileType` tile of rows [start, start + rows) of one (batch, head)
/// of `source` (logical BHSD in `layout`), zero at and past row `end`.
Value loadRows(OpBuilder &b, Location loc, RankedTensorType tileType,
               Value source, Layout layout, Value batch, Value head,
               Value start, Value end) {
  Type elementType = tileType.getElementType();
  TileMaps m(b.getContext());
  Value init = tensor::EmptyOp::create(b, loc, tileType.getShape(), elementType);
  return generic(
      b, loc, {}, init, {m.get(2, {m.i, m.j})}, {kPar, kPar},
      [&](OpBuilder &nb, Location l, ValueRange) -> Value {
        Value r = linalg::IndexOp::create(nb, l, 0);
        Value d = linalg::IndexOp::create(nb, l, 1);
        Value row = arith::AddIOp::create(nb, l, start, r);
        Value inBounds =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, row, end);
        Value safeRow = arith::SelectOp::create(
            nb, l, inBounds, row, arith::ConstantIndexOp::create(nb, l, 0));
        SmallVector<Value, 4> indices(4);
        Value logical[4] = {batch, head, safeRow, d};
        for (unsigned dim = 0; dim < 4; ++dim)
          indices[physicalDim(dim, layout)] = logical[dim];
        Value x = tensor::ExtractOp::create(nb, l, source, indices);
        Value zero = arith::ConstantOp::create(nb, l,
                                               nb.getZeroAttr(elementType));
        return arith::SelectOp::create(nb, l, inBounds, x, zero);
      });
}

SmallVector<Value> lowerLoadTile(OpBuilder &b, LoadTileOp op) {
  Location loc = op.getLoc();
  Layout layout = op.getLayout();
  Value seq =
      tensor::DimOp::create(b, loc, op.getSource(), physicalDim(2, layout));
  return {loadRows(b, loc, op.getTile().getType(), op.getSource(), layout,
                   op.getBatch(), op.getHead(), op.getRow(), seq)};
}

/// Rows of the sequence [begin, end) of the packed batch 0.
SmallVector<Value> lowerLoadVarlenTile(OpBuilder &b, LoadVarlenTileOp op) {
  Location loc = op.getLoc();
  Value start = arith::AddIOp::create(b, loc, op.getBegin(), op.getRow());
  return {loadRows(b, loc, op.getTile().getType(), op.getSource(),
                   op.getLayout(), arith::ConstantIndexOp::create(b, loc, 0),
                   op.getHead(), start, op.getEnd())};
}

/// The tile's sequence: a walk over sequences 0 .. B - 2 carrying the
/// current one and the index of its first tile, which moves on while the
/// tile lies past the current sequence's blocks (the last sequence takes the
/// tiles past every block).
SmallVector<Value> lowerSequenceTile(OpBuilder &b, SequenceTileOp op) {
  Location loc = op.getLoc();
  Value offsets = op.getCuSeqlens(), tile = op.getTile();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value last = arith::SubIOp::create(
      b, loc, tensor::DimOp::create(b, loc, offsets, 0), index(2));
  Value blockM = index(op.getBlockM());
  auto walk = scf::ForOp::create(
      b, loc, index(0), last, index(1), ValueRange{index(0), index(0)},
      [&](OpBuilder &nb, Location l, Value seq, ValueRange carried) {
        Value current = carried[0], first = carried[1];
        Value next = arith::AddIOp::create(nb, l, seq, index(1));
        Value rows = arith::SubIOp::create(
            nb, l, extractIndex(nb, l, offsets, next),
            extractIndex(nb, l, offsets, seq));
        Value end = arith::AddIOp::create(
            nb, l, first, arith::CeilDivSIOp::create(nb, l, rows, blockM));
        // Only the current sequence moves on, and only past its last tile.
        Value moves = arith::AndIOp::create(
            nb, l,
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, current,
                                  seq),
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, tile, end));
        scf::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, moves, next, current),
                       arith::SelectOp::create(nb, l, moves, end, first)});
      });
  // A tile past every block is the last sequence's block one past its rows.
  Value sequence = walk.getResult(0);
  Value rows = arith::SubIOp::create(
      b, loc,
      extractIndex(
          b, loc, offsets,
          ValueRange{
              arith::AddIOp::create(b, loc, sequence, index(1)).getResult()}),
      extractIndex(b, loc, offsets, sequence));
  Value local = arith::SubIOp::create(b, loc, tile, walk.getResult(1));
  Value block = arith::MinSIOp::create(
      b, loc, local, arith::CeilDivSIOp::create(b, loc, rows, blockM));
  return {sequence, block};
}

SmallVector<Value> lowerLoadPagedTile(OpBuilder &b, LoadPagedTileOp op) {
  Location loc = op.getLoc();
  Value pool = op.getPool();
  auto tileType = op.getTile().getType();
  Type elementType = tileType.getElementType();
  int64_t pageSize = op.getPool().getType().getShape()[1];
  TileMaps m(b.getContext());
  Value init =
      tensor::EmptyOp::create(b, loc, tileType.getShape(), elementType);
  Value tile = generic(
      b, loc, {}, init, {m.get(2, {m.i, m.j})}, {kPar, kPar},
      [&](OpBuilder &nb, Location l, ValueRange) -> Value {
        Value r = linalg::IndexOp::create(nb, l, 0);
        Value d = linalg::IndexOp::create(nb, l, 1);
        Value key = arith::AddIOp::create(nb, l, op.getRow(), r);
        Value inBounds = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               key, op.getLength());
        // Keys past the length read the table's first column (which may
        // hold anything) instead of an entry that may not exist, and page 0.
        Value zeroIndex = arith::ConstantIndexOp::create(nb, l, 0);
        Value safeKey =
            arith::SelectOp::create(nb, l, inBounds, key, zeroIndex);
        Value page = arith::ConstantIndexOp::create(nb, l, pageSize);
        Value slot = arith::DivUIOp::create(nb, l, safeKey, page);
        Value pageIndex = arith::SelectOp::create(
            nb, l, inBounds,
            extractIndex(nb, l, op.getBlockTable(), {op.getBatch(), slot}),
            zeroIndex);
        Value offset = arith::RemUIOp::create(nb, l, safeKey, page);
        Value x = tensor::ExtractOp::create(
            nb, l, pool, ValueRange{pageIndex, offset, op.getHead(), d});
        Value zero =
            arith::ConstantOp::create(nb, l, nb.getZeroAttr(elementType));
        return arith::SelectOp::create(nb, l, inBounds, x, zero);
      });
  return {tile};
}

SmallVector<Value> lowerQK(OpBuilder &b, QKOp op) {
  Location loc = op.getLoc();
  TileMaps m(b.getContext());
  Value scores = generic(
      b, loc, {op.getQuery(), op.getKey()},
      filled(b, loc, sizesOf(b, loc, op.getScores()), 0.0),
      {m.get(3, {m.i, m.k}), m.get(3, {m.j, m.k}), m.get(3, {m.i, m.j})},
      {kPar, kPar, kRed}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return fma(nb, l, a[2], toF32(nb, l, a[0]), toF32(nb, l, a[1]));
      });
  return {scores};
}

/// Elementwise map over a 2-D f32 tile.
Value mapTile(OpBuilder &b, Location loc, Value tile, ValueRange rowOperands,
              BodyFn body) {
  TileMaps m(b.getContext());
  SmallVector<AffineMap> maps = {m.get(2, {m.i, m.j})};
  for (size_t n = 0; n < rowOperands.size(); ++n)
    maps.push_back(m.get(2, {m.i}));
  maps.push_back(m.get(2, {m.i, m.j}));
  SmallVector<Value> inputs = {tile};
  llvm::append_range(inputs, rowOperands);
  Value init = emptyTensor(b, loc, sizesOf(b, loc, tile), b.getF32Type());
  return generic(b, loc, inputs, init, maps, {kPar, kPar}, body);
}

SmallVector<Value> lowerSoftcap(OpBuilder &b, SoftcapOp op) {
  double cap = op.getCap().convertToDouble();
  double outputScale = op.getOutputScaleOrCap().convertToDouble();
  Value inner = arith::DivFOp::create(b, op.getLoc(), op.getScale(),
                                      f32Const(b, op.getLoc(), cap));
  return {mapTile(b, op.getLoc(), op.getScores(), {},
                  [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
                    Value s = arith::MulFOp::create(nb, l, a[0], inner);
                    return arith::MulFOp::create(
                        nb, l, f32Const(nb, l, outputScale),
                        math::TanhOp::create(nb, l, s));
                  })};
}

SmallVector<Value> lowerMask(OpBuilder &b, MaskOp op) {
  MaskSpec mask = op.getMaskSpec();
  return {mapTile(
      b, op.getLoc(), op.getScores(), {},
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value row = arith::AddIOp::create(nb, l, op.getRowOffset(),
                                          linalg::IndexOp::create(nb, l, 0));
        Value col = arith::AddIOp::create(nb, l, op.getColOffset(),
                                          linalg::IndexOp::create(nb, l, 1));
        Value visible =
            buildKeyVisible(nb, l, row, col, op.getSeqQ(), op.getSeqK(), mask);
        return arith::SelectOp::create(nb, l, visible, a[0], negInf(nb, l));
      })};
}

/// Row reduction of a 2-D tile into `init` (or a fresh fill of `identity`).
Value reduceRows(OpBuilder &b, Location loc, Value tile, Value init,
                 double identity, BodyFn combine) {
  TileMaps m(b.getContext());
  if (!init)
    init = filled(b, loc, {tensor::getMixedSize(b, loc, tile, 0)}, identity);
  return generic(b, loc, {tile}, init,
                 {m.get(2, {m.i, m.j}), m.get(2, {m.i})}, {kPar, kRed},
                 combine);
}

/// `score_scale * s`, or `s` without a score scale.
Value scaledScore(OpBuilder &b, Location loc, Value s,
                  std::optional<APFloat> scoreScale) {
  if (!scoreScale)
    return s;
  return arith::MulFOp::create(
      b, loc, f32Const(b, loc, scoreScale->convertToDouble()), s);
}

SmallVector<Value> lowerRowMax(OpBuilder &b, RowMaxOp op) {
  // max(init, f max_j s) = max(init, max_j f s): f is positive.
  std::optional<APFloat> scoreScale = op.getScoreScale();
  return {reduceRows(b, op.getLoc(), op.getScores(), op.getInit(), -INFINITY,
                     [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
                       return arith::MaximumFOp::create(
                           nb, l, scaledScore(nb, l, a[0], scoreScale), a[1]);
                     })};
}

/// `rows * factor`, element by element (two row vectors).
Value scaleRowVector(OpBuilder &b, Location loc, Value rows, Value factor) {
  TileMaps m(b.getContext());
  AffineMap id = m.get(1, {m.i});
  return generic(b, loc, {rows, factor},
                 emptyTensor(b, loc, sizesOf(b, loc, rows), b.getF32Type()),
                 {id, id, id}, {kPar},
                 [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                   return arith::MulFOp::create(nb, l, a[0], a[1]);
                 });
}

SmallVector<Value> lowerRowSum(OpBuilder &b, RowSumOp op) {
  Value init = op.getInit();
  if (Value scale = op.getInitScale())
    init = scaleRowVector(b, op.getLoc(), init, scale);
  return {reduceRows(b, op.getLoc(), op.getProbs(), init, 0.0,
                     [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                       return arith::AddFOp::create(nb, l, a[0], a[1]);
                     })};
}

/// exp2((x - m) * c), or 0 when m is -inf.
Value guardedExp2(OpBuilder &b, Location loc, Value x, Value m, Value c) {
  Value e = math::Exp2Op::create(
      b, loc,
      arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, x, m), c));
  return arith::SelectOp::create(b, loc, isNegInf(b, loc, m),
                                 f32Const(b, loc, 0.0), e);
}

SmallVector<Value> lowerExpDiff(OpBuilder &b, ExpDiffOp op) {
  Value c = op.getScaleLog2();
  std::optional<APFloat> scoreScale = op.getScoreScale();
  return {mapTile(b, op.getLoc(), op.getScores(), {op.getRowMax()},
                  [&](OpBuilder &nb, Location l, ValueRange a) {
                    return guardedExp2(
                        nb, l, scaledScore(nb, l, a[0], scoreScale), a[1], c);
                  })};
}

SmallVector<Value> lowerTruncate(OpBuilder &b, TruncateOp op) {
  Location loc = op.getLoc();
  Type element = op.getResult().getType().getElementType();
  TileMaps m(b.getContext());
  AffineMap id = m.get(2, {m.i, m.j});
  return {generic(b, loc, {op.getInput()},
                  emptyTensor(b, loc, sizesOf(b, loc, op.getInput()), element),
                  {id, id}, {kPar, kPar},
                  [&](OpBuilder &nb, Location l, ValueRange a) {
                    return fromF32(nb, l, a[0], element);
                  })};
}

SmallVector<Value> lowerPV(OpBuilder &b, PVOp op) {
  Location loc = op.getLoc();
  TileMaps m(b.getContext());
  Type valueType = op.getValue().getType().getElementType();
  Value acc = generic(
      b, loc, {op.getProbs(), op.getValue()}, op.getAcc(),
      {m.get(3, {m.i, m.k}), m.get(3, {m.k, m.j}), m.get(3, {m.i, m.j})},
      {kPar, kPar, kRed}, [&](OpBuilder &nb, Location l, ValueRange a) {
        // P is rounded to V's element type, as the tensor cores consume it
        // (unless attn.truncate did).
        Value rounded = a[0].getType() == valueType
                            ? a[0]
                            : fromF32(nb, l, a[0], valueType);
        Value p = toF32(nb, l, rounded);
        return fma(nb, l, a[2], p, toF32(nb, l, a[1]));
      });
  return {acc};
}

SmallVector<Value> lowerRescaleFactor(OpBuilder &b, RescaleFactorOp op) {
  Location loc = op.getLoc();
  TileMaps m(b.getContext());
  Value c = op.getScaleLog2();
  AffineMap id = m.get(1, {m.i});
  return {generic(b, loc, {op.getOldMax(), op.getNewMax()},
                  emptyTensor(b, loc, sizesOf(b, loc, op.getOldMax()),
                              b.getF32Type()),
                  {id, id, id}, {kPar},
                  [&](OpBuilder &nb, Location l, ValueRange a) {
                    return guardedExp2(nb, l, a[0], a[1], c);
                  })};
}

SmallVector<Value> lowerScaleRows(OpBuilder &b, ScaleRowsOp op) {
  Location loc = op.getLoc();
  auto mul = [](OpBuilder &nb, Location l, ValueRange a) -> Value {
    return arith::MulFOp::create(nb, l, a[0], a[1]);
  };
  if (op.getInput().getType().getRank() == 2)
    return {mapTile(b, loc, op.getInput(), {op.getFactor()}, mul)};
  return {scaleRowVector(b, loc, op.getInput(), op.getFactor())};
}

SmallVector<Value> lowerFinalize(OpBuilder &b, FinalizeOp op) {
  Location loc = op.getLoc();
  TileMaps m(b.getContext());
  Type elementType = op.getOutput().getType().getElementType();
  Value output = generic(
      b, loc, {op.getAcc(), op.getRowSum()},
      emptyTensor(b, loc, sizesOf(b, loc, op.getAcc()), elementType),
      {m.get(2, {m.i, m.j}), m.get(2, {m.i}), m.get(2, {m.i, m.j})},
      {kPar, kPar}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value o = arith::DivFOp::create(nb, l, a[0], a[1]);
        o = arith::SelectOp::create(nb, l, isZero(nb, l, a[1]),
                                    f32Const(nb, l, 0.0), o);
        return fromF32(nb, l, o, elementType);
      });
  Value scale = op.getScale();
  AffineMap id = m.get(1, {m.i});
  Value lse = generic(
      b, loc, {op.getRowMax(), op.getRowSum()},
      emptyTensor(b, loc, sizesOf(b, loc, op.getRowSum()), b.getF32Type()),
      {id, id, id}, {kPar}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value r = arith::AddFOp::create(
            nb, l, arith::MulFOp::create(nb, l, a[0], scale),
            math::LogOp::create(nb, l, a[1]));
        return arith::SelectOp::create(nb, l, isZero(nb, l, a[1]),
                                       negInf(nb, l), r);
      });
  return {output, lse};
}

/// Replaces an attn op by the values its lowering function returns.
template <typename OpTy, SmallVector<Value> (*Lower)(OpBuilder &, OpTy)>
struct LowerToLinalg final : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, Lower(rewriter, op));
    return success();
  }
};

struct ConvertAttnToLinalgPass final
    : public mlir::attn::impl::ConvertAttnToLinalgPassBase<ConvertAttnToLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateAttnToLinalgConversionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Pre-order: an attn.warp_specialize is named before the ring ops in it.
    WalkResult left =
        getOperation().walk<WalkOrder::PreOrder>([](Operation *op) {
          if (isa<WarpSpecializeOp>(op)) {
            op->emitOpError("was not lowered to linalg: the CPU reference "
                            "runs the tile IR of the stages before "
                            "attn-warp-specialize (the partition is the GPU "
                            "kernel's)");
            return WalkResult::interrupt();
          }
          if (isa<AttnDialect>(op->getDialect())) {
            op->emitOpError("was not lowered to linalg");
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::attn::populateAttnToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      LowerToLinalg<AttentionOp, lowerAttention>,
      LowerToLinalg<CombineSplitsOp, lowerCombineSplits>,
      LowerToLinalg<LoadTileOp, lowerLoadTile>,
      LowerToLinalg<LoadPagedTileOp, lowerLoadPagedTile>,
      LowerToLinalg<LoadVarlenTileOp, lowerLoadVarlenTile>,
      LowerToLinalg<SequenceTileOp, lowerSequenceTile>,
      LowerToLinalg<QKOp, lowerQK>, LowerToLinalg<SoftcapOp, lowerSoftcap>,
      LowerToLinalg<MaskOp, lowerMask>, LowerToLinalg<RowMaxOp, lowerRowMax>,
      LowerToLinalg<ExpDiffOp, lowerExpDiff>,
      LowerToLinalg<RowSumOp, lowerRowSum>, LowerToLinalg<PVOp, lowerPV>,
      LowerToLinalg<TruncateOp, lowerTruncate>,
      LowerToLinalg<RescaleFactorOp, lowerRescaleFactor>,
      LowerToLinalg<ScaleRowsOp, lowerScaleRows>,
      LowerToLinalg<FinalizeOp, lowerFinalize>>(patterns.getContext());
}
