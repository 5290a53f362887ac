//===- KernelArtifact.h - attention functions to PTX + manifest ---*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiler's product: for each attention function, the PTX of its
// sm_90a kernel and the JSON manifest the runtime launches it from
// (docs/Runtime.md). Used by attnc-compile and attnc-run --backend=gpu.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TARGET_KERNELARTIFACT_H
#define ATTNC_TARGET_KERNELARTIFACT_H

#include "attnc/Pipelines/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::attn {

struct KernelArtifact {
  std::string name;     ///< the function's (and kernel's) symbol
  std::string ptx;      ///< PTX text holding exactly this kernel
  std::string manifest; ///< manifest.json contents
  double compileMs = 0; ///< wall time of this kernel's compilation
};

/// Compiles every attention function of `module` on its own (a clone per
/// function) through buildAttnToPTXPipeline. Each function must hold one
/// attn.attention and compute nothing else, take Q, K, V (and the index
/// inputs) as its arguments in that order and call no other function;
/// anything else is a diagnostic (convert-attn-to-nvvm's rules). Diagnostics
/// go to the context; one that lacks a registration of
/// registerAttncDialects gets an error naming it (checkAttncRequirements)
/// before anything is compiled.
FailureOr<SmallVector<KernelArtifact>>
compileKernelArtifacts(ModuleOp module, const AttnPipelineOptions &options);

/// Writes `<dir>/kernel.ptx` and `<dir>/manifest.json`, creating `dir`.
/// Errors are diagnostics at `loc`.
LogicalResult writeKernelArtifact(const KernelArtifact &artifact, StringRef dir,
                                  Location loc);

} // namespace mlir::attn

#endif // ATTNC_TARGET_KERNELARTIFACT_H
