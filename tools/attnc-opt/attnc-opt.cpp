//===- attnc-opt.cpp - attnc optimizer driver -----------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the attn dialect, the attnc passes and the attnc pipelines:
// runs any prefix of the pipeline and prints the IR after it.
//
//===----------------------------------------------------------------------===//

#include "attnc/InitAll.h"
#include "attnc/Tools/InputNesting.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "attnc " ATTNC_VERSION " (MLIR " << LLVM_VERSION_STRING << ")\n";
  });
  mlir::attn::registerAllAttncPasses();
  mlir::DialectRegistry registry;
  // attn-lower-to-ptx-pipeline serializes gpu.modules through LLVM's NVPTX
  // backend, so the translations and targets are registered too.
  mlir::attn::registerAttncCompiler(registry);
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "attnc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // What mlir-opt answers without reading input (the buffer overload of
  // MlirOptMain below does not).
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    mlir::printRegisteredPasses();
    return 0;
  }
  std::string error;
  auto input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "attnc-opt: " << error << "\n";
    return 1;
  }
  // The input is read once (it may be stdin), checked, then handed over.
  if (mlir::failed(mlir::attn::checkInputNesting(input->getBuffer(), inputFile)))
    return 1;
  auto output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "attnc-opt: " << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}
