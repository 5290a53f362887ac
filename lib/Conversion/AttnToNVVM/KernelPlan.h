//===- KernelPlan.h - what the Hopper kernel must compute ---------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The facts convert-attn-to-nvvm reads off the fused (and mask-split) tile IR
// before it builds a kernel: tile sizes, element type, head dims, GQA group,
// mask, softmax constants and the kv loops in order.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELPLAN_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELPLAN_H

#include "attnc/Transforms/MaskUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::attn {

struct KernelPlan {
  std::string name; // kernel symbol
  Type elementType; // bf16 or f16
  int64_t blockM = 0, blockN = 0;
  int64_t headDim = 0, valueHeadDim = 0;
  int64_t headsQ = 0, headsKV = 0;
  Layout layout = Layout::BHSD;
  MaskSpec mask;
  float scaleLog2 = 0.0f;    // multiplier inside exp2
  float softmaxScale = 0.0f; // LSE = softmaxScale * m + log(l)
  float scale = 0.0f;        // the op's softmax scale (for the manifest)
  bool hasLse = false;
  /// The kv loops the kernel runs, in order; true where the loop applies the
  /// mask: a window's left edge (masked), the fully visible blocks
  /// (unmasked), the diagonal and ragged tail (masked).
  SmallVector<bool> loopIsMasked() const {
    if (mask.window)
      return {true, false, true};
    return {false, true};
  }

  int64_t groupSize() const { return headsQ / headsKV; }
  /// One consumer warpgroup per 64 query rows.
  int64_t consumerWarpgroups() const { return blockM / 64; }

  // From the attn.warp_specialize of the tile (attn-warp-specialize), if any.
  /// A producer warpgroup issues the TMA loads (FA3's warp specialization).
  bool warpSpecialize = false;
  /// Softmax of block j while P V of block j-1 runs.
  bool overlap = false;
  bool overlapSoftmax() const { return warpSpecialize && overlap; }
  /// Two consumer warpgroups take turns issuing their S wgmma (FA3's
  /// ping-pong).
  bool pingPongRequested = false;
  bool pingPong() const {
    return pingPongRequested && warpSpecialize && consumerWarpgroups() == 2;
  }
  /// setmaxnreg budgets of the producer and of each consumer thread.
  int64_t producerRegisters = 0, consumerRegisters = 0;
  /// Shared-memory stages of the K/V ring.
  int64_t stages = 2;
  int64_t warpgroups() const {
    return consumerWarpgroups() + (warpSpecialize ? 1 : 0);
  }

  // Lowering choices (convert-attn-to-nvvm options).
  /// O += P V reads P from registers (wgmma RS); otherwise P goes through
  /// shared memory and wgmma SS (kept as FA3's "without RS" ablation).
  bool probsInRegisters = true;
  /// Skip O *= alpha in warps whose row maxima did not move (exact).
  bool conditionalRescale = false;
  /// Launch the query blocks with the most kv blocks first (causal masks:
  /// the last ones), so the short ones fill the last wave, as FA2/FA3 do.
  bool longestFirst = false;
  /// One CTA per SM walks the tiles (tile += gridDim.x); needs the producer
  /// warpgroup, which then streams Q and K/V of consecutive tiles.
  bool persistent = false;
};

/// Reads the plan of the attention tiled in `forall`, or emits a diagnostic
/// naming what the GPU lowering does not support.
FailureOr<KernelPlan> readKernelPlan(scf::ForallOp forall, StringRef name);

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELPLAN_H
