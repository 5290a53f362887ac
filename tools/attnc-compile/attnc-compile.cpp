//===- attnc-compile.cpp - attention graphs to kernel artifacts -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles every attention function of an .mlir file through the Hopper
// pipeline and writes one kernel artifact per function:
//   <out>/<function>/kernel.ptx      PTX for sm_90a (the driver JITs it)
//   <out>/<function>/manifest.json   what the runtime needs to launch it
// This is the compiler's product; the runtime (libAttncRuntime) consumes it
// without MLIR.
//
//===----------------------------------------------------------------------===//

#include "attnc/InitAll.h"
#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Target/KernelArtifact.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<input .mlir file>"),
                                      cl::init("-"));
static cl::opt<std::string> outputDir("o", cl::desc("Artifact directory"),
                                      cl::value_desc("dir"), cl::Required);
static cl::opt<attn::WarpSpecializeMode> warpSpecialize(
    "warp-specialize",
    cl::desc("Producer warpgroup for the TMA loads (attn-warp-specialize)"),
    cl::init(attn::WarpSpecializeMode::Auto),
    cl::values(clEnumValN(attn::WarpSpecializeMode::Off, "off", "none"),
               clEnumValN(attn::WarpSpecializeMode::On, "on", "every kernel"),
               clEnumValN(attn::WarpSpecializeMode::Auto, "auto",
                          "the target's table")));
static cl::opt<attn::TableChoice> overlap(
    "intra-warpgroup-overlap",
    cl::desc("Softmax of block j overlaps P V of block j-1"),
    cl::init(attn::TableChoice::Auto),
    cl::values(clEnumValN(attn::TableChoice::Off, "off", "never"),
               clEnumValN(attn::TableChoice::Off, "false", "never"),
               clEnumValN(attn::TableChoice::On, "on", "every kernel"),
               clEnumValN(attn::TableChoice::On, "true", "every kernel"),
               clEnumValN(attn::TableChoice::Auto, "auto",
                          "the target's table (default)")));
static cl::opt<bool> pingPong(
    "ping-pong",
    cl::desc("Two consumer warpgroups take turns issuing GEMMs (default on)"),
    cl::init(true));
static cl::opt<bool> probsInRegisters(
    "probs-in-registers",
    cl::desc("O += P V with P in registers (wgmma RS, default); false: P "
             "through shared memory (wgmma SS)"),
    cl::init(true));
static cl::opt<bool> conditionalRescale(
    "conditional-rescale",
    cl::desc("Skip O *= alpha in warps whose row maxima did not move "
             "(default off)"),
    cl::init(false));
static cl::opt<std::string>
    tileOrder("tile-order",
              cl::desc("Query-block launch order: in-order, longest-first, "
                       "auto (longest-first for masks)"),
              cl::init("auto"));
static cl::opt<bool>
    persistent("persistent",
               cl::desc("Persistent grid: one CTA per SM loops over the "
                        "tiles (default off)"),
               cl::init(false));
static cl::opt<int64_t>
    stages("stages",
           cl::desc("K/V ring stages of a warp-specialized kernel (0, the "
                    "default: the target's table)"),
           cl::init(0));
static cl::opt<int64_t> blockM("block-m",
                               cl::desc("Query rows per tile: 64, 128 or 192 "
                                        "(0: tile table)"),
                               cl::init(0));
static cl::opt<int64_t> blockN("block-n",
                               cl::desc("Key rows per tile (0: tile table)"),
                               cl::init(0));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "attnc-compile: attention graphs to sm_90a "
                              "kernel artifacts (PTX + manifest)\n");
  DialectRegistry registry;
  attn::registerAttncCompiler(registry);
  MLIRContext context(registry);
  // A diagnostic names the op and the rule; the whole IR would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "attnc-compile: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  attn::AttnPipelineOptions options;
  options.blockM = blockM;
  options.blockN = blockN;
  options.warpSpecialize = warpSpecialize;
  options.overlap = overlap;
  options.pingPong = pingPong;
  options.probsInRegisters = probsInRegisters;
  options.stages = stages;
  options.tileOrder = tileOrder;
  options.persistent = persistent;
  options.conditionalRescale = conditionalRescale;
  auto artifacts = attn::compileKernelArtifacts(*module, options);
  if (failed(artifacts))
    return 1;
  if (artifacts->empty()) {
    llvm::errs() << "attnc-compile: no function in " << inputFile << "\n";
    return 1;
  }
  for (const attn::KernelArtifact &artifact : *artifacts) {
    SmallString<256> dir(outputDir.getValue());
    llvm::sys::path::append(dir, artifact.name);
    if (failed(attn::writeKernelArtifact(artifact, dir)))
      return 1;
    llvm::outs() << llvm::formatv("wrote {0} (kernel.ptx, manifest.json) in "
                                  "{1:f0} ms\n",
                                  dir, artifact.compileMs);
  }
  return 0;
}
