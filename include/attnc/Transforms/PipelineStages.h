//===- PipelineStages.h - software-pipeline stages of kv loops --*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The intra-warpgroup overlap of FlashAttention-3 is a two-stage software
// pipeline of a fused kv loop: stage 0 of block j (S = Q K^T, the softmax)
// runs while stage 1 of block j-1 (O's rescale and O += P V) is in flight.
// attn-warp-specialize records the stage of each op as `attn.stage` in the
// IR (ops without it are stage 0); attn-pipeline-kv-loops rotates the loops
// into that schedule, which convert-attn-to-nvvm lowers.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_PIPELINESTAGES_H
#define ATTNC_TRANSFORMS_PIPELINESTAGES_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::attn {

/// The tile ops of fused kv loop `loop` that only the accumulator's update
/// reads (its attn.scale_rows and the attn.pv that yields O), and the
/// attn.ring_release of the V tile that P V reads, in order: the ops a
/// two-stage pipeline defers to the next iteration.
SmallVector<Operation *> getAccumulatorUpdate(scf::ForOp loop);

/// The `attn.stage` of `op`, 0 without one.
int64_t getPipelineStage(Operation *op);
void setPipelineStage(Operation *op, int64_t stage);

/// Whether an op of `loop`'s body is in stage 1.
bool isSoftwarePipelined(scf::ForOp loop);

/// Whether kv step `step` (a loop body) is rotated (attn-pipeline-kv-loops):
/// its attn.pv reads the P that the loop carries from the previous step.
bool isRotatedStep(Block *step);

/// Checks the stages of `loop`'s ops: stage 1 must be exactly its
/// accumulator update (getAccumulatorUpdate), the one two-stage schedule
/// the GPU lowering has, or no op at all.
LogicalResult verifyPipelineStages(scf::ForOp loop);

} // namespace mlir::attn

#endif // ATTNC_TRANSFORMS_PIPELINESTAGES_H
