//===- TileOpPatterns.cpp - a conversion pattern per attn op of a tile ----===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each attn op of a tile is converted by its own pattern: the tile ops of a
// kv step, Q's wait, attn.finalize and attn.launch_dependents (the
// consumer's), attn.warp_specialize (the role branch), the producer's K
// and V loads and attn.ring_push, and the stores of O and the LSE in the
// forall's terminator. A pattern's adaptor holds the op's
// operands as FragmentTypeConverter gives them: the struct of an
// accumulator-layout tile, the two rows of a row vector, the ring stage
// and phase of a shared-memory tile. The pattern lowers the op with the
// kernel's values (KernelTileOps.cpp, KernelStep.cpp, HopperKernel.cpp)
// and replaces its results with theirs. The waits and releases are lowered
// where the IR places them.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

namespace {

/// The kernel values of an op's results, one list per result.
using ResultValues = SmallVector<SmallVector<Value>>;

/// The pattern of tile op `SourceOp`: its lowering, given a copy of the
/// kernel that builds with the pattern's rewriter, the op and its adaptor,
/// returns the values of its results, or fails where the op is not one the
/// kernel has a lowering for.
template <typename SourceOp>
struct TileOpLowering : OpConversionPattern<SourceOp> {
  using Adaptor = typename OpConversionPattern<SourceOp>::OneToNOpAdaptor;
  using Lowering = std::function<FailureOr<ResultValues>(KernelEmitter &,
                                                         SourceOp, Adaptor)>;

  TileOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                 const KernelEmitter &kernel, Lowering lowering)
      : OpConversionPattern<SourceOp>(converter, ctx), kernel(kernel),
        lowering(std::move(lowering)) {}

  LogicalResult
  matchAndRewrite(SourceOp op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelEmitter at(rewriter, kernel, op.getLoc());
    FailureOr<ResultValues> results = lowering(at, op, adaptor);
    if (failed(results))
      return rewriter.notifyMatchFailure(op, "no lowering of this form");
    // An op without results is erased.
    if (results->empty())
      rewriter.eraseOp(op);
    else
      rewriter.replaceOpWithMultiple(op, std::move(*results));
    return success();
  }

  const KernelEmitter &kernel;
  Lowering lowering;
};

/// attn.wait_gemms; a full wait that frees the registers of a rotated
/// step's P V also keeps the carried P it reads live up to the wait (read
/// through the rewriter: the P V's operand, not the wait's).
struct WaitGemmsLowering : OpConversionPattern<WaitGemmsOp> {
  WaitGemmsLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const KernelEmitter &kernel,
                    const DenseMap<Operation *, PVOp> &probsInFlight)
      : OpConversionPattern(converter, ctx), kernel(kernel),
        probsInFlight(probsInFlight) {}

  LogicalResult
  matchAndRewrite(WaitGemmsOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelEmitter at(rewriter, kernel, op.getLoc());
    SmallVector<Value> live;
    if (PVOp pv = probsInFlight.lookup(op))
      live = at.probsOperand(pv, rewriter.getRemappedValue(pv.getProbs()));
    at.lowerWaitGemms(op.getPending(), live);
    rewriter.eraseOp(op);
    return success();
  }

  const KernelEmitter &kernel;
  const DenseMap<Operation *, PVOp> &probsInFlight;
};

/// A splat tile constant (the loops' initial tiles).
struct TileConstantLowering : OpConversionPattern<arith::ConstantOp> {
  TileConstantLowering(const TypeConverter &converter, MLIRContext *ctx,
                       const KernelEmitter &kernel)
      : OpConversionPattern(converter, ctx), kernel(kernel) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!type || !splat)
      return rewriter.notifyMatchFailure(op, "not a splat tile");
    KernelEmitter at(rewriter, kernel, op.getLoc());
    rewriter.replaceOpWithMultiple(
        op, {at.lowerConstant(
                type, splat.getSplatValue<APFloat>().convertToDouble())});
    return success();
  }

  const KernelEmitter &kernel;
};

/// A poison tile (a rotated loop's V for a tile without kv blocks, which
/// nothing reads): poison kernel values.
struct TilePoisonLowering : OpConversionPattern<ub::PoisonOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ub::PoisonOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return rewriter.notifyMatchFailure(op, "not a tile");
    SmallVector<Value> poison;
    for (Type type : types)
      poison.push_back(LLVM::PoisonOp::create(rewriter, op.getLoc(), type));
    rewriter.replaceOpWithMultiple(op, {poison});
    return success();
  }
};

