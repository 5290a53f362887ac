//===- AttnOps.cpp - attn dialect operations ------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers and helpers of the attn ops. Every verifier message names the
// operand and the rule it breaks; each has an expected-error test in
// test/Dialect/Attn/invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::attn;
namespace rt = attnc::rt;

#include "attnc/Dialect/Attn/AttnEnums.cpp.inc"

#define GET_OP_CLASSES
#include "attnc/Dialect/Attn/AttnOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Layout helpers
//===----------------------------------------------------------------------===//

unsigned mlir::attn::physicalDim(unsigned logicalDim, Layout layout) {
  if (layout == Layout::BSHD && (logicalDim == 1 || logicalDim == 2))
    return 3 - logicalDim;
  return logicalDim;
}

SmallVector<int64_t, 4> mlir::attn::toLogicalBHSD(ArrayRef<int64_t> shape,
                                                  Layout layout) {
  SmallVector<int64_t, 4> logical;
  for (unsigned d = 0; d < 4; ++d)
    logical.push_back(shape[physicalDim(d, layout)]);
  return logical;
}

static std::string formatDim(int64_t d) {
  return ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d);
}

/// Two sizes conflict only when both are static and differ.
static bool conflict(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

static LogicalResult verifyWindow(Operation *op,
                                  std::optional<ArrayRef<int64_t>> window) {
  if (!window)
    return success();
  if (window->size() != 2)
    return op->emitOpError("window must be [left, right], got ")
           << window->size() << " elements";
  if ((*window)[0] < 0 || (*window)[1] < 0)
    return op->emitOpError("window sizes must be non-negative, got [")
           << (*window)[0] << ", " << (*window)[1] << "]";
  // Row and key indices plus a window side stay far from overflowing the
  // 64-bit index arithmetic of the masks; a side as long as the longest
  // sequence a kernel takes (32-bit lengths) already shows every key.
  constexpr int64_t kMaxSide = std::numeric_limits<int32_t>::max();
  if ((*window)[0] > kMaxSide || (*window)[1] > kMaxSide)
    return op->emitOpError("window sizes must be at most 2147483647 (the "
                           "longest sequence; a longer side hides nothing "
                           "more), got [")
           << (*window)[0] << ", " << (*window)[1] << "]";
  return success();
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 4> AttentionOp::getLogicalShape(Type type) {
  return toLogicalBHSD(cast<RankedTensorType>(type).getShape(), getLayout());
}

int64_t AttentionOp::getNumQueryHeads() {
  return getLogicalShape(getQuery().getType())[1];
}
/// The logical [B, H, S, D] of K or V: for a page pool [num_pages,
/// page_size, H, D] only H and D (B and S are the table's and the lengths').
static SmallVector<int64_t, 4> kvLogicalShape(AttentionOp op, Value kv) {
  if (!op.isPaged())
    return op.getLogicalShape(kv.getType());
  ArrayRef<int64_t> pool = cast<RankedTensorType>(kv.getType()).getShape();
  return {ShapedType::kDynamic, pool[2], ShapedType::kDynamic, pool[3]};
}

int64_t AttentionOp::getNumKVHeads() {
  return kvLogicalShape(*this, getKey())[1];
}
int64_t AttentionOp::getPageSize() {
  assert(isPaged() && "not a paged attention");
  return getKey().getType().getShape()[1];
}
int64_t AttentionOp::getHeadDim() {
  return getLogicalShape(getQuery().getType())[3];
}
int64_t AttentionOp::getValueHeadDim() {
  return kvLogicalShape(*this, getValue())[3];
}
std::optional<int64_t> AttentionOp::getStaticQueryRows() {
  int64_t rows = getLogicalShape(getQuery().getType())[2];
  if (ShapedType::isDynamic(rows))
    return std::nullopt;
  return rows;
}
float AttentionOp::getStaticScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToFloat();
  return 1.0f / std::sqrt(static_cast<float>(getHeadDim()));
}

Value AttentionOp::materializeScale(OpBuilder &b) {
  if (Value scale = getScaleValue())
    return scale;
  return arith::ConstantOp::create(b, getLoc(),
                                   b.getF32FloatAttr(getStaticScale()));
}

/// A scale or cap: a finite positive number (absent is fine).
static LogicalResult checkPositive(Operation *op, StringRef name,
                                   std::optional<APFloat> value) {
  if (!value)
    return success();
  double d = value->convertToDouble();
  if (!std::isfinite(d) || d <= 0.0)
    return op->emitOpError()
           << name << " must be a finite positive number, got " << d;
  return success();
}

LogicalResult AttentionOp::verifyPages() {
  if (!getBlockTable() && !getCacheLengths())
    return success();
  if (!getBlockTable() || !getCacheLengths())
    return emitOpError("a paged KV cache takes both block_table and "
                       "cache_lengths");
  ArrayRef<int64_t> key = getKey().getType().getShape(),
                    value = getValue().getType().getShape();
  if (ShapedType::isDynamic(key[1]) || key[1] < 1)
    return emitOpError("the key pool's page size (dim 1 of [num_pages, "
                       "page_size, heads, head_dim]) must be static and "
                       "positive, got ")
           << formatDim(key[1]);
  // Keys past a sequence's length read page 0 (and are masked).
  if (key[0] == 0)
    return emitOpError("the key pool must hold at least one page");
  if (conflict(value[0], key[0]) || value[1] != key[1])
    return emitOpError() << "the value pool's pages [" << formatDim(value[0])
                         << ", " << formatDim(value[1])
                         << "] do not match the key pool's ["
                         << formatDim(key[0]) << ", " << key[1] << "]";
  int64_t batch = getLogicalShape(getQuery().getType())[0];
  ArrayRef<int64_t> table = getBlockTable().getType().getShape();
  if (conflict(table[0], batch))
    return emitOpError() << "block_table has " << table[0]
                         << " rows but the query batch is " << batch;
  if (table[1] == 0)
    return emitOpError("block_table must have at least one column (a "
                       "sequence's pages)");
  int64_t lengths = getCacheLengths().getType().getShape()[0];
  if (conflict(lengths, batch))
    return emitOpError() << "cache_lengths has " << lengths
                         << " entries but the query batch is " << batch;
  if (conflict(lengths, table[0]))
    return emitOpError() << "cache_lengths has " << lengths
                         << " entries but block_table has " << table[0]
                         << " rows (one each per sequence)";
  return success();
}

LogicalResult AttentionOp::verifyVarlen() {
  if (!getCuSeqlensQ() && !getCuSeqlensK())
    return success();
  if (!getCuSeqlensQ() || !getCuSeqlensK())
    return emitOpError("a variable-length batch takes both cu_seqlens_q and "
                       "cu_seqlens_k");
  if (isPaged())
    return emitOpError("varlen with a paged KV cache is not supported yet");
  // The sequences are packed along one batch entry.
  for (auto [name, value] : {std::pair<StringRef, Value>{"query", getQuery()},
                             {"key", getKey()},
                             {"value", getValue()},
                             {"output", getOutput()}})
    if (cast<RankedTensorType>(value.getType()).getDimSize(0) != 1)
      return emitOpError() << name
                           << " batch must be 1 with varlen (the sequences are "
                              "packed along the sequence dim), got "
                           << formatDim(cast<RankedTensorType>(value.getType())
                                            .getDimSize(0));
  int64_t q = getCuSeqlensQ().getType().getDimSize(0),
          k = getCuSeqlensK().getType().getDimSize(0);
  if (conflict(q, k))
    return emitOpError() << "cu_seqlens_q has " << q
                         << " offsets but cu_seqlens_k has " << k
                         << " (each is [number of sequences + 1])";
  if (!ShapedType::isDynamic(q) && q < 2)
    return emitOpError() << "cu_seqlens_q must hold at least 2 offsets (one "
                            "sequence), got "
                         << q;
  return success();
}

LogicalResult AttentionOp::verify() {
  Type elementType = getQuery().getType().getElementType();
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"key", getKey()}, {"value", getValue()},
        {"output", getOutput()}}) {
    Type other = cast<RankedTensorType>(value.getType()).getElementType();
    if (other != elementType)
      return emitOpError() << name << " element type " << other
                           << " does not match query element type "
                           << elementType;
  }

  auto q = getLogicalShape(getQuery().getType());
  auto k = kvLogicalShape(*this, getKey());
  auto v = kvLogicalShape(*this, getValue());
  auto o = getLogicalShape(getOutput().getType());

  // Heads and head dims decide the kernel; they must be known at compile time.
  for (auto [name, shape] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"query", q}, {"key", k},
        {"value", v}, {"output", o}}) {
    if (ShapedType::isDynamic(shape[1]))
      return emitOpError() << name << " heads must be static";
    if (ShapedType::isDynamic(shape[3]))
      return emitOpError() << name << " head dim must be static";
  }

  for (auto [name, shape] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"query", q}, {"key", k},
        {"value", v}, {"output", o}})
    for (auto [dim, what] : {std::pair<int, StringRef>{1, "heads"},
                             {3, "head dim"}})
      if (shape[dim] <= 0)
        return emitOpError() << name << " " << what
                             << " must be positive, got " << shape[dim];

  if (k[3] != q[3])
    return emitOpError() << "key head dim " << k[3]
                         << " does not match query head dim " << q[3];
  if (v[1] != k[1])
    return emitOpError() << "value heads " << v[1]
                         << " does not match key heads " << k[1];
  if (q[1] % k[1] != 0)
    return emitOpError() << "query heads " << q[1]
                         << " is not a multiple of key/value heads " << k[1];
  if (conflict(v[2], k[2]))
    return emitOpError() << "value sequence length " << v[2]
                         << " does not match key sequence length " << k[2];
  for (auto [name, shape] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"key", k}, {"value", v},
        {"output", o}})
    if (conflict(shape[0], q[0]))
      return emitOpError() << name << " batch " << shape[0]
                           << " does not match query batch " << q[0];
  if (o[1] != q[1])
    return emitOpError() << "output heads " << o[1]
                         << " does not match query heads " << q[1];
  if (conflict(o[2], q[2]))
    return emitOpError() << "output sequence length " << o[2]
                         << " does not match query sequence length " << q[2];
  if (o[3] != v[3])
    return emitOpError() << "output head dim " << o[3]
                         << " does not match value head dim " << v[3];

  if (Value lse = getLse()) {
    ArrayRef<int64_t> l = cast<RankedTensorType>(lse.getType()).getShape();
    if (conflict(l[0], q[0]) || l[1] != q[1] || conflict(l[2], q[2]))
      return emitOpError() << "lse shape [" << formatDim(l[0]) << ", "
                           << formatDim(l[1]) << ", " << formatDim(l[2])
                           << "] does not match [batch, query heads, query "
                              "sequence length] = ["
                           << formatDim(q[0]) << ", " << q[1] << ", "
                           << formatDim(q[2]) << "]";
  }

  if (getScale() && getScaleValue())
    return emitOpError("takes its scale as the scale attribute or as "
                       "scale_value, not both");
  if (failed(checkPositive(*this, "softcap", getSoftcap())))
    return failure();
  // The scale attribute, or a constant scale_value, held to one rule.
  StringRef scaleName = "scale";
  std::optional<APFloat> scale = getScale();
  FloatAttr scaleConstant;
  if (Value value = getScaleValue();
      value && matchPattern(value, m_Constant(&scaleConstant))) {
    scaleName = "scale_value";
    scale = scaleConstant.getValue();
  }
  if (failed(checkPositive(*this, scaleName, scale)))
    return failure();
  // The exponentials run in base 2 with scale * log2(e) folded into one f32
  // multiplier; a scale whose multiplier overflows would give NaN.
  if (scale &&
      !std::isfinite(static_cast<float>(scale->convertToDouble() * M_LOG2E)))
    return emitOpError() << scaleName
                         << " must be at most 2.35e38 (scale * log2(e) must "
                            "be a finite f32), got "
                         << scale->convertToDouble();
  if (failed(verifyWindow(*this, getWindow())))
    return failure();

  if (failed(verifyPages()) || failed(verifyVarlen()))
    return failure();
  if (std::optional<uint64_t> group = getPackedQueryHeads()) {
    if (!ShapedType::isDynamic(q[2]) && q[2] % int64_t(*group) != 0)
      return emitOpError() << "query sequence length " << q[2]
                           << " is not a multiple of packed_query_heads = "
                           << *group << " (each packed head holds " << *group
                           << " query heads' rows)";
  }

  APInt splits;
  if (Value kvSplits = getKvSplits();
      kvSplits && matchPattern(kvSplits, m_ConstantInt(&splits)) &&
      splits.getSExtValue() < 1)
    return emitOpError("kv_splits must be at least 1, got ")
           << splits.getSExtValue();

  if (std::optional<ArrayRef<int64_t>> tiles = getTileSizes()) {
    if (tiles->size() != 2 || (*tiles)[0] <= 0 || (*tiles)[1] <= 0)
      return emitOpError("tile_sizes must be [block_m, block_n] with positive "
                         "sizes");
    if ((*tiles)[0] > kMaxTileSize || (*tiles)[1] > kMaxTileSize)
      return emitOpError("tile_sizes must be at most ")
             << kMaxTileSize
             << " rows each (a block_m x block_n f32 score tile of at most 4 "
                "MiB), got ["
             << (*tiles)[0] << ", " << (*tiles)[1] << "]";
  }
  return success();
}

