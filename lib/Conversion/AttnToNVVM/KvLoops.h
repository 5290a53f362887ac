//===- KvLoops.h - the kv loops the kernel runs ----------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// convert-attn-to-nvvm lowers the kv loops the tile IR holds, in order, with
// the bounds the IR computes and the score modifiers (attn.mask,
// attn.softcap) each loop's body applies: a loop or an op that is not in the
// IR is not in the kernel. The index arithmetic of the bounds and of the
// modifiers' operands is cloned into the kernel by IndexLowering, with the
// tiling forall's induction variables and the sequence lengths mapped to
// the kernel's block indices and length parameters.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_KVLOOPS_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_KVLOOPS_H

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/PipelineStages.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::attn {

/// One kv loop of the consumer (or of the unspecialized tile).
struct KvLoop {
  mutable scf::ForOp loop;
  /// The ops between S = Q K^T and its row max, in order: each is an
  /// attn.mask or attn.softcap and consumes the previous one's result.
  SmallVector<Operation *> scoreModifiers;
  /// The step's ping-pong turn around its attn.qk, if it takes turns.
  std::optional<std::pair<WaitTurnOp, PassTurnOp>> turn{};
  /// The releases of the K and V tiles the step pops (warp specialization).
  RingReleaseOp keyRelease{}, valueRelease{};
  /// The body's attn.qk and attn.pv (readKvLoop checked there is one each).
  QKOp qk() const { return *loop.getBody()->getOps<QKOp>().begin(); }
  PVOp pv() const { return *loop.getBody()->getOps<PVOp>().begin(); }
  /// Whether the loop is rotated (attn-pipeline-kv-loops): its stage-1 ops
  /// (attn.stage) read the previous step's P, alpha and V, which it carries.
  bool rotated() const { return isRotatedStep(loop.getBody()); }
  /// The loop's attn.mask, if its body has one.
  MaskOp mask() const {
    for (Operation *op : scoreModifiers)
      if (auto m = dyn_cast<MaskOp>(op))
        return m;
    return {};
  }
};

/// Reads the kv loops of `region` (the consumer region of an
/// attn.warp_specialize, or the body of the tiling forall): its top-level
/// scf.for ops that hold an attn.qk. Each must be one step of the fused
/// online softmax (attn-fuse-online-softmax); the loops must partition one
/// range (each begins where the previous one ends). Emits a diagnostic at
/// the first op that has no GPU lowering or breaks these rules.
FailureOr<SmallVector<KvLoop>> readKvLoops(Region &region);

/// Checks that kv step `step` (a kv loop's body, or the rotated loops'
/// prologue or epilogue) waits for what it reads: a GEMM reads its K or V
/// tile after an attn.wait_tile of it, an op reads a GEMM's result after an
/// attn.wait_gemms completed it, a tile is released after the GEMMs reading
/// it completed, and no tile is read after its release. The kernel
/// lowers the waits where they stand.
LogicalResult verifyStepWaits(Block *step);

/// Checks that `value` (an index, or an f32 scale value) is computed from
/// what IndexLowering can map (the forall's induction variables, constants,
/// tensor.dim of a sequence length, `extraRoots` such as a loop's induction
/// variable or the function's scale argument, tensor.extract of one of
/// `indexTensors`: 1-D i32 arguments the kernel reads through a pointer)
/// through arith ops only, or emits a diagnostic at `user`.
LogicalResult verifyLowerableIndex(Value value, Operation *user,
                                   scf::ForallOp forall,
                                   ArrayRef<Value> seqQSources,
                                   ArrayRef<Value> seqKSources, Layout layout,
                                   ArrayRef<Value> extraRoots = {},
                                   ArrayRef<Value> indexTensors = {});

/// Clones the index and scale arithmetic of the tile IR into the kernel.
class IndexLowering {
public:
  /// `seqQ` and `seqK` (index) stand for tensor.dim of the sequence
  /// dimension of any of `seqQSources` / `seqKSources`.
  IndexLowering(ArrayRef<Value> seqQSources, ArrayRef<Value> seqKSources)
      : seqQSources(seqQSources), seqKSources(seqKSources) {}

  void setLengths(Value seqQIndex, Value seqKIndex) {
    seqQ = seqQIndex;
    seqK = seqKIndex;
  }
  /// Maps a value of the tile IR (an induction variable) to a kernel value.
  void map(Value from, Value to) { mapping.map(from, to); }
  /// tensor.extract %tensor[%i] (a 1-D i32 tensor of the tile IR) becomes a
  /// load of element i at the kernel's global pointer `pointer`.
  void mapIndexTensor(Value tensor, Value pointer) {
    indexTensors.map(tensor, pointer);
  }
  /// The kernel value of `value` (verified by verifyLowerableIndex): its
  /// defining ops cloned at the builder's insertion point, every call anew
  /// (so no clone is used outside the block it was made in), with `local`
  /// mapping further values (a kv loop's induction variable).
  Value lower(OpBuilder &b, Value value, const IRMapping *local = nullptr);
  /// The kernel values of `values`, sharing the clones of common operands.
  SmallVector<Value> lower(OpBuilder &b, ValueRange values,
                           const IRMapping *local = nullptr);

private:
  Value lower(OpBuilder &b, Value value, const IRMapping *local,
              IRMapping &clones);

  SmallVector<Value> seqQSources, seqKSources;
  Value seqQ, seqK;
  IRMapping mapping, indexTensors;
};

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KVLOOPS_H