/// Adds the pattern of each tile op from its lowering.
struct TileOpLowerings {
  template <typename Op>
  void add(typename TileOpLowering<Op>::Lowering lowering) {
    patterns.add<TileOpLowering<Op>>(converter, patterns.getContext(), kernel,
                                     std::move(lowering));
  }

  RewritePatternSet &patterns;
  const TypeConverter &converter;
  const KernelEmitter &kernel;
};

} // namespace

/// One value, the result's.
static ResultValues one(Value v) { return {{v}}; }
/// A row vector's values.
static ResultValues rows(const KernelEmitter::RowValues &r) {
  return {SmallVector<Value>(r.begin(), r.end())};
}

/// Whether `tile` is the K tile of an attn.qk (else a ring tile is V).
static bool isKeyTile(Value tile) {
  return llvm::any_of(tile.getUsers(), [&](Operation *user) {
    auto qk = dyn_cast<QKOp>(user);
    return qk && qk.getKey() == tile;
  });
}

namespace {

/// A tile load (attn.load_tile, attn.load_paged_tile, attn.load_varlen_tile):
/// Q's (the tile the attn.qk ops read as Q), which the leader thread issues
/// where the op stands, or a producer's K or V load in its kv loop, whose
/// ring slot of the loop's iteration, once free, gets the block by TMA.
/// The result is the slot. The load reads its tensor through the kernel's
/// parameters (the pattern has no type converter to remap a tensor with);
/// Q's load reads it at its operands' coordinates, which are kernel values
/// (lowerScalarOperands).
template <typename LoadOp>
struct TileLoadLowering : OpConversionPattern<LoadOp> {
  TileLoadLowering(MLIRContext *ctx, const KernelEmitter &kernel)
      : OpConversionPattern<LoadOp>(ctx), kernel(kernel) {}

  LogicalResult
  matchAndRewrite(LoadOp op, typename LoadOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelEmitter at(rewriter, kernel, op.getLoc());
    if (isQueryTile(op.getResult())) {
      rewriter.replaceOpWithMultiple(op, {at.lowerQueryLoad(TileLoad(op))});
      return success();
    }
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop)
      return rewriter.notifyMatchFailure(op, "not in the producer's loop");
    // verifyTiledAttention checked that the loads feed the push, K as its key.
    bool isKey = llvm::any_of(op->getUsers(), [&](Operation *user) {
      auto push = dyn_cast<RingPushOp>(user);
      return push && push.getKey() == op->getResult(0);
    });
    bool first = llvm::none_of(
        llvm::make_range(loop.getBody()->begin(), op->getIterator()),
        [](Operation &prev) { return bool(TileLoad(&prev)); });
    // The producer's loop starts at the kv range's start
    // (verifyProducerLoop): its ring iterations count from there.
    rewriter.replaceOpWithMultiple(
        op, {at.lowerProducerLoad(isKey, first, loop.getInductionVar(),
                                  loop.getLowerBound())});
    return success();
  }

  const KernelEmitter &kernel;
};

/// The forall's terminator stores the tile's O and LSE (attn.finalize's,
/// through attn.warp_specialize): a tensor.parallel_insert_slice of the
/// tile, or of the tensor.extract_slice of its valid rows, a plain tensor
/// that no registers stand for. The pattern of the slice (or of an insert
/// of the whole tile) lowers the pair: the store of O (an accumulator-
/// layout tile) or of the LSE (its rows), at the insert's offsets. The
/// kernel stores the rows below Nq (a varlen tile's: below its sequence's
/// end), which verifyTiledAttention's verifyStores checked are the slice's
/// rows.
template <typename RootOp>
struct TileStoreLowering : OpConversionPattern<RootOp> {
  using Adaptor = typename OpConversionPattern<RootOp>::OneToNOpAdaptor;

  TileStoreLowering(const TypeConverter &converter, MLIRContext *ctx,
                    const KernelEmitter &kernel)
      : OpConversionPattern<RootOp>(converter, ctx), kernel(kernel) {}

