//===- Unraised.h - attention graphs as written and raised ------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// attnc-run --raise takes linalg or TOSA attention graphs: it raises a copy
// with attn-raise-attention (the problems are read from the raised
// functions) and also runs the graphs as written, lowered by upstream passes
// alone, so both are checked against the same float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_UNRAISED_H
#define ATTNC_RUN_UNRAISED_H

#include "mlir/IR/BuiltinOps.h"

namespace attnc::run {

/// Runs attn-raise-attention, canonicalize and cse on `module`.
mlir::LogicalResult raiseAttention(mlir::ModuleOp module);

/// Lowers what the CPU pipeline leaves to others in a graph as written:
/// TOSA to linalg, and linalg.softmax to its decomposition.
mlir::LogicalResult lowerUnraised(mlir::ModuleOp module);

} // namespace attnc::run

#endif // ATTNC_RUN_UNRAISED_H
