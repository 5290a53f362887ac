//===- embed.cpp - attnc embedded in a C++ compiler -----------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses a frontend's attention graph (linalg or TOSA), raises it to
// attn.attention, compiles it to sm_90a kernel artifacts with attnc's C++
// libraries (attnc::attnc) and writes them to a folder:
//   embed-cxx <graph.mlir> <out-dir>
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Pipelines/Registration.h"
#include "attnc/Target/KernelArtifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: embed-cxx <graph.mlir> <out-dir>\n";
    return 2;
  }
  // Exactly what attnc needs (attnc/Pipelines/Registration.h lists it),
  // and the dialects of the graph before raising.
  DialectRegistry registry;
  attn::registerAttncDialects(registry);
  attn::registerAttncRaisingDialects(registry);
  attn::registerAttncPasses();
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], sourceMgr, &context);
  if (!module)
    return 1;
  // softmax(scale Q K^T + mask) V as the frontend wrote it becomes one
  // attn.attention; a near miss gets a remark saying what did not match.
  PassManager raise(&context);
  if (failed(parsePassPipeline("func.func(attn-raise-attention)", raise)) ||
      failed(raise.run(*module)))
    return 1;

  // Options are set in code; every one has its pipeline default.
  attn::AttnPipelineOptions options;
  options.target = "sm_90a";
  FailureOr<SmallVector<attn::KernelArtifact>> artifacts =
      attn::compileKernelArtifacts(*module, options);
  if (failed(artifacts))
    return 1;
  for (const attn::KernelArtifact &artifact : *artifacts) {
    SmallString<256> dir(argv[2]);
    llvm::sys::path::append(dir, artifact.name);
    if (failed(attn::writeKernelArtifact(artifact, dir, module->getLoc())))
      return 1;
    llvm::outs() << "embed-cxx: kernel " << artifact.name << ": "
                 << artifact.ptx.size() << " bytes of PTX, manifest "
                 << artifact.manifest.size() << " bytes, in " << dir << "\n";
  }
  return 0;
}
