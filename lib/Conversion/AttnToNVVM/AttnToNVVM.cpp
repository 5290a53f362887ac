//===- AttnToNVVM.cpp - fused attention tiles to an sm_90a kernel ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads the kernel plan off each function's tiled attention and replaces the
// function by a Hopper kernel in gpu.module @attn_kernels (HopperKernel.cpp).
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"
#include "KernelPlan.h"

#include "attnc/Conversion/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "convert-attn-to-nvvm"

namespace mlir::attn {
#define GEN_PASS_DEF_CONVERTATTNTONVVMPASS
#include "attnc/Conversion/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

struct ConvertAttnToNVVMPass final
    : public mlir::attn::impl::ConvertAttnToNVVMPassBase<
          ConvertAttnToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<std::pair<func::FuncOp, scf::ForallOp>> work;
    for (auto func : module.getOps<func::FuncOp>()) {
      scf::ForallOp forall;
      func.walk([&](FinalizeOp finalize) {
        forall = finalize->getParentOfType<scf::ForallOp>();
      });
      if (forall)
        work.emplace_back(func, forall);
    }
    if (work.empty())
      return;
    if (tileOrder != "auto" && tileOrder != "in-order" &&
        tileOrder != "longest-first") {
      module.emitError("convert-attn-to-nvvm: tile-order must be in-order, "
                       "longest-first or auto, got '")
          << tileOrder << "'";
      return signalPassFailure();
    }

    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
    auto target = NVVM::NVVMTargetAttr::get(
        ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, features);
    gpuModule.setTargetsAttr(b.getArrayAttr({target}));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());

    for (auto [func, forall] : work) {
      FailureOr<KernelPlan> plan = readKernelPlan(forall, func.getSymName());
      if (failed(plan))
        return signalPassFailure();
      if (plan->overlapSoftmax() && !probsInRegisters) {
        forall.emitError("convert-attn-to-nvvm: intra_warpgroup_overlap needs "
                         "probs-in-registers (P of block j-1 stays in "
                         "registers while block j's softmax runs)");
        return signalPassFailure();
      }
      if (persistent && !plan->warpSpecialize) {
        forall.emitError("convert-attn-to-nvvm: persistent needs a "
                         "warp-specialized tile (attn-warp-specialize)");
        return signalPassFailure();
      }
      plan->persistent = persistent;
      plan->probsInRegisters = probsInRegisters;
      plan->conditionalRescale = conditionalRescale;
      plan->longestFirst = tileOrder == "auto" ? plan->mask.hidesKeys()
                                               : tileOrder == "longest-first";
      SharedMemoryLayout smem = getSharedMemoryLayout(*plan);
      if (smem.total > SharedMemoryLayout::kMaxBytes) {
        forall.emitError("convert-attn-to-nvvm: tile ")
            << plan->blockM << "x" << plan->blockN << " needs " << smem.total
            << " bytes of shared memory (Q, " << smem.stages << " K/V stages"
            << (plan->probsInRegisters ? "" : ", P") << "), more than the "
            << SharedMemoryLayout::kMaxBytes << " bytes a CTA may use on "
            << chip << "; choose smaller tile_sizes or fewer stages";
        return signalPassFailure();
      }
      attnc::rt::Manifest manifest;
      LLVM::LLVMFuncOp kernel = buildHopperAttentionKernel(
          b, func.getLoc(), gpuModule, *plan, manifest);
      kernel->setAttr("attnc.manifest",
                      b.getStringAttr(attnc::rt::toJson(manifest)));
      func.erase();
    }
  }
};

} // namespace
