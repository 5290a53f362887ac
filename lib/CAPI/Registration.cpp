//===- Registration.cpp - attnc dialect and passes, C API -----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc-c/Registration.h"

#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Pipelines/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Attn, attn, mlir::attn::AttnDialect)

void attncRegisterDialects(MlirDialectRegistry registry) {
  mlir::attn::registerAttncDialects(*unwrap(registry));
}

void attncRegisterRaisingDialects(MlirDialectRegistry registry) {
  mlir::attn::registerAttncRaisingDialects(*unwrap(registry));
}

void attncRegisterPasses(void) {
  // Pass registration is global: once per process.
  static bool registered = (mlir::attn::registerAttncPasses(), true);
  (void)registered;
}
