//===- Pipelines.cpp - attnc pass pipelines -------------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Pipelines/Pipelines.h"

#include "attnc/Conversion/Passes.h"
#include "attnc/Pipelines/Passes.h"
#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/TileConfig.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
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
  AttnStage last = options.stopAfter;
  if (last == AttnStage::Graph)
    return;
  AttnTilePassOptions tileOptions;
  tileOptions.blockM = options.blockM;
  tileOptions.blockN = options.blockN;
  tileOptions.target = options.target;
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

void mlir::attn::buildAttnToLoopsPipeline(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertAttnToLinalgPass());
  addCleanup(funcPm);

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Plain memrefs at function boundaries: what the C interface expects.
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // The kv loops carry freshly computed tiles, not updated in place.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  OpPassManager &loopsPm = pm.nest<func::FuncOp>();
  loopsPm.addPass(createConvertLinalgToLoopsPass());
  loopsPm.addPass(createForallToForLoopPass());
  addCleanup(loopsPm);
}

void mlir::attn::buildAttnToCPUPipeline(OpPassManager &pm) {
  buildAttnToLoopsPipeline(pm);
  // Strided-metadata expansion emits affine.apply: lower affine after it.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true; // bf16 <-> f32 as integer ops for any host CPU.
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass()); // tanh (softcap)
  // MemRef before arith: memref.dim's lowering reads its index as an
  // arith.constant; once arith is LLVM, it takes the index through an alloca
  // of the sizes, one per loop iteration (the stack overflows with small
  // tiles).
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

std::string mlir::attn::getOptionConflict(const AttnPipelineOptions &options) {
  auto named = [](const auto &option) {
    return option.getNumOccurrences() > 0;
  };
  // The kernel lowers the fused online softmax; the tiling pipeline prints
  // the stages before it.
  if (options.stopAfter < AttnStage::Fused)
    return ("stop-after=" + stringifyAttnStage(options.stopAfter) +
            " leaves the kv loops unfused, and the kernel lowers the fused "
            "online softmax: stop after fused or split (attn-tiling-pipeline "
            "prints the earlier stages)")
        .str();
  if (options.splitKvDynamicRows == TableChoice::On && !options.splitKv)
    return "split-kv-dynamic-rows=on needs split-kv, which split-kv=false "
           "turns off; drop one";
  // What needs the producer warpgroup, where no tile gets one: warp
  // specialization off, or left to a table that never specializes. (A
  // target without a table is the passes' diagnostic.)
  if (!llvm::is_contained(getTileTargets(), options.target))
    return "";
  bool producer = options.warpSpecialize == WarpSpecializeMode::On ||
                  (options.warpSpecialize == WarpSpecializeMode::Auto &&
                   getDefaultWarpSpecialization(/*headDim=*/0, options.target));
  if (producer)
    return "";
  std::string without = options.warpSpecialize == WarpSpecializeMode::Off
                            ? "warp-specialize=off"
                            : "target=" + options.target +
                                  " (whose table adds no producer "
                                  "warpgroup under "
                                  "warp-specialize=auto)";
  auto needs = [&](StringRef asked) {
    return asked.str() + " needs the producer warpgroup, which " + without +
           " leaves out; drop one (or pass warp-specialize=on)";
  };
  if (options.overlap == TableChoice::On && named(options.overlap))
    return needs("intra-warpgroup-overlap=on");
  if (options.stages != 0 && named(options.stages))
    return needs("stages=" + std::to_string(options.stages));
  if (options.softwareExp2Period > 0 && named(options.softwareExp2Period))
    return needs("software-exp2-period=" +
                 std::to_string(options.softwareExp2Period));
  if (options.pingPong && named(options.pingPong))
    return needs("ping-pong");
  return "";
}

