//===- AllocateSharedMemory.cpp - a GPU tile's memory and barriers -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records SharedMemoryLayout (TileConfig.h, the one place that computes it)
// as #attn.shared_memory on each tiling forall, so that the kernel lowering
// reads its buffers, mbarriers and named barriers from the IR.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/PipelineStages.h"
#include "attnc/Transforms/TileConfig.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "attn-allocate-shared-memory"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNALLOCATESHAREDMEMORYPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// `smem` as #attn.shared_memory; P's buffer, when there is one, holds P in
/// `probsAtoms`.
SharedMemoryAttr toAttr(MLIRContext *ctx, const SharedMemoryLayout &smem,
                        SwizzledAtoms probsAtoms) {
  SwizzledSharedAttr probsLayout;
  if (smem.probs)
    probsLayout = SwizzledSharedAttr::get(ctx, probsAtoms.swizzle);
  return SharedMemoryAttr::get(
      ctx, smem.query, smem.queryBytes, smem.output, smem.outputBytes,
      smem.keyStages, smem.valueStages, smem.stages, smem.keyStageBytes,
      smem.valueStageBytes, smem.probs, smem.probsBytes, probsLayout,
      smem.queryFull, smem.keyFull, smem.valueFull, smem.keyEmpty,
      smem.valueEmpty, smem.total, smem.warpgroupBarriers, smem.turnBarriers);
}

struct AttnAllocateSharedMemoryPass final
    : public mlir::attn::impl::AttnAllocateSharedMemoryPassBase<
          AttnAllocateSharedMemoryPass> {
  using Base::Base;

  LogicalResult allocate(scf::ForallOp forall) {
    // A layout set earlier (by an embedding compiler, or by hand) is kept;
    // convert-attn-to-nvvm checks that it holds the tile.
    if (forall->hasAttr(AttnDialect::getSharedMemoryAttrName()))
      return success();
    QKOp qk;
    PVOp pv;
    WarpSpecializeOp specialized;
    forall.getBody()->walk([&](Operation *op) {
      if (auto q = dyn_cast<QKOp>(op))
        qk = q;
      else if (auto p = dyn_cast<PVOp>(op))
        pv = p;
      else if (auto ws = dyn_cast<WarpSpecializeOp>(op))
        specialized = ws;
    });
    if (!qk || !pv)
      return success(); // Not a tile a kernel is built from.
    auto query = cast<RankedTensorType>(qk.getQuery().getType());
    auto value = cast<RankedTensorType>(pv.getValue().getType());
    // The GPU lowering takes bf16/f16 tiles only and says so; there is
    // nothing to allocate for others.
    if (!query.getElementType().isBF16() && !query.getElementType().isF16())
      return success();
    bool pipelined = false;
    forall.getBody()->walk(
        [&](scf::ForOp loop) { pipelined |= isSoftwarePipelined(loop); });
    if (pipelined && !probsInRegisters)
      return forall.emitError(
          "attn-allocate-shared-memory: the intra-warpgroup overlap (kv loops "
          "with attn.stage = 1) needs probs-in-registers (P of block j-1 "
          "stays in registers while block j's softmax runs)");
    auto key = cast<RankedTensorType>(qk.getKey().getType());
    // Q, K and V take their types' layouts; P's buffer the table's, which
    // the attribute records as probs_layout.
    SharedTileLayouts layouts = getDefaultSharedTileLayouts();
    for (auto [type, atoms] :
         {std::pair{query, &layouts.query}, std::pair{key, &layouts.key},
          std::pair{value, &layouts.value}}) {
      // A tile attn-assign-layouts could not place has no kernel: the GPU
      // lowering names the rule it breaks.
      auto layout = dyn_cast_or_null<SwizzledSharedAttr>(type.getEncoding());
      if (!layout)
        return success();
      *atoms = layout.getAtoms();
    }
    TileConfig tile{query.getShape()[0], value.getShape()[0]};
    int64_t stages = specialized ? specialized.getStages() : 2;
    SharedMemoryLayout smem(tile, query.getShape()[1], value.getShape()[1],
                            layouts, stages, probsInRegisters);
    // A named barrier per consumer warpgroup (the accumulator layout's
    // warpgroups), and one more each where they take ping-pong turns.
    auto scores = cast<RankedTensorType>(qk.getScores().getType());
    auto accumulator =
        dyn_cast_or_null<WgmmaAccumulatorAttr>(scores.getEncoding());
    if (!accumulator)
      return success();
    // Ping-pong: the kv steps take turns (the protocol's first pass and
    // last wait, of one warpgroup each, pair with them).
    bool pingPong = false;
    forall.getBody()->walk(
        [&](WaitTurnOp wait) { pingPong |= !wait.getWarpgroup().has_value(); });
    smem.allocateNamedBarriers(accumulator.getWarpgroups(), pingPong);
    int64_t lastBarrier = smem.turnBarriers.empty()
                              ? smem.warpgroupBarriers.back()
                              : smem.turnBarriers.back();
    if (lastBarrier >= kNamedBarriers)
      return forall.emitError("attn-allocate-shared-memory: ")
             << accumulator.getWarpgroups() << " consumer warpgroups"
             << (pingPong ? " taking turns" : "") << " need " << lastBarrier
             << " named barriers, more than the " << kNamedBarriers - 1
             << " a CTA has besides bar.sync 0; choose a smaller block_m";
    if (smem.total > SharedMemoryLayout::kMaxBytes)
      return forall.emitError("attn-allocate-shared-memory: tile ")
             << tile.blockM << "x" << tile.blockN << " needs " << smem.total
             << " bytes of shared memory (Q, " << stages << " K/V stages"
             << (probsInRegisters ? "" : ", P") << "), more than the "
             << SharedMemoryLayout::kMaxBytes
             << " bytes a CTA may use on sm_90a; choose smaller tile_sizes or "
                "fewer stages";
    forall->setAttr(AttnDialect::getSharedMemoryAttrName(),
                    toAttr(&getContext(), smem, layouts.probs));
    return success();
  }

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](scf::ForallOp forall) {
      return failed(allocate(forall)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
