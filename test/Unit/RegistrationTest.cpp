//===- RegistrationTest.cpp - what the PTX pipeline needs, one at a time --===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With exactly registerAttncDialects, a graph compiles to PTX. Then, for each
// requirement of getAttncRequirements(), a context with all the others:
// compileKernelArtifacts and attn-lower-to-ptx-pipeline fail with one error
// naming it (not a crash). Prints one line per case for FileCheck
// (test/Pipelines/registration.test).
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Registration.h"
#include "attnc/Pipelines/Pipelines.h"
#include "attnc/Target/KernelArtifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::attn;

static const char *graph = R"mlir(
func.func @graph(%q: tensor<1x4x256x64xbf16>, %k: tensor<1x4x256x64xbf16>,
                 %v: tensor<1x4x256x64xbf16>) -> tensor<1x4x256x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16>
      -> tensor<1x4x256x64xbf16>
  return %o : tensor<1x4x256x64xbf16>
}
)mlir";

namespace {
/// Collects the context's errors as "error: <message>" lines.
struct Errors {
  explicit Errors(MLIRContext *context)
      : handler(context, [this](Diagnostic &diagnostic) {
          if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
            text += "error: " + diagnostic.str() + "\n";
          return success();
        }) {}
  std::string text;
  ScopedDiagnosticHandler handler;
};
} // namespace

/// A registry with every requirement but the one at `skipped` (none: -1).
static DialectRegistry registryWithout(int skipped) {
  DialectRegistry registry;
  ArrayRef<AttncRequirement> requirements = getAttncRequirements();
  for (int i = 0, e = requirements.size(); i < e; ++i)
    if (i != skipped)
      requirements[i].insert(registry);
  return registry;
}

int main() {
  int failures = 0;
  {
    MLIRContext context(registryWithout(-1));
    Errors errors(&context);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(graph, &context);
    AttnPipelineOptions options;
    auto artifacts = module ? compileKernelArtifacts(*module, options)
                            : FailureOr<SmallVector<KernelArtifact>>(failure());
    bool ok = succeeded(artifacts) && artifacts->size() == 1 &&
              StringRef(artifacts->front().ptx).contains(".target sm_90a");
    llvm::outs() << "registerAttncDialects: "
                 << (ok ? "PTX for sm_90a" : "FAILED\n" + errors.text) << "\n";
    failures += !ok;
  }
  ArrayRef<AttncRequirement> requirements = getAttncRequirements();
  for (int i = 0, e = requirements.size(); i < e; ++i) {
    MLIRContext context(registryWithout(i));
    Errors errors(&context);
    // Built, not parsed: the parser would need the dialects left out.
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    AttnPipelineOptions options;
    bool compiled = succeeded(compileKernelArtifacts(*module, options));
    std::string fromArtifacts = std::move(errors.text);
    errors.text.clear();
    PassManager pm(&context);
    buildAttnToPTXPipeline(pm, options);
    bool ran = succeeded(pm.run(*module));
    bool ok = !compiled && !ran && fromArtifacts == errors.text &&
              StringRef(fromArtifacts).count("error: ") == 1 &&
              StringRef(fromArtifacts).contains(requirements[i].name);
    llvm::outs() << "without " << requirements[i].name << ": "
                 << (ok ? "" : "FAILED ") << fromArtifacts;
    failures += !ok;
  }
  return failures != 0;
}
