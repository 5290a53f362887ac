//===- GeneralizeScale.cpp - the softmax scale as a launch argument -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cuDNN and FlashAttention take the softmax scale at launch: one kernel
// serves every scale. The GPU pipeline gets there by making the scale of
// each attention a function argument before tiling; the tile ops then take
// it (and scale * log2(e)) as values computed from that argument, and
// convert-attn-to-nvvm makes the argument a kernel parameter.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#define DEBUG_TYPE "attn-generalize-scale"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNGENERALIZESCALEPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

struct AttnGeneralizeScalePass final
    : public mlir::attn::impl::AttnGeneralizeScalePassBase<
          AttnGeneralizeScalePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>())
      // A new argument would break the calls of a called function.
      if (!func.isExternal() && SymbolTable::symbolKnownUseEmpty(func, module))
        generalize(func);
  }

  void generalize(func::FuncOp func) {
    SmallVector<AttentionOp> attentions;
    func.walk([&](AttentionOp op) {
      if (!op.getScaleValue())
        attentions.push_back(op);
    });
    MLIRContext *ctx = func.getContext();
    Type f32 = Float32Type::get(ctx);
    for (AttentionOp op : attentions) {
      // The compiled-in value is recorded on the argument: the value the
      // graph was written with, for tools that pick a scale to test with.
      float scale = op.getStaticScale();
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(
              index, f32,
              DictionaryAttr::get(
                  ctx,
                  {NamedAttribute(
                      StringAttr::get(ctx, AttnDialect::getScaleArgAttrName()),
                      FloatAttr::get(f32, scale))}),
              op.getLoc())))
        return signalPassFailure();
      op.getScaleValueMutable().assign(func.getArgument(index));
      op.removeScaleAttr();
      ++numGeneralized;
    }
  }
};

} // namespace
