//===- Passes.td - attnc pipeline passes -------------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_PIPELINES_PASSES_TD
#define ATTNC_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnCheckRequirementsPass : Pass<"attn-check-requirements", "ModuleOp"> {
  let summary = "Fail with a diagnostic if the context lacks what the PTX "
                "pipeline needs registered";
  let description = [{
    Checks the context for every requirement of `getAttncRequirements()`
    (`attnc/Pipelines/Registration.h`): the attn and func dialects, the NVVM
    target attribute interface and the translations to LLVM IR that
    `gpu-module-to-binary` uses. Each one missing is an error naming it and
    the function that registers it; the module is not changed.
    `attn-lower-to-ptx-pipeline` and `compileKernelArtifacts` run it first,
    so that a context built without `registerAttncDialects` fails with a
    diagnostic instead of crashing inside `gpu-module-to-binary`.
  }];
  // Loaded here so that the checks can look at their attributes and
  // interfaces while the pass runs.
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // ATTNC_PIPELINES_PASSES_TD
