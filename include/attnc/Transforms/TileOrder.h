//===- TileOrder.h - the launch order of query blocks -----------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// attn-order-tiles writes the order in which grid x blocks take query
// blocks as index arithmetic on the tiling forall's induction variable.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_TILEORDER_H
#define ATTNC_TRANSFORMS_TILEORDER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::attn {

/// The position of the tiling forall's induction variable that its mapping
/// puts on #gpu.block<x> (the query block), if any.
std::optional<unsigned> getQueryBlockDim(scf::ForallOp forall);

/// A tiling forall of an attention with kv_splits has a fourth induction
/// variable, the kv split, which attn-tile maps to #gpu.block<linear_dim_0>.
inline constexpr unsigned kKvSplitDim = 3;
inline constexpr gpu::MappingId kKvSplitMapping = gpu::MappingId::LinearDim0;

/// The forall's kv-split induction variable and its bound (the
/// attention's kv_splits), if it tiles a split kv range.
std::optional<std::pair<Value, OpFoldResult>> getKvSplit(scf::ForallOp forall);

/// The forall's query block in longest-first order, `ub - 1 - iv`, if the
/// query-block induction variable is used only through it (attn-order-tiles
/// built it); null otherwise.
Value getReversedQueryBlock(scf::ForallOp forall);

} // namespace mlir::attn

#endif // ATTNC_TRANSFORMS_TILEORDER_H
