//===- ConfigureTiles.cpp - tile sizes recorded on each attention ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tile table depends on facts attn-generalize-lengths erases (a decode
// step's static query rows), so the GPU pipeline records each attention's
// tile before it, as the op's tile_sizes, which attn-tile then obeys.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"
#include "attnc/Transforms/TileConfig.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "attn-configure-tiles"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNCONFIGURETILESPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

struct AttnConfigureTilesPass final
    : public mlir::attn::impl::AttnConfigureTilesPassBase<
          AttnConfigureTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyTileOptions(getOperation(), getArgument(), target, blockM,
                                 blockN)))
      return signalPassFailure();
    getOperation().walk([&](AttentionOp op) {
      if (op.getTileSizes())
        return;
      TileConfig tile = chooseTileConfig(op, blockM, blockN, target);
      op.setTileSizes(ArrayRef<int64_t>{tile.blockM, tile.blockN});
      ++numConfigured;
    });
  }
};

} // namespace
