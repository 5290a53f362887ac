//===- Pipeline.cpp - attnc pipelines, C API ------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc-c/Pipeline.h"

#include "Diagnostics.h"
#include "PipelineOptions.h"

#include "attnc/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using mlir::attn::capi::DiagnosticsToCallback;

AttncPipelineOptions attncPipelineOptionsCreate(void) {
  return wrap(new attn::AttnPipelineOptions());
}

void attncPipelineOptionsDestroy(AttncPipelineOptions options) {
  delete unwrap(options);
}

MlirLogicalResult attncPipelineOptionsParse(AttncPipelineOptions options,
                                            MlirStringRef text,
                                            MlirStringCallback onDiagnostic,
                                            void *userData) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (succeeded(unwrap(options)->parseFromString(unwrap(text), os))) {
    errors = attn::getOptionConflict(*unwrap(options));
    if (errors.empty())
      return mlirLogicalResultSuccess();
  }
  if (onDiagnostic) {
    std::string message = "error: bad attnc pipeline options '" +
                          unwrap(text).str() +
                          "': " + StringRef(errors).trim().str() + "\n";
    onDiagnostic(wrap(StringRef(message)), userData);
  }
  return mlirLogicalResultFailure();
}

MlirLogicalResult attncRunPassPipeline(MlirModule module,
                                       MlirStringRef pipeline,
                                       MlirStringCallback onDiagnostic,
                                       void *userData) {
  ModuleOp op = unwrap(module);
  DiagnosticsToCallback diagnostics(op.getContext(), onDiagnostic, userData);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  // "<op-name>(<passes>)": a pass manager anchored on <op-name>.
  FailureOr<OpPassManager> parsed = parsePassPipeline(unwrap(pipeline), os);
  if (failed(parsed)) {
    diagnostics.error("bad pass pipeline '" + unwrap(pipeline) +
                      "': " + StringRef(errors).trim());
    return mlirLogicalResultFailure();
  }
  PassManager pm(op.getContext(), parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return wrap(pm.run(op));
}

MlirLogicalResult attncRunPTXPipeline(MlirModule module,
                                      AttncPipelineOptions options,
                                      MlirStringCallback onDiagnostic,
                                      void *userData) {
  ModuleOp op = unwrap(module);
  DiagnosticsToCallback diagnostics(op.getContext(), onDiagnostic, userData);
  PassManager pm(op.getContext());
  attn::buildAttnToPTXPipeline(pm, *unwrap(options));
  return wrap(pm.run(op));
}
