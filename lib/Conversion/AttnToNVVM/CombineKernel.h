//===- CombineKernel.h - attn.combine_splits as a kernel --------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lowering of attn.combine_splits to the second kernel of a split-KV
// attention. What the combine kernel computes comes from the op (its types
// and whether its LSE is used); how it is launched, from the attention
// kernel whose partials it merges.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_COMBINEKERNEL_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_COMBINEKERNEL_H

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::attn::hopper {

/// The rows attn.combine_splits merges, as its types give them: the heads
/// of its partials (the attention kernel's, of the packed view where Q is
/// packed), the value head dim, the output's element type, and whether the
/// merged LSE is used (the kernel then writes it).
struct CombineShape {
  int64_t heads = 0;
  int64_t valueHeadDim = 0;
  Type elementType;
  bool writesLse = false;
  /// The query heads a packed head holds (TiledAttention::packedQueryHeads;
  /// 1: not packed): the partials' rows are packed, token-major (row
  /// n * g + j is query head h * g + j's token n), and the kernel writes
  /// them to those places of the caller's O and LSE.
  int64_t packedQueryHeads = 1;
  /// A varlen batch's partials: its sequences share one batch of packed
  /// rows, and the kernel writes no row before the first sequence's nor
  /// past the last one's (g * cu_seqlens_q[0], g * cu_seqlens_q[B]), rows
  /// no attention tile wrote either.
  bool varlen = false;
};

/// The shape of `op`, or a diagnostic where its heads or value head dim are
/// dynamic in every type that holds them (the kernel compiles both in).
FailureOr<CombineShape> readCombineShape(CombineSplitsOp op);

/// What the attention kernel decides of its combine kernel's launch: the
/// entry name (combineKernelName), the split count compiled in (0: the
/// runtime's choice at launch, from kv blocks of `kvBlock` keys), and
/// whether it is a programmatic dependent launch (attn.launch_dependents).
struct CombineLaunch {
  std::string entry;
  int64_t splits = 0;
  int64_t kvBlock = 0;
  bool programmatic = false;
};

/// Emits into `module` the combine kernel of the attn.combine_splits of
/// shape `shape` (readCombineShape) and returns its launch, which the
/// attention kernel's #attn.kernel_abi holds.
SplitKvAttr lowerCombineSplits(OpBuilder &b, Location loc,
                               gpu::GPUModuleOp module,
                               const CombineShape &shape,
                               const CombineLaunch &launch);

} // namespace mlir::attn::hopper

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_COMBINEKERNEL_H
