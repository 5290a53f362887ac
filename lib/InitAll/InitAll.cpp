//===- InitAll.cpp - register every attnc dialect and pass ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/InitAll.h"

#include "attnc/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

void mlir::attn::registerAllAttncDialects(DialectRegistry &registry) {
  registerAttncDialects(registry);
  // The pipelines reach from tensors through bufferization down to LLVM and
  // NVVM; registering upstream wholesale keeps every interface model (e.g.
  // bufferization of tensor/linalg/scf) available to them.
  registerAllDialects(registry);
  registerAllExtensions(registry);
}

void mlir::attn::registerAllAttncPasses() {
  registerAllPasses();
  registerAttncPasses();
}

void mlir::attn::registerAttncCompiler(DialectRegistry &registry) {
  registerAllAttncDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
}
