/*===- attnc-c/Pipeline.h - attnc pipelines, C API ----------------*- C -*-===*\
|*                                                                            *|
|* Part of the attnc project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception        *|
|*                                                                            *|
|* Every function that can fail returns an MlirLogicalResult and hands the    *|
|* diagnostics it produced, as text, to `onDiagnostic` (may be NULL); nothing *|
|* is printed.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_C_PIPELINE_H
#define ATTNC_C_PIPELINE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The options of attn-lower-to-ptx-pipeline (mlir::attn::AttnPipelineOptions):
/// target, block-m, block-n, warp-specialize, stages, ... with their defaults.
typedef struct AttncPipelineOptions {
  void *ptr;
} AttncPipelineOptions;

/// Default options. Destroy with attncPipelineOptionsDestroy.
MLIR_CAPI_EXPORTED AttncPipelineOptions attncPipelineOptionsCreate(void);

MLIR_CAPI_EXPORTED void
attncPipelineOptionsDestroy(AttncPipelineOptions options);

/// Sets options from their textual form, the one the pipeline takes between
/// braces: "block-m=64 block-n=64 warp-specialize=off". Fails on an unknown
/// option or a bad value (and leaves earlier options of the text set), and
/// on options the pipeline cannot honour: a stop-after before the fused
/// loops, or options that contradict each other. The
/// callback gets the error; for a bad value, LLVM's option parser also
/// prints why to stderr (llvm::cl reports to no other stream).
MLIR_CAPI_EXPORTED MlirLogicalResult
attncPipelineOptionsParse(AttncPipelineOptions options, MlirStringRef text,
                          MlirStringCallback onDiagnostic, void *userData);

/// Runs a textual pass pipeline on `module`, e.g.
/// "builtin.module(attn-lower-to-nvvm-pipeline{block-n=64})". The passes it
/// names must be registered (attncRegisterPasses for attnc's).
MLIR_CAPI_EXPORTED MlirLogicalResult
attncRunPassPipeline(MlirModule module, MlirStringRef pipeline,
                     MlirStringCallback onDiagnostic, void *userData);

/// Runs attn-lower-to-ptx-pipeline with `options` on `module`: each attention
/// function becomes a kernel in a gpu.binary holding its PTX.
MLIR_CAPI_EXPORTED MlirLogicalResult
attncRunPTXPipeline(MlirModule module, AttncPipelineOptions options,
                    MlirStringCallback onDiagnostic, void *userData);

#ifdef __cplusplus
}
#endif

#endif // ATTNC_C_PIPELINE_H