LogicalResult CombineSplitsOp::verify() {
  ArrayRef<int64_t> po = getPartialOutput().getType().getShape();
  ArrayRef<int64_t> pl = getPartialLse().getType().getShape();
  SmallVector<int64_t, 4> o =
      toLogicalBHSD(getOutput().getType().getShape(), getLayout());
  ArrayRef<int64_t> l = getLse().getType().getShape();
  // [S, B, Hq, Nq] of the partial LSE against the partial output's and
  // [B, Hq, Nq] of both results against the partials'.
  for (int d = 0; d < 4; ++d)
    if (conflict(pl[d], po[d]))
      return emitOpError("partial_lse must be [S, B, Hq, Nq] of "
                         "partial_output's [S, B, Hq, Nq, Dv]");
  for (int d = 0; d < 3; ++d)
    if (conflict(o[d], po[d + 1]) || conflict(l[d], po[d + 1]) ||
        conflict(l[d], o[d]))
      return emitOpError("output [B, Hq, Nq, Dv] and lse [B, Hq, Nq] must "
                         "be the partials' without the split dimension");
  if (conflict(o[3], po[4]))
    return emitOpError("output head dim ")
           << formatDim(o[3]) << " does not match the partials' "
           << formatDim(po[4]);
  return success();
}

namespace {
/// Bottom-right and top-left causal masks coincide when Nq == Nk.
struct CanonicalizeSquareBottomRightCausal
    : public OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMask() != MaskKind::CausalBottomRight)
      return failure();
    int64_t nq = op.getLogicalShape(op.getQuery().getType())[2];
    int64_t nk = op.getLogicalShape(op.getKey().getType())[2];
    if (ShapedType::isDynamic(nq) || nq != nk)
      return rewriter.notifyMatchFailure(op, "sequence lengths may differ");
    rewriter.modifyOpInPlace(op, [&] { op.setMask(MaskKind::Causal); });
    return success();
  }
};

