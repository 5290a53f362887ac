//===- KernelAbi.cpp - the kernel's #attn.kernel_abi ----------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the runtime launches the kernel (docs/Runtime.md): threads, shared
// memory, grid, parameters in order with their tensor-map boxes, the problem
// it was compiled for, and the compile options for reproducibility. The
// kernel's signature and the artifact's manifest are both built from it.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "TileScale.h"

#include "attnc/Transforms/TileOrder.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

namespace rt = attnc::rt;

namespace {
/// The compile options the tile's ops record, for the manifest (each op's
/// lowering reads its own attributes).
struct RecordedOptions {
  /// The softcap of the loops' attn.softcap.
  std::optional<float> softcap;
  /// The smallest software_exp2_period of the attn.exp_diff ops (0: every
  /// exp2 is MUFU.EX2).
  int64_t softwareExp2Period = 0;
  /// Some kv loop's O *= alpha is `conditional` (attn-conditional-rescale):
  /// as the lowering decides, only a rescale by its step's own alpha, which
  /// knows which rows' maxima moved.
  bool conditionalRescale = false;
};
} // namespace

static RecordedOptions readRecordedOptions(const TiledAttention &tiled) {
  RecordedOptions options;
  tiled.forall.getBody()->walk([&](Operation *op) {
    if (auto cap = dyn_cast<SoftcapOp>(op)) {
      options.softcap = cap.getCap().convertToFloat();
    } else if (auto exp = dyn_cast<ExpDiffOp>(op)) {
      if (std::optional<uint64_t> period = exp.getSoftwareExp2Period())
        options.softwareExp2Period =
            options.softwareExp2Period
                ? std::min<int64_t>(options.softwareExp2Period, *period)
                : *period;
    }
  });
  for (scf::ForOp loop : tiled.kvLoops())
    loop.walk([&](ScaleRowsOp op) {
      options.conditionalRescale |=
          op.getConditional() && op.rescalesByStepFactor();
    });
  return options;
}

SmallVector<TileDim>
mlir::attn::hopper::getTileSpace(const TiledAttention &tiled) {
  // A varlen kernel's query tiles bound its sequences' (attn.sequence_tile);
  // its outputs are one packed batch.
  SmallVector<TileDim> space = {
      {tiled.queryBlockIv(), rt::Symbol::SeqQ, tiled.blockM(),
       tiled.varlen() ? std::optional(rt::Symbol::Batch) : std::nullopt},
      {tiled.headIv(), rt::Symbol::HeadsQ, /*ceilDiv=*/1, std::nullopt},
      {tiled.batchIv(), tiled.varlen() ? rt::Symbol::One : rt::Symbol::Batch,
       /*ceilDiv=*/1, std::nullopt}};
  if (tiled.kvSplit())
    space.push_back(
        {kKvSplitDim, rt::Symbol::KvSplits, /*ceilDiv=*/1, std::nullopt});
  return space;
}

