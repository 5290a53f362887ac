//===- AttnToNVVM.cpp - fused attention tiles to an sm_90a kernel ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks each function's tiled attention (verifyTiledAttention) and replaces
// the function by a Hopper kernel in gpu.module @attn_kernels
// (HopperKernel.cpp), lowered from that tile IR.
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"
#include "TiledAttention.h"

#include "attnc/Conversion/Passes.h"
#include "attnc/Dialect/Attn/AttnDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

#define DEBUG_TYPE "convert-attn-to-nvvm"

namespace mlir::attn {
#define GEN_PASS_DEF_CONVERTATTNTONVVMPASS
#include "attnc/Conversion/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The PTX entry name of the kernel for function `name`. PTX identifiers
/// are a letter followed by [A-Za-z0-9_$]*, or one of _ $ % followed by at
/// least one of those; the name is also the artifact's folder in
/// attnc-compile's output. So every other character becomes '_' ("my
/// kernel" -> my_kernel), a name that does not start with a letter gets a
/// '_' in front (".." -> ___, "1st" -> _1st), and a lone '_' gets a second
/// ("" -> __). The kernel's shared-memory global keeps its name.
std::string kernelName(StringRef name) {
  std::string out;
  for (char c : name)
    out += llvm::isAlnum(c) || c == '_' || c == '$' ? c : '_';
  if (out.empty() || !llvm::isAlpha(out.front()))
    out.insert(out.begin(), '_');
  if (out.size() == 1 || out == "attn_smem")
    out += '_';
  return out;
}

/// A function becomes one kernel that computes its attention and nothing
/// else. Outside the tiling forall it may hold only constants, what the
/// kernel computes from its parameters (index, length and scale arithmetic
/// on scalars, tensor.dim), the outputs' tensor.empty and tensor.cast, and
/// the split-KV merge; it must return the tile's (or the merge's) results. An
/// op on the tensors themselves (Q negated before the attention, O used after
/// it, a branch around it) would silently be missing from the kernel.
LogicalResult verifyOnlyAttention(func::FuncOp func, scf::ForallOp forall) {
  auto fail = [&](Operation *at, const Twine &what) {
    return at->emitError("convert-attn-to-nvvm: @")
           << func.getSymName() << " " << what
           << ": a function becomes one kernel that computes its attention "
              "and nothing else; compute the rest in another function";
  };
  if (!func.getBody().hasOneBlock())
    return fail(func, "has more than one block");
  auto isScalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  for (Operation &op : func.getBody().front()) {
    if (&op == forall.getOperation() || op.hasTrait<OpTrait::ConstantLike>() ||
        isa<func::ReturnOp, tensor::EmptyOp, tensor::DimOp, tensor::CastOp,
            CombineSplitsOp>(op))
      continue;
    // Scalar arithmetic the kernel can recompute; an op with effects (an
    // assert, a call) would be dropped like a tensor op.
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        llvm::all_of(op.getOperandTypes(), isScalar) &&
        llvm::all_of(op.getResultTypes(), isScalar))
      continue;
    return fail(&op, "computes '" + op.getName().getStringRef() +
                         "' outside its tiled attention");
  }
  // Its outputs are O, then the LSE, each once (the manifest names them),
  // of the tile or, split, of the merge of its partials.
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  Operation *outputs = forall;
  func.walk([&](CombineSplitsOp combine) {
    if (getSplitTiles(combine) == forall)
      outputs = combine;
  });
  for (OpOperand &operand : ret->getOpOperands()) {
    Value v = operand.get();
    while (auto cast = v.getDefiningOp<tensor::CastOp>())
      v = cast.getSource();
    if (v.getDefiningOp() != outputs)
      return fail(ret, "returns result #" + Twine(operand.getOperandNumber()) +
                           ", which its attention does not compute");
    if (cast<OpResult>(v).getResultNumber() != operand.getOperandNumber())
      return fail(
          ret,
          "returns its attention's " +
              Twine(cast<OpResult>(v).getResultNumber() == 0 ? "O" : "LSE") +
              " as result #" + Twine(operand.getOperandNumber()) +
              " (a kernel's results are O, then the LSE)");
  }
  return success();
}

