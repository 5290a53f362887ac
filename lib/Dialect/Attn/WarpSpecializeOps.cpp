//===- WarpSpecializeOps.cpp - producer/consumer partition ops ------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of attn.warp_specialize, attn.ring_push, attn.ring_pop and the
// tile-level scheduling ops (turns, attn.launch_dependents): the
// hardware limits of the partition (warpgroups, setmaxnreg budgets within
// one SM's register file) and that each ring op sits in its role's region.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::attn;

/// Registers of one SM (sm_90), shared by all warpgroups of a CTA that runs
/// alone on it.
static constexpr int64_t kRegistersPerSM = 65536;
static constexpr int64_t kWarpgroupThreads = 128;

LogicalResult WarpSpecializeOp::verify() {
  int64_t consumers = getConsumerWarpgroups();
  if (consumers < 1 || consumers > 3)
    return emitOpError("consumer_warpgroups must be 1, 2 or 3 (64 query rows "
                       "each), got ")
           << consumers;
  if (getStages() < 2)
    return emitOpError("stages must be at least 2 (the producer fills one "
                       "while the consumers read another), got ")
           << getStages();
  for (auto [name, regs] : {std::pair<StringRef, int64_t>{
                                "producer_registers", getProducerRegisters()},
                            {"consumer_registers", getConsumerRegisters()}})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError() << name
                           << " must be a multiple of 8 in [24, 256] "
                              "(setmaxnreg), got "
                           << regs;
  int64_t total = kWarpgroupThreads *
                  (getProducerRegisters() + consumers * getConsumerRegisters());
  if (total > kRegistersPerSM)
    return emitOpError("needs 128 x (")
           << getProducerRegisters() << " + " << consumers << " x "
           << getConsumerRegisters() << ") = " << total
           << " registers, more than the 65536 "
              "of an SM";
  if (!getResults().empty()) {
    auto output = dyn_cast<RankedTensorType>(getResult(0).getType());
    if (output && output.getRank() == 2 &&
        output.getDimSize(0) != 64 * consumers)
      return emitOpError("consumer_warpgroups (")
             << consumers << ") x 64 rows must equal the "
             << output.getDimSize(0) << " rows of the output tile";
  }
  return success();
}

LogicalResult WarpSpecializeOp::verifyRegions() {
  auto producerYield = cast<YieldOp>(getProducer().front().getTerminator());
  if (!producerYield.getValues().empty())
    return emitOpError("producer region must yield no values");
  auto consumerYield = cast<YieldOp>(getConsumer().front().getTerminator());
  if (consumerYield.getValues().getTypes() != getResultTypes())
    return emitOpError("consumer region must yield the op's result types");
  bool pushes = false;
  getProducer().walk([&](RingPushOp) { pushes = true; });
  if (!pushes)
    return emitOpError("producer region must push K/V tiles with "
                       "attn.ring_push");
  return success();
}

/// The warp_specialize whose `role` region (producer or consumer) holds `op`.
static WarpSpecializeOp enclosingRole(Operation *op, bool producer) {
  auto ws = op->getParentOfType<WarpSpecializeOp>();
  if (!ws)
    return {};
  Region &role = producer ? ws.getProducer() : ws.getConsumer();
  return role.isAncestor(op->getParentRegion()) ? ws : WarpSpecializeOp();
}

LogicalResult RingPushOp::verify() {
  if (!enclosingRole(*this, /*producer=*/true))
    return emitOpError("must be inside the producer region of an "
                       "attn.warp_specialize");
  int64_t keyRows = getKey().getType().getDimSize(0);
  int64_t valueRows = getValue().getType().getDimSize(0);
  if (keyRows != valueRows)
    return emitOpError("key and value tiles must have the same rows "
                       "(block_n), got ")
           << keyRows << " and " << valueRows;
  return success();
}

