//===- Diagnostics.cpp - diagnostics of a C API call, as text -------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "mlir/CAPI/Support.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::attn::capi;

static void send(MlirStringCallback callback, void *userData, StringRef text) {
  if (callback)
    callback(wrap(text), userData);
}

static void print(Diagnostic &diagnostic, llvm::raw_ostream &os) {
  if (!isa<UnknownLoc>(diagnostic.getLocation()))
    os << diagnostic.getLocation() << ": ";
  switch (diagnostic.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  os << diagnostic << "\n";
}

DiagnosticsToCallback::DiagnosticsToCallback(MLIRContext *context,
                                             MlirStringCallback callback,
                                             void *userData)
    : handler(context,
              [callback, userData](Diagnostic &diagnostic) {
                std::string text;
                llvm::raw_string_ostream os(text);
                print(diagnostic, os);
                for (Diagnostic &note : diagnostic.getNotes())
                  print(note, os);
                send(callback, userData, text);
                return success();
              }),
      callback(callback), userData(userData) {}

void DiagnosticsToCallback::error(const llvm::Twine &message) {
  send(callback, userData, ("error: " + message + "\n").str());
}
