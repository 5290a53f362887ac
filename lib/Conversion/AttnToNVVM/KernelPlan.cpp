//===- KernelPlan.cpp - read the kernel plan off the tile IR --------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

using namespace mlir;
using namespace mlir::attn;

FailureOr<KernelPlan> mlir::attn::readKernelPlan(scf::ForallOp forall,
                                                 StringRef name) {
  KernelPlan plan;
  plan.name = name.str();
  auto fail = [&](const Twine &why) -> FailureOr<KernelPlan> {
    return forall.emitError("convert-attn-to-nvvm: ") << why;
  };

  FinalizeOp finalize;
  LoadTileOp queryLoad;
  WarpSpecializeOp specialized;
  forall.getBody()->walk([&](Operation *op) {
    if (auto f = dyn_cast<FinalizeOp>(op))
      finalize = f;
    else if (auto qk = dyn_cast<QKOp>(op))
      queryLoad = qk.getQuery().getDefiningOp<LoadTileOp>();
    else if (auto ws = dyn_cast<WarpSpecializeOp>(op))
      specialized = ws;
  });
  if (!queryLoad || !finalize)
    return fail("expected a tiled attention (attn-tile) in the scf.forall");
  if (specialized) {
    // The partition attn-warp-specialize chose.
    plan.warpSpecialize = true;
    plan.overlap = specialized.getIntraWarpgroupOverlap();
    plan.pingPongRequested = specialized.getPingPong();
    plan.producerRegisters = specialized.getProducerRegisters();
    plan.consumerRegisters = specialized.getConsumerRegisters();
    plan.stages = specialized.getStages();
  }
  // The kernel always runs the online softmax and always splits the kv range
  // into masked and unmasked loops from the launch-time lengths (the same
  // buildKvBlockRange as attn-split-masked-loops). The loops left in the IR
  // are not read: canonicalization folds single- and zero-trip loops of
  // static shapes, so their count says nothing about other lengths.
  auto queryType = queryLoad.getSource().getType();
  plan.layout = queryLoad.getLayout();
  auto q = toLogicalBHSD(queryType.getShape(), plan.layout);
  plan.headsQ = q[1];
  plan.headDim = q[3];
  plan.blockM = queryLoad.getTile().getType().getShape()[0];
  plan.elementType = queryType.getElementType();
  plan.hasLse = forall.getNumResults() == 2;
  plan.softmaxScale = finalize.getScale().convertToFloat();
  // The mask as attn-tile recorded it: the loops' attn.mask ops may have
  // folded away for static shapes, and the kernel re-derives the kv range
  // from the launch-time lengths.
  plan.mask = finalize.getMaskSpec();
  // Without softcap the finalize scale is the op's softmax scale.
  plan.scale = plan.softmaxScale;

  bool sawKey = false, sawValue = false;
  WalkResult walk = forall.getBody()->walk([&](Operation *op) -> WalkResult {
    if (auto pv = dyn_cast<PVOp>(op)) {
      auto valueType = pv.getValue().getType();
      plan.blockN = valueType.getShape()[0];
      plan.valueHeadDim = valueType.getShape()[1];
      sawValue = true;
    } else if (auto qk = dyn_cast<QKOp>(op)) {
      auto keyLoad = qk.getKey().getDefiningOp<LoadTileOp>();
      if (auto pop = qk.getKey().getDefiningOp<RingPopOp>()) {
        // Warp-specialized: K is what the producer pushes.
        specialized.getProducer().walk([&](RingPushOp push) {
          keyLoad = push.getKey().getDefiningOp<LoadTileOp>();
        });
      }
      if (!keyLoad)
        return op->emitError(
                   "convert-attn-to-nvvm: keys must come from "
                   "attn.load_tile (directly or through the producer's "
                   "attn.ring_push)"),
               WalkResult::interrupt();
      plan.headsKV = toLogicalBHSD(keyLoad.getSource().getType().getShape(),
                                   plan.layout)[1];
      sawKey = true;
    } else if (auto exp = dyn_cast<ExpDiffOp>(op)) {
      plan.scaleLog2 = exp.getScaleLog2().convertToFloat();
    } else if (isa<SoftcapOp>(op)) {
      return op->emitError("convert-attn-to-nvvm: softcap is not supported "
                           "by the GPU lowering yet"),
             WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!sawKey || !sawValue)
    return fail("expected attn.qk and attn.pv in the kv loop");

  Type el = plan.elementType;
  if (!el.isBF16() && !el.isF16())
    return fail(Twine("element type must be bf16 or f16 for wgmma, got ") +
                (el.isF32() ? "f32" : "another type"));
  if (plan.blockM != 64 && plan.blockM != 128 && plan.blockM != 192)
    return fail("block_m must be 64, 128 or 192 (one consumer warpgroup per "
                "64 rows), got " +
                Twine(plan.blockM));
  if (plan.blockN % 16 != 0 || plan.blockN < 16 || plan.blockN > 256)
    return fail("block_n must be a multiple of 16 in [16, 256], got " +
                Twine(plan.blockN));
  for (auto [what, dim] :
       {std::pair<StringRef, int64_t>{"head dim", plan.headDim},
        {"value head dim", plan.valueHeadDim}})
    if (dim % 64 != 0 || dim > 256)
      return fail(what +
                  " must be 64, 128, 192 or 256 (whole 128-byte "
                  "swizzle atoms), got " +
                  Twine(dim));
  return plan;
}
