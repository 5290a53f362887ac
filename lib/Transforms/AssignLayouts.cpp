//===- AssignLayouts.cpp - each GPU tile value's layout in its type -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Where every tile value of a GPU tile lives, as the encoding of its tensor
// type (Triton's layout encodings): S, P and O in wgmma accumulator
// fragments over the consumer warpgroups, m and l in the rows of those
// fragments, Q, K and V as swizzled shared-memory atoms. attn.finalize's O
// and LSE stay in the consumers' registers (the accumulator's layout and its
// rows'), and so do the results of attn.warp_specialize that yield them,
// until the forall's terminator stores their valid rows (tensor.extract_slice
// and tensor.parallel_insert_slice, in plain types). The kernel lowering
// reads the layouts off the types.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"
#include "attnc/Transforms/TileConfig.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNASSIGNLAYOUTSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// The layouts of one tile's values.
struct TileLayouts {
  WgmmaAccumulatorAttr accumulator;
  AccumulatorRowsAttr rows;
  SwizzledSharedAttr shared;

  /// The layout of a tile value of type `type`: 2-D f32 tiles are
  /// accumulators, 1-D f32 tensors their row vectors, 2-D 16-bit tiles
  /// shared-memory tiles (but attn.truncate's and attn.finalize's O: the
  /// accumulator's); null for other types and for types with an encoding.
  Attribute layoutOf(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return {};
    Type element = tensor.getElementType();
    if (element.isF32())
      return tensor.getRank() == 2   ? Attribute(accumulator)
             : tensor.getRank() == 1 ? Attribute(rows)
                                     : Attribute();
    if (tensor.getRank() == 2 && (element.isBF16() || element.isF16()))
      return shared;
    return {};
  }

  /// `type` with `layout` (by default its own, layoutOf); null where the
  /// layout cannot hold it (the caller swallows the layout's diagnostic).
  RankedTensorType encode(Type type, Attribute layout = {}) const {
    auto tensor = cast<RankedTensorType>(type);
    return RankedTensorType::getChecked(
        [&] { return emitError(UnknownLoc::get(type.getContext())); },
        tensor.getShape(), tensor.getElementType(),
        layout ? layout : layoutOf(type));
  }
};

/// Whether `op`'s results are tile values in registers or shared memory:
/// every attn tile op but the region ops (attn.warp_specialize's results
/// take the types its consumer region yields) and the untiled attention.
bool hasTileResults(Operation *op) {
  return isa_and_nonnull<AttnDialect>(op->getDialect()) &&
         !isa<WarpSpecializeOp, AttentionOp, YieldOp>(op);
}

/// Whether `op` rounds an accumulator into a 16-bit tile in the same
/// registers (P for the P V GEMM, the normalized O).
bool keepsAccumulatorLayout(Operation *op) {
  return isa<TruncateOp, FinalizeOp>(op);
}

/// The new types of one tile's values, all found before any is changed.
class TilePlacement {
public:
  explicit TilePlacement(const TileLayouts &layouts) : layouts(layouts) {}

