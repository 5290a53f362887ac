//===- TiledAttentionInputs.cpp - a kernel's inputs in the tile IR --------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a kernel takes besides Q, K and V, in the tile IR: the queries that
// find a paged cache's lengths, a varlen batch's offsets and tile scheduler
// and a split's count and combine, and the parts of verifyTiledAttention
// that check them and the order of the function's arguments.
//
//===----------------------------------------------------------------------===//

#include "CombineKernel.h"
#include "TiledAttention.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "attnc/Runtime/Manifest.h"

using namespace mlir;
using namespace mlir::attn;
namespace rt = attnc::rt;

static Value throughCasts(Value v) {
  while (auto cast = v.getDefiningOp<tensor::CastOp>())
    v = cast.getSource();
  return v;
}

scf::ForallOp mlir::attn::getSplitTiles(CombineSplitsOp combine) {
  auto forall =
      throughCasts(combine.getPartialOutput()).getDefiningOp<scf::ForallOp>();
  if (!forall || throughCasts(combine.getPartialLse()) != forall.getResult(1))
    return {};
  return forall;
}

/// The function argument `value` is, or null.
static BlockArgument functionArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp())
             ? arg
             : BlockArgument();
}

BlockArgument mlir::attn::getElementArgument(Value index) {
  auto cast = index.getDefiningOp<arith::IndexCastOp>();
  auto extract =
      cast ? cast.getIn().getDefiningOp<tensor::ExtractOp>() : nullptr;
  return extract ? functionArgument(extract.getTensor()) : BlockArgument();
}

BlockArgument mlir::attn::getScaledElementArgument(Value index,
                                                   int64_t rowsPerElement) {
  if (rowsPerElement == 1)
    return getElementArgument(index);
  auto scaled = index.getDefiningOp<arith::MulIOp>();
  APInt factor;
  if (!scaled || !matchPattern(scaled.getRhs(), m_ConstantInt(&factor)) ||
      factor != rowsPerElement)
    return BlockArgument();
  return getElementArgument(scaled.getLhs());
}

SequenceTileOp mlir::attn::getSequenceTile(scf::ForallOp tile) {
  auto tiles = tile.getBody()->getOps<SequenceTileOp>();
  return tiles.empty() ? SequenceTileOp() : *tiles.begin();
}

LogicalResult mlir::attn::verifyPagedKv(const TiledAttention &tiled) {
  LoadPagedTileOp key = tiled.keyLoad().getPaged(),
                  value = tiled.valueLoad().getPaged();
  if (!key || !value || key.getBlockTable() != value.getBlockTable() ||
      key.getLength() != value.getLength())
    return tiled.forall.emitError(
        "convert-attn-to-nvvm: K and V must both be read from page pools "
        "(attn.load_paged_tile) through one block table and length");
  auto fail = [&](const Twine &why) {
    return key.emitError("convert-attn-to-nvvm: ") << why;
  };
  if (!functionArgument(key.getBlockTable()))
    return fail("the block table must be an argument of the function (the "
                "kernel's block_table pointer)");
  // The tile's keys: its sequence's cache length, an element of an i32
  // argument, which the kernel reads through the cache_lengths pointer.
  if (!getElementArgument(key.getLength()))
    return fail("the cache length must be an element of an argument of the "
                "function (the kernel's cache_lengths pointer), as attn-tile "
                "reads it");
  // A box of one page's rows lands at its rows of the swizzled tile: whole
  // 8-row swizzle atoms, and a kv block of whole pages or inside one; and
  // the runtime launches pages of a power of two from 16 to 256 tokens.
  int64_t ps = key.getPageSize(), bn = tiled.blockN();
  if (!rt::isSupportedPageSize(ps) || (bn % ps != 0 && ps % bn != 0))
    return fail("a page of " + Twine(ps) +
                " tokens must be a power of two from 16 to 256 that divides "
                "block_n = " +
                Twine(bn) + " or is a multiple of it");
  return success();
}

/// The kernel's parameters are named by role and a caller passes them in
/// the function's order (getKernelInputOrder, attnc-run's rule for the
/// graph): the tile must read each from the function argument at that
/// role's position. A tile that read K from the third argument, or Q from a
/// value computed before the tile, would be another attention than the
/// function's.
LogicalResult mlir::attn::verifyArgumentOrder(const TiledAttention &tiled) {
  // The tile's read of each input, and the op a diagnostic points at.
  auto readOf = [&](rt::TensorName input) -> std::pair<Value, Operation *> {
    switch (input) {
    case rt::TensorName::Q:
      return {tiled.queryLoad().getSource(), tiled.queryLoad().getOperation()};
    case rt::TensorName::K:
      return {tiled.keyLoad().getSource(), tiled.keyLoad().getOperation()};
    case rt::TensorName::V:
      return {tiled.valueLoad().getSource(), tiled.valueLoad().getOperation()};
    case rt::TensorName::BlockTable:
      return {tiled.paged().getBlockTable(), tiled.keyLoad().getOperation()};
    case rt::TensorName::CacheLengths:
      return {getElementArgument(tiled.paged().getLength()),
              tiled.keyLoad().getOperation()};
    case rt::TensorName::CuSeqlensQ:
      return {tiled.queryOffsets(), tiled.queryLoad().getOperation()};
    case rt::TensorName::CuSeqlensK:
      return {getElementArgument(tiled.keyLoad().getVarlen().getBegin()),
              tiled.queryLoad().getOperation()};
    default:
      llvm_unreachable("an output is not a kernel input");
    }
  };
  bool paged = bool(tiled.paged()), varlen = bool(tiled.varlen());
  for (auto [position, input] :
       llvm::enumerate(getKernelInputOrder(paged, varlen))) {
    auto [used, user] = readOf(input);
    BlockArgument arg = functionArgument(used);
    if (arg && arg.getArgNumber() == position)
      continue;
    InFlightDiagnostic diag = user->emitError("convert-attn-to-nvvm: ")
                              << rt::toString(input)
                              << " must be the function's argument #"
                              << position << ", got ";
    if (arg)
      diag << "argument #" << arg.getArgNumber();
    else
      diag << "a value computed outside the kernel";
    return diag << " (a function becomes one kernel whose arguments are "
                << getKernelInputList(paged, varlen) << " in order)";
  }
  return success();
}