struct ConvertAttnToNVVMPass final
    : public mlir::attn::impl::ConvertAttnToNVVMPassBase<
          ConvertAttnToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<std::pair<func::FuncOp, scf::ForallOp>> work;
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<scf::ForallOp> tiles;
      FinalizeOp untiled;
      func.walk([&](FinalizeOp finalize) {
        if (auto forall = finalize->getParentOfType<scf::ForallOp>())
          tiles.push_back(forall);
        else
          untiled = finalize;
      });
      if (untiled) {
        untiled.emitError("convert-attn-to-nvvm: attn.finalize must be in "
                          "the (batch, query head, query block) scf.forall "
                          "of attn-tile");
        return signalPassFailure();
      }
      // One kernel per function: a second attention would be dropped.
      if (tiles.size() > 1) {
        func.emitError("convert-attn-to-nvvm: @")
            << func.getSymName() << " holds " << tiles.size()
            << " attentions; a function becomes one kernel, so give each "
               "attention a function of its own";
        return signalPassFailure();
      }
      if (!tiles.empty())
        work.emplace_back(func, tiles.front());
    }
    // Every attn op must end in a kernel: one that is not part of a tiled
    // attention (an untiled attn.attention, say) would be left behind.
    WalkResult leftover = module.walk([&](Operation *op) {
      if (op->getDialect() != getContext().getLoadedDialect<AttnDialect>())
        return WalkResult::advance();
      if (llvm::any_of(work, [&](auto &w) { return w.second->isAncestor(op); }))
        return WalkResult::advance();
      // A split-KV tile's merge becomes the kernel's combine kernel.
      if (auto combine = dyn_cast<CombineSplitsOp>(op))
        if (scf::ForallOp tiles = getSplitTiles(combine);
            tiles &&
            llvm::any_of(work, [&](auto &w) { return w.second == tiles; }))
          return WalkResult::advance();
      op->emitError("convert-attn-to-nvvm: '")
          << op->getName()
          << "' is not part of a tiled attention (run attn-tile, "
             "attn-fuse-online-softmax and attn-split-masked-loops first, "
             "or attn-lower-to-nvvm-pipeline)";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      return signalPassFailure();
    if (work.empty())
      return;

    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "attn_kernels");
    auto target = NVVM::NVVMTargetAttr::get(
        ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, features);
    gpuModule.setTargetsAttr(b.getArrayAttr({target}));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());

    // Each entry name of the module and the kernel it names ("the kernel of
    // @f", "the combine kernel of @f").
    llvm::StringMap<std::string> entries;
    auto reserve = [&](func::FuncOp func, const std::string &entry,
                       const Twine &what) {
      auto [it, inserted] = entries.try_emplace(entry, what.str());
      if (inserted)
        return true;
      func.emitError("convert-attn-to-nvvm: ")
          << what << " is named " << entry << ", as " << it->second
          << " is; rename one of the functions";
      return false;
    };
    for (auto [func, forall] : work) {
      std::string name = kernelName(func.getSymName());
      if (!reserve(func, name, "the kernel of @" + func.getSymName()))
        return signalPassFailure();
      if (failed(verifyOnlyAttention(func, forall)))
        return signalPassFailure();
      FailureOr<TiledAttention> tiled = verifyTiledAttention(forall);
      if (failed(tiled))
        return signalPassFailure();
      // A split-KV kernel's combine kernel is an entry of the same module:
      // another kernel of that name would be a second symbol of it.
      if (tiled->kvSplit() &&
          !reserve(func, combineKernelName(name),
                   "the combine kernel of @" + func.getSymName()))
        return signalPassFailure();
      // The kernel's parameters are its inputs (and the scale and split
      // count the passes add), by name: an argument its tile does not read
      // would be dropped from the signature callers see.
      for (BlockArgument arg : func.getArguments())
        if (arg.use_empty()) {
          func.emitError("convert-attn-to-nvvm: @")
              << func.getSymName() << " takes argument #" << arg.getArgNumber()
              << ", which its attention does not read (a kernel's parameters "
                 "are its attention's inputs)";
          return signalPassFailure();
        }
      if (!buildHopperAttentionKernel(b, func.getLoc(), gpuModule, name,
                                      *tiled))
        return signalPassFailure();
      func.erase();
    }
  }
};

} // namespace
