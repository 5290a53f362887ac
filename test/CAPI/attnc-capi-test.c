/*===- attnc-capi-test.c - the attnc C API, from C ------------------------===*\
|*                                                                            *|
|* Part of the attnc project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// The lit test is this file: long RUN and CHECK lines stay whole.
// clang-format off

// Errors come back through the callbacks: nothing may reach stderr.
// RUN: rm -rf %t && attnc-capi-test %t 2> %t.stderr | FileCheck %s
// RUN: count 0 < %t.stderr
// The kernel written to the folder assembles for sm_90a, and its manifest is
// valid for the runtime.
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/graph/kernel.ptx -o %t/graph.cubin %}
// RUN: %attnc_rt_check manifest %t/graph/manifest.json | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: entry: graph

#include "attnc-c/Pipeline.h"
#include "attnc-c/Registration.h"
#include "attnc-c/Target.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static const char *graph =
    "func.func @graph(%q: tensor<2x8x1024x128xbf16>, %k: "
    "tensor<2x8x1024x128xbf16>, %v: tensor<2x8x1024x128xbf16>) -> "
    "tensor<2x8x1024x128xbf16> {\n"
    "  %o = attn.attention %q, %k, %v mask = causal : "
    "tensor<2x8x1024x128xbf16>, tensor<2x8x1024x128xbf16>, "
    "tensor<2x8x1024x128xbf16> -> tensor<2x8x1024x128xbf16>\n"
    "  return %o : tensor<2x8x1024x128xbf16>\n"
    "}\n";

static void printDiagnostic(MlirStringRef text, void *userData) {
  (void)userData;
  printf("diagnostic: %.*s", (int)text.length, text.data);
}

static MlirContext createContext(int withAttncRegistrations) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  if (withAttncRegistrations)
    attncRegisterDialects(registry);
  else
    mlirDialectHandleInsertDialect(mlirGetDialectHandle__attn__(), registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, true);
  mlirDialectRegistryDestroy(registry);
  return context;
}

static MlirModule parse(MlirContext context, const char *text) {
  return mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
}

/* Prints the name and symbol of each op of the module's body. */
static void printOps(MlirModule module) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    MlirAttribute symbol = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    MlirStringRef symbolName = mlirAttributeIsNull(symbol)
                                   ? mlirStringRefCreateFromCString("")
                                   : mlirStringAttrGetValue(symbol);
    printf("%.*s @%.*s\n", (int)name.length, name.data, (int)symbolName.length,
           symbolName.data);
  }
}

/* Whether `text` parses into fresh default options (its diagnostic printed). */
static int parsesAlone(const char *text) {
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  MlirLogicalResult parsed = attncPipelineOptionsParse(
      options, mlirStringRefCreateFromCString(text), printDiagnostic, NULL);
  attncPipelineOptionsDestroy(options);
  return mlirLogicalResultIsSuccess(parsed);
}

/* Pipeline options: parsed from text, errors returned. */
static void testOptions(void) {
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  MlirLogicalResult good = attncPipelineOptionsParse(
      options, mlirStringRefCreateFromCString("block-n=64 stages=2"),
      printDiagnostic, NULL);
  // CHECK-LABEL: options
  // CHECK-NEXT: good: 1
  printf("options\ngood: %d\n", mlirLogicalResultIsSuccess(good));
  MlirLogicalResult bad = attncPipelineOptionsParse(
      options, mlirStringRefCreateFromCString("no-such-option=1"),
      printDiagnostic, NULL);
  // CHECK-NEXT: diagnostic: error: bad attnc pipeline options 'no-such-option=1': {{.*}}no such option no-such-option
  // CHECK: bad: 0
  printf("bad: %d\n", mlirLogicalResultIsSuccess(bad));
  attncPipelineOptionsDestroy(options);
  /* Options that rule each other out are an error, not one dropped. */
  // CHECK-NEXT: diagnostic: error: bad attnc pipeline options 'warp-specialize=off intra-warpgroup-overlap=on': intra-warpgroup-overlap=on needs the producer warpgroup, which warp-specialize=off leaves out; drop one (or pass warp-specialize=on)
  // CHECK-NEXT: conflict: 0
  printf("conflict: %d\n",
         parsesAlone("warp-specialize=off intra-warpgroup-overlap=on"));
  /* The PTX pipeline lowers the fused loops: an earlier stop is an error. */
  // CHECK-NEXT: diagnostic: error: bad attnc pipeline options 'stop-after=tiled': stop-after=tiled leaves the kv loops unfused, and the kernel lowers the fused online softmax: stop after fused or split (attn-tiling-pipeline prints the earlier stages)
  // CHECK-NEXT: early: 0
  printf("early: %d\n", parsesAlone("stop-after=tiled"));
}

/* A textual pipeline of attnc passes; a bad one is an error. */
static void testTextualPipeline(void) {
  printf("textual pipeline\n");
  MlirContext context = createContext(1);
  MlirModule module = parse(context, graph);
  MlirLogicalResult bad = attncRunPassPipeline(
      module,
      mlirStringRefCreateFromCString("builtin.module(attn-no-such-pass)"),
      printDiagnostic, NULL);
  // CHECK-LABEL: textual pipeline
  // CHECK-NEXT: diagnostic: error: bad pass pipeline 'builtin.module(attn-no-such-pass)': {{.*}}'attn-no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: bad: 0
  printf("bad: %d\n", mlirLogicalResultIsSuccess(bad));
  MlirLogicalResult nvvm = attncRunPassPipeline(
      module,
      mlirStringRefCreateFromCString(
          "builtin.module(attn-lower-to-nvvm-pipeline{block-n=64})"),
      printDiagnostic, NULL);
  // CHECK-NEXT: nvvm: 1
  printf("nvvm: %d\n", mlirLogicalResultIsSuccess(nvvm));
  // The function became a kernel in a gpu.module.
  // CHECK-NEXT: gpu.module @attn_kernels
  // CHECK-NOT: func.func
  // CHECK-LABEL: artifacts
  printOps(module);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
}

