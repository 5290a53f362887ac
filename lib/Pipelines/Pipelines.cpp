//===- Pipelines.cpp - attnc pass pipelines -------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Pipelines.h"

#include "attnc/Conversion/Passes.h"
#include "attnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::attn;

std::optional<AttnStage> mlir::attn::parseAttnStage(StringRef name) {
  return llvm::StringSwitch<std::optional<AttnStage>>(name)
      .Case("graph", AttnStage::Graph)
      .Case("tiled", AttnStage::Tiled)
      .Case("fused", AttnStage::Fused)
      .Case("split", AttnStage::Split)
      .Default(std::nullopt);
}

StringRef mlir::attn::stringifyAttnStage(AttnStage stage) {
  switch (stage) {
  case AttnStage::Graph:
    return "graph";
  case AttnStage::Tiled:
    return "tiled";
  case AttnStage::Fused:
    return "fused";
  case AttnStage::Split:
    return "split";
  }
  llvm_unreachable("unknown stage");
}

static void addCleanup(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::attn::buildAttnTilingPipeline(OpPassManager &pm,
                                         const AttnPipelineOptions &options) {
  // An unknown stage name is reported by the registered pipeline's parser;
  // library callers get the full pipeline.
  AttnStage last =
      parseAttnStage(options.stopAfter).value_or(AttnStage::Split);
  if (last == AttnStage::Graph)
    return;
  AttnTilePassOptions tileOptions;
  tileOptions.blockM = options.blockM;
  tileOptions.blockN = options.blockN;
  pm.addPass(createAttnTilePass(tileOptions));
  addCleanup(pm);
  if (last == AttnStage::Tiled)
    return;
  pm.addPass(createAttnFuseOnlineSoftmaxPass());
  addCleanup(pm);
  if (last == AttnStage::Fused)
    return;
  pm.addPass(createAttnSplitMaskedLoopsPass());
  addCleanup(pm);
}

/// Upstream passes are added from their textual names: that keeps this file
/// independent of each pass's options struct, and the names are what a user
/// would type to reproduce a step with attnc-opt.
static void addUpstream(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error(llvm::Twine("attnc: bad built-in pipeline: ") +
                             pipeline);
}

void mlir::attn::buildAttnToLoopsPipeline(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertAttnToLinalgPass());
  addCleanup(funcPm);
  addUpstream(pm, "one-shot-bufferize{bufferize-function-boundaries=true "
                  "function-boundary-type-conversion=identity-layout-map "
                  "allow-return-allocs-from-loops=true}");
  addUpstream(pm, "buffer-deallocation-pipeline");
  addUpstream(pm, "func.func(convert-linalg-to-loops,scf-forall-to-for,"
                  "canonicalize,cse)");
}

void mlir::attn::buildAttnToCPUPipeline(OpPassManager &pm) {
  buildAttnToLoopsPipeline(pm);
  addUpstream(pm, "lower-affine,expand-strided-metadata,"
                  "arith-expand{include-bf16=true},convert-scf-to-cf,"
                  "convert-math-to-llvm,convert-math-to-libm,"
                  "convert-arith-to-llvm,convert-index-to-llvm,"
                  "finalize-memref-to-llvm,convert-func-to-llvm,"
                  "convert-cf-to-llvm,reconcile-unrealized-casts");
}

void mlir::attn::registerAttnPipelines() {
  PassPipelineRegistration<AttnPipelineOptions>(
      "attn-tiling-pipeline",
      "Tile, fuse the online softmax and split masked loops (func.func)",
      [](OpPassManager &pm, const AttnPipelineOptions &options) {
        buildAttnTilingPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "convert-attn-to-loops",
      "Lower attn IR of any stage to scf loops on memrefs (CPU reference)",
      buildAttnToLoopsPipeline);
  PassPipelineRegistration<>(
      "attn-lower-to-cpu-pipeline",
      "Lower attn IR of any stage to the LLVM dialect for the CPU backend",
      buildAttnToCPUPipeline);
}
