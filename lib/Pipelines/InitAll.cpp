//===- InitAll.cpp - register every attnc dialect and pass ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/InitAll.h"

#include "attn/AttnDialect.h"
#include "attnc/Conversion/Passes.h"
#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

void mlir::attn::registerAllAttncDialects(DialectRegistry &registry) {
  registry.insert<AttnDialect>();
  // The pipelines reach from tensors through bufferization down to LLVM and
  // NVVM; registering upstream wholesale keeps every interface model (e.g.
  // bufferization of tensor/linalg/scf) available to them.
  registerAllDialects(registry);
  registerAllExtensions(registry);
}

void mlir::attn::registerAllAttncPasses() {
  registerAllPasses();
  registerAttnTransformsPasses();
  registerAttnConversionPasses();
  registerAttnPipelines();
}

void mlir::attn::registerAttncCompiler(DialectRegistry &registry) {
  registerAllAttncDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
}
