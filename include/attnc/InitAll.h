//===- InitAll.h - register every attnc dialect and pass ----------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_INITALL_H
#define ATTNC_INITALL_H

namespace mlir {
class DialectRegistry;
namespace attn {

/// registerAttncDialects (attnc/Pipelines/Registration.h) plus every upstream
/// dialect and extension: what attnc-opt parses, and the interface models
/// the CPU reference pipelines need to bufferize and lower.
void registerAllAttncDialects(DialectRegistry &registry);

/// registerAttncPasses plus every upstream pass, for attnc-opt's tests.
void registerAllAttncPasses();

/// What a tool that runs the whole compiler needs: registerAllAttncDialects,
/// the LLVM IR translations (gpu-module-to-binary, the CPU JIT) and LLVM's
/// targets (NVPTX for the kernels, the host for the CPU backend).
void registerAttncCompiler(DialectRegistry &registry);

} // namespace attn
} // namespace mlir

#endif // ATTNC_INITALL_H
