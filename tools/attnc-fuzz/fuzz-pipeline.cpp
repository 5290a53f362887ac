//===- fuzz-pipeline.cpp - libFuzzer target: parse to NVVM ----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Any text through what attnc-compile does before PTX: the nesting check,
// parsing, verification, then attn-lower-to-nvvm-pipeline (tiling, online
// softmax, mask split, warp specialization, shared memory, the kernel and
// its lowering to LLVM + NVVM). Every failure must be a diagnostic; a crash,
// an abort (LLVM ERROR) or a hang is a bug.
//
// The context holds what the pipeline's input is written in (attn graphs and
// tile IR) and what the pipeline needs (registerAttncDialects), not all of
// upstream: other dialects' parsers are upstream's to fuzz (MLIR 22's
// linalg.transpose parser dereferences null on a truncated permutation).
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Pipelines/Registration.h"
#include "attnc/Tools/InputNesting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

static MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    attn::registerAttncDialects(registry);
    registry.insert<arith::ArithDialect, gpu::GPUDialect, math::MathDialect,
                    scf::SCFDialect, tensor::TensorDialect>();
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    c->disableMultithreading();
    return c;
  }();
  return *ctx;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads the NUL after a buffer (files come as null-terminated
  // MemoryBuffers); libFuzzer's bytes have none, so copy them into a string.
  std::string owned(reinterpret_cast<const char *>(data), size);
  StringRef text = owned;
  if (failed(attn::checkInputNesting(text, "fuzz")))
    return 0;
  MLIRContext &ctx = context();
  // Diagnostics are the expected outcome; they are not printed.
  ScopedDiagnosticHandler swallow(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&ctx);
  attn::AttnPipelineOptions options;
  attn::buildAttnToNVVMPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
