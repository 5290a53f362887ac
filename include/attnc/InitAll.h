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

/// The attn dialect plus every upstream dialect (and interface model) the
/// attnc pipelines create or need to bufferize and lower.
void registerAllAttncDialects(DialectRegistry &registry);

/// attnc passes and named pipelines, plus the upstream passes the pipelines
/// and tests use.
void registerAllAttncPasses();

/// What a tool that runs the whole compiler needs: registerAllAttncDialects,
/// the LLVM IR translations (gpu-module-to-binary, the CPU JIT) and LLVM's
/// targets (NVPTX for the kernels, the host for the CPU backend).
void registerAttncCompiler(DialectRegistry &registry);

} // namespace attn
} // namespace mlir

#endif // ATTNC_INITALL_H
