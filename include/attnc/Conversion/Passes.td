//===- Passes.td - attnc conversion passes -----------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_CONVERSION_PASSES_TD
#define ATTNC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAttnToLinalgPass : Pass<"convert-attn-to-linalg", "func::FuncOp"> {
  let summary = "Lower attn ops to linalg/tensor/arith/math on tensors (CPU reference)";
  let description = [{
    Lowers both levels of the attn dialect to destination-style
    `linalg.generic` ops on tensors with f32 arithmetic. `attn.attention`
    becomes the textbook untiled computation (S, mask, max, exp, sum, P V,
    normalize); tile ops become one `linalg.generic` each, so tiled and fused
    IR keeps its loop structure. Together with bufferization and the upstream
    LLVM lowering (`convert-attn-to-loops`, `attn-lower-to-cpu-pipeline`) this
    is the CPU backend CI uses to check the numerics of every stage.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // ATTNC_CONVERSION_PASSES_TD
