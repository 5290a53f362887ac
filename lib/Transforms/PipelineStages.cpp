//===- PipelineStages.cpp - software-pipeline stages of kv loops ----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/PipelineStages.h"

#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::attn;

SmallVector<Operation *> mlir::attn::getAccumulatorUpdate(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto pvs = body->getOps<PVOp>();
  if (pvs.empty())
    return {};
  Value acc = (*pvs.begin()).getResult();
  // Everything a yielded value other than O depends on stays in stage 0.
  DenseSet<Operation *> needed;
  SmallVector<Value> work;
  for (Value yielded : body->getTerminator()->getOperands())
    if (yielded != acc)
      work.push_back(yielded);
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  // With the update goes the release of the V tile its P V reads.
  Value value = (*pvs.begin()).getValue();
  SmallVector<Operation *> update;
  for (Operation &op : body->without_terminator()) {
    auto release = dyn_cast<RingReleaseOp>(op);
    if ((isa<ScaleRowsOp, PVOp>(op) && !needed.contains(&op)) ||
        (release && release.getTile() == value))
      update.push_back(&op);
  }
  return update;
}

int64_t mlir::attn::getPipelineStage(Operation *op) {
  auto stage = op->getAttrOfType<IntegerAttr>(AttnDialect::getStageAttrName());
  return stage ? stage.getInt() : 0;
}

void mlir::attn::setPipelineStage(Operation *op, int64_t stage) {
  op->setAttr(AttnDialect::getStageAttrName(),
              Builder(op->getContext()).getI64IntegerAttr(stage));
}

bool mlir::attn::isSoftwarePipelined(scf::ForOp loop) {
  return llvm::any_of(loop.getBody()->without_terminator(),
                      [](Operation &op) { return getPipelineStage(&op) == 1; });
}

bool mlir::attn::isRotatedStep(Block *step) {
  auto pvs = step->getOps<PVOp>();
  if (pvs.empty())
    return false;
  auto probs = dyn_cast<BlockArgument>((*pvs.begin()).getProbs());
  return probs && probs.getOwner() == step;
}

LogicalResult mlir::attn::verifyPipelineStages(scf::ForOp loop) {
  if (!isSoftwarePipelined(loop))
    return success();
  SmallVector<Operation *> update = getAccumulatorUpdate(loop);
  for (Operation &op : loop.getBody()->without_terminator()) {
    bool inUpdate = llvm::is_contained(update, &op);
    if ((getPipelineStage(&op) == 1) == inUpdate)
      continue;
    return op.emitError()
           << "a software-pipelined kv loop has stage 1 = the accumulator's "
              "update (its attn.scale_rows and attn.pv), and only it: this op "
           << (inUpdate ? "needs" : "must not have") << " "
           << AttnDialect::getStageAttrName() << " = 1";
  }
  return success();
}