LogicalResult mlir::attn::verifyVarlen(const TiledAttention &tiled) {
  LoadVarlenTileOp query = tiled.queryLoad().getVarlen(),
                   key = tiled.keyLoad().getVarlen(),
                   value = tiled.valueLoad().getVarlen();
  if (!query || !key || !value)
    return tiled.forall.emitError(
        "convert-attn-to-nvvm: Q, K and V of a variable-length batch must "
        "all be read with attn.load_varlen_tile");
  if (key.getBegin() != value.getBegin() || key.getEnd() != value.getEnd())
    return key.emitError("convert-attn-to-nvvm: K and V must be read from "
                         "the same rows of the packed batch");
  // The offsets are the tensors the rows' bounds are elements of (Q's
  // times g where the kernel packs query heads: g rows a token).
  int64_t group = tiled.packedQueryHeads();
  BlockArgument queryOffsets = tiled.queryOffsets();
  BlockArgument keyOffsets = getElementArgument(key.getBegin());
  if (!queryOffsets || !keyOffsets ||
      getScaledElementArgument(query.getEnd(), group) != queryOffsets ||
      getElementArgument(key.getEnd()) != keyOffsets)
    return query.emitError("convert-attn-to-nvvm: a varlen tile's rows must "
                           "be elements of i32 arguments of the function "
                           "(the kernel's cu_seqlens_q and cu_seqlens_k "
                           "pointers), as attn-tile reads them")
           << (group > 1
                   ? ", Q's times packed_query_heads = " + std::to_string(group)
                   : std::string());
  // A packed varlen tile holds whole tokens of its sequence.
  if (tiled.packsOneToken())
    return query.emitError("convert-attn-to-nvvm: a varlen tile packs query "
                           "heads only where packed_query_heads divides ")
           << WgmmaAccumulatorAttr::kRowsPerWarpgroup << ", got " << group;
  auto tiles = tiled.forall.getBody()->getOps<SequenceTileOp>();
  if (llvm::range_size(tiles) != 1 ||
      (*tiles.begin()).getCuSeqlens() != queryOffsets)
    return tiled.forall.emitError(
        "convert-attn-to-nvvm: a varlen tile is one attn.sequence_tile of "
        "cu_seqlens_q in the tiling forall (attn-tile's tile scheduler)");
  SequenceTileOp tile = *tiles.begin();
  // Its blocks count tokens: a packed tile's rows are g a token.
  if (int64_t(tile.getBlockM()) * group != tiled.blockM())
    return tile.emitError("convert-attn-to-nvvm: attn.sequence_tile's "
                          "block_m must be the Q tile's tokens, ")
           << tiled.blockM() / group;
  return success();
}

CombineSplitsOp mlir::attn::getSplitCombine(scf::ForallOp tiles) {
  // The partials' users: one attn.combine_splits, or casts to it.
  SmallVector<Operation *> users(tiles->getUsers());
  SetVector<Operation *> combines;
  while (!users.empty()) {
    Operation *user = users.pop_back_val();
    if (isa<tensor::CastOp>(user))
      llvm::append_range(users, user->getUsers());
    else
      combines.insert(user);
  }
  auto combine = combines.size() == 1
                     ? dyn_cast<CombineSplitsOp>(combines.front())
                     : CombineSplitsOp();
  return combine && getSplitTiles(combine) == tiles ? combine
                                                    : CombineSplitsOp();
}

BlockArgument mlir::attn::getSplitCountArgument(OpFoldResult count) {
  auto value = dyn_cast<Value>(count);
  if (!value)
    return {};
  if (auto atLeastOne = value.getDefiningOp<arith::MaxSIOp>())
    for (auto [operand, bound] :
         {std::pair{atLeastOne.getLhs(), atLeastOne.getRhs()},
          {atLeastOne.getRhs(), atLeastOne.getLhs()}})
      if (matchPattern(bound, m_One()))
        value = operand;
  return value.getType().isIndex() ? functionArgument(value) : BlockArgument();
}

LogicalResult mlir::attn::verifyKvSplit(const TiledAttention &tiled) {
  scf::ForallOp forall = tiled.forall;
  CombineSplitsOp combine = getSplitCombine(forall);
  if (!combine)
    return forall.emitError("convert-attn-to-nvvm: a split-KV tile's "
                            "partial O and LSE must go, in that order, to "
                            "one attn.combine_splits");
  if (failed(hopper::readCombineShape(combine)))
    return failure();
  // The count is compiled in, or the function's index argument, as it is
  // or at least 1 (attn-tile's max with 1): the kernel's kv_splits
  // parameter, which the grid's z size and the combine kernel read too, so
  // no other arithmetic on it may set the tiles' count.
  if (!tiled.fixedKvSplits() && !tiled.kvSplitsArgument())
    return forall.emitError("convert-attn-to-nvvm: the kv split count must "
                            "be a constant or an index argument of the "
                            "function (the runtime chooses it at launch)");
  return success();
}
