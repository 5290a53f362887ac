//===- PipelineOptions.h - AttncPipelineOptions <-> C++ ---------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CAPI_PIPELINEOPTIONS_H
#define ATTNC_LIB_CAPI_PIPELINEOPTIONS_H

#include "attnc-c/Pipeline.h"
#include "attnc/Pipelines/Pipelines.h"

#include "mlir/CAPI/Wrap.h"

DEFINE_C_API_PTR_METHODS(AttncPipelineOptions, mlir::attn::AttnPipelineOptions)

#endif // ATTNC_LIB_CAPI_PIPELINEOPTIONS_H
