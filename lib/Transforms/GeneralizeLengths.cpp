//===- GeneralizeLengths.cpp - launch-time batch and sequence lengths -----===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel compiled from a graph with static shapes still takes B, Nq and Nk
// at launch time. If they stayed static, canonicalization would fold the kv
// loops the mask split creates (zero- and single-trip loops of that one
// shape) and the kernel lowered from the IR would run only that shape. So the
// GPU pipeline makes them dynamic in the function's signature first.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

#define DEBUG_TYPE "attn-generalize-lengths"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNGENERALIZELENGTHSPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// `type` with the dimensions `dims` dynamic.
RankedTensorType withDynamicDims(RankedTensorType type,
                                 ArrayRef<int64_t> dims) {
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d : dims)
    shape[d] = ShapedType::kDynamic;
  return type.clone(shape);
}

/// The batch and sequence dimensions of a 4-D operand in `layout`.
SmallVector<int64_t, 2> lengthDims(Layout layout) {
  return {0, layout == Layout::BSHD ? 1 : 2};
}

/// How the attention ops `arg` feeds as Q, K or V read it, if every use is
/// one of those and they agree: the layout, and whether the batch is one
/// packed varlen entry (whose batch of 1 stays static).
struct OperandUse {
  Layout layout;
  bool varlen;
  bool operator!=(const OperandUse &other) const {
    return layout != other.layout || varlen != other.varlen;
  }
};
std::optional<OperandUse> attentionOperandUse(BlockArgument arg) {
  std::optional<OperandUse> use;
  for (OpOperand &operand : arg.getUses()) {
    auto attention = dyn_cast<AttentionOp>(operand.getOwner());
    if (!attention || operand.getOperandNumber() > 2)
      return std::nullopt;
    // A page pool's dims are pages, not a batch and a length.
    if (attention.isPaged() && operand.getOperandNumber() > 0)
      return std::nullopt;
    OperandUse current{attention.getLayout(), attention.isVarlen()};
    if (use && *use != current)
      return std::nullopt;
    use = current;
  }
  return use;
}

/// The dimensions of an operand used as `use` that the kernel takes at
/// launch: batch and sequence, or a varlen batch's packed sequence only.
SmallVector<int64_t, 2> launchDims(OperandUse use) {
  SmallVector<int64_t, 2> dims = lengthDims(use.layout);
  if (use.varlen)
    dims.erase(dims.begin());
  return dims;
}

/// Gives `result` the type `type`; users other than func.return get a
/// tensor.cast back to the old type.
void retype(OpBuilder &b, OpResult result, Type type) {
  Type old = result.getType();
  if (old == type)
    return;
  result.setType(type);
  b.setInsertionPointAfter(result.getOwner());
  Value cast;
  for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
    if (isa<func::ReturnOp>(use.getOwner()))
      continue;
    if (!cast)
      cast = tensor::CastOp::create(b, result.getLoc(), old, result);
    use.set(cast);
  }
}

struct AttnGeneralizeLengthsPass final
    : public mlir::attn::impl::AttnGeneralizeLengthsPassBase<
          AttnGeneralizeLengthsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>())
      // A new signature would break the calls of a called function.
      if (!func.isExternal() &&
          SymbolTable::symbolKnownUseEmpty(func, module) &&
          failed(generalize(func)))
        return signalPassFailure();
  }

  LogicalResult generalize(func::FuncOp func) {
    bool changed = false;
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() != 4 || arg.use_empty())
        continue;
      std::optional<OperandUse> use = attentionOperandUse(arg);
      if (!use)
        continue;
      // The kernel takes B on the grid's z dimension and the lengths as
      // 32-bit parameters: a static size beyond them no launch can run.
      SmallVector<int64_t, 2> dims = lengthDims(use->layout);
      constexpr int64_t kMaxBatch = 65535;
      constexpr int64_t kMaxLength = std::numeric_limits<int32_t>::max();
      if (!use->varlen && !type.isDynamicDim(dims[0]) &&
          type.getDimSize(dims[0]) > kMaxBatch) {
        return func.emitError("attn-generalize-lengths: argument #")
               << arg.getArgNumber() << " has batch "
               << type.getDimSize(dims[0])
               << "; a kernel launches at most 65535 batches (grid z)";
      }
      if (!type.isDynamicDim(dims[1]) && type.getDimSize(dims[1]) > kMaxLength) {
        return func.emitError("attn-generalize-lengths: argument #")
               << arg.getArgNumber() << " has sequence length "
               << type.getDimSize(dims[1])
               << "; the kernel's lengths are 32-bit (at most 2147483647)";
      }
      RankedTensorType dynamic = withDynamicDims(type, launchDims(*use));
      if (dynamic == type)
        continue;
      arg.setType(dynamic);
      ++numGeneralized;
      changed = true;
    }
    if (!changed)
      return success();

    // O follows Q's batch and sequence dimensions; the LSE ([B, Hq, Nq])
    // too.
    OpBuilder b(func.getContext());
    func.walk([&](AttentionOp op) {
      auto query = cast<RankedTensorType>(op.getQuery().getType());
      SmallVector<int64_t, 2> dims = lengthDims(op.getLayout());
      SmallVector<int64_t, 2> dynamicDims;
      for (int64_t d : dims)
        if (query.isDynamicDim(d))
          dynamicDims.push_back(d);
      auto output = cast<RankedTensorType>(op.getOutput().getType());
      retype(b, cast<OpResult>(op.getOutput()),
             withDynamicDims(output, dynamicDims));
      if (Value lse = op.getLse()) {
        SmallVector<int64_t, 2> lseDims;
        if (query.isDynamicDim(dims[0]))
          lseDims.push_back(0);
        if (query.isDynamicDim(dims[1]))
          lseDims.push_back(2);
        retype(b, cast<OpResult>(lse),
               withDynamicDims(cast<RankedTensorType>(lse.getType()), lseDims));
      }
    });
    func::ReturnOp returnOp;
    func.walk([&](func::ReturnOp op) { returnOp = op; });
    SmallVector<Type> results =
        returnOp ? SmallVector<Type>(returnOp.getOperandTypes())
                 : SmallVector<Type>(func.getResultTypes());
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.getBody().front().getArgumentTypes(), results));
    return success();
  }
};

} // namespace