  LogicalResult
  matchAndRewrite(RootOp op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tile = cast<RankedTensorType>(op.getSource().getType());
    Attribute layout = tile.getEncoding();
    if (!isa_and_present<WgmmaAccumulatorAttr, AccumulatorRowsAttr>(layout))
      return rewriter.notifyMatchFailure(op, "not a tile in registers");
    auto store = dyn_cast<tensor::ParallelInsertSliceOp>(op.getOperation());
    if (!store && op->hasOneUse())
      store = dyn_cast<tensor::ParallelInsertSliceOp>(*op->user_begin());
    if (!store)
      return rewriter.notifyMatchFailure(op, "not stored by the forall");
    KernelEmitter at(rewriter, kernel, op.getLoc());
    bool isOutput = isa<WgmmaAccumulatorAttr>(layout);
    KernelEmitter::StoreCoordinates coordinates =
        at.storeCoordinates(store, isOutput);
    if (isOutput)
      at.lowerOutputStore(adaptor.getSource().front(), coordinates);
    else
      at.lowerLseStore(adaptor.getSource(), coordinates);
    if (store != op.getOperation())
      rewriter.eraseOp(store);
    rewriter.eraseOp(op);
    return success();
  }

  const KernelEmitter &kernel;
};

/// attn.warp_specialize: the role branch (lowerWarpSpecialize), each
/// region's ops moved into its branch, where they are converted next. Its
/// results are the values the consumer region yields, which only the
/// consumer warpgroups hold: the ops after it, which read them (the tile's
/// stores: verifyTiledAttention keeps every other op of the tile in a region),
/// move into the consumers' branch too, after the region's.
struct WarpSpecializeLowering : OpConversionPattern<WarpSpecializeOp> {
  WarpSpecializeLowering(MLIRContext *ctx, const KernelEmitter &kernel)
      : OpConversionPattern(ctx), kernel(kernel) {}

  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Operation *> stores;
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      stores.push_back(next);
    KernelEmitter at(rewriter, kernel, op.getLoc());
    auto [producerEnd, consumerEnd] = at.lowerWarpSpecialize(op);
    SmallVector<Value> yielded;
    for (auto [region, end] :
         {std::make_pair(&op.getProducer(), producerEnd),
          std::make_pair(&op.getConsumer(), consumerEnd)}) {
      Block &body = region->front();
      Operation *yield = body.getTerminator();
      yielded = llvm::to_vector(yield->getOperands());
      rewriter.inlineBlockBefore(&body, end);
      rewriter.eraseOp(yield);
    }
    for (Operation *store : stores)
      rewriter.moveOpBefore(store, consumerEnd);
    rewriter.replaceOp(op, yielded);
    return success();
  }

  const KernelEmitter &kernel;
};

} // namespace