KernelAbiAttr mlir::attn::hopper::buildKernelAbi(MLIRContext *ctx,
                                                 const TiledAttention &tiled,
                                                 SplitKvAttr splitKv) {
  Builder b(ctx);
  SmallVector<Attribute, 3> grid;
  SmallVector<TileDim> space = getTileSpace(tiled);
  for (const TileDim &dim : ArrayRef(space).take_front(2))
    grid.push_back(GridDimAttr::get(ctx, {dim.symbol}, dim.ceilDiv,
                                    dim.plus ? ArrayRef(*dim.plus)
                                             : ArrayRef<rt::Symbol>()));
  SmallVector<rt::Symbol> z;
  for (const TileDim &dim : ArrayRef(space).drop_front(2)) {
    assert(dim.ceilDiv == 1 && !dim.plus && "grid z is a product");
    z.push_back(dim.symbol);
  }
  grid.push_back(GridDimAttr::get(ctx, z));

  // (`name` is the tensor's or the problem symbol's.)
  auto param = [&](rt::ParamKind kind, auto name) -> Attribute {
    return KernelParamAttr::get(ctx, kind, name);
  };
  // One box per shared-memory atom of the tile; O is stored from its
  // staging buffer, in Q's layout, one warpgroup's rows at a time.
  auto tensorMap = [&](rt::TensorName tensor, SwizzledAtoms atoms,
                       int64_t rows) -> Attribute {
    bool query = tensor == rt::TensorName::Q || tensor == rt::TensorName::O;
    return KernelParamAttr::get(
        ctx, rt::ParamKind::TensorMap, tensor,
        query ? queryMapBox(tiled, atoms.columns(), rows)
              : SmallVector<int64_t>{atoms.columns(), rows, 1, 1});
  };
  // A paged K or V map describes the pool, one box a page part.
  SmallVector<Attribute> params = {
      tensorMap(rt::TensorName::Q, tiled.queryAtoms(), tiled.blockM()),
      tensorMap(rt::TensorName::K, tiled.keyAtoms(), tiled.kvBoxRows()),
      tensorMap(rt::TensorName::V, tiled.valueAtoms(), tiled.kvBoxRows())};
  // A split writes its partials; the combine kernel writes O and the LSE,
  // but at one split of a count chosen at launch the tile writes them.
  if (tiled.kvSplit()) {
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::OPartial));
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::LsePartial));
  }
  if (!tiled.kvSplit() || tiled.writesOutputAtOneSplit()) {
    // A varlen tile stores O with stores that stop at its sequence's rows.
    params.push_back(
        tiled.varlen()
            ? param(rt::ParamKind::Pointer, rt::TensorName::O)
            : tensorMap(rt::TensorName::O, tiled.queryAtoms(), kWarpgroupRows));
    if (tiled.hasLse())
      params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::Lse));
  }
  if (tiled.varlen()) {
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensQ));
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::CuSeqlensK));
  }
  // A paged tile's keys are its sequence's cache length.
  if (tiled.paged()) {
    params.push_back(param(rt::ParamKind::Pointer, rt::TensorName::BlockTable));
    params.push_back(
        param(rt::ParamKind::Pointer, rt::TensorName::CacheLengths));
  }
  params.push_back(param(rt::ParamKind::I32, rt::Symbol::SeqQ));
  params.push_back(param(rt::ParamKind::I32, tiled.paged()
                                                 ? rt::Symbol::PagesPerSeq
                                                 : rt::Symbol::SeqK));
  if (tiled.kvSplit() || tiled.varlen())
    params.push_back(param(rt::ParamKind::I32, rt::Symbol::Batch));
  if (tiled.kvSplit() && tiled.kvSplitsArgument())
    params.push_back(param(rt::ParamKind::I32, rt::Symbol::KvSplits));
  if (getScaleArgument(tiled.forall))
    params.push_back(param(rt::ParamKind::F32, rt::Symbol::Scale));
  if (takesScaleLog2(tiled.forall))
    params.push_back(param(rt::ParamKind::F32, rt::Symbol::ScaleLog2));

  auto str = [&](StringRef s) -> Attribute { return b.getStringAttr(s); };
  NamedAttrList problem;
  problem.append("dtype", str(rt::toString(tiled.elementType().isBF16()
                                               ? rt::DType::BF16
                                               : rt::DType::F16)));
  problem.append("head_dim", b.getI64IntegerAttr(tiled.headDim()));
  problem.append("head_dim_v", b.getI64IntegerAttr(tiled.valueHeadDim()));
  problem.append("layout",
                 str(tiled.layout() == Layout::BHSD ? "bhsd" : "bshd"));
  MaskSpec mask = tiled.finalize().getMaskSpec();
  problem.append("mask", str(stringifyMaskKind(mask.kind)));
  // The caller's heads; the grid and the parameters are those of the
  // packed problem, whose Q and O maps view the caller's tensors
  // (queryMapBox).
  int64_t callerHeadsQ = tiled.headsQ() * tiled.packedQueryHeads();
  problem.append("gqa", b.getBoolAttr(callerHeadsQ != tiled.headsKV()));
  problem.append("has_lse", b.getBoolAttr(tiled.hasLse()));
  // Only where packed, so that other kernels' manifests stay as they were.
  if (tiled.packedQueryHeads() > 1)
    problem.append("packed_query_heads",
                   b.getI64IntegerAttr(tiled.packedQueryHeads()));
  if (tiled.paged())
    problem.append("page_size",
                   b.getI64IntegerAttr(tiled.paged().getPageSize()));
  if (tiled.varlen())
    problem.append("varlen", b.getBoolAttr(true));

  NamedAttrList options;
  auto option = [&](StringRef name, int64_t v) {
    options.append(name, b.getI64IntegerAttr(v));
  };
  option("block_m", tiled.blockM());
  option("block_n", tiled.blockN());
  option("stages", tiled.sharedMemory().getStages());
  option("consumer_warpgroups", tiled.consumerWarpgroups());
  option("warp_specialized", tiled.warpSpecialize());
  option("ping_pong", tiled.pingPong());
  option("intra_warpgroup_overlap", tiled.softwarePipelined());
  option("probs_in_registers", tiled.probsInRegisters());
  option("longest_first", bool(getReversedQueryBlock(tiled.forall)));
  RecordedOptions recorded = readRecordedOptions(tiled);
  option("conditional_rescale", recorded.conditionalRescale);
  option("heads_q", callerHeadsQ);
  option("heads_kv", tiled.headsKV());
  // A packed Q of one token's query heads serves that one token.
  if (tiled.packsOneToken())
    option("seq_q", 1);
  // A compiled-in scale; without one the launch's scale is a parameter.
  if (std::optional<float> scale = getConstantScale(tiled.forall))
    options.append("scale", b.getF32FloatAttr(*scale));
  if (recorded.softcap)
    options.append("softcap", b.getF32FloatAttr(*recorded.softcap));
  // Only where set, so that other kernels' manifests stay as they were.
  if (recorded.softwareExp2Period)
    option("software_exp2_period", recorded.softwareExp2Period);
  if (mask.window) {
    option("window_left", (*mask.window)[0]);
    option("window_right", (*mask.window)[1]);
  }
  return KernelAbiAttr::get(ctx, kWarpgroupThreads * tiled.warpgroups(),
                            tiled.sharedMemory().getSize(),
                            b.getArrayAttr(grid), b.getArrayAttr(params),
                            problem.getDictionary(ctx),
                            options.getDictionary(ctx), splitKv);
}