LogicalResult RingPopOp::verify() {
  WarpSpecializeOp ws = enclosingRole(*this, /*producer=*/false);
  if (!ws)
    return emitOpError("must be inside the consumer region of an "
                       "attn.warp_specialize");
  WalkResult result = ws.getProducer().walk([&](RingPushOp push) {
    if (push.getKey().getType() != getKey().getType() ||
        push.getValue().getType() != getValue().getType())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return emitOpError("must pop the tile types the producer pushes");
  return success();
}

/// The turns alternate between the two consumer warpgroups of the
/// enclosing attn.warp_specialize; `warpgroup` names one of them.
static LogicalResult verifyTurn(Operation *op,
                                std::optional<int64_t> warpgroup) {
  WarpSpecializeOp ws = enclosingRole(op, /*producer=*/false);
  if (!ws)
    return op->emitOpError("must be inside the consumer region of an "
                           "attn.warp_specialize");
  if (ws.getConsumerWarpgroups() != 2)
    return op->emitOpError("needs exactly 2 consumer warpgroups (the turn "
                           "alternates between them), got ")
           << ws.getConsumerWarpgroups();
  if (warpgroup &&
      *warpgroup >= static_cast<int64_t>(ws.getConsumerWarpgroups()))
    return op->emitOpError("warpgroup must name a consumer warpgroup (0 or "
                           "1), got ")
           << *warpgroup;
  return success();
}

Operation *mlir::attn::getTurnsStart(Operation *op) {
  for (Operation &prev :
       llvm::make_range(op->getBlock()->begin(), op->getIterator()))
    if (auto pass = dyn_cast<PassTurnOp>(prev); pass && pass.getWarpgroup())
      return pass;
  return op;
}

LogicalResult WaitTurnOp::verify() { return verifyTurn(*this, getWarpgroup()); }
LogicalResult PassTurnOp::verify() { return verifyTurn(*this, getWarpgroup()); }

OpResult RingPopOp::ofTile(Value tile) {
  // Each step goes one yield back; a carried value that yields itself (or
  // a cycle of them) comes from no pop.
  for (int step = 0; step < 4 && tile; ++step) {
    if (tile.getDefiningOp<RingPopOp>())
      return cast<OpResult>(tile);
    if (auto arg = dyn_cast<BlockArgument>(tile)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() < loop.getNumInductionVars())
        return {};
      tile = loop.getYieldedValues()[arg.getArgNumber() -
                                     loop.getNumInductionVars()];
    } else if (auto loop = tile.getDefiningOp<scf::ForOp>()) {
      tile = loop.getYieldedValues()[cast<OpResult>(tile).getResultNumber()];
    } else if (auto branch = tile.getDefiningOp<scf::IfOp>()) {
      tile =
          branch.thenYield().getOperand(cast<OpResult>(tile).getResultNumber());
    } else {
      return {};
    }
  }
  return {};
}

LogicalResult RingReleaseOp::verify() {
  if (!enclosingRole(*this, /*producer=*/false))
    return emitOpError("must be inside the consumer region of an "
                       "attn.warp_specialize");
  if (!RingPopOp::ofTile(getTile()))
    return emitOpError("releases a tile of attn.ring_pop (or one a "
                       "software-pipelined kv loop carries from it)");
  return success();
}

bool WaitTileOp::landsAsynchronously(Value tile) {
  return tile.getDefiningOp<LoadTileOp>() ||
         tile.getDefiningOp<LoadPagedTileOp>() ||
         tile.getDefiningOp<LoadVarlenTileOp>() || RingPopOp::ofTile(tile);
}

LogicalResult WaitTileOp::verify() {
  if (!landsAsynchronously(getTile()))
    return emitOpError("waits for a tile of attn.ring_pop (or one a "
                       "software-pipelined kv loop carries from it) or of an "
                       "attn.load_tile");
  return success();
}

/// Consumers issue GEMMs; outside a consumer region only a tile without
/// attn.warp_specialize does (its kv loops sit in the tiling scf.forall).
LogicalResult WaitGemmsOp::verify() {
  auto ws = (*this)->getParentOfType<WarpSpecializeOp>();
  if (ws && !ws.getConsumer().isAncestor((*this)->getParentRegion()))
    return emitOpError("must be in the consumer region of an "
                       "attn.warp_specialize, where the GEMMs are issued");
  return success();
}

/// A tile's top level: where its kv loops and attn.finalize sit.
LogicalResult LaunchDependentsOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (auto ws = dyn_cast<WarpSpecializeOp>(parent);
      ws && (*this)->getParentRegion() == &ws.getConsumer())
    return success();
  if (isa<scf::ForallOp>(parent))
    return success();
  if (isa<WarpSpecializeOp>(parent))
    return emitOpError("must be in the consumer region of an "
                       "attn.warp_specialize, not in its producer region");
  return emitOpError("must be at the top level of a tile: the consumer "
                     "region of an attn.warp_specialize or the body of the "
                     "tiling scf.forall, got a parent '")
         << parent->getName() << "'";
}