/* The PTX pipeline with an options object, then kernel artifacts in memory
 * and in a folder. */
static void testArtifacts(const char *dir) {
  printf("artifacts\n");
  MlirContext context = createContext(1);
  MlirModule module = parse(context, graph);
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  AttncKernelArtifacts artifacts;
  MlirLogicalResult compiled = attncCompileKernelArtifacts(
      module, options, &artifacts, printDiagnostic, NULL);
  // CHECK: compiled: 1, 1 kernel
  // CHECK-NEXT: graph: PTX for sm_90a: 1, manifest: 1
  printf("compiled: %d, %d kernel\n", mlirLogicalResultIsSuccess(compiled),
         artifacts.ptr ? (int)attncKernelArtifactsGetNum(artifacts) : 0);
  if (!artifacts.ptr)
    return;
  MlirStringRef name = attncKernelArtifactsGetName(artifacts, 0);
  MlirStringRef ptx = attncKernelArtifactsGetPTX(artifacts, 0);
  MlirStringRef manifest = attncKernelArtifactsGetManifest(artifacts, 0);
  printf("%.*s: PTX for sm_90a: %d, manifest: %d\n", (int)name.length,
         name.data, strstr(ptx.data, ".target sm_90a") != NULL,
         manifest.length > 0 && manifest.data[0] == '{');
  MlirLogicalResult written = attncKernelArtifactsWrite(
      artifacts, context, mlirStringRefCreateFromCString(dir), printDiagnostic,
      NULL);
  // CHECK-NEXT: written: 1
  printf("written: %d\n", mlirLogicalResultIsSuccess(written));
  // A file where a folder should be: the error comes back.
  char file[4096];
  snprintf(file, sizeof file, "%s/graph/kernel.ptx", dir);
  MlirLogicalResult unwritable = attncKernelArtifactsWrite(
      artifacts, context, mlirStringRefCreateFromCString(file), printDiagnostic,
      NULL);
  // CHECK-NEXT: diagnostic: error: cannot create {{.*}}kernel.ptx/graph: {{.*}}
  // CHECK-NEXT: unwritable: 0
  printf("unwritable: %d\n", mlirLogicalResultIsSuccess(unwritable));
  attncKernelArtifactsDestroy(artifacts);

  // The module is unchanged: the PTX pipeline runs on it in place.
  MlirLogicalResult ptxPipeline =
      attncRunPTXPipeline(module, options, printDiagnostic, NULL);
  // CHECK-NEXT: PTX pipeline: 1
  // CHECK-NEXT: gpu.binary @attn_kernels
  // CHECK-NOT: func.func
  // CHECK-LABEL: compile error
  printf("PTX pipeline: %d\n", mlirLogicalResultIsSuccess(ptxPipeline));
  printOps(module);
  attncPipelineOptionsDestroy(options);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
}

/* Compilation errors come back as diagnostics. */
static void testCompileError(void) {
  printf("compile error\n");
  MlirContext context = createContext(1);
  MlirModule module = parse(context, "func.func @empty() { return }");
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  AttncKernelArtifacts artifacts;
  MlirLogicalResult compiled = attncCompileKernelArtifacts(
      module, options, &artifacts, printDiagnostic, NULL);
  // CHECK-NEXT: diagnostic: loc("-":1:1): error: function @empty holds no attn.attention to compile
  // CHECK: compiled: 0, artifacts: null
  printf("compiled: %d, artifacts: %s\n", mlirLogicalResultIsSuccess(compiled),
         artifacts.ptr ? "set" : "null");
  attncPipelineOptionsDestroy(options);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
}

/* A context with the attn dialect alone: the func dialect and the rest of
 * attncRegisterDialects are missing, and each is named. */
static void testMissingRegistrations(void) {
  printf("missing registrations\n");
  MlirContext context = createContext(0);
  mlirContextSetAllowUnregisteredDialects(context, false);
  MlirModule module = parse(context, "module {}");
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  AttncKernelArtifacts artifacts;
  MlirLogicalResult compiled = attncCompileKernelArtifacts(
      module, options, &artifacts, printDiagnostic, NULL);
  // CHECK-LABEL: missing registrations
  // CHECK-NOT: the attn dialect registered
  // CHECK: diagnostic: loc("-":1:1): error: attnc pipeline needs the func dialect registered (registry.insert<func::FuncDialect>; call registerAttncDialects or attncRegisterDialects)
  // CHECK: error: attnc pipeline needs the NVVM target attribute interface registered (NVVM::registerNVVMTargetInterfaceExternalModels; call registerAttncDialects or attncRegisterDialects)
  // CHECK: error: attnc pipeline needs the NVVM dialect's translation to LLVM IR registered (registerNVVMDialectTranslation;
  // CHECK: compiled: 0
  printf("compiled: %d\n", mlirLogicalResultIsSuccess(compiled));
  attncPipelineOptionsDestroy(options);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: attnc-capi-test <artifact folder>\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0); /* all of it, even after a crash */
  attncRegisterPasses();
  testOptions();
  testTextualPipeline();
  testArtifacts(argv[1]);
  testCompileError();
  testMissingRegistrations();
  return 0;
}