/// A causal mask already hides every key right of the diagonal, so the right
/// half of a window is redundant: canonical form is right = 0.
struct DropRedundantRightWindow : public OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ArrayRef<int64_t>> window = op.getWindow();
    if (op.getMask() == MaskKind::None || !window || window->size() != 2 ||
        (*window)[1] == 0)
      return failure();
    int64_t left = (*window)[0];
    rewriter.modifyOpInPlace(op, [&] { op.setWindow(ArrayRef{left, 0l}); });
    return success();
  }
};
/// One kv split is the unsplit attention.
struct DropSingleKvSplit : public OpRewritePattern<AttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    Value splits = op.getKvSplits();
    if (!splits || !matchPattern(splits, m_One()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getKvSplitsMutable().clear(); });
    return success();
  }
};
} // namespace

void AttentionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<CanonicalizeSquareBottomRightCausal, DropRedundantRightWindow,
              DropSingleKvSplit>(context);
}

//===----------------------------------------------------------------------===//
// Tile ops
//===----------------------------------------------------------------------===//

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
static Type elementTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// Emits "<what> <got> does not match <whatOther> <expected>" when both sizes
/// are static and differ.
static LogicalResult checkSize(Operation *op, StringRef what, int64_t got,
                               StringRef whatOther, int64_t expected) {
  if (!conflict(got, expected))
    return success();
  return op->emitOpError() << what << " " << got << " does not match "
                           << whatOther << " " << expected;
}

