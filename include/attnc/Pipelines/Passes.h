//===- Passes.h - attnc pipeline passes -------------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_PIPELINES_PASSES_H
#define ATTNC_PIPELINES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::attn {

#define GEN_PASS_DECL
#include "attnc/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attnc/Pipelines/Passes.h.inc"

} // namespace mlir::attn

#endif // ATTNC_PIPELINES_PASSES_H