  /// Finds the layout of every tile value of `forall`; false when one has
  /// none (a width no layout holds, a tile operand from outside the tile
  /// that is not a splat constant).
  bool place(scf::ForallOp forall) {
    // Diagnostics of layouts that cannot hold a value: the kernel lowering
    // names the rule such a tile breaks.
    ScopedDiagnosticHandler quiet(forall.getContext(),
                                  [](Diagnostic &) { return success(); });
    SmallVector<Operation *> readers;
    WalkResult walk = forall.getBody()->walk([&](Operation *op) {
      SmallVector<Value> values;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        llvm::append_range(values, loop.getRegionIterArgs());
        llvm::append_range(values, loop.getResults());
      } else if (hasTileResults(op)) {
        llvm::append_range(values, op->getResults());
      }
      if (!values.empty())
        readers.push_back(op);
      for (Value v : values) {
        if (!layouts.layoutOf(v.getType()))
          continue;
        bool is2D = cast<RankedTensorType>(v.getType()).getRank() == 2;
        RankedTensorType type =
            layouts.encode(v.getType(), is2D && keepsAccumulatorLayout(op)
                                            ? Attribute(layouts.accumulator)
                                            : Attribute());
        if (!type)
          return WalkResult::interrupt();
        retyped.try_emplace(v, type);
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return false;
    // attn.warp_specialize's results are what its consumer region yields.
    forall.getBody()->walk([&](WarpSpecializeOp ws) {
      auto yield = cast<YieldOp>(ws.getConsumer().front().getTerminator());
      for (auto [result, yielded] :
           llvm::zip_equal(ws.getResults(), yield.getValues()))
        if (Type type = retyped.lookup(yielded))
          retyped.try_emplace(result, type);
    });
    for (Operation *op : readers) {
      auto loop = dyn_cast<scf::ForOp>(op);
      for (OpOperand &operand : op->getOpOperands()) {
        Value value = operand.get();
        if (!layouts.layoutOf(value.getType()) || retyped.count(value))
          continue;
        Type wanted =
            loop && operand.getOperandNumber() >= loop.getNumControlOperands()
                ? retyped.lookup(loop.getTiedLoopRegionIterArg(&operand))
                : Type(layouts.encode(value.getType()));
        DenseElementsAttr splat;
        if (auto constant = value.getDefiningOp<arith::ConstantOp>())
          splat = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!wanted || !splat || !splat.isSplat())
          return false;
        splats.push_back({&operand, cast<ShapedType>(wanted)});
      }
    }
    // Every use must take a retyped value in its new type.
    for (auto [value, type] : retyped)
      for (OpOperand &use : value.getUses())
        if (!takesLayout(use, type))
          return false;
    return true;
  }

  /// Sets the types. A splat constant operand is rebuilt with the layout at
  /// the start of the tile (the original may have users outside it, and
  /// none belongs inside a kv loop).
  void apply(scf::ForallOp forall) {
    for (auto [value, type] : retyped)
      value.setType(type);
    OpBuilder b = OpBuilder::atBlockBegin(forall.getBody());
    DenseMap<Attribute, Value> rebuilt;
    for (auto [operand, type] : splats) {
      auto constant = operand->get().getDefiningOp<arith::ConstantOp>();
      auto value = DenseElementsAttr::get(
          type, cast<DenseElementsAttr>(constant.getValue())
                    .getSplatValue<Attribute>());
      Value &replacement = rebuilt[value];
      if (!replacement)
        replacement =
            arith::ConstantOp::create(b, constant.getLoc(), value).getResult();
      operand->set(replacement);
    }
  }

private:
  /// Whether `use` may read its value as `type`: an attn tile op (their
  /// verifiers compare shapes), a kv loop's initial value or yield, or an
  /// attn.yield of attn.warp_specialize, whose carried value or result gets
  /// the same type, or the store of the tile's result by the forall's
  /// terminator (a tensor.parallel_insert_slice of it, or of its valid rows'
  /// tensor.extract_slice, a plain tensor).
  bool takesLayout(OpOperand &use, Type type) const {
    Operation *owner = use.getOwner();
    if (hasTileResults(owner))
      return true;
    auto isForallStore = [](Operation *op) {
      return isa<tensor::ParallelInsertSliceOp>(op) &&
             isa<scf::InParallelOp>(op->getParentOp());
    };
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(owner))
      return use.get() == slice.getSource() &&
             llvm::all_of(slice->getUsers(), isForallStore);
    if (isForallStore(owner))
      return use.get() ==
             cast<tensor::ParallelInsertSliceOp>(owner).getSource();
    if (auto yield = dyn_cast<YieldOp>(owner))
      if (auto ws = dyn_cast<WarpSpecializeOp>(yield->getParentOp()))
        return retyped.lookup(ws.getResult(use.getOperandNumber())) == type;
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      return use.getOperandNumber() >= loop.getNumControlOperands() &&
             retyped.lookup(loop.getTiedLoopRegionIterArg(&use)) == type;
    if (auto yield = dyn_cast<scf::YieldOp>(owner))
      if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
        return retyped.lookup(loop.getResult(use.getOperandNumber())) == type;
    return false;
  }

  const TileLayouts &layouts;
  /// Op results and loop-carried values (block arguments and results).
  llvm::MapVector<Value, Type> retyped;
  SmallVector<std::pair<OpOperand *, ShapedType>> splats;
};

} // namespace

// Outside the anonymous namespace: the pass base defines the (option-less)
// pass's create function as a friend, which must keep external linkage.
struct AttnAssignLayoutsPass final
    : public mlir::attn::impl::AttnAssignLayoutsPassBase<
          AttnAssignLayoutsPass> {
  void assign(scf::ForallOp forall) {
    QKOp qk;
    WarpSpecializeOp specialized;
    forall.getBody()->walk([&](Operation *op) {
      if (auto q = dyn_cast<QKOp>(op); q && !qk)
        qk = q;
      else if (auto ws = dyn_cast<WarpSpecializeOp>(op))
        specialized = ws;
    });
    if (!qk)
      return; // Not a tile a kernel is built from.
    auto query = cast<RankedTensorType>(qk.getQuery().getType());
    auto scores = cast<RankedTensorType>(qk.getScores().getType());
    // A tile with layouts keeps them; the GPU lowering takes bf16/f16
    // tiles of whole warpgroups only and says so.
    int64_t blockM = scores.getShape()[0];
    if (scores.getEncoding() ||
        !(query.getElementType().isBF16() || query.getElementType().isF16()) ||
        blockM % WgmmaAccumulatorAttr::kRowsPerWarpgroup)
      return;
    int64_t consumers = specialized
                            ? specialized.getConsumerWarpgroups()
                            : blockM / WgmmaAccumulatorAttr::kRowsPerWarpgroup;
    MLIRContext *ctx = &getContext();
    TileLayouts layouts;
    layouts.accumulator = WgmmaAccumulatorAttr::get(ctx, consumers);
    layouts.rows = AccumulatorRowsAttr::get(ctx, layouts.accumulator);
    layouts.shared = SwizzledSharedAttr::get(ctx, kSm90aSharedTileSwizzle);
    TilePlacement placement(layouts);
    if (placement.place(forall))
      placement.apply(forall);
  }

  void runOnOperation() override {
    getOperation().walk([&](scf::ForallOp forall) { assign(forall); });
  }
};
