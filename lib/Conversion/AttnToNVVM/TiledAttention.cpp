//===- TiledAttention.cpp - the queries of a verified tile ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TiledAttention.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::attn;

SmallVector<scf::ForOp> TiledAttention::kvLoops() const {
  WarpSpecializeOp specialized = warpSpecialization();
  Region &region = specialized ? specialized.getConsumer() : forall.getRegion();
  SmallVector<scf::ForOp> loops;
  for (auto loop : region.front().getOps<scf::ForOp>())
    if (loop.walk([](QKOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      loops.push_back(loop);
  return loops;
}

TileLoad TiledAttention::queryLoad() const {
  TileLoad query;
  forall.getBody()->walk([&](QKOp qk) {
    query = TileLoad::of(qk.getQuery());
    return query ? WalkResult::interrupt() : WalkResult::advance();
  });
  return query;
}

TileLoad TiledAttention::kvTileLoad(Value tile, bool isKey) const {
  if (TileLoad load = TileLoad::of(tile))
    return load;
  TileLoad pushed;
  // A pop is in the consumer region of its attn.warp_specialize (its
  // verifier's rule).
  OpResult popped = RingPopOp::ofTile(tile);
  auto specialized =
      popped ? popped.getOwner()->getParentOfType<WarpSpecializeOp>()
             : WarpSpecializeOp();
  if (specialized && popped.getResultNumber() == (isKey ? 0u : 1u))
    specialized.getProducer().walk([&](RingPushOp push) {
      pushed = TileLoad::of(isKey ? push.getKey() : push.getValue());
    });
  return pushed;
}

TileLoad TiledAttention::keyLoad() const {
  TileLoad key;
  forall.getBody()->walk(
      [&](QKOp qk) { key = kvTileLoad(qk.getKey(), /*isKey=*/true); });
  return key;
}

TileLoad TiledAttention::valueLoad() const {
  TileLoad value;
  forall.getBody()->walk(
      [&](PVOp pv) { value = kvTileLoad(pv.getValue(), /*isKey=*/false); });
  return value;
}

FinalizeOp TiledAttention::finalize() const {
  FinalizeOp finalize;
  forall.getBody()->walk([&](FinalizeOp op) { finalize = op; });
  return finalize;
}

WarpSpecializeOp TiledAttention::warpSpecialization() const {
  WarpSpecializeOp specialized;
  forall.getBody()->walk([&](WarpSpecializeOp op) { specialized = op; });
  return specialized;
}

scf::ForOp TiledAttention::producerLoop() const {
  scf::ForOp producer;
  if (WarpSpecializeOp specialized = warpSpecialization())
    specialized.getProducer().walk([&](scf::ForOp loop) {
      if (!loop.getOps<RingPushOp>().empty())
        producer = loop;
    });
  return producer;
}

bool TiledAttention::hasLse() const {
  if (kvSplit())
    return combineShape().writesLse;
  return llvm::range_size(forall.getTerminator().getYieldingOps()) == 2;
}

unsigned TiledAttention::mappedIv(gpu::MappingId block) const {
  // The first three entries hold x, y and z once each (verifyTiledAttention).
  ArrayRef<Attribute> mapping = forall.getMappingAttr().getValue();
  auto *it = llvm::find_if(mapping.take_front(3), [&](Attribute attr) {
    return cast<gpu::GPUBlockMappingAttr>(attr).getBlock() == block;
  });
  return it - mapping.begin();
}

bool TiledAttention::signalsDependents() const {
  return forall.getBody()
      ->walk([](LaunchDependentsOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

Layout TiledAttention::layout() const {
  if (LoadVarlenTileOp varlen = queryLoad().getVarlen())
    return varlen.getLayout();
  return cast<LoadTileOp>(queryLoad().getOperation()).getLayout();
}

int64_t TiledAttention::headsQ() const {
  auto shape =
      cast<RankedTensorType>(queryLoad().getSource().getType()).getShape();
  return toLogicalBHSD(shape, layout())[1];
}

int64_t TiledAttention::headsKV() const {
  auto shape =
      cast<RankedTensorType>(keyLoad().getSource().getType()).getShape();
  // A page pool is [pages, page_size, heads, D] whatever the layout.
  return keyLoad().getPaged() ? shape[2] : toLogicalBHSD(shape, layout())[1];
}

int64_t TiledAttention::packedQueryHeads() const {
  auto arg = dyn_cast<BlockArgument>(queryLoad().getSource());
  auto func = arg ? dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp())
                  : FunctionOpInterface();
  IntegerAttr group =
      func ? func.getArgAttrOfType<IntegerAttr>(
                 arg.getArgNumber(), AttnDialect::getPackedQueryHeadsAttrName())
           : IntegerAttr();
  return group ? group.getInt() : 1;
}
