//===- Passes.h - attnc conversion passes -------------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_CONVERSION_PASSES_H
#define ATTNC_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
namespace attn {

#define GEN_PASS_DECL
#include "attnc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attnc/Conversion/Passes.h.inc"

/// Patterns lowering every attn op to linalg/tensor/arith/math on tensors.
void populateAttnToLinalgConversionPatterns(RewritePatternSet &patterns);

} // namespace attn
} // namespace mlir

#endif // ATTNC_CONVERSION_PASSES_H