/// The rules every load of a tile from a tensor shares: the tile has the
/// tensor's element type and a static shape.
static LogicalResult verifyLoadedTile(Operation *op, Value tile, Value source,
                                      StringRef sourceName) {
  if (elementTypeOf(tile) != elementTypeOf(source))
    return op->emitOpError()
           << "tile element type " << elementTypeOf(tile) << " does not match "
           << sourceName << " element type " << elementTypeOf(source);
  if (!cast<RankedTensorType>(tile.getType()).hasStaticShape())
    return op->emitOpError("tile must have a static shape");
  return success();
}

LogicalResult LoadTileOp::verify() {
  if (failed(verifyLoadedTile(*this, getTile(), getSource(), "source")))
    return failure();
  int64_t headDim = shapeOf(getSource())[physicalDim(3, getLayout())];
  return checkSize(*this, "tile columns", shapeOf(getTile())[1],
                   "source head dim", headDim);
}

LogicalResult LoadVarlenTileOp::verify() {
  if (failed(verifyLoadedTile(*this, getTile(), getSource(), "source")))
    return failure();
  ArrayRef<int64_t> source = shapeOf(getSource());
  if (source[0] != 1)
    return emitOpError("source batch must be 1 (packed sequences), got ")
           << formatDim(source[0]);
  return checkSize(*this, "tile columns", shapeOf(getTile())[1],
                   "source head dim", source[physicalDim(3, getLayout())]);
}