void mlir::attn::buildAttnToNVVMPipeline(OpPassManager &pm,
                                         const AttnPipelineOptions &options) {
  // A few query rows per kv head fill one tile instead of g tiles. Before
  // the lengths are generalized, so that a graph's static Nq of one token
  // is seen (a g that does not divide 64 packs one token only).
  if (options.packGqa != PackGqaMode::Off) {
    AttnPackGqaPassOptions pack;
    pack.maskedRowLimit = options.packGqa == PackGqaMode::Auto ? -1 : 0;
    pm.addPass(createAttnPackGqaPass(pack));
  }
  // A decode step: g * Nq static rows of at most one 128-row tile.
  constexpr int64_t kDecodeStepRows = 128;
  // A decode step's grid is B x Hkv tiles: the runtime splits each row's
  // keys when that leaves SMs idle. Its rows are static until
  // attn-generalize-lengths.
  if (options.splitKv) {
    AttnSplitKvPassOptions split;
    split.maxRows = kDecodeStepRows;
    split.dynamicRows = options.splitKvDynamicRows;
    split.target = options.target;
    pm.addPass(createAttnSplitKvPass(split));
  }
  // The tile, chosen while a decode step's rows are static.
  AttnConfigureTilesPassOptions tiles;
  tiles.blockM = options.blockM;
  tiles.blockN = options.blockN;
  tiles.target = options.target;
  pm.nest<func::FuncOp>().addPass(createAttnConfigureTilesPass(tiles));
  // The kernel takes B, Nq and Nk at launch time: no kv loop may be folded
  // for the graph's static shape.
  pm.addPass(createAttnGeneralizeLengthsPass());
  // ... and the softmax scale: one kernel serves every scale.
  pm.addPass(createAttnGeneralizeScalePass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  buildAttnTilingPipeline(funcPm, options);
  AttnOrderTilesPassOptions order;
  order.order = options.tileOrder;
  funcPm.addPass(createAttnOrderTilesPass(order));
  // One multiply per score less where the softmax bounds the kv step.
  funcPm.addPass(createAttnDeferSoftcapCapPass());
  // Bounded scores need no running max: a step without one issues fewer
  // instructions per score than the softcap's tanh adds.
  if (options.softcapFixedMax)
    funcPm.addPass(createAttnSoftcapFixedMaxPass());
  // Warp specialization partitions the fused kv loop: nothing to do before.
  if (options.warpSpecialize != WarpSpecializeMode::Off &&
      options.stopAfter >= AttnStage::Fused) {
    AttnWarpSpecializePassOptions ws;
    if (options.warpSpecialize == WarpSpecializeMode::Auto)
      ws.target = options.target;
    ws.pingPong = options.pingPong;
    ws.stages = options.stages;
    ws.overlap = options.overlap;
    ws.softwareExp2Period = options.softwareExp2Period;
    // The table's schedule assumes P in registers (the overlap needs it, and
    // a third stage leaves no room for a P buffer): without, 2 stages.
    if (!options.probsInRegisters) {
      if (options.overlap == TableChoice::Auto)
        ws.overlap = TableChoice::Off;
      if (options.stages == 0)
        ws.stages = 2;
    }
    funcPm.addPass(createAttnWarpSpecializePass(ws));
    addCleanup(funcPm);
  }
  // A split tile lets its combine kernel launch at its epilogue.
  if (options.programmaticLaunch)
    funcPm.addPass(createAttnSignalDependentsPass());
  funcPm.addPass(createAttnAssignLayoutsPass());
  AttnAllocateSharedMemoryPassOptions allocation;
  allocation.probsInRegisters = options.probsInRegisters;
  funcPm.addPass(createAttnAllocateSharedMemoryPass(allocation));
  funcPm.addPass(createAttnPipelineKvLoopsPass());
  // After the rotation: only a step's own alpha can be skipped.
  if (options.conditionalRescale)
    funcPm.addPass(createAttnConditionalRescalePass());
  funcPm.addPass(createAttnInsertWaitsPass());
  ConvertAttnToNVVMPassOptions nvvm;
  nvvm.chip = "sm_90a";
  pm.addPass(createConvertAttnToNVVMPass(nvvm));
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  gpuPm.addPass(createSCFToControlFlowPass());
  gpuPm.addPass(createArithToLLVMConversionPass());
  gpuPm.addPass(createConvertIndexToLLVMPass());
  gpuPm.addPass(createConvertNVVMToLLVMPass());
  // Anchored on builtin.module; it reaches into the gpu.module.
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  addCleanup(pm.nest<gpu::GPUModuleOp>());
}

void mlir::attn::buildAttnToPTXPipeline(OpPassManager &pm,
                                        const AttnPipelineOptions &options) {
  // A diagnostic, not a crash in gpu-module-to-binary, when the context was
  // built without registerAttncDialects.
  pm.addPass(createAttnCheckRequirementsPass());
  buildAttnToNVVMPipeline(pm, options);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa"; // PTX text; the driver JITs it.
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// Registers a GPU pipeline whose option string is refused, with the
/// reason, where getOptionConflict finds one (PassPipelineRegistration's
/// builder cannot fail, so the pipeline would drop or misread the option).
static void registerGpuPipeline(StringRef name, StringRef description,
                                void (*build)(OpPassManager &,
                                              const AttnPipelineOptions &)) {
  registerPassPipeline(
      name, description,
      [name, build](OpPassManager &pm, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        AttnPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (std::string conflict = getOptionConflict(options);
            !conflict.empty())
          return errorHandler(name + ": " + conflict);
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(AttnPipelineOptions());
      });
}

void mlir::attn::registerAttnPipelines() {
  PassPipelineRegistration<AttnPipelineOptions>(
      "attn-tiling-pipeline",
      "Tile, fuse the online softmax and split masked loops (func.func)",
      [](OpPassManager &pm, const AttnPipelineOptions &options) {
        buildAttnTilingPipeline(pm, options);
      });
  registerGpuPipeline("attn-lower-to-nvvm-pipeline",
                      "Tile, fuse, split and lower attention to an sm_90a "
                      "kernel in a gpu.module (LLVM + NVVM dialects)",
                      buildAttnToNVVMPipeline);
  registerGpuPipeline("attn-lower-to-ptx-pipeline",
                      "attn-check-requirements, attn-lower-to-nvvm-pipeline, "
                      "then gpu-module-to-binary{format=isa}",
                      buildAttnToPTXPipeline);
  PassPipelineRegistration<>(
      "convert-attn-to-loops",
      "Lower attn IR of any stage to scf loops on memrefs (CPU reference)",
      buildAttnToLoopsPipeline);
  PassPipelineRegistration<>(
      "attn-lower-to-cpu-pipeline",
      "Lower attn IR of any stage to the LLVM dialect for the CPU backend",
      buildAttnToCPUPipeline);
}