void mlir::attn::hopper::populateTilePatterns(
    const KernelEmitter &kernel, const TypeConverter &converter,
    const DenseMap<Operation *, PVOp> &probsInFlight,
    RewritePatternSet &patterns) {
  using Result = FailureOr<ResultValues>;
  TileOpLowerings lowerings{patterns, converter, kernel};
  lowerings.add<QKOp>([](KernelEmitter &at, QKOp op, auto a) -> Result {
    return one(at.lowerQK(op, a.getKey()));
  });
  lowerings.add<MaskOp>([](KernelEmitter &at, MaskOp op, auto a) -> Result {
    Value offsets[] = {a.getRowOffset().front(), a.getColOffset().front(),
                       a.getSeqQ().front(), a.getSeqK().front()};
    return one(at.lowerMask(op, a.getScores().front(), offsets));
  });
  lowerings.add<SoftcapOp>(
      [](KernelEmitter &at, SoftcapOp op, auto a) -> Result {
        return one(
            at.lowerSoftcap(op, a.getScores().front(), a.getScale().front()));
      });
  lowerings.add<RowMaxOp>([](KernelEmitter &at, RowMaxOp op, auto a) -> Result {
    return rows(at.lowerRowMax(op, a.getScores().front(), a.getInit()));
  });
  lowerings.add<RescaleFactorOp>(
      [](KernelEmitter &at, RescaleFactorOp op, auto a) -> Result {
        return rows(at.lowerRescaleFactor(op, a.getOldMax(), a.getNewMax(),
                                          a.getScaleLog2().front()));
      });
  lowerings.add<ScaleRowsOp>(
      [](KernelEmitter &at, ScaleRowsOp op, auto a) -> Result {
        // The running sum's rescale is its attn.row_sum's init_scale:
        // verifyTiledAttention admits one attn.scale_rows a step, O's.
        if (!isa<WgmmaAccumulatorAttr>(op.getInput().getType().getEncoding()))
          return failure();
        return one(at.lowerScaleRows(op, a.getInput().front(), a.getFactor()));
      });
  lowerings.add<ExpDiffOp>(
      [](KernelEmitter &at, ExpDiffOp op, auto a) -> Result {
        return one(at.lowerExpDiff(op, a.getScores().front(), a.getRowMax(),
                                   a.getScaleLog2().front()));
      });
  lowerings.add<RowSumOp>([](KernelEmitter &at, RowSumOp op, auto a) -> Result {
    return rows(at.lowerRowSum(op, a.getProbs().front(), a.getInit(),
                               a.getInitScale()));
  });
  lowerings.add<TruncateOp>(
      [](KernelEmitter &at, TruncateOp op, auto a) -> Result {
        return one(at.lowerTruncate(op, a.getInput().front()));
      });
  lowerings.add<PVOp>([](KernelEmitter &at, PVOp op, auto a) -> Result {
    return one(
        at.lowerPV(op, a.getAcc().front(), a.getProbs().front(), a.getValue()));
  });
  lowerings.add<WaitTileOp>(
      [](KernelEmitter &at, WaitTileOp op, auto a) -> Result {
        // Q has one buffer and one barrier (verifyTiledAttention's).
        if (isQueryTile(op.getTile()))
          at.waitForQuery();
        else
          at.waitForSlot(a.getTile(), !isKeyTile(op.getTile()));
        return ResultValues();
      });
  lowerings.add<LaunchDependentsOp>(
      [](KernelEmitter &at, LaunchDependentsOp, auto) -> Result {
        at.lowerLaunchDependents();
        return ResultValues();
      });
  lowerings.add<FinalizeOp>([](KernelEmitter &at, FinalizeOp op,
                               auto a) -> Result {
    auto [output, lse] = at.lowerFinalize(op, a.getAcc().front(), a.getRowSum(),
                                          a.getRowMax(), a.getScale().front());
    return ResultValues{{output}, SmallVector<Value>(lse.begin(), lse.end())};
  });
  lowerings.add<RingReleaseOp>([](KernelEmitter &at, RingReleaseOp op,
                                  auto a) -> Result {
    // Without a producer the CTA refills a stage itself (refillStages).
    if (!at.hasProducer())
      return failure();
    SmallVector<Value> after;
    for (ValueRange rows : a.getAfter())
      llvm::append_range(after, rows);
    at.lowerRingRelease(isKeyTile(op.getTile()), a.getTile().front(), after);
    return ResultValues();
  });
  lowerings.add<WaitTurnOp>(
      [](KernelEmitter &at, WaitTurnOp op, auto) -> Result {
        at.lowerTurn(op.getWarpgroup(), [&] { at.waitForTurn(); });
        return ResultValues();
      });
  lowerings.add<PassTurnOp>(
      [](KernelEmitter &at, PassTurnOp op, auto) -> Result {
        at.lowerTurn(op.getWarpgroup(), [&] { at.passTurn(); });
        return ResultValues();
      });
  patterns.add<WaitGemmsLowering>(converter, patterns.getContext(), kernel,
                                  probsInFlight);
  patterns.add<TileConstantLowering>(converter, patterns.getContext(), kernel);
  patterns.add<TilePoisonLowering>(converter, patterns.getContext());
  patterns.add<TileStoreLowering<tensor::ExtractSliceOp>,
               TileStoreLowering<tensor::ParallelInsertSliceOp>>(
      converter, patterns.getContext(), kernel);
  patterns.add<WarpSpecializeLowering, TileLoadLowering<LoadTileOp>,
               TileLoadLowering<LoadPagedTileOp>,
               TileLoadLowering<LoadVarlenTileOp>>(patterns.getContext(),
                                                   kernel);
  // The producer's loads' TMA arrivals on the full barriers are the push.
  lowerings.add<RingPushOp>([](KernelEmitter &, RingPushOp, auto) -> Result {
    return ResultValues();
  });
}
