//===- Pipelines.h - attnc pass pipelines -------------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The attention pipeline as library functions with an options struct, so an
// embedding compiler sets every choice in code; attnc-opt only registers them.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_PIPELINES_PIPELINES_H
#define ATTNC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include "attnc/Transforms/TileConfig.h"

#include <optional>

namespace mlir::attn {

/// Named points of the target-independent pipeline, in order.
enum class AttnStage {
  Graph, ///< attn.attention as written.
  Tiled, ///< after attn-tile: block loops, three-pass softmax.
  Fused, ///< after attn-fuse-online-softmax: one online-softmax kv loop.
  Split, ///< after attn-split-masked-loops: masks only on edge blocks.
};

/// Parses "graph" | "tiled" | "fused" | "split".
std::optional<AttnStage> parseAttnStage(StringRef name);
StringRef stringifyAttnStage(AttnStage stage);

/// Which attentions the GPU pipeline packs with attn-pack-gqa.
enum class PackGqaMode {
  Off,      ///< none
  Unmasked, ///< those without a mask or window
  Auto,     ///< every one attn-pack-gqa can pack, masked too: token-major
            ///< packed rows cost a causal prefill nothing (bench/HISTORY.md
            ///< run 145) and make its decode steps 2.5-3.3x faster (run 146)
};

/// Whether the GPU pipeline runs attn-warp-specialize.
enum class WarpSpecializeMode {
  Off,  ///< consumer thread 0 issues the loads
  On,   ///< every tile gets a producer warpgroup
  Auto, ///< where the target's table says so
};

struct AttnPipelineOptions : public PassPipelineOptions<AttnPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target", llvm::cl::desc("Target whose tile table is used"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<int64_t> blockM{
      *this, "block-m", llvm::cl::desc("Query rows per tile (0: default)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> blockN{
      *this, "block-n", llvm::cl::desc("Key rows per tile (0: default)"),
      llvm::cl::init(0)};
  PassOptions::Option<PackGqaMode> packGqa{
      *this, "pack-gqa",
      llvm::cl::desc("GPU: pack the query heads of each kv head into one "
                     "tile's rows (attn-pack-gqa)"),
      llvm::cl::init(PackGqaMode::Auto),
      llvm::cl::values(
          clEnumValN(PackGqaMode::Off, "off", "never"),
          clEnumValN(PackGqaMode::Off, "false", "never"),
          clEnumValN(PackGqaMode::Unmasked, "unmasked",
                     "attentions without a mask or window"),
          clEnumValN(PackGqaMode::Auto, "auto",
                     "every attention attn-pack-gqa can pack, masked too"),
          clEnumValN(PackGqaMode::Auto, "all", "the same as auto"))};
  PassOptions::Option<bool> splitKv{
      *this, "split-kv",
      llvm::cl::desc("GPU: decode steps (static query rows <= 128 per kv "
                     "head, after pack-gqa), and as split-kv-dynamic-rows "
                     "says attentions of dynamic rows, get a kv split count "
                     "the runtime chooses at each launch (attn-split-kv)"),
      llvm::cl::init(true)};
  PassOptions::Option<TableChoice> splitKvDynamicRows{
      *this, "split-kv-dynamic-rows",
      llvm::cl::desc("GPU: with split-kv, attentions whose query rows are "
                     "dynamic get a launch-time kv split count too (fast "
                     "small-batch decode from a kernel for every Nq; auto: "
                     "above D = 64, where its prefill launches lose 0-1.4 % "
                     "(3.6 % at one shape of one run)"),
      llvm::cl::init(TableChoice::Auto),
      tableChoiceValues("every such attention")};
  PassOptions::Option<WarpSpecializeMode> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("GPU: attn-warp-specialize (a producer warpgroup issues "
                     "the TMA loads)"),
      llvm::cl::init(WarpSpecializeMode::Auto),
      llvm::cl::values(
          clEnumValN(WarpSpecializeMode::Off, "off", "no producer warpgroup"),
          clEnumValN(WarpSpecializeMode::On, "on", "every tile"),
          clEnumValN(WarpSpecializeMode::Auto, "auto",
                     "where the target's table says so"))};
  PassOptions::Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("GPU: shared-memory stages of the K/V ring of a "
                     "warp-specialized kernel (0: the target's table)"),
      llvm::cl::init(0)};
  PassOptions::Option<TableChoice> overlap{
      *this, "intra-warpgroup-overlap",
      llvm::cl::desc("GPU: softmax of block j overlaps P V of block j-1"),
      llvm::cl::init(TableChoice::Auto), tableChoiceValues("every tile")};
  PassOptions::Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("GPU: two consumer warpgroups take turns issuing GEMMs"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> softwareExp2Period{
      *this, "software-exp2-period",
      llvm::cl::desc("GPU: of every N element pairs of a consumer thread's "
                     "scores, one computes its exp2 with an FMA-pipe "
                     "polynomial instead of MUFU.EX2 (warp-specialized "
                     "kernels; 0: the target's table, on sm_90a for a "
                     "soft-capped softmax with a fixed max 4 at D <= 64, 3 "
                     "at D <= 128 and off otherwise; -1: off)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> softcapFixedMax{
      *this, "softcap-fixed-max",
      llvm::cl::desc("GPU: a soft-capped softmax subtracts a fixed max "
                     "instead of a running one where the cap bounds its "
                     "exponentials (attn-softcap-fixed-max)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> probsInRegisters{
      *this, "probs-in-registers",
      llvm::cl::desc("GPU: O += P V with P in registers (wgmma RS); false "
                     "goes through shared memory (wgmma SS)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> conditionalRescale{
      *this, "conditional-rescale",
      llvm::cl::desc("GPU: skip O *= alpha in warps whose row maxima did "
                     "not move (exact; off: not faster so far)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> programmaticLaunch{
      *this, "programmatic-launch",
      llvm::cl::desc("GPU: a split-KV attention's combine kernel is launched "
                     "while the attention kernel runs and waits for it on "
                     "the GPU (programmatic dependent launch): "
                     "attn-signal-dependents puts attn.launch_dependents at "
                     "each split tile's epilogue"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> tileOrder{
      *this, "tile-order",
      llvm::cl::desc("GPU launch order of query blocks: in-order, "
                     "longest-first or auto (longest-first for masks)"),
      llvm::cl::init("auto")};
  PassOptions::Option<AttnStage> stopAfter{
      *this, "stop-after", llvm::cl::desc("Last stage to run"),
      llvm::cl::init(AttnStage::Split),
      llvm::cl::values(
          clEnumValN(AttnStage::Graph, "graph", "attn.attention as written"),
          clEnumValN(AttnStage::Tiled, "tiled", "after attn-tile"),
          clEnumValN(AttnStage::Fused, "fused",
                     "after attn-fuse-online-softmax"),
          clEnumValN(AttnStage::Split, "split",
                     "after attn-split-masked-loops"))};
};

/// attn-tile, attn-fuse-online-softmax, attn-split-masked-loops (each with
/// canonicalize + cse), stopping after `options.stopAfter`. Anchored on
/// func.func.
void buildAttnTilingPipeline(OpPassManager &pm,
                             const AttnPipelineOptions &options);

/// convert-attn-to-linalg, one-shot bufferization (function boundaries
/// included, identity layouts), and linalg to scf loops: attn IR of any stage
/// becomes loops on memrefs. Anchored on builtin.module.
void buildAttnToLoopsPipeline(OpPassManager &pm);

/// buildAttnToLoopsPipeline followed by the upstream lowering to the LLVM
/// dialect, ready for the ExecutionEngine (the CPU reference backend).
void buildAttnToCPUPipeline(OpPassManager &pm);

/// attn-pack-gqa (per `packGqa`), attn-split-kv (per `splitKv`,
/// `splitKvDynamicRows` and `target`),
/// attn-configure-tiles, attn-generalize-lengths,
/// attn-generalize-scale, the tiling pipeline, attn-order-tiles (per
/// `tileOrder`), attn-defer-softcap-cap, attn-softcap-fixed-max (per
/// `softcapFixedMax`), attn-warp-specialize (per `warpSpecialize`, on fused
/// IR),
/// attn-signal-dependents (per `programmaticLaunch`), attn-assign-layouts,
/// attn-allocate-shared-memory, attn-pipeline-kv-loops,
/// attn-conditional-rescale (per `conditionalRescale`), attn-insert-waits,
/// convert-attn-to-nvvm and the lowering of the gpu.module contents to the
/// LLVM and NVVM dialects. Anchored on builtin.module.
void buildAttnToNVVMPipeline(OpPassManager &pm,
                             const AttnPipelineOptions &options);

/// attn-check-requirements (attnc/Pipelines/Registration.h), then
/// buildAttnToNVVMPipeline plus gpu-module-to-binary{format=isa}: the
/// gpu.module becomes a gpu.binary holding PTX text.
void buildAttnToPTXPipeline(OpPassManager &pm,
                            const AttnPipelineOptions &options);

/// What the GPU pipelines cannot honour in `options`: a stop-after before
/// the fused loops (the kernel lowers them), or the first contradiction
/// among options asked for by name (parsed from a string, as attnc-compile
/// and attncPipelineOptionsParse parse them), an option the others rule out,
/// which the pipeline would otherwise drop silently. A sentence naming the
/// options, or empty. The GPU pipelines registered with attnc-opt refuse an
/// option string that has one; a C++ caller of the build functions checks
/// it first.
std::string getOptionConflict(const AttnPipelineOptions &options);

/// Registers attn-tiling-pipeline, attn-lower-to-nvvm-pipeline,
/// attn-lower-to-ptx-pipeline, convert-attn-to-loops and
/// attn-lower-to-cpu-pipeline.
void registerAttnPipelines();

} // namespace mlir::attn

#endif // ATTNC_PIPELINES_PIPELINES_H
