//===- Registration.h - what the GPU pipelines need registered --*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An embedding compiler registers exactly what attnc needs:
//
//   DialectRegistry registry;
//   mlir::attn::registerAttncDialects(registry);
//   MLIRContext context(registry);
//   mlir::attn::registerAttncPasses(); // for textual pipelines
//
// The one list of what that registers is getAttncRequirements()
// (lib/Pipelines/Registration.cpp). attnc-opt and the other tools register
// all of upstream instead (attnc/InitAll.h).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_PIPELINES_REGISTRATION_H
#define ATTNC_PIPELINES_REGISTRATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
class Operation;
namespace attn {

/// One thing that attn-lower-to-ptx-pipeline (and so compileKernelArtifacts)
/// needs registered on its context beyond what its passes load themselves: a
/// dialect of the input graph, an interface model, or a translation to LLVM
/// IR used by gpu-module-to-binary.
struct AttncRequirement {
  /// What is needed, e.g. "the NVVM target attribute interface".
  StringRef name;
  /// The upstream (or attnc) function that registers it.
  StringRef registeredBy;
  /// Adds it to a registry.
  void (*insert)(DialectRegistry &registry);
  /// Whether `context` has it. Loads no dialect, so that a pass may call it;
  /// the gpu, llvm and nvvm dialects must be loaded.
  bool (*isRegistered)(MLIRContext *context);
};

/// Everything the GPU pipelines need, in the order registerAttncDialects
/// inserts it.
ArrayRef<AttncRequirement> getAttncRequirements();

/// Inserts every requirement of getAttncRequirements() into `registry`: the
/// attn and func dialects, the NVVM target attribute interface and the
/// builtin, LLVM, GPU and NVVM translations to LLVM IR. Nothing else.
void registerAttncDialects(DialectRegistry &registry);

/// Inserts the upstream dialects of the graphs attn-raise-attention reads
/// (a frontend's attention in linalg or TOSA on tensors): linalg, tosa,
/// tensor, arith and math. Not needed to compile attn.attention.
void registerAttncRaisingDialects(DialectRegistry &registry);

/// Registers attnc's passes (attn-*, convert-attn-to-*) and named pipelines
/// (attnc/Pipelines/Pipelines.h) for textual pass pipelines.
void registerAttncPasses();

/// Emits one error on `root` naming each requirement its context lacks
/// ("attnc pipeline needs <name> registered (<registeredBy>; call
/// registerAttncDialects or attncRegisterDialects)") and fails if there was
/// one. Loads the gpu, llvm and nvvm dialects unless they are (as in
/// attn-check-requirements, whose dependent dialects they are).
LogicalResult checkAttncRequirements(Operation *root);

} // namespace attn
} // namespace mlir

#endif // ATTNC_PIPELINES_REGISTRATION_H
