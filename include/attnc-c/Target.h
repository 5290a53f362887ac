/*===- attnc-c/Target.h - kernel artifacts, C API -----------------*- C -*-===*\
|*                                                                            *|
|* Part of the attnc project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception        *|
|*                                                                            *|
|* The compiler's product (docs/Runtime.md): for each attention function of a *|
|* module, the PTX of its sm_90a kernel and its JSON manifest.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_C_TARGET_H
#define ATTNC_C_TARGET_H

#include "attnc-c/Pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The kernel artifacts of one module, in the order of its functions.
typedef struct AttncKernelArtifacts {
  void *ptr;
} AttncKernelArtifacts;

/// Compiles every attention function of `module` (left unchanged) on its own
/// through attn-lower-to-ptx-pipeline (mlir::attn::compileKernelArtifacts,
/// whose rules for a function apply: one attention and nothing else, Q, K, V
/// as its arguments in order, no calls).
/// On success `*artifacts` holds them; destroy it with
/// attncKernelArtifactsDestroy. On failure it is null and the diagnostics
/// went to `onDiagnostic`.
MLIR_CAPI_EXPORTED MlirLogicalResult
attncCompileKernelArtifacts(MlirModule module, AttncPipelineOptions options,
                            AttncKernelArtifacts *artifacts,
                            MlirStringCallback onDiagnostic, void *userData);

MLIR_CAPI_EXPORTED void
attncKernelArtifactsDestroy(AttncKernelArtifacts artifacts);

MLIR_CAPI_EXPORTED intptr_t
attncKernelArtifactsGetNum(AttncKernelArtifacts artifacts);

/// The kernel's entry name (a PTX identifier); it names the artifact.
MLIR_CAPI_EXPORTED MlirStringRef
attncKernelArtifactsGetName(AttncKernelArtifacts artifacts, intptr_t pos);

/// The PTX text of the kernel (for sm_90a; the driver JITs it).
MLIR_CAPI_EXPORTED MlirStringRef
attncKernelArtifactsGetPTX(AttncKernelArtifacts artifacts, intptr_t pos);

/// The manifest.json contents the runtime launches the kernel from.
MLIR_CAPI_EXPORTED MlirStringRef
attncKernelArtifactsGetManifest(AttncKernelArtifacts artifacts, intptr_t pos);

/// Writes <dir>/<name>/kernel.ptx and manifest.json for every artifact
/// (attnc-compile's layout), creating the folders. Errors are diagnostics of
/// `context`, handed to `onDiagnostic`.
MLIR_CAPI_EXPORTED MlirLogicalResult attncKernelArtifactsWrite(
    AttncKernelArtifacts artifacts, MlirContext context, MlirStringRef dir,
    MlirStringCallback onDiagnostic, void *userData);

#ifdef __cplusplus
}
#endif

#endif // ATTNC_C_TARGET_H
