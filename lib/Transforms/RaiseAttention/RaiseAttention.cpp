//===- RaiseAttention.cpp - attention graphs to attn.attention ------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass: every contraction of probabilities by V is a candidate; the
// dialect matchers decide, and the rewrite builds one attn.attention from
// the match, reshaping and transposing its output back to the value it
// replaces.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "attnc/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "attn-raise-attention"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNRAISEATTENTIONPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::raise;

namespace {

constexpr int64_t kBshdPermutation[] = {0, 2, 1, 3};

/// The grouping that merges the leading dimensions of a 4-D tensor into a
/// tensor of rank `rank` (the contraction's view of an attention operand).
SmallVector<ReassociationIndices> leadingGroups(int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, 4 - rank + 1)));
  for (int64_t d = 4 - rank + 1; d < 4; ++d)
    groups.push_back({d});
  return groups;
}

Value transposeBshd(OpBuilder &b, Location loc, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> permuted;
  for (int64_t d : kBshdPermutation)
    permuted.push_back(sizes[d]);
  Value init = tensor::EmptyOp::create(b, loc, permuted, type.getElementType());
  return linalg::TransposeOp::create(b, loc, input, init, kBshdPermutation)
      ->getResult(0);
}

/// The operand `view` in `layout`, built from the graph's values.
Value materialize(OpBuilder &b, Location loc, const OperandView &view,
                  Layout layout) {
  if (layout == Layout::BSHD)
    return *view.bshd;
  if (view.bhsd)
    return view.bhsd;
  if (view.bshd)
    return transposeBshd(b, loc, *view.bshd);
  auto merged = cast<RankedTensorType>(view.merged.getType());
  SmallVector<OpFoldResult> sizes(4 - merged.getRank(), b.getIndexAttr(1));
  llvm::append_range(sizes, tensor::getMixedSizes(b, loc, view.merged));
  return tensor::ExpandShapeOp::create(b, loc, merged.clone(view.shape),
                                       view.merged,
                                       leadingGroups(merged.getRank()), sizes);
}

/// If the only user of `value` reshapes or transposes it into a value of
/// `type`, that value (what the attention output replaces instead).
Value forwardedTo(Value value, Type type, bool transpose) {
  if (!value.hasOneUse())
    return {};
  Operation *user = *value.user_begin();
  if (user->getNumResults() != 1)
    return {};
  bool matches = transpose ? matchTranspose(user->getResult(0)) &&
                                 matchTranspose(user->getResult(0))->second ==
                                     ArrayRef<int64_t>(kBshdPermutation)
                           : isa<tensor::ExpandShapeOp, tosa::ReshapeOp>(user);
  if (!matches || user->getResult(0).getType() != type)
    return {};
  return user->getResult(0);
}

/// Erases `op` and then every producer left without users, as long as none
/// has side effects.
void eraseDeadGraph(Operation *op) {
  SmallVector<Operation *> worklist{op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    if (!dead->use_empty() || !isMemoryEffectFree(dead))
      continue;
    // Producers of values its body captures die with it too.
    dead->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *producer = operand.getDefiningOp();
            producer && !dead->isAncestor(producer))
          worklist.push_back(producer);
    });
    dead->dropAllUses();
    dead->erase();
    // An op can be queued twice through two operands: drop later copies.
    llvm::erase(worklist, dead);
  }
}

/// Replaces the graph `match` describes by one attn.attention.
void rewrite(const AttentionMatch &match) {
  Operation *anchor = match.result.getDefiningOp();
  OpBuilder b(anchor);
  Location loc = anchor->getLoc();
  bool bshd = match.query.bshd && match.key.bshd && match.value.bshd;
  Layout layout = bshd ? Layout::BSHD : Layout::BHSD;

  auto resultType = cast<RankedTensorType>(match.result.getType());
  SmallVector<int64_t, 4> bhsdShape(match.query.shape);
  bhsdShape[3] = match.value.shape[3];
  auto bhsdType = resultType.clone(bhsdShape);
  SmallVector<int64_t, 4> outShape(bhsdShape);
  if (bshd)
    std::swap(outShape[1], outShape[2]);

  auto attention = AttentionOp::create(
      b, loc, resultType.clone(outShape), /*lse=*/Type(),
      materialize(b, loc, match.query, layout),
      materialize(b, loc, match.key, layout),
      materialize(b, loc, match.value, layout), match.mask.kind,
      match.mask.window ? b.getDenseI64ArrayAttr(*match.mask.window)
                        : DenseI64ArrayAttr(),
      b.getF32FloatAttr(match.scale), /*softcap=*/FloatAttr(), layout,
      /*tile_sizes=*/DenseI64ArrayAttr(), /*packed_query_heads=*/IntegerAttr(),
      /*scale_value=*/Value(),
      /*kv_splits=*/Value(), /*block_table=*/Value(),
      /*cache_lengths=*/Value(), /*cu_seqlens_q=*/Value(),
      /*cu_seqlens_k=*/Value());

  // Follow the graph's own reshape to [B, H, S, D] and transpose to BSHD
  // where it has them, so that no reshape back is needed.
  Value replaced = match.result;
  bool merged = resultType.getRank() < 4;
  if (merged)
    if (Value split = forwardedTo(replaced, bhsdType, /*transpose=*/false)) {
      replaced = split;
      merged = false;
    }
  Value output = attention.getOutput();
  bool transposed = false;
  if (bshd && !merged)
    if (Value back =
            forwardedTo(replaced, attention.getOutput().getType(), true)) {
      replaced = back;
      transposed = true;
    }
  if (bshd && !transposed)
    output = transposeBshd(b, loc, output);
  if (merged)
    output = tensor::CollapseShapeOp::create(
        b, loc, resultType, output, leadingGroups(resultType.getRank()));
  Operation *replacedOp = replaced.getDefiningOp();
  replaced.replaceAllUsesWith(output);
  eraseDeadGraph(replacedOp);
}

struct AttnRaiseAttentionPass
    : public attn::impl::AttnRaiseAttentionPassBase<AttnRaiseAttentionPass> {
  void runOnOperation() override {
    // Contractions are matched and rewritten one at a time, in order: a
    // rewrite erases the ops of its graph, and a later attention may read
    // the output of an earlier one (stacked layers). No rewrite erases a
    // later contraction: P V is the last one of its graph.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (isa<tosa::MatMulOp>(op) ||
          (linalgOp && linalg::isaContractionOpInterface(linalgOp)))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      std::optional<Matched<AttentionMatch>> match = matchLinalgAttention(op);
      if (!match)
        match = matchTosaAttention(op);
      if (!match)
        continue;
      if (!*match) {
        op->emitRemark("not raised: ") << llvm::toString(match->takeError());
        continue;
      }
      rewrite(**match);
      ++numRaised;
    }
  }
};

} // namespace
