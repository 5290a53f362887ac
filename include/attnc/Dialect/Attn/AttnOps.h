//===- AttnOps.h - attn dialect operations ------------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_DIALECT_ATTN_ATTNOPS_H
#define ATTNC_DIALECT_ATTN_ATTNOPS_H

#include "attnc/Dialect/Attn/AttnDialect.h"
#include "attnc/Dialect/Attn/SwizzledAtoms.h"
#include "attnc/Runtime/Manifest.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "attnc/Dialect/Attn/AttnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "attnc/Dialect/Attn/AttnAttrs.h.inc"

namespace mlir::attn {
/// The attention mask of one op: kind plus optional [left, right] window.
struct MaskSpec {
  MaskKind kind = MaskKind::None;
  std::optional<SmallVector<int64_t, 2>> window;
  /// The rows pack this many query heads (attn-pack-gqa), token-major:
  /// row r is query position r / packedQueryHeads. 1: not packed.
  int64_t packedQueryHeads = 1;

  /// True if some in-bounds key can be hidden from some query.
  bool hidesKeys() const { return kind != MaskKind::None || window; }
};

/// The element of an i32 index tensor of the attention (cache lengths,
/// cumulative sequence offsets, a page table) at `indices`, as an index.
Value extractIndex(OpBuilder &b, Location loc, Value tensor,
                   ValueRange indices);

/// Where the ping-pong's turns start in `op`'s block: the first
/// `attn.pass_turn` with a `warpgroup` (the first turn's pass, warpgroup 1's)
/// before `op`, or `op` itself. What each consumer warpgroup must do before any
/// turn (wait for Q, signal dependents) goes before it.
Operation *getTurnsStart(Operation *op);

/// The K/V stage ring of an attn.warp_specialize (ring_push / ring_pop).
struct KvRingResource : public SideEffects::Resource::Base<KvRingResource> {
  StringRef getName() final { return "attn.kv_ring"; }
};

/// Whose turn it is to issue GEMMs (attn.wait_turn / attn.pass_turn).
struct GemmTurnResource : public SideEffects::Resource::Base<GemmTurnResource> {
  StringRef getName() final { return "attn.gemm_turn"; }
};

/// A consumer warpgroup's GEMM groups in flight (attn.wait_gemms).
struct GemmGroupsResource
    : public SideEffects::Resource::Base<GemmGroupsResource> {
  StringRef getName() final { return "attn.gemm_groups"; }
};

/// The launch of a kernel's programmatic dependents (attn.launch_dependents).
struct DependentLaunchResource
    : public SideEffects::Resource::Base<DependentLaunchResource> {
  StringRef getName() final { return "attn.dependent_launch"; }
};
} // namespace mlir::attn

#define GET_OP_CLASSES
#include "attnc/Dialect/Attn/AttnOps.h.inc"

