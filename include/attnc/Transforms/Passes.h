//===- Passes.h - attnc transformation passes ---------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_PASSES_H
#define ATTNC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include "attnc/Transforms/TileConfig.h"

namespace mlir::attn {

#define GEN_PASS_DECL
#include "attnc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "attnc/Transforms/Passes.h.inc"

} // namespace mlir::attn

#endif // ATTNC_TRANSFORMS_PASSES_H
