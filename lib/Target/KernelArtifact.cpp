//===- KernelArtifact.cpp - attention functions to PTX + manifest ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Target/KernelArtifact.h"

#include "attnc/Dialect/Attn/KernelAbi.h"

#include "attnc/Pipelines/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
using namespace mlir::attn;

/// Whether `func` holds attention IR that can become a kernel: an
/// attn.attention whose results something reads (canonicalization erases an
/// unused one, which would leave nothing to compile), or the attn ops of an
/// attention tiled already; emits an error naming what is missing otherwise.
static LogicalResult checkHoldsAttention(func::FuncOp func) {
  SmallVector<AttentionOp> attentions;
  bool attnOps = false;
  func.walk([&](Operation *op) {
    if (auto attention = dyn_cast<AttentionOp>(op))
      attentions.push_back(attention);
    attnOps |= isa_and_nonnull<AttnDialect>(op->getDialect());
  });
  if (!attnOps)
    return func.emitError("function @")
           << func.getSymName() << " holds no attn.attention to compile";
  for (AttentionOp op : attentions)
    if (op->use_empty())
      return op.emitError("the results of this attn.attention are unused, so "
                          "it computes nothing and there is no kernel to "
                          "compile: return O (and the LSE) from @")
             << func.getSymName();
  return success();
}

/// Lowers a module holding one attention function, at `functionLoc` in the
/// input, to PTX.
static LogicalResult compileOne(ModuleOp module,
                                const AttnPipelineOptions &options,
                                Location functionLoc,
                                KernelArtifact &artifact) {
  PassManager toNVVM(module.getContext());
  buildAttnToNVVMPipeline(toNVVM, options);
  if (failed(toNVVM.run(module)))
    return failure();
  // The manifest is the kernel's #attn.kernel_abi, written out before the
  // gpu.module becomes a binary.
  std::string function = artifact.name;
  WalkResult written = module.walk([&](LLVM::LLVMFuncOp func) {
    auto abi =
        func->getAttrOfType<KernelAbiAttr>(AttnDialect::getKernelAbiAttrName());
    if (!abi)
      return WalkResult::advance();
    FailureOr<attnc::rt::Manifest> manifest =
        toManifest(abi, func.getSymName(), [&] { return func.emitError(); });
    if (failed(manifest))
      return WalkResult::interrupt();
    artifact.manifest = attnc::rt::toJson(*manifest);
    // The kernel's entry name (a PTX identifier) names the artifact.
    artifact.name = func.getSymName().str();
    return WalkResult::advance();
  });
  if (written.wasInterrupted())
    return failure();
  // checkHoldsAttention saw one whose results are read; canonicalization
  // can still erase it when they only feed dead ops.
  if (artifact.manifest.empty())
    return emitError(functionLoc, "function @")
           << function
           << " holds no attn.attention whose results it returns, so there "
              "is no kernel to compile";
  PassManager toPTX(module.getContext());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text; the driver JITs it.
  toPTX.addPass(createGpuModuleToBinaryPass(binary));
  if (failed(toPTX.run(module)))
    return failure();
  module.walk([&](gpu::BinaryOp op) {
    for (Attribute object : op.getObjects())
      artifact.ptx = cast<gpu::ObjectAttr>(object).getObject().str();
  });
  return success(!artifact.ptx.empty());
}

/// Says why `module`, which has no function with a body at its top level,
/// gives no kernel: a function nested in another module, or declarations
/// only.
static LogicalResult emitNothingToCompile(ModuleOp module) {
  func::FuncOp nested;
  module.walk([&](func::FuncOp func) {
    if (!nested && func->getParentOp() != module && !func.isDeclaration())
      nested = func;
  });
  if (nested) {
    auto parent = nested->getParentOfType<ModuleOp>();
    InFlightDiagnostic diag = nested.emitError("function @")
                              << nested.getSymName() << " is inside module";
    if (std::optional<StringRef> name = parent.getSymName())
      diag << " @" << *name;
    return diag << ": only the functions at the top level of the input are "
                   "compiled";
  }
  for (auto func : module.getOps<func::FuncOp>())
    return func.emitError("function @")
           << func.getSymName()
           << " is a declaration: the input has no function body to compile";
  return module.emitError("the input has no function to compile");
}

FailureOr<SmallVector<KernelArtifact>>
mlir::attn::compileKernelArtifacts(ModuleOp module,
                                   const AttnPipelineOptions &options) {
  // A diagnostic, not a crash in gpu-module-to-binary, when the context was
  // built without registerAttncDialects.
  if (failed(checkAttncRequirements(module)))
    return failure();
  SmallVector<KernelArtifact> artifacts;
  // The function each artifact's kernel was compiled from, by kernel name.
  llvm::StringMap<std::string> functionOfKernel;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    auto start = std::chrono::steady_clock::now();
    KernelArtifact artifact;
    artifact.name = func.getSymName().str();
    // Each function is compiled alone: a call to another would be left
    // pointing at a function the copy no longer has.
    WalkResult calls = func.walk([&](CallOpInterface call) {
      call.emitError("function @")
          << artifact.name
          << " calls another function; each function is compiled alone "
             "into one kernel of its own attn.attention (a call is neither "
             "inlined nor launched): put the attention in this function";
      return WalkResult::interrupt();
    });
    if (calls.wasInterrupted() || failed(checkHoldsAttention(func)))
      return failure();
    OwningOpRef<ModuleOp> single(module.clone());
    for (auto other : llvm::make_early_inc_range(single->getOps<func::FuncOp>()))
      if (other.getSymName() != artifact.name)
        other.erase();
    std::string function = artifact.name;
    if (failed(compileOne(*single, options, func.getLoc(), artifact)))
      return failure();
    // Two functions whose names map to one entry would overwrite each
    // other's artifact.
    auto [earlier, unique] =
        functionOfKernel.try_emplace(artifact.name, function);
    if (!unique)
      return func.emitError("the kernel of @")
             << function << " is named " << artifact.name
             << ", as the kernel of @" << earlier->second
             << " is; rename one of the functions";
    artifact.compileMs = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    artifacts.push_back(std::move(artifact));
  }
  if (artifacts.empty())
    return emitNothingToCompile(module);
  return artifacts;
}

LogicalResult mlir::attn::writeKernelArtifact(const KernelArtifact &artifact,
                                              StringRef dir, Location loc) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return emitError(loc) << "cannot create " << dir << ": " << ec.message();
  SmallString<256> ptxPath(dir), manifestPath(dir);
  llvm::sys::path::append(ptxPath, "kernel.ptx");
  llvm::sys::path::append(manifestPath, "manifest.json");
  // Both files or neither: a kernel.ptx without its manifest (or beside an
  // old one) is an artifact the runtime would load wrongly. An output file
  // not kept is removed when it goes out of scope.
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> ptx = openOutputFile(ptxPath, &error);
  if (!ptx)
    return emitError(loc) << error;
  std::unique_ptr<llvm::ToolOutputFile> manifest =
      openOutputFile(manifestPath, &error);
  if (!manifest)
    return emitError(loc) << error;
  for (auto [file, contents, path] :
       {std::tuple(ptx.get(), StringRef(artifact.ptx), StringRef(ptxPath)),
        std::tuple(manifest.get(), StringRef(artifact.manifest),
                   StringRef(manifestPath))}) {
    file->os() << contents;
    file->os().flush();
    if (std::error_code ec = file->os().error()) {
      file->os().clear_error();
      return emitError(loc) << "cannot write " << path << ": " << ec.message();
    }
  }
  ptx->keep();
  manifest->keep();
  return success();
}