namespace mlir::attn {
/// The largest block_m and block_n of a tile: every lowering materializes a
/// block_m x block_n f32 score tile (at most 4 MiB).
inline constexpr int64_t kMaxTileSize = 1024;
/// The named barriers of a CTA (bar.sync ids 0..15; 0 is the whole CTA's).
inline constexpr int64_t kNamedBarriers = 16;

/// Whether `max`, the row max an attn.exp_diff or attn.finalize reads, is a
/// fixed max (attn-softcap-fixed-max) rather than a running one: a finite
/// splat constant.
bool isFixedMax(Value max);

/// The soft-cap's bound b of `scores`: |s| <= b for every score that is
/// not -inf, where `scores` is an attn.softcap's result (its output scale,
/// or its cap), directly or through attn.mask ops, whose masked scores are
/// -inf. None for other scores.
std::optional<double> getSoftcapBound(Value scores);

/// A bound on |s * score_scale * scale_log2| over the scores s of `exp`
/// that are not -inf: getSoftcapBound of its scores times its score scale
/// and its scale_log2, which must be a positive constant. With a fixed max
/// of 0 it bounds the binary exponent of every probability.
std::optional<double> getScaledSoftcapBound(ExpDiffOp exp);

/// The tensors a function compiled into one kernel takes as its leading
/// arguments, in order: Q, K, V, then a paged KV cache's block table and
/// cache lengths, or a varlen batch's cu_seqlens_q and cu_seqlens_k. Their
/// names are the kernel manifest's (attnc::rt::toString). attnc-run and
/// convert-attn-to-nvvm hold a function to this order (a caller passes the
/// tensors by it).
ArrayRef<attnc::rt::TensorName> getKernelInputOrder(bool pagedKv, bool varlen);
/// The names of getKernelInputOrder, joined by ", " (for diagnostics).
std::string getKernelInputList(bool pagedKv, bool varlen);
/// The operands of `op` that are its function's kernel inputs, in the order
/// of getKernelInputOrder.
SmallVector<Value> getKernelInputs(AttentionOp op);

/// Returns the logical [batch, heads, seq, head_dim] sizes of a 4-D operand
/// stored in `layout`.
SmallVector<int64_t, 4> toLogicalBHSD(ArrayRef<int64_t> shape, Layout layout);
/// Returns the index of the logical dimension `logicalDim` (0 = batch,
/// 1 = heads, 2 = seq, 3 = head_dim) in an operand stored in `layout`.
unsigned physicalDim(unsigned logicalDim, Layout layout);

/// A Q, K or V tile load: dense (attn.load_tile), from a page pool
/// (attn.load_paged_tile, K and V only) or from one sequence of a packed
/// varlen batch (attn.load_varlen_tile): the operands the GPU passes read of
/// any of them.
class TileLoad {
public:
  TileLoad() = default;
  /// The load that defines `tile`, if it is one of the three.
  static TileLoad of(Value tile) {
    return TileLoad(tile ? tile.getDefiningOp() : nullptr);
  }
  explicit TileLoad(Operation *op)
      : op(isa_and_nonnull<LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp>(op)
               ? op
               : nullptr) {}

  explicit operator bool() const { return op; }
  bool operator==(const TileLoad &other) const { return op == other.op; }
  bool operator!=(const TileLoad &other) const { return op != other.op; }
  Operation *getOperation() const { return op; }
  /// The paged load, or null.
  LoadPagedTileOp getPaged() const {
    return dyn_cast_or_null<LoadPagedTileOp>(op);
  }
  /// The varlen load, or null.
  LoadVarlenTileOp getVarlen() const {
    return dyn_cast_or_null<LoadVarlenTileOp>(op);
  }
  /// Q, K or V (a packed batch for varlen), or the page pool.
  Value getSource() const {
    if (auto paged = getPaged())
      return paged.getPool();
    if (auto varlen = getVarlen())
      return varlen.getSource();
    return cast<LoadTileOp>(op).getSource();
  }
  /// The batch; null for varlen (the packed batch 0).
  Value getBatch() const {
    if (getVarlen())
      return Value();
    if (auto paged = getPaged())
      return paged.getBatch();
    return cast<LoadTileOp>(op).getBatch();
  }
  Value getHead() const {
    return get([](auto load) { return load.getHead(); });
  }
  /// The tile's first row, relative to its sequence's first (varlen).
  Value getRow() const {
    return get([](auto load) { return load.getRow(); });
  }
  /// The operand that holds the row: the loads of one operand in two kv
  /// loops differ in it only.
  OpOperand &getRowOperand() const {
    if (auto paged = getPaged())
      return paged.getRowMutable();
    if (auto varlen = getVarlen())
      return varlen.getRowMutable();
    return cast<LoadTileOp>(op).getRowMutable();
  }
  /// The first row of the tile's sequence in the packed batch (varlen), or
  /// null.
  Value getSequenceBegin() const {
    auto varlen = getVarlen();
    return varlen ? varlen.getBegin() : Value();
  }
  TypedValue<RankedTensorType> getTile() const {
    return cast<TypedValue<RankedTensorType>>(op->getResult(0));
  }

private:
  template <typename Fn>
  Value get(Fn fn) const {
    if (auto paged = getPaged())
      return fn(paged);
    if (auto varlen = getVarlen())
      return fn(varlen);
    return fn(cast<LoadTileOp>(op));
  }
  Operation *op = nullptr;
};
} // namespace mlir::attn

#endif // ATTNC_DIALECT_ATTN_ATTNOPS_H
