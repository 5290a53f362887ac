/*===- attnc-c/Registration.h - attnc dialect and passes, C API ---*- C -*-===*\
|*                                                                            *|
|* Part of the attnc project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_C_REGISTRATION_H
#define ATTNC_C_REGISTRATION_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The attn dialect alone (mlirGetDialectHandle__attn__).
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Attn, attn);

/// Inserts into `registry` everything attnc's GPU pipelines need: the attn
/// and func dialects, the NVVM target attribute interface and the builtin,
/// LLVM, GPU and NVVM translations to LLVM IR
/// (mlir::attn::registerAttncDialects, whose one list is
/// mlir::attn::getAttncRequirements()).
MLIR_CAPI_EXPORTED void attncRegisterDialects(MlirDialectRegistry registry);

/// Registers attnc's passes and named pipelines, so that textual pipelines
/// (attncRunPassPipeline) can name them. Idempotent.
/// The upstream dialects of the graphs attn-raise-attention reads (linalg,
/// tosa, tensor, arith, math), for a frontend's graph before raising.
MLIR_CAPI_EXPORTED void
attncRegisterRaisingDialects(MlirDialectRegistry registry);

MLIR_CAPI_EXPORTED void attncRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif // ATTNC_C_REGISTRATION_H
