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
#include "attnc/Tools/InputNesting.h"

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
// Every other option is an option of attn-lower-to-nvvm-pipeline
// (attn::AttnPipelineOptions, the one declaration of each), given as
// --name=value; --help lists them.
static cl::list<std::string> pipelineOptions(cl::Sink);

/// `--help`: this tool's options, then the pipeline's.
static void printHelp() {
  llvm::outs() << "USAGE: attnc-compile [options] <input .mlir file> -o <dir>\n"
                  "\n"
                  "Compiles every attention function of the input to an sm_90a "
                  "kernel artifact:\n"
                  "<dir>/<kernel>/kernel.ptx and manifest.json.\n\n"
                  "OPTIONS:\n"
                  "  -o <dir>                        Artifact directory\n\n"
                  "Pipeline options (those of attn-lower-to-nvvm-pipeline), "
                  "as --name=value:\n";
  attn::AttnPipelineOptions().printHelp(2, 40);
  llvm::outs() << "\n  --stop-after belongs to attnc-opt's pipelines, which "
                  "print the IR "
                  "of a stage;\n  attnc-compile always compiles to PTX and "
                  "refuses it.\n";
}

/// Parses the sunk `--name=value` arguments as pipeline options, one
/// argument at a time: a value with a space in it would otherwise read as
/// further options (`--target="sm_90a block-m=7"` setting block_m).
static LogicalResult parsePipelineOptions(attn::AttnPipelineOptions &options) {
  for (StringRef arg : pipelineOptions) {
    if (arg.find_first_of(" \t\n\r\v\f") != StringRef::npos) {
      llvm::errs() << "attnc-compile: '" << arg
                   << "': a pipeline option is one --name=value argument "
                      "without spaces; give each option as an argument of "
                      "its own\n";
      return failure();
    }
    // The options parser skips an empty name, value and all.
    if (arg.ltrim('-').split('=').first.empty()) {
      llvm::errs() << "attnc-compile: '" << arg
                   << "' has no option name (attnc-compile --help lists "
                      "them)\n";
      return failure();
    }
    if (failed(options.parseFromString(arg.ltrim('-')))) {
      llvm::errs() << "attnc-compile: bad pipeline option '" << arg
                   << "' (attnc-compile --help lists them)\n";
      return failure();
    }
  }
  if (std::string conflict = attn::getOptionConflict(options);
      !conflict.empty()) {
    llvm::errs() << "attnc-compile: " << conflict << "\n";
    return failure();
  }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (StringRef(argv[i]) == "--help" || StringRef(argv[i]) == "-help" ||
        StringRef(argv[i]) == "-h") {
      printHelp();
      return 0;
    }
  // stop-after is also one of LLVM's own code-generation options, which
  // would take it; attnc-compile always compiles to PTX anyway.
  for (int i = 1; i < argc; ++i)
    if (StringRef arg(argv[i]);
        arg.starts_with("-") &&
        arg.ltrim('-').split('=').first == "stop-after") {
      llvm::errs() << "attnc-compile: " << argv[i]
                   << " is not available: attnc-compile compiles to PTX; "
                      "attnc-opt --attn-tiling-pipeline=\"stop-after=...\" "
                      "prints the IR of a stage\n";
      return 1;
    }
  cl::ParseCommandLineOptions(argc, argv,
                              "attnc-compile: attention graphs to sm_90a "
                              "kernel artifacts (PTX + manifest)\n");
  // An empty -o would write the kernels' folders into the working directory.
  if (outputDir.empty()) {
    llvm::errs() << "attnc-compile: -o needs a directory (it is empty)\n";
    return 1;
  }
  attn::AttnPipelineOptions options;
  if (failed(parsePipelineOptions(options)))
    return 1;
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
  if (failed(attn::checkInputNesting(file->getBuffer(), inputFile)))
    return 1;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  auto artifacts = attn::compileKernelArtifacts(*module, options);
  if (failed(artifacts))
    return 1;
  for (const attn::KernelArtifact &artifact : *artifacts) {
    SmallString<256> dir(outputDir.getValue());
    llvm::sys::path::append(dir, artifact.name);
    if (failed(attn::writeKernelArtifact(artifact, dir, module->getLoc())))
      return 1;
    llvm::outs() << llvm::formatv("wrote {0} (kernel.ptx, manifest.json) in "
                                  "{1:f0} ms\n",
                                  dir, artifact.compileMs);
  }
  return 0;
}
