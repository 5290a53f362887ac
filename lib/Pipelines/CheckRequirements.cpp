//===- CheckRequirements.cpp - the context has what the pipeline needs ----===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Passes.h"
#include "attnc/Pipelines/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNCHECKREQUIREMENTSPASS
#include "attnc/Pipelines/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;

namespace {
struct AttnCheckRequirementsPass final
    : attn::impl::AttnCheckRequirementsPassBase<AttnCheckRequirementsPass> {
  void runOnOperation() override {
    if (failed(attn::checkAttncRequirements(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
