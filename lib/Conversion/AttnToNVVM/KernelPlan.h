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
  /// A producer warpgroup issues the TMA loads (FA3's warp specialization).
  bool warpSpecialize = false;
  /// Softmax of block j while P V of block j-1 runs (needs the producer:
  /// stages are released out of order otherwise).
  bool overlap = false;
  bool overlapSoftmax() const { return warpSpecialize && overlap; }
  /// O += P V reads P from registers (wgmma RS); otherwise P goes through
  /// shared memory and wgmma SS (kept as FA3's "without RS" ablation).
  bool probsInRegisters = true;
  /// Launch the query blocks with the most kv blocks first (causal masks:
  /// the last ones), so the short ones fill the last wave, as FA2/FA3 do.
  bool longestFirst = false;
  /// Two consumer warpgroups take turns issuing their S wgmma (FA3's
  /// ping-pong); needs the producer warpgroup and the serial kv step.
  bool pingPongRequested = true;
  bool pingPong() const {
    return pingPongRequested && warpSpecialize && !overlap &&
           consumerWarpgroups() == 2;
  }
  int64_t warpgroups() const {
    return consumerWarpgroups() + (warpSpecialize ? 1 : 0);
  }
  /// setmaxnreg budgets: the producer gives its registers to the consumers
  /// (FA3's 24/240 with two consumers), within 64K registers per SM.
  int64_t producerRegisters() const {
    return consumerWarpgroups() == 1 ? 40 : (consumerWarpgroups() == 2 ? 24 : 32);
  }
  int64_t consumerRegisters() const {
    return consumerWarpgroups() == 1 ? 232 : (consumerWarpgroups() == 2 ? 240 : 160);
  }
};

/// Reads the plan of the attention tiled in `forall`, or emits a diagnostic
/// naming what the GPU lowering does not support.
FailureOr<KernelPlan> readKernelPlan(scf::ForallOp forall, StringRef name);

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELPLAN_H
