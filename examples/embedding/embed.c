/*===- embed.c - attnc embedded in a C program ----------------------------===*\
|*                                                                            *|
|* Part of the attnc project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception        *|
|*                                                                            *|
|* Parses an attention graph, compiles it to sm_90a kernel artifacts through  *|
|* attnc's C API (attnc::CAPI) and writes them to a folder:                   *|
|*   embed-c <graph.mlir> <out-dir>                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "attnc-c/Pipeline.h"
#include "attnc-c/Registration.h"
#include "attnc-c/Target.h"

#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void printDiagnostic(MlirStringRef text, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)text.length, text.data);
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (text && fread(text, 1, size, file) == (size_t)size)
    text[size] = 0;
  fclose(file);
  return text;
}

/* Compiles every attention function of `module` and writes its artifacts to
 * `dir`; 0 on success. */
static int compile(MlirContext context, MlirModule module, const char *dir) {
  AttncPipelineOptions options = attncPipelineOptionsCreate();
  AttncKernelArtifacts artifacts = {NULL};
  int status = 1;
  /* The frontend's softmax(scale Q K^T + mask) V becomes one attn.attention
   * (a near miss gets a remark saying what did not match), then kernels. */
  if (mlirLogicalResultIsSuccess(attncRunPassPipeline(
          module,
          mlirStringRefCreateFromCString(
              "builtin.module(func.func(attn-raise-attention))"),
          printDiagnostic, NULL)) &&
      mlirLogicalResultIsSuccess(attncPipelineOptionsParse(
          options, mlirStringRefCreateFromCString("target=sm_90a"),
          printDiagnostic, NULL)) &&
      mlirLogicalResultIsSuccess(attncCompileKernelArtifacts(
          module, options, &artifacts, printDiagnostic, NULL)) &&
      mlirLogicalResultIsSuccess(attncKernelArtifactsWrite(
          artifacts, context, mlirStringRefCreateFromCString(dir),
          printDiagnostic, NULL))) {
    for (intptr_t i = 0; i < attncKernelArtifactsGetNum(artifacts); ++i) {
      MlirStringRef name = attncKernelArtifactsGetName(artifacts, i);
      printf("embed-c: kernel %.*s: %zu bytes of PTX, manifest %zu bytes, "
             "in %s/%.*s\n",
             (int)name.length, name.data,
             attncKernelArtifactsGetPTX(artifacts, i).length,
             attncKernelArtifactsGetManifest(artifacts, i).length, dir,
             (int)name.length, name.data);
    }
    status = 0;
  }
  if (artifacts.ptr)
    attncKernelArtifactsDestroy(artifacts);
  attncPipelineOptionsDestroy(options);
  return status;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: embed-c <graph.mlir> <out-dir>\n");
    return 2;
  }
  char *graph = readFile(argv[1]);
  if (!graph) {
    fprintf(stderr, "embed-c: cannot read %s\n", argv[1]);
    return 1;
  }
  /* Exactly what attnc needs (mlir::attn::getAttncRequirements()). */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  attncRegisterDialects(registry);
  attncRegisterRaisingDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  attncRegisterPasses();

  /* Parse errors are printed by MLIR's default handler. */
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(graph));
  free(graph);
  int status = 1;
  if (!mlirModuleIsNull(module)) {
    status = compile(context, module, argv[2]);
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(context);
  return status;
}