LogicalResult LoadPagedTileOp::verify() {
  if (failed(verifyLoadedTile(*this, getTile(), getPool(), "pool")))
    return failure();
  ArrayRef<int64_t> pool = shapeOf(getPool());
  // Rows past the length read page 0 (and are zeroed).
  if (pool[0] == 0)
    return emitOpError("the pool must hold at least one page");
  if (ShapedType::isDynamic(pool[1]) || pool[1] < 1)
    return emitOpError("the pool's page size (dim 1 of [num_pages, "
                       "page_size, heads, head_dim]) must be static and "
                       "positive");
  return checkSize(*this, "tile columns", shapeOf(getTile())[1],
                   "pool head dim", pool[3]);
}

LogicalResult SoftcapOp::verify() {
  // cap * tanh(s / cap) bounds the scores by cap; a positive output scale
  // keeps the order of the scores (and -inf masked).
  if (failed(checkPositive(*this, "cap", getCap())))
    return failure();
  return checkPositive(*this, "output_scale", getOutputScale());
}

LogicalResult QKOp::verify() {
  if (elementTypeOf(getKey()) != elementTypeOf(getQuery()))
    return emitOpError() << "key element type " << elementTypeOf(getKey())
                         << " does not match query element type "
                         << elementTypeOf(getQuery());
  ArrayRef<int64_t> q = shapeOf(getQuery()), k = shapeOf(getKey()),
                    s = shapeOf(getScores());
  if (failed(checkSize(*this, "key head dim", k[1], "query head dim", q[1])) ||
      failed(checkSize(*this, "scores rows", s[0], "query rows", q[0])) ||
      failed(checkSize(*this, "scores columns", s[1], "key rows", k[0])))
    return failure();
  return success();
}

LogicalResult MaskOp::verify() { return verifyWindow(*this, getWindow()); }

/// Row-reduction ops: `rows` has one element per row of `tile`.
static LogicalResult verifyRows(Operation *op, StringRef name, Value rows,
                                Value tile) {
  if (!rows)
    return success();
  return checkSize(op, (name + " size").str(), shapeOf(rows)[0], "tile rows",
                   shapeOf(tile)[0]);
}

LogicalResult RowMaxOp::verify() {
  // A positive score scale commutes with the max.
  if (failed(checkPositive(*this, "score_scale", getScoreScale())) ||
      failed(verifyRows(*this, "init", getInit(), getScores())))
    return failure();
  return verifyRows(*this, "result", getResult(), getScores());
}

