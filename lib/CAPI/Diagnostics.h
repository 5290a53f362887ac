//===- Diagnostics.h - C API diagnostics as text ----------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CAPI_DIAGNOSTICS_H
#define ATTNC_LIB_CAPI_DIAGNOSTICS_H

#include "mlir-c/Support.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::attn::capi {

/// While alive, every diagnostic of `context` goes to `callback` as one line
/// of text ("<location>: error: <message>", notes included) instead of being
/// printed; a null callback drops them.
class DiagnosticsToCallback {
public:
  DiagnosticsToCallback(MLIRContext *context, MlirStringCallback callback,
                        void *userData);

  /// Hands `message` to the callback as an error without a location (for
  /// failures that have no op, such as a bad pipeline string).
  void error(const llvm::Twine &message);

private:
  ScopedDiagnosticHandler handler;
  MlirStringCallback callback;
  void *userData;
};

} // namespace mlir::attn::capi

#endif // ATTNC_LIB_CAPI_DIAGNOSTICS_H
