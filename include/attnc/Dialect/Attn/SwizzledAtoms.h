//===- SwizzledAtoms.h - a tile as swizzled shared atoms --------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arithmetic of #attn.swizzled_shared (AttnAttrs.td), usable without an
// MLIRContext: the sm_90a tile table sizes shared memory with it before any
// tile has a layout, attn-allocate-shared-memory and convert-attn-to-nvvm
// through the attribute.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_DIALECT_ATTN_SWIZZLEDATOMS_H
#define ATTNC_DIALECT_ATTN_SWIZZLEDATOMS_H

#include <cstdint>

namespace mlir::attn {

/// A bf16/f16 tile whose columns are cut into atoms of `swizzle` bytes per
/// row, each atom stored as a contiguous block of the tile's rows.
struct SwizzledAtoms {
  static constexpr int64_t kElementBytes = 2;
  /// The unit the swizzle permutes within an atom's row.
  static constexpr int64_t kChunkBytes = 16;
  int64_t swizzle = 128;
  /// Chunks of one atom's row.
  constexpr int64_t chunks() const { return swizzle / kChunkBytes; }
  /// Elements of one atom's row.
  int64_t columns() const { return swizzle / kElementBytes; }
  /// Atoms a tile of `tileColumns` columns occupies (padded to whole atoms).
  int64_t count(int64_t tileColumns) const {
    return (tileColumns + columns() - 1) / columns();
  }
  int64_t paddedColumns(int64_t tileColumns) const {
    return count(tileColumns) * columns();
  }
  /// Bytes of one atom of a tile of `rows` rows: atom a starts at a times it.
  int64_t atomBytes(int64_t rows) const { return rows * swizzle; }
  int64_t tileBytes(int64_t rows, int64_t tileColumns) const {
    return count(tileColumns) * atomBytes(rows);
  }
};

} // namespace mlir::attn

#endif // ATTNC_DIALECT_ATTN_SWIZZLEDATOMS_H
