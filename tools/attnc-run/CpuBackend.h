//===- CpuBackend.h - run attention functions through the JIT -----*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_CPUBACKEND_H
#define ATTNC_RUN_CPUBACKEND_H

#include "GpuBackend.h"
#include "Problem.h"

#include "attnc/Pipelines/Pipelines.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace attnc::run {

/// Lowers `module` (a clone is taken) through the tiling pipeline up to
/// `stage`, then `tilePasses` (a func.func pass pipeline, if any), and the
/// CPU pipeline, and JIT-compiles it. Diagnostics go to the context's
/// handler; returns null on failure.
std::unique_ptr<mlir::ExecutionEngine>
compileForCpu(mlir::ModuleOp module, const mlir::attn::AttnPipelineOptions &,
              llvm::StringRef tilePasses = "");

/// Calls `problem.function` (compiled by compileForCpu) on q, k, v and, for
/// a paged or varlen problem, its index inputs (Problem.h).
llvm::Expected<DeviceResult> runOnCpu(mlir::ExecutionEngine &engine,
                                      const Problem &problem,
                                      const HostTensor &q, const HostTensor &k,
                                      const HostTensor &v,
                                      const IndexInputs &indices = {});

} // namespace attnc::run

#endif // ATTNC_RUN_CPUBACKEND_H
