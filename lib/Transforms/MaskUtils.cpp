//===- MaskUtils.cpp - mask predicates and kv block ranges ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Key j is visible to query i iff j < Nk and lower(i) <= j <= upper(i), where
// with the diagonal d(i) = i + (Nk - Nq) for causal_bottom_right, i otherwise:
//   lower(i) = d(i) - left                    (window), else 0
//   upper(i) = d(i)                           (causal),
//              d(i) + right                   (window only), else Nk - 1.
// Both bounds grow with i, which is what makes the block ranges below exact.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/MaskUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::attn;

namespace {
/// Small index-arithmetic helper; every op is created with createOrFold so
/// constant inputs give constant ranges.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(loc, x, y); }
  Value min(Value x, Value y) { return b.createOrFold<arith::MinSIOp>(loc, x, y); }
  Value max(Value x, Value y) { return b.createOrFold<arith::MaxSIOp>(loc, x, y); }
  Value floorDiv(Value x, int64_t y) {
    return b.createOrFold<arith::FloorDivSIOp>(loc, x, c(y));
  }
  Value ceilDiv(Value x, int64_t y) {
    return b.createOrFold<arith::CeilDivSIOp>(loc, x, c(y));
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
  }
  Value andI(Value x, Value y) {
    return b.createOrFold<arith::AndIOp>(loc, x, y);
  }
  Value div(Value x, Value y) {
    return b.createOrFold<arith::DivUIOp>(loc, x, y);
  }
};

/// d(i) for the mask's alignment.
Value diagonal(IndexMath &m, Value row, Value seqQ, Value seqK,
               const MaskSpec &mask) {
  if (mask.kind == MaskKind::CausalBottomRight)
    return m.add(row, m.sub(seqK, seqQ));
  return row;
}

int64_t upperOffset(const MaskSpec &mask) {
  if (mask.kind != MaskKind::None)
    return 0;
  return (*mask.window)[1];
}
} // namespace

Value mlir::attn::buildKeyVisible(OpBuilder &b, Location loc, Value row,
                                  Value col, Value seqQ, Value seqK,
                                  const MaskSpec &mask) {
  IndexMath m{b, loc};
  using P = arith::CmpIPredicate;
  Value visible = m.cmp(P::slt, col, seqK);
  if (!mask.hidesKeys())
    return visible;
  // Packed rows are token-major: g adjacent rows share a query position.
  if (mask.packedQueryHeads > 1)
    row = m.div(row, m.c(mask.packedQueryHeads));
  Value diag = diagonal(m, row, seqQ, seqK, mask);
  visible = m.andI(visible, m.cmp(P::sle, col, m.add(diag, upperOffset(mask))));
  if (mask.window)
    visible = m.andI(visible,
                     m.cmp(P::sge, col, m.add(diag, -(*mask.window)[0])));
  return visible;
}

KvBlockRange mlir::attn::buildKvBlockRange(OpBuilder &b, Location loc,
                                           Value rowBegin, Value seqQ,
                                           Value seqK, int64_t blockM,
                                           int64_t blockN,
                                           const MaskSpec &mask) {
  IndexMath m{b, loc};
  Value zero = m.c(0);
  KvBlockRange range;
  Value numBlocks = m.ceilDiv(seqK, blockN);
  if (!mask.hidesKeys()) {
    range.begin = zero;
    range.end = numBlocks;
    range.fullBegin = zero;
    range.fullEnd = m.floorDiv(seqK, blockN);
    return range;
  }

  Value rowLast;
  if (int64_t group = mask.packedQueryHeads; group > 1) {
    // Token-major packed rows: the block's rows are the positions from
    // rowBegin / g to (rowBegin + blockM - 1) / g, one run (seqQ counts
    // positions).
    Value lastRow = m.add(rowBegin, blockM - 1);
    rowBegin = m.div(rowBegin, m.c(group));
    rowLast = m.min(m.div(lastRow, m.c(group)), m.add(seqQ, -1));
  } else {
    rowLast = m.add(m.min(m.add(rowBegin, blockM), seqQ), -1);
  }
  Value diagFirst = diagonal(m, rowBegin, seqQ, seqK, mask);
  Value diagLast = diagonal(m, rowLast, seqQ, seqK, mask);
  int64_t up = upperOffset(mask);
  int64_t left = mask.window ? (*mask.window)[0] : 0;

  // Visited: from the smallest lower bound to the largest upper bound.
  Value lowerMin = mask.window ? m.max(m.add(diagFirst, -left), zero) : zero;
  Value upperMax = m.min(m.add(diagLast, up), m.add(seqK, -1));
  range.begin = m.floorDiv(lowerMin, blockN);
  range.end = m.min(m.max(m.ceilDiv(m.add(upperMax, 1), blockN), zero),
                    numBlocks);
  // Rows whose window starts past the last key see nothing: empty range.
  range.end = m.select(m.cmp(arith::CmpIPredicate::sgt, lowerMin, upperMax),
                       range.begin, range.end);

  // Unmasked: every column >= the largest lower bound and <= the smallest
  // upper bound, and the whole block in bounds.
  Value lowerMax = mask.window ? m.max(m.add(diagLast, -left), zero) : zero;
  Value upperMin = m.min(m.add(diagFirst, up), m.add(seqK, -1));
  range.fullBegin = m.ceilDiv(lowerMax, blockN);
  range.fullEnd = m.floorDiv(m.add(upperMin, 1), blockN);
  return range;
}

Value mlir::attn::keysOfVarlenTile(OpBuilder &b, Location loc, Value rowBegin,
                                   Value seqQ, Value seqK) {
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       rowBegin, seqQ);
  return arith::SelectOp::create(b, loc, inside, seqK,
                                 arith::ConstantIndexOp::create(b, loc, 0));
}

void mlir::attn::clipKvBlockRangeToSplit(OpBuilder &b, Location loc,
                                         KvBlockRange &range, Value seqK,
                                         int64_t blockN, Value split,
                                         Value splits) {
  Value blocks = arith::CeilDivSIOp::create(
      b, loc, seqK, arith::ConstantIndexOp::create(b, loc, blockN));
  Value perSplit = arith::CeilDivSIOp::create(b, loc, blocks, splits);
  Value first = arith::MulIOp::create(b, loc, split, perSplit);
  Value last = arith::AddIOp::create(b, loc, first, perSplit);
  range.begin = arith::MaxSIOp::create(b, loc, range.begin, first);
  range.end = arith::MinSIOp::create(b, loc, range.end, last);
}