LogicalResult ExpDiffOp::verify() {
  std::optional<uint64_t> period = getSoftwareExp2Period();
  if (period && static_cast<int64_t>(*period) < 1)
    return emitOpError("software_exp2_period must be at least 1 (one "
                       "element pair in N), got ")
           << static_cast<int64_t>(*period);
  // Positive, as the row max's (a masked -inf stays -inf).
  if (failed(checkPositive(*this, "score_scale", getScoreScale())))
    return failure();
  return verifyRows(*this, "row_max", getRowMax(), getScores());
}

LogicalResult RowSumOp::verify() {
  if (getInitScale() && !getInit())
    return emitOpError("init_scale rescales the init, which is missing");
  if (failed(verifyRows(*this, "init", getInit(), getProbs())))
    return failure();
  return verifyRows(*this, "result", getResult(), getProbs());
}

LogicalResult TruncateOp::verify() {
  auto input = getInput().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  if (!result.getElementType().isBF16() && !result.getElementType().isF16())
    return emitOpError("rounds to bf16 or f16, not ")
           << result.getElementType();
  if (input.getShape() != result.getShape() ||
      input.getEncoding() != result.getEncoding())
    return emitOpError("result must have the input's shape and layout: ")
           << input << " vs " << result;
  return success();
}

LogicalResult PVOp::verify() {
  // f32 P is rounded to V's type here; P of another type must be V's.
  Type probsElement = elementTypeOf(getProbs());
  if (!probsElement.isF32() && probsElement != elementTypeOf(getValue()))
    return emitOpError() << "probs of type " << probsElement
                         << " must be f32 or the value's element type "
                         << elementTypeOf(getValue());
  ArrayRef<int64_t> p = shapeOf(getProbs()), v = shapeOf(getValue()),
                    acc = shapeOf(getAcc());
  if (failed(checkSize(*this, "value rows", v[0], "probs columns", p[1])) ||
      failed(checkSize(*this, "acc rows", acc[0], "probs rows", p[0])) ||
      failed(checkSize(*this, "acc columns", acc[1], "value head dim", v[1])))
    return failure();
  return success();
}

bool mlir::attn::isFixedMax(Value max) {
  SplatElementsAttr splat;
  return matchPattern(max, m_Constant(&splat)) &&
         splat.getSplatValue<APFloat>().isFinite();
}

std::optional<double> mlir::attn::getSoftcapBound(Value scores) {
  while (auto mask = scores.getDefiningOp<MaskOp>())
    scores = mask.getScores();
  auto softcap = scores.getDefiningOp<SoftcapOp>();
  if (!softcap)
    return std::nullopt;
  return std::fabs(softcap.getOutputScaleOrCap().convertToDouble());
}

std::optional<double> mlir::attn::getScaledSoftcapBound(ExpDiffOp exp) {
  std::optional<double> bound = getSoftcapBound(exp.getScores());
  FloatAttr scaleLog2;
  if (!bound || !matchPattern(exp.getScaleLog2(), m_Constant(&scaleLog2)) ||
      !(scaleLog2.getValueAsDouble() > 0))
    return std::nullopt;
  double scoreScale =
      exp.getScoreScale() ? exp.getScoreScale()->convertToDouble() : 1.0;
  return *bound * std::fabs(scoreScale) * scaleLog2.getValueAsDouble();
}

OpFoldResult RescaleFactorOp::fold(FoldAdaptor) {
  // exp2((m - m) c) = 1 for a finite m; the factor of a -inf old max is 0.
  if (getOldMax() != getNewMax() || !isFixedMax(getOldMax()))
    return {};
  return DenseElementsAttr::get(getType(), APFloat(1.0f));
}

OpFoldResult ScaleRowsOp::fold(FoldAdaptor) {
  return matchPattern(getFactor(), m_OneFloat()) ? getInput() : Value();
}

OpFoldResult RowSumOp::fold(FoldAdaptor) {
  // In place: the running sum is added as it is.
  if (!getInitScale() || !matchPattern(getInitScale(), m_OneFloat()))
    return {};
  getInitScaleMutable().clear();
  return getResult();
}

bool ScaleRowsOp::rescalesByStepFactor() {
  auto alpha = getFactor().getDefiningOp<RescaleFactorOp>();
  return alpha && alpha->getBlock() == getOperation()->getBlock();
}

