//===- Target.cpp - kernel artifacts, C API -------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc-c/Target.h"

#include "Diagnostics.h"
#include "PipelineOptions.h"

#include "attnc/Target/KernelArtifact.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using mlir::attn::capi::DiagnosticsToCallback;

namespace {
using KernelArtifacts = SmallVector<attn::KernelArtifact>;
} // namespace

DEFINE_C_API_PTR_METHODS(AttncKernelArtifacts, KernelArtifacts)

MlirLogicalResult attncCompileKernelArtifacts(MlirModule module,
                                              AttncPipelineOptions options,
                                              AttncKernelArtifacts *artifacts,
                                              MlirStringCallback onDiagnostic,
                                              void *userData) {
  artifacts->ptr = nullptr;
  ModuleOp op = unwrap(module);
  DiagnosticsToCallback diagnostics(op.getContext(), onDiagnostic, userData);
  FailureOr<KernelArtifacts> compiled =
      attn::compileKernelArtifacts(op, *unwrap(options));
  if (failed(compiled))
    return mlirLogicalResultFailure();
  *artifacts = wrap(new KernelArtifacts(std::move(*compiled)));
  return mlirLogicalResultSuccess();
}

void attncKernelArtifactsDestroy(AttncKernelArtifacts artifacts) {
  delete unwrap(artifacts);
}

intptr_t attncKernelArtifactsGetNum(AttncKernelArtifacts artifacts) {
  return static_cast<intptr_t>(unwrap(artifacts)->size());
}

MlirStringRef attncKernelArtifactsGetName(AttncKernelArtifacts artifacts,
                                          intptr_t pos) {
  return wrap(StringRef((*unwrap(artifacts))[pos].name));
}

MlirStringRef attncKernelArtifactsGetPTX(AttncKernelArtifacts artifacts,
                                         intptr_t pos) {
  return wrap(StringRef((*unwrap(artifacts))[pos].ptx));
}

MlirStringRef attncKernelArtifactsGetManifest(AttncKernelArtifacts artifacts,
                                              intptr_t pos) {
  return wrap(StringRef((*unwrap(artifacts))[pos].manifest));
}

MlirLogicalResult attncKernelArtifactsWrite(AttncKernelArtifacts artifacts,
                                            MlirContext context,
                                            MlirStringRef dir,
                                            MlirStringCallback onDiagnostic,
                                            void *userData) {
  MLIRContext *ctx = unwrap(context);
  DiagnosticsToCallback diagnostics(ctx, onDiagnostic, userData);
  for (const attn::KernelArtifact &artifact : *unwrap(artifacts)) {
    SmallString<256> path(unwrap(dir));
    llvm::sys::path::append(path, artifact.name);
    if (failed(attn::writeKernelArtifact(artifact, path, UnknownLoc::get(ctx))))
      return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}
