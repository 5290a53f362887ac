//===- PackGqa.cpp - query heads of one kv head in one tile ---------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// FlashAttention-3's pack-GQA as a change of the kernel's problem: the g
// query heads that share a kv head become one head of g * Nq rows, so a
// decode step (Nq = 1) fills a query tile with g rows instead of one and
// each K/V tile is read once per kv head instead of once per query head.
// The packed Q is the logical [B, Hkv, g * Nq, D] (in the attention's
// layout) whose row n * g + j is query head h * g + j's token n
// (token-major, FlashAttention-3's order): a tile's rows are a run of
// tokens, as unpacked rows are, so causal and windowed tiles keep their
// diagonal. It is a strided view of the caller's memory in either layout
// ([B, Hq, Nq, D] or [B, Nq, Hq, D], Hq = Hkv * g), not a reshape: the
// kernel's argument is the caller's tensor, and the argument's
// attn.packed_query_heads tells the runtime to describe it to the kernel
// that way (docs/Runtime.md).
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/Passes.h"

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

#define DEBUG_TYPE "attn-pack-gqa"

namespace mlir::attn {
#define GEN_PASS_DEF_ATTNPACKGQAPASS
#include "attnc/Transforms/Passes.h.inc"
} // namespace mlir::attn

using namespace mlir;
using namespace mlir::attn;

namespace {

/// How many query heads share each kv head of `op` if packing them is a
/// view and keeps the attention's meaning, or nullopt.
std::optional<int64_t> packableGroup(AttentionOp op, int64_t maskedRowLimit) {
  // Heads are static (the verifier); K's may be a page pool's.
  int64_t group = op.getNumQueryHeads() / op.getNumKVHeads();
  std::optional<int64_t> tokens = op.getStaticQueryRows();
  if (group == 1 || op.getPackedQueryHeads())
    return std::nullopt;
  // Packed rows are a length the kernels take as i32 (and a static shape
  // an int64): past that, the attention stays unpacked and the length
  // checks name the caller's Nq.
  if (tokens && *tokens > std::numeric_limits<int32_t>::max() / group)
    return std::nullopt;
  if (op.getMaskSpec().hidesKeys() && maskedRowLimit >= 0 &&
      (!tokens || group * *tokens > maskedRowLimit))
    return std::nullopt;
  // Packed rows are token-major, and the GPU kernel's TMA boxes of Q and O
  // rows hold whole tokens of the g heads (each warpgroup's 64 rows of O a
  // box) unless Q has one token, whose heads any box takes. A varlen Q's
  // tokens are its sequences' (a static total of 1 is still a batch), and
  // its tiles are whole tokens of one sequence.
  bool oneToken = tokens == 1 && !op.isVarlen();
  if (!oneToken && WgmmaAccumulatorAttr::kRowsPerWarpgroup % group != 0)
    return std::nullopt;
  // The function's Q argument and its results change type: Q must feed
  // only this attention and the results only the return, the one return of
  // a function of one block (another block's return would keep the old
  // result types).
  auto arg = dyn_cast<BlockArgument>(op.getQuery());
  if (!arg || !arg.hasOneUse())
    return std::nullopt;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || !func.getBody().hasOneBlock())
    return std::nullopt;
  for (Value result : op->getResults())
    if (!llvm::all_of(result.getUsers(), llvm::IsaPred<func::ReturnOp>))
      return std::nullopt;
  return group;
}

/// `type` with its heads (dim `headDim`) divided by `group` and its rows
/// (dim `rowDim`) multiplied by it.
RankedTensorType packed(RankedTensorType type, int64_t group, unsigned headDim,
                        unsigned rowDim) {
  SmallVector<int64_t> shape(type.getShape());
  shape[headDim] /= group;
  if (!ShapedType::isDynamic(shape[rowDim]))
    shape[rowDim] *= group;
  return type.clone(shape);
}

struct AttnPackGqaPass final
    : public mlir::attn::impl::AttnPackGqaPassBase<AttnPackGqaPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maskedRowLimit < -1) {
      module.emitError("attn-pack-gqa: masked-row-limit must be -1 (any), 0 "
                       "(no masked attention) or a row count, got ")
          << static_cast<int64_t>(maskedRowLimit);
      return signalPassFailure();
    }
    for (auto func : module.getOps<func::FuncOp>())
      // A new signature would break the calls of a called function.
      if (!func.isExternal() && SymbolTable::symbolKnownUseEmpty(func, module))
        func.walk([&](AttentionOp op) { pack(func, op); });
  }

  void pack(func::FuncOp func, AttentionOp op) {
    std::optional<int64_t> group = packableGroup(op, maskedRowLimit);
    if (!group)
      return;
    // Q and O in the attention's layout; the LSE is [B, Hq, Nq].
    unsigned heads = physicalDim(1, op.getLayout());
    unsigned rows = physicalDim(2, op.getLayout());
    auto arg = cast<BlockArgument>(op.getQuery());
    arg.setType(
        packed(cast<RankedTensorType>(arg.getType()), *group, heads, rows));
    op.getOutput().setType(
        packed(op.getOutput().getType(), *group, heads, rows));
    if (Value lse = op.getLse())
      lse.setType(packed(cast<RankedTensorType>(lse.getType()), *group, 1, 2));
    // The masks see a packed row at its query position.
    op.setPackedQueryHeads(*group);
    func.setArgAttr(
        arg.getArgNumber(), AttnDialect::getPackedQueryHeadsAttrName(),
        IntegerAttr::get(IntegerType::get(&getContext(), 64), *group));
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    func.setFunctionType(FunctionType::get(
        &getContext(), func.getBody().front().getArgumentTypes(),
        ret.getOperandTypes()));
    ++numPacked;
  }
};

} // namespace
