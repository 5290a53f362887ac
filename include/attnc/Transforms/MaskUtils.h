//===- MaskUtils.h - mask predicates and kv block ranges ----------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one definition of "which keys does a query see", shared by the CPU
// lowering, the tiling pass (loop bounds) and the mask-split pass, so the
// element mask and the block ranges can never disagree.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_MASKUTILS_H
#define ATTNC_TRANSFORMS_MASKUTILS_H

#include "attnc/Dialect/Attn/AttnOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::attn {

/// Returns an i1 that is true iff key `col` is visible to query `row`
/// (`col < seqK` included; with packed query heads g, to query position
/// row / g). All values are `index`.
Value buildKeyVisible(OpBuilder &b, Location loc, Value row, Value col,
                      Value seqQ, Value seqK, const MaskSpec &mask);

/// Key-block ranges of one query block covering rows
/// [rowBegin, min(rowBegin + blockM, seqQ)) (with packed query heads g, the
/// query positions rowBegin / g to (rowBegin + blockM - 1) / g, at most
/// seqQ - 1: seqQ counts positions):
///  - [begin, end): blocks holding at least one key visible to some row;
///    blocks outside it are never visited.
///  - [fullBegin, fullEnd): blocks whose every key is in bounds and visible to
///    every row; they need no element mask. May be empty or extend outside
///    [begin, end); callers clamp.
struct KvBlockRange {
  Value begin, fullBegin, fullEnd, end;
};

/// Emits the index arithmetic for the ranges above; folds to constants when
/// the inputs are constants.
KvBlockRange buildKvBlockRange(OpBuilder &b, Location loc, Value rowBegin,
                               Value seqQ, Value seqK, int64_t blockM,
                               int64_t blockN, const MaskSpec &mask);

/// The keys the kv range of a varlen tile whose rows start at `rowBegin`
/// covers: its sequence's `seqK`, or none where the tile starts at or past
/// the sequence's `seqQ` rows (attn.sequence_tile's tiles past every
/// block). The tile's loops and, with warp specialization, its producer
/// take their range from these keys.
Value keysOfVarlenTile(OpBuilder &b, Location loc, Value rowBegin, Value seqQ,
                       Value seqK);

/// Clips `range`'s [begin, end) to the kv blocks of split `split` of
/// `splits` (an attention with kv_splits): [split c, (split + 1) c), c =
/// ceil(ceil(seqK / blockN) / splits). The tile's loops and, with warp
/// specialization, its producer cover exactly these blocks.
void clipKvBlockRangeToSplit(OpBuilder &b, Location loc, KvBlockRange &range,
                             Value seqK, int64_t blockN, Value split,
                             Value splits);

} // namespace mlir::attn

#endif // ATTNC_TRANSFORMS_MASKUTILS_H