LogicalResult ScaleRowsOp::verify() {
  // Skipping a warp's rows is a choice about a tile's fragments; the online
  // softmax rescales its row vector, the running sum, by its attn.row_sum's
  // init_scale.
  if (getConditional() && getInput().getType().getRank() != 2)
    return emitOpError("conditional applies to a 2-D tile (the accumulator), "
                       "not to a row vector");
  return verifyRows(*this, "factor", getFactor(), getInput());
}

ArrayRef<rt::TensorName> mlir::attn::getKernelInputOrder(bool pagedKv,
                                                         bool varlen) {
  using rt::TensorName;
  static constexpr TensorName kDense[] = {TensorName::Q, TensorName::K,
                                          TensorName::V};
  static constexpr TensorName kPaged[] = {TensorName::Q, TensorName::K,
                                          TensorName::V, TensorName::BlockTable,
                                          TensorName::CacheLengths};
  static constexpr TensorName kVarlen[] = {
      TensorName::Q, TensorName::K, TensorName::V, TensorName::CuSeqlensQ,
      TensorName::CuSeqlensK};
  return pagedKv ? ArrayRef(kPaged) : varlen ? ArrayRef(kVarlen) : kDense;
}

std::string mlir::attn::getKernelInputList(bool pagedKv, bool varlen) {
  return llvm::join(llvm::map_range(getKernelInputOrder(pagedKv, varlen),
                                    [](rt::TensorName name) {
                                      return std::string(rt::toString(name));
                                    }),
                    ", ");
}

SmallVector<Value> mlir::attn::getKernelInputs(AttentionOp op) {
  auto operandOf = [&](rt::TensorName input) -> Value {
    switch (input) {
    case rt::TensorName::Q:
      return op.getQuery();
    case rt::TensorName::K:
      return op.getKey();
    case rt::TensorName::V:
      return op.getValue();
    case rt::TensorName::BlockTable:
      return op.getBlockTable();
    case rt::TensorName::CacheLengths:
      return op.getCacheLengths();
    case rt::TensorName::CuSeqlensQ:
      return op.getCuSeqlensQ();
    case rt::TensorName::CuSeqlensK:
      return op.getCuSeqlensK();
    default:
      llvm_unreachable("an output is not a kernel input");
    }
  };
  return llvm::map_to_vector(getKernelInputOrder(op.isPaged(), op.isVarlen()),
                             operandOf);
}

Value mlir::attn::extractIndex(OpBuilder &b, Location loc, Value tensor,
                               ValueRange indices) {
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      tensor::ExtractOp::create(b, loc, tensor, indices));
}

static MaskSpec makeMaskSpec(MaskKind kind,
                             std::optional<ArrayRef<int64_t>> window,
                             std::optional<uint64_t> packedQueryHeads) {
  MaskSpec spec;
  spec.kind = kind;
  if (window)
    spec.window = SmallVector<int64_t, 2>(*window);
  spec.packedQueryHeads = packedQueryHeads.value_or(1);
  return spec;
}

MaskSpec AttentionOp::getMaskSpec() {
  return makeMaskSpec(getMask(), getWindow(), getPackedQueryHeads());
}

MaskSpec MaskOp::getMaskSpec() {
  return makeMaskSpec(getKind(), getWindow(), getPackedQueryHeads());
}

MaskSpec FinalizeOp::getMaskSpec() {
  return makeMaskSpec(getMask(), getWindow(), getPackedQueryHeads());
}

LogicalResult FinalizeOp::verify() {
  if (failed(verifyWindow(*this, getWindow())))
    return failure();
  // row_max and lse have row_sum's type (AllTypesMatch).
  if (failed(verifyRows(*this, "row_sum", getRowSum(), getAcc())))
    return failure();
  if (shapeOf(getOutput()) != shapeOf(getAcc()))
    return emitOpError("output shape must match acc shape");
  auto layoutOf = [](Value tile) {
    return cast<RankedTensorType>(tile.getType()).getEncoding();
  };
  if (layoutOf(getOutput()) != layoutOf(getAcc()))
    return emitOpError("output must have acc's layout: ")
           << getOutput().getType() << " vs " << getAcc().getType();
  return success();
}
