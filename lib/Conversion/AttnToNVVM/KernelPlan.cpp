//===- KernelPlan.cpp - read the kernel plan off the tile IR --------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "attnc/Transforms/PipelineStages.h"
#include "attnc/Transforms/TileOrder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "attnc/Runtime/Manifest.h"

using namespace mlir;
using namespace mlir::attn;
namespace rt = attnc::rt;

/// Which result of attn.finalize (0: O, 1: LSE) `tile` is, through the
/// clipping tensor.extract_slice and the attn.warp_specialize that yields
/// it; nullopt for anything else.
/// Whether `load` reads kv block `iv` of its enclosing scf.for: row
/// `iv * block_n`, the rows the kernel's TMA loads of K and V take.
static bool loadsLoopBlock(TileLoad load) {
  auto loop = load.getOperation()->getParentOfType<scf::ForOp>();
  auto mul = load.getRow().getDefiningOp<arith::MulIOp>();
  APInt rows;
  return loop && mul && mul.getLhs() == loop.getInductionVar() &&
         matchPattern(mul.getRhs(), m_ConstantInt(&rows)) &&
         rows.getSExtValue() == load.getTile().getType().getShape()[0];
}

/// Whether `value` is computed from `root` (through the arith ops that
/// verifyLowerableIndex admits).
static bool dependsOn(Value value, Value root) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == root)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

static std::optional<unsigned> finalizeResultOf(Value tile) {
  if (auto slice = tile.getDefiningOp<tensor::ExtractSliceOp>())
    tile = slice.getSource();
  if (auto ws = tile.getDefiningOp<WarpSpecializeOp>()) {
    auto yield =
        cast<YieldOp>(ws.getConsumer().front().getTerminator());
    tile = yield.getValues()[cast<OpResult>(tile).getResultNumber()];
  }
  if (tile.getDefiningOp<FinalizeOp>())
    return cast<OpResult>(tile).getResultNumber();
  return std::nullopt;
}

/// The tile layout `value` must have for the kernel to lower it, or a
/// diagnostic on `user` naming it: `expected` exactly, or (a null
/// `expected`) any 128-byte swizzled shared tile.
static LogicalResult requireLayout(Value value, Operation *user,
                                   Attribute expected) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return success();
  Attribute layout = type.getEncoding();
  auto error = [&](const Twine &rule) -> LogicalResult {
    InFlightDiagnostic diag = user->emitError("convert-attn-to-nvvm: ");
    if (auto result = dyn_cast<OpResult>(value))
      diag << "'" << result.getOwner()->getName() << "' result #"
           << result.getResultNumber();
    else if (auto loop = dyn_cast<scf::ForOp>(user))
      diag << "carried value #"
           << cast<BlockArgument>(value).getArgNumber() -
                  loop.getNumInductionVars();
    return diag << " " << type << rule;
  };
  if (!layout)
    return error(" has no tile layout (run attn-assign-layouts; "
                 "attn-lower-to-nvvm-pipeline does)");
  if (!expected) {
    auto shared = dyn_cast<SwizzledSharedAttr>(layout);
    if (shared && shared.getSwizzle() == kSm90aSharedTileSwizzle)
      return success();
    return error(": the kernel lowers " + Twine(kSm90aSharedTileSwizzle) +
                 "-byte swizzled shared tiles (#attn.swizzled_shared<swizzle "
                 "= " +
                 Twine(kSm90aSharedTileSwizzle) + ">)");
  }
  if (layout != expected) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << expected;
    return error(": expected the layout " + name);
  }
  return success();
}

/// Checks that every tile value of the kernel has the layout it is lowered
/// to and records the layouts in `plan`.
static LogicalResult readTileLayouts(KernelPlan &plan) {
  QKOp firstQK = plan.kvLoops.front().qk();
  auto scores = cast<RankedTensorType>(firstQK.getScores().getType());
  auto accumulator =
      dyn_cast_or_null<WgmmaAccumulatorAttr>(scores.getEncoding());
  if (!accumulator)
    return requireLayout(
        firstQK.getScores(), firstQK,
        WgmmaAccumulatorAttr::get(firstQK.getContext(),
                                  plan.blockM /
                                      WgmmaAccumulatorAttr::kRowsPerWarpgroup));
  plan.consumerWarpgroups = accumulator.getWarpgroups();
  auto rows = AccumulatorRowsAttr::get(accumulator.getContext(), accumulator);
  auto check = [&](Value value, Operation *user) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    if (!type.getElementType().isF32())
      return requireLayout(value, user, Attribute());
    return requireLayout(value, user,
                         type.getRank() == 2 ? Attribute(accumulator)
                                             : Attribute(rows));
  };
  for (const KvLoop &kv : plan.kvLoops) {
    for (BlockArgument arg : kv.loop.getRegionIterArgs())
      if (failed(check(arg, kv.loop)))
        return failure();
    for (Operation &op : kv.loop.getBody()->without_terminator())
      for (Value result : op.getResults())
        if (failed(check(result, &op)))
          return failure();
  }
  for (Value operand : plan.finalize->getOperands())
    if (failed(check(operand, plan.finalize)))
      return failure();
  auto atomsOf = [](Value tile) {
    return cast<SwizzledSharedAttr>(
               cast<RankedTensorType>(tile.getType()).getEncoding())
        .getAtoms();
  };
  // Q, K and V are shared-memory tiles whatever their element type.
  for (TileLoad load :
       {TileLoad(plan.queryLoad), plan.keyLoad, plan.valueLoad})
    if (failed(requireLayout(load.getTile(), load.getOperation(), Attribute())))
      return failure();
  plan.queryAtoms = atomsOf(plan.queryLoad.getTile());
  plan.keyAtoms = atomsOf(plan.keyLoad.getTile());
  plan.valueAtoms = atomsOf(plan.valueLoad.getTile());
  plan.probsAtoms = getDefaultSharedTileLayouts().probs;
  return success();
}

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

/// Reads the page pools, block table and cache lengths of a paged tile.
static LogicalResult readPagedKv(KernelPlan &plan) {
  LoadPagedTileOp key = plan.keyLoad.getPaged(),
                  value = plan.valueLoad.getPaged();
  if (!key || !value || key.getBlockTable() != value.getBlockTable() ||
      key.getLength() != value.getLength())
    return plan.forall.emitError(
        "convert-attn-to-nvvm: K and V must both be read from page pools "
        "(attn.load_paged_tile) through one block table and length");
  auto fail = [&](const Twine &why) {
    return key.emitError("convert-attn-to-nvvm: ") << why;
  };
  KernelPlan::PagedKv &paged = plan.paged.emplace();
  paged.pageSize = key.getPool().getType().getDimSize(1);
  paged.length = key.getLength();
  paged.blockTable = dyn_cast<BlockArgument>(key.getBlockTable());
  if (!paged.blockTable ||
      !isa<FunctionOpInterface>(paged.blockTable.getOwner()->getParentOp()))
    return fail("the block table must be an argument of the function (the "
                "kernel's block_table pointer)");
  // The tile's keys: its sequence's cache length, an element of an i32
  // argument, which the kernel reads through the cache_lengths pointer.
  auto cast = paged.length.getDefiningOp<arith::IndexCastOp>();
  auto extract =
      cast ? cast.getIn().getDefiningOp<tensor::ExtractOp>() : nullptr;
  paged.cacheLengths =
      extract ? dyn_cast<BlockArgument>(extract.getTensor()) : nullptr;
  if (!paged.cacheLengths ||
      !isa<FunctionOpInterface>(paged.cacheLengths.getOwner()->getParentOp()))
    return fail("the cache length must be an element of an argument of the "
                "function (the kernel's cache_lengths pointer), as attn-tile "
                "reads it");
  // A box of one page's rows lands at its rows of the swizzled tile: whole
  // 8-row swizzle atoms, and a kv block of whole pages or inside one; and
  // the runtime launches pages of a power of two from 16 to 256 tokens.
  int64_t ps = paged.pageSize, bn = plan.blockN;
  if (!rt::isSupportedPageSize(ps) || (bn % ps != 0 && ps % bn != 0))
    return fail("a page of " + Twine(ps) +
                " tokens must be a power of two from 16 to 256 that divides "
                "block_n = " +
                Twine(bn) + " or is a multiple of it");
  return success();
}

/// The function argument `tensor` is, or null.
static BlockArgument functionArgument(Value tensor) {
  auto arg = dyn_cast<BlockArgument>(tensor);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp())
             ? arg
             : BlockArgument();
}

/// The kernel's parameters are named by role and a caller passes them in
/// the function's order (getKernelInputOrder, attnc-run's rule for the
/// graph): the tile must read each from the function argument at that
/// role's position. A tile that read K from the third argument, or Q from a
/// value computed before the tile, would be another attention than the
/// function's.
static LogicalResult verifyArgumentOrder(const KernelPlan &plan) {
  // The tile's read of each input, and the op a diagnostic points at.
  auto readOf = [&](rt::TensorName input) -> std::pair<Value, Operation *> {
    switch (input) {
    case rt::TensorName::Q:
      return {plan.queryLoad.getSource(), plan.queryLoad.getOperation()};
    case rt::TensorName::K:
      return {plan.keyLoad.getSource(), plan.keyLoad.getOperation()};
    case rt::TensorName::V:
      return {plan.valueLoad.getSource(), plan.valueLoad.getOperation()};
    case rt::TensorName::BlockTable:
      return {plan.paged->blockTable, plan.keyLoad.getOperation()};
    case rt::TensorName::CacheLengths:
      return {plan.paged->cacheLengths, plan.keyLoad.getOperation()};
    case rt::TensorName::CuSeqlensQ:
      return {plan.varlen->cuSeqlensQ, plan.queryLoad.getOperation()};
    case rt::TensorName::CuSeqlensK:
      return {plan.varlen->cuSeqlensK, plan.queryLoad.getOperation()};
    default:
      llvm_unreachable("an output is not a kernel input");
    }
  };
  bool paged = plan.paged.has_value(), varlen = plan.varlen.has_value();
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

/// Reads the offsets, the tile scheduler and the sequence rows of a varlen
/// tile (attn.load_varlen_tile for Q, K and V).
static LogicalResult readVarlen(KernelPlan &plan) {
  LoadVarlenTileOp query = plan.queryLoad.getVarlen(),
                   key = plan.keyLoad.getVarlen(),
                   value = plan.valueLoad.getVarlen();
  if (!query || !key || !value)
    return plan.forall.emitError(
        "convert-attn-to-nvvm: Q, K and V of a variable-length batch must "
        "all be read with attn.load_varlen_tile");
  if (key.getBegin() != value.getBegin() || key.getEnd() != value.getEnd())
    return key.emitError("convert-attn-to-nvvm: K and V must be read from "
                         "the same rows of the packed batch");
  KernelPlan::Varlen &varlen = plan.varlen.emplace();
  varlen.queryBegin = query.getBegin();
  varlen.queryEnd = query.getEnd();
  varlen.keyBegin = key.getBegin();
  // The offsets are the tensors the rows' bounds are elements of.
  auto offsetsOf = [](Value bound) -> BlockArgument {
    auto cast = bound.getDefiningOp<arith::IndexCastOp>();
    auto extract =
        cast ? cast.getIn().getDefiningOp<tensor::ExtractOp>() : nullptr;
    return extract ? functionArgument(extract.getTensor()) : BlockArgument();
  };
  varlen.cuSeqlensQ = offsetsOf(query.getBegin());
  varlen.cuSeqlensK = offsetsOf(key.getBegin());
  if (!varlen.cuSeqlensQ || !varlen.cuSeqlensK ||
      offsetsOf(query.getEnd()) != varlen.cuSeqlensQ ||
      offsetsOf(key.getEnd()) != varlen.cuSeqlensK)
    return query.emitError("convert-attn-to-nvvm: a varlen tile's rows must "
                           "be elements of i32 arguments of the function "
                           "(the kernel's cu_seqlens_q and cu_seqlens_k "
                           "pointers), as attn-tile reads them");
  SmallVector<SequenceTileOp> tiles(
      plan.forall.getBody()->getOps<SequenceTileOp>());
  if (tiles.size() != 1 || tiles.front().getCuSeqlens() != varlen.cuSeqlensQ)
    return plan.forall.emitError(
        "convert-attn-to-nvvm: a varlen tile is one attn.sequence_tile of "
        "cu_seqlens_q in the tiling forall (attn-tile's tile scheduler)");
  varlen.tile = tiles.front();
  if (int64_t(varlen.tile.getBlockM()) != plan.blockM)
    return varlen.tile.emitError("convert-attn-to-nvvm: attn.sequence_tile's "
                                 "block_m must be the Q tile's rows, ")
           << plan.blockM;
  return success();
}

/// Reads the split count and the attn.combine_splits of a split-KV tile.
static LogicalResult readKvSplit(KernelPlan &plan,
                                 std::pair<Value, OpFoldResult> split) {
  scf::ForallOp forall = plan.forall;
  KernelPlan::KvSplit &out = plan.kvSplit.emplace();
  // The partials' users: one attn.combine_splits, or casts to it.
  SmallVector<Operation *> users(forall->getUsers());
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
  if (!combine || getSplitTiles(combine) != forall)
    return forall.emitError("convert-attn-to-nvvm: a split-KV tile's "
                            "partial O and LSE must go, in that order, to "
                            "one attn.combine_splits");
  out.combine = combine;
  if (std::optional<int64_t> count = getConstantIntValue(split.second)) {
    out.fixed = *count;
    return success();
  }
  // The count is the function's index argument, as it is or at least 1
  // (attn-tile's max with 1): the kernel's kv_splits parameter, which the
  // grid's z size and the combine kernel read too, so no other arithmetic
  // on it may set the tiles' count.
  Value count = cast<Value>(split.second);
  if (auto atLeastOne = count.getDefiningOp<arith::MaxSIOp>())
    for (auto [value, bound] :
         {std::pair{atLeastOne.getLhs(), atLeastOne.getRhs()},
          {atLeastOne.getRhs(), atLeastOne.getLhs()}})
      if (matchPattern(bound, m_One()))
        count = value;
  out.argument = dyn_cast<BlockArgument>(count);
  if (!out.argument || !count.getType().isIndex() ||
      !isa<FunctionOpInterface>(out.argument.getOwner()->getParentOp()))
    return forall.emitError("convert-attn-to-nvvm: the kv split count must "
                            "be a constant or an index argument of the "
                            "function (the runtime chooses it at launch)");
  return success();
}

/// The tile's attn.launch_dependents (its verifier keeps it at the top level
/// of a tile): in the consumer region where there is one, before the first
/// kv loop or between the last and attn.finalize, where the kernel has a
/// place for it in every schedule.
static LogicalResult readLaunchDependents(KernelPlan &plan, Region &tile,
                                          FinalizeOp finalize) {
  // One beside an attn.warp_specialize would run in no role.
  WalkResult outside = plan.forall.getBody()->walk([&](LaunchDependentsOp op) {
    if (op->getParentRegion() == &tile)
      return WalkResult::advance();
    op.emitError("convert-attn-to-nvvm: attn.launch_dependents must sit in "
                 "the consumer region of the tile's attn.warp_specialize");
    return WalkResult::interrupt();
  });
  if (outside.wasInterrupted())
    return failure();
  auto ops = tile.getOps<LaunchDependentsOp>();
  if (ops.empty())
    return success();
  if (std::next(ops.begin()) != ops.end())
    return (*std::next(ops.begin()))
        .emitError("convert-attn-to-nvvm: a tile signals its dependents "
                   "once; this is its second attn.launch_dependents");
  LaunchDependentsOp op = *ops.begin();
  scf::ForOp first = plan.kvLoops.front().loop;
  scf::ForOp last = plan.kvLoops.back().loop;
  plan.launchesDependentsAtStart = op->isBeforeInBlock(first);
  if (!plan.launchesDependentsAtStart &&
      (!last->isBeforeInBlock(op) || !op->isBeforeInBlock(finalize)))
    return op.emitError("convert-attn-to-nvvm: attn.launch_dependents must "
                        "precede the tile's first kv loop or sit between its "
                        "last one and attn.finalize");
  plan.launchDependents = op;
  return success();
}

/// Checks that the ops of `block` (waits aside) are those of `stage` in
/// kv step `step` (waits aside), in order, with the step's values renamed by
/// `map`, which maps each op's results as it goes: the same names,
/// attributes (attn.stage included) and operands. A step op for which
/// `mayBeLeftOut` holds may be missing from `block`. Emits `what` and the
/// first op that differs.
static LogicalResult
matchStepOps(Block *block, Block *step, int64_t stage, IRMapping &map,
             const Twine &what,
             function_ref<bool(Operation *)> mayBeLeftOut = nullptr) {
  auto isWait = [](Operation &op) { return isa<WaitTileOp, WaitGemmsOp>(op); };
  SmallVector<Operation *> ops, reference;
  for (Operation &op : block->without_terminator())
    if (!isWait(op))
      ops.push_back(&op);
  for (Operation &op : step->without_terminator())
    if (!isWait(op) && getPipelineStage(&op) == stage)
      reference.push_back(&op);
  auto matches = [&](Operation *candidate, Operation *ref) {
    return candidate && candidate->getName() == ref->getName() &&
           candidate->getResultTypes() == ref->getResultTypes() &&
           candidate->getNumOperands() == ref->getNumOperands() &&
           candidate->getNumRegions() == 0 &&
           candidate->getAttrDictionary() == ref->getAttrDictionary() &&
           llvm::all_of(
               llvm::zip_equal(candidate->getOperands(), ref->getOperands()),
               [&](auto pair) {
                 auto [operand, refOperand] = pair;
                 return operand == map.lookupOrDefault(refOperand);
               });
  };
  auto mismatch = [&](Operation *at, Operation *ref) {
    InFlightDiagnostic diag =
        (at ? at : block->getTerminator())->emitError("convert-attn-to-nvvm: ")
        << what << "; ";
    if (ref)
      diag << "expected the loop's '" << ref->getName()
           << "' here, with the loop's operands and attributes";
    else
      diag << "the loop's step has no op here";
    return diag;
  };
  size_t next = 0; // the first op of `block` not matched yet
  for (Operation *ref : reference) {
    Operation *candidate = next < ops.size() ? ops[next] : nullptr;
    if (!matches(candidate, ref)) {
      if (mayBeLeftOut && mayBeLeftOut(ref))
        continue;
      return mismatch(candidate, ref);
    }
    map.map(ref->getResults(), candidate->getResults());
    ++next;
  }
  if (next < ops.size())
    return mismatch(ops[next], nullptr);
  return success();
}

/// Reads the prologue and epilogue of rotated kv loops
/// (attn-pipeline-kv-loops), which the kernel lowers op by op like the
/// loops' steps: the prologue is stage 0 of block `begin`, the epilogue
/// stage 1 of the last block, both run where `begin < end`.
static LogicalResult readKvPipeline(KernelPlan &plan, FinalizeOp finalize) {
  scf::ForOp first = plan.kvLoops.front().loop;
  scf::ForOp last = plan.kvLoops.back().loop;
  auto fail = [](Operation *at, const Twine &why) {
    return at->emitError("convert-attn-to-nvvm: ") << why;
  };
  KernelPlan::KvPipeline pipeline;
  pipeline.prologue = first.getInitArgs().front().getDefiningOp<scf::IfOp>();
  scf::IfOp prologue = pipeline.prologue;
  if (!prologue || ValueRange(first.getInitArgs()) != prologue.getResults())
    return fail(first, "a rotated kv loop starts from the results of its "
                       "prologue (the scf.if of attn-pipeline-kv-loops)");
  auto hasBlocks = prologue.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!hasBlocks || hasBlocks.getPredicate() != arith::CmpIPredicate::slt)
    return fail(prologue, "the prologue of rotated kv loops runs where the "
                          "kv range is not empty (arith.cmpi slt, begin, "
                          "end)");
  pipeline.begin = hasBlocks.getLhs();
  pipeline.end = hasBlocks.getRhs();
  // Each rotated loop runs blocks max(lb, begin + 1) to max(ub, begin + 1)
  // of the range [begin, end) that the loops partitioned before.
  auto unrotated = [&](Value bound) -> Value {
    auto max = bound.getDefiningOp<arith::MaxSIOp>();
    auto second =
        max ? max.getRhs().getDefiningOp<arith::AddIOp>() : arith::AddIOp();
    if (!second || second.getLhs() != pipeline.begin ||
        !matchPattern(second.getRhs(), m_One()))
      return {};
    return max.getLhs();
  };
  pipeline.unrotatedBounds.push_back(pipeline.begin);
  for (const KvLoop &kv : plan.kvLoops) {
    Value lb = unrotated(kv.loop.getLowerBound());
    Value ub = unrotated(kv.loop.getUpperBound());
    if (!lb || !ub || (&kv == &plan.kvLoops.front() && lb != pipeline.begin) ||
        (&kv == &plan.kvLoops.back() && ub != pipeline.end))
      return fail(kv.loop, "a rotated kv loop runs blocks max(lb, begin + 1) "
                           "to max(ub, begin + 1) of the prologue's range "
                           "[begin, end)");
    pipeline.unrotatedBounds.push_back(ub);
  }
  // The prologue is stage 0 of the first masked loop's step (every block
  // may take the mask), else of the first loop's, at block `begin`, started
  // from the values the loops start from.
  Block *peeled = prologue.thenBlock();
  ValueRange starts = prologue.elseYield().getOperands();
  const KvLoop *peeledLoop = &plan.kvLoops.front();
  for (const KvLoop &kv : plan.kvLoops)
    if (kv.mask()) {
      peeledLoop = &kv;
      break;
    }
  Block *step = peeledLoop->loop.getBody();
  IRMapping stage0;
  stage0.map(peeledLoop->loop.getInductionVar(), pipeline.begin);
  stage0.map(peeledLoop->loop.getRegionIterArgs(), starts);
  if (failed(matchStepOps(peeled, step, /*stage=*/0, stage0,
                          "the prologue of rotated kv loops must be stage 0 "
                          "of the first masked kv loop's step at block "
                          "`begin`")))
    return failure();
  // It yields that step's values, but O, whose stage 1 runs in the next
  // step.
  unsigned accIndex = 0;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(prologue.thenYield().getOperands(),
                                       step->getTerminator()->getOperands()))) {
    auto [yielded, loopYield] = pair;
    if (loopYield.getDefiningOp<PVOp>()) {
      accIndex = i;
      if (yielded != starts[i])
        return fail(prologue, "the prologue leaves O as the loops start it "
                              "(its stage 1 runs in the next step)");
    } else if (yielded != stage0.lookupOrNull(loopYield)) {
      return fail(prologue, "the prologue must yield the step values the "
                            "rotated loop yields, in order (result " +
                                Twine(i) + ")");
    }
  }
  // Without blocks: P = 0, alpha = 1 (stage 1 leaves O as it is), no V.
  for (auto [start, loopYield] :
       llvm::zip_equal(starts, step->getTerminator()->getOperands())) {
    Operation *def = loopYield.getDefiningOp();
    if (isa_and_present<RowMaxOp, RowSumOp, PVOp>(def))
      continue;
    double neutral = isa_and_present<RescaleFactorOp>(def) ? 1.0 : 0.0;
    auto constant = start.getDefiningOp<arith::ConstantOp>();
    auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                          : SplatElementsAttr();
    bool ok =
        isa_and_present<RingPopOp>(def)
            ? bool(start.getDefiningOp<ub::PoisonOp>())
            : splat && splat.getSplatValue<APFloat>().isExactlyValue(neutral);
    if (!ok)
      return fail(prologue, "without kv blocks the prologue yields P = 0, "
                            "alpha = 1 and a ub.poison V tile (stage 1 then "
                            "leaves O as it is)");
  }
  // The epilogue is stage 1 of the last loop's step, on its results.
  pipeline.epilogue = finalize.getAcc().getDefiningOp<scf::IfOp>();
  scf::IfOp epilogue = pipeline.epilogue;
  if (!epilogue || epilogue.getCondition() != prologue.getCondition() ||
      epilogue.getNumResults() != 1 ||
      epilogue.elseYield().getOperand(0) != last.getResult(accIndex))
    return fail(finalize, "attn.finalize of rotated kv loops reads O from "
                          "their epilogue (an scf.if on the prologue's "
                          "condition that yields the last loop's O without "
                          "blocks)");
  // Its V release hands the stage to the next tile's loads: a kernel of
  // one tile a CTA may leave it out.
  Block *lastStep = last.getBody();
  IRMapping stage1;
  stage1.map(last.getRegionIterArgs(), last.getResults());
  bool nextTileWaits = epilogueReleasesLastValue(plan.forall);
  if (failed(matchStepOps(
          epilogue.thenBlock(), lastStep, /*stage=*/1, stage1,
          Twine("the epilogue of rotated kv loops must be stage 1 of the "
                "last kv loop's step, on its results") +
              (nextTileWaits ? ", with its V release (a persistent tile's "
                               "next loads wait for it)"
                             : ""),
          [&](Operation *op) {
            return !nextTileWaits && isa<RingReleaseOp>(op);
          })))
    return failure();
  if (epilogue.thenYield().getOperand(0) !=
      stage1.lookupOrNull(lastStep->getTerminator()->getOperand(accIndex)))
    return fail(epilogue, "the epilogue of rotated kv loops yields the last "
                          "block's attn.pv");
  plan.pipeline = std::move(pipeline);
  return success();
}

/// The producer region streams the blocks the consumers' kv loops pop, in
/// order: one kv loop, at the region's top, from the consumers' first block
/// to their last (the very bound values, which attn-warp-specialize gives
/// it), one block a step, beside ops without effects or regions (its step's
/// constant). A producer that pushed other blocks, or a
/// different number of them, would leave the consumers or itself waiting
/// forever.
static LogicalResult verifyProducerLoop(const KernelPlan &plan) {
  scf::ForOp loop = plan.producerLoop;
  Region &producer = plan.warpSpecialization.getProducer();
  auto fail = [](Operation *at, const Twine &why) {
    return at->emitError("convert-attn-to-nvvm: ") << why;
  };
  int64_t pushes = 0;
  producer.walk([&](RingPushOp) { ++pushes; });
  if (pushes != 1 || loop->getParentRegion() != &producer)
    return fail(loop, "the producer region holds one kv loop (attn.ring_push "
                      "once a step), at its top level");
  for (Operation &op : producer.front().without_terminator())
    if (&op != loop.getOperation() &&
        (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
      return fail(&op, "the producer region holds its kv loop and ops "
                       "without effects or regions (its bounds' arithmetic) "
                       "only");
  Value begin = plan.pipeline ? plan.pipeline->begin
                              : plan.kvLoops.front().loop.getLowerBound();
  Value end = plan.pipeline ? plan.pipeline->end
                            : plan.kvLoops.back().loop.getUpperBound();
  if (!matchPattern(loop.getStep(), m_One()) || loop.getLowerBound() != begin ||
      loop.getUpperBound() != end)
    return fail(loop, "the producer's kv loop pushes the blocks the "
                      "consumers' kv loops pop, one a step: its bounds are "
                      "their first loop's lower bound and their last loop's "
                      "upper bound (the same values)");
  return success();
}

FailureOr<KernelPlan> mlir::attn::readKernelPlan(scf::ForallOp forall,
                                                 StringRef name) {
  KernelPlan plan;
  plan.name = name.str();
  auto fail = [&](const Twine &why) -> FailureOr<KernelPlan> {
    return forall.emitError("convert-attn-to-nvvm: ") << why;
  };

  FinalizeOp finalize;
  SmallVector<QKOp> scoreGemms;
  WarpSpecializeOp specialized;
  forall.getBody()->walk([&](Operation *op) {
    if (auto f = dyn_cast<FinalizeOp>(op))
      finalize = f;
    else if (auto qk = dyn_cast<QKOp>(op))
      scoreGemms.push_back(qk);
    else if (auto ws = dyn_cast<WarpSpecializeOp>(op))
      specialized = ws;
  });
  // The kernel loads Q once, before the kv loops, and every S GEMM reads
  // it: the tile's Q is the one loaded tile that an attn.qk reads.
  TileLoad queryLoad;
  for (QKOp qk : scoreGemms)
    if (!queryLoad)
      queryLoad = TileLoad::of(qk.getQuery());
  for (QKOp qk : scoreGemms)
    if (queryLoad && qk.getQuery() != queryLoad.getTile())
      return qk.emitError("convert-attn-to-nvvm: every attn.qk of a tile "
                          "reads the same Q tile (the tile's load of Q)");
  if (queryLoad.getPaged())
    return queryLoad.getOperation()->emitError(
        "convert-attn-to-nvvm: Q must come from attn.load_tile or "
        "attn.load_varlen_tile, not from a page pool");
  if (!queryLoad || !finalize)
    return fail("expected a tiled attention (attn-tile) in the scf.forall");
  // A fourth induction variable is the kv split of a split-KV attention.
  std::optional<std::pair<Value, OpFoldResult>> split = getKvSplit(forall);
  int64_t gridRank = split ? 4 : 3;
  if (forall.getRank() != gridRank)
    return fail("expected the (batch, query head, query block) forall of "
                "attn-tile (and the kv split with kv_splits), got a forall "
                "of rank " +
                Twine(forall.getRank()));
  plan.forall = forall;
  std::optional<ArrayAttr> mapping = forall.getMapping();
  if (!mapping || int64_t(mapping->size()) != gridRank)
    return fail("expected the forall's mapping to #gpu.block<x>, <y>, <z> "
                "(attn-tile sets it): the kernel's grid");
  SmallVector<gpu::MappingId> mapped;
  for (Attribute attr : mapping->getValue().take_front(3))
    if (auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr))
      mapped.push_back(block.getBlock());
  for (gpu::MappingId dim :
       {gpu::MappingId::DimX, gpu::MappingId::DimY, gpu::MappingId::DimZ})
    if (llvm::count(mapped, dim) != 1)
      return fail("the forall's mapping must hold #gpu.block<x>, <y> and <z> "
                  "once each");
  // Three entries holding x, y and z once each are those three.
  for (auto [i, attr] : llvm::enumerate(mapping->getValue().take_front(3))) {
    switch (cast<gpu::GPUBlockMappingAttr>(attr).getBlock()) {
    case gpu::MappingId::DimX:
      plan.queryBlockIv = i;
      break;
    case gpu::MappingId::DimY:
      plan.headIv = i;
      break;
    case gpu::MappingId::DimZ:
      plan.batchIv = i;
      break;
    default:
      llvm_unreachable("the mapping holds only x, y and z");
    }
  }
  plan.queryLoad = queryLoad;
  auto queryType = cast<RankedTensorType>(queryLoad.getSource().getType());
  LoadVarlenTileOp varlenQuery = queryLoad.getVarlen();
  plan.layout =
      varlenQuery
          ? varlenQuery.getLayout()
          : cast<LoadTileOp>(queryLoad.getOperation()).getLayout();
  auto q = toLogicalBHSD(queryType.getShape(), plan.layout);
  plan.headsQ = q[1];
  plan.headDim = q[3];
  if (auto arg = dyn_cast<BlockArgument>(queryLoad.getSource()))
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      if (auto group = func.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), AttnDialect::getPackedQueryHeadsAttrName()))
        plan.packedQueryHeads = group.getInt();
  plan.blockM = queryLoad.getTile().getType().getShape()[0];
  // The tile sizes wgmma and the kernel's layouts take, before the kv loops
  // are read (block_n = 1 folds the loops' block arithmetic away). An S
  // GEMM's scores are block_m x block_n.
  if (plan.blockM != 64 && plan.blockM != 128 && plan.blockM != 192)
    return fail("block_m must be 64, 128 or 192 (one consumer warpgroup per "
                "64 rows), got " +
                Twine(plan.blockM));
  for (QKOp qk : scoreGemms)
    if (int64_t blockN = qk.getType().getShape()[1];
        blockN % 16 != 0 || blockN < 16 || blockN > 256)
      return fail("block_n must be a multiple of 16 in [16, 256], got " +
                  Twine(blockN));
  // The kernel reads the lengths from its parameters; bounds folded for one
  // static shape would run that shape only.
  auto requireDynamicLength = [&](Value source,
                                  StringRef what) -> LogicalResult {
    int64_t seqDim = plan.layout == Layout::BSHD ? 1 : 2;
    if (cast<RankedTensorType>(source.getType()).isDynamicDim(seqDim))
      return success();
    return forall.emitError("convert-attn-to-nvvm: the kernel takes the "
                            "sequence lengths at launch time, but ")
           << what << " has the static type " << source.getType()
           << "; run attn-generalize-lengths before attn-tile "
              "(attn-lower-to-nvvm-pipeline does)";
  };
  if (failed(requireDynamicLength(queryLoad.getSource(), "Q")))
    return failure();
  plan.elementType = queryType.getElementType();
  // The forall's results in order: O, then the LSE if the function uses
  // it. Canonicalization drops an unused O; the kernel always writes O.
  SmallVector<std::optional<unsigned>> written;
  for (Operation &op : forall.getTerminator().getYieldingOps())
    written.push_back(finalizeResultOf(
        cast<tensor::ParallelInsertSliceOp>(op).getSource()));
  if (split) {
    if (failed(readKvSplit(plan, *split)))
      return failure();
    if (written.size() != 2 || written[0] != 0u || written[1] != 1u)
      return fail("a split-KV tile must write the partial O and LSE of its "
                  "attn.finalize (attn-tile's kv_splits tiling)");
    plan.hasLse = !plan.kvSplit->combine.getLse().use_empty();
    written.pop_back();
  }
  if (written.empty() || written.front() != 0u)
    return fail("the tile must write O (the kernel's output; a function "
                "that returns only the LSE is not supported: return O too)");
  if (written.size() > 2 || (written.size() == 2 && written[1] != 1u))
    return fail("the tile must write O and at most the LSE of its "
                "attn.finalize");
  if (!split)
    plan.hasLse = written.size() == 2;
  plan.lseScale = finalize.getScale();
  plan.mask = finalize.getMaskSpec();

  if (specialized) {
    // The partition attn-warp-specialize chose.
    plan.warpSpecialization = specialized;
    specialized.getProducer().walk([&](scf::ForOp loop) {
      if (!loop.getOps<RingPushOp>().empty())
        plan.producerLoop = loop;
    });
    if (!plan.producerLoop)
      return specialized.emitError(
          "convert-attn-to-nvvm: the producer region has no kv loop (an "
          "scf.for holding attn.ring_push)");
    // The producer's step is lowered op by op (lowerProducerStep): one
    // attn.ring_push of two attn.load_tile results, and index arithmetic.
    Block *producerBody = plan.producerLoop.getBody();
    int64_t pushes = llvm::range_size(producerBody->getOps<RingPushOp>());
    for (Operation &op : producerBody->without_terminator()) {
      auto push = dyn_cast<RingPushOp>(op);
      if (push &&
          (pushes != 1 || push.getKey().getParentBlock() != producerBody ||
           push.getValue().getParentBlock() != producerBody ||
           !TileLoad::of(push.getKey()) || !TileLoad::of(push.getValue()) ||
           push.getKey() == push.getValue()))
        return op.emitError("convert-attn-to-nvvm: the producer's kv loop "
                            "pushes one K and one V tile, each loaded in the "
                            "loop, once per step");
      bool isIndexArith =
          op.getDialect() == op.getContext()->getLoadedDialect("arith") &&
          llvm::all_of(op.getResultTypes(),
                       [](Type t) { return t.isIntOrIndex(); });
      if (!push && !TileLoad(&op) && !isIndexArith)
        return op.emitError("convert-attn-to-nvvm: no GPU lowering for '")
               << op.getName() << "' in the producer's kv loop";
    }
  }
  // The kernel runs the kv loops the IR holds, with the IR's bounds and
  // score modifiers (KvLoops.h).
  Region &loopRegion =
      specialized ? specialized.getConsumer() : forall.getRegion();
  FailureOr<SmallVector<KvLoop>> loops = readKvLoops(loopRegion);
  if (failed(loops))
    return failure();
  plan.kvLoops = std::move(*loops);
  // The kernel carries the running max, sum and O from loop to loop in its
  // registers and starts them from splat constants: the first loop's inits,
  // or those its prologue yields without blocks.
  scf::ForOp firstLoop = plan.kvLoops.front().loop;
  // The intra-warpgroup overlap is the loops' two-stage software pipeline
  // (attn.stage), rotated by attn-pipeline-kv-loops, in every kv loop or in
  // none.
  for (const KvLoop &kv : plan.kvLoops)
    if (failed(verifyPipelineStages(kv.loop)))
      return failure();
  bool staged = isSoftwarePipelined(firstLoop);
  bool rotated = plan.kvLoops.front().rotated();
  for (const KvLoop &kv : plan.kvLoops)
    if (isSoftwarePipelined(kv.loop) != staged || kv.rotated() != rotated)
      return kv.loop.emitError("convert-attn-to-nvvm: the kv loops of a tile "
                               "are software-pipelined (attn.stage) and "
                               "rotated all alike or not at all");
  if (staged && !specialized)
    return firstLoop.emitError("convert-attn-to-nvvm: a software-pipelined "
                               "kv loop (attn.stage) needs the producer "
                               "warpgroup of attn.warp_specialize");
  if (staged && !rotated)
    return firstLoop.emitError(
        "convert-attn-to-nvvm: software-pipelined kv loops (attn.stage) run "
        "as attn-pipeline-kv-loops rotates them: run that pass before this "
        "one");
  if (rotated && !staged)
    return firstLoop.emitError(
        "convert-attn-to-nvvm: a rotated kv loop keeps attn.stage = 1 on its "
        "stage-1 ops (the previous block's attn.scale_rows of O, attn.pv and "
        "V release)");
  if (rotated && failed(readKvPipeline(plan, finalize)))
    return failure();
  SmallVector<Value> starts;
  for (auto [init, yielded] : llvm::zip_equal(
           rotated ? plan.pipeline->prologue.elseYield().getOperands()
                   : firstLoop.getInitArgs(),
           firstLoop.getBody()->getTerminator()->getOperands()))
    if (isa_and_present<RowMaxOp, RowSumOp, PVOp>(yielded.getDefiningOp()))
      starts.push_back(init);
  for (Value init : starts) {
    auto constant = init.getDefiningOp<arith::ConstantOp>();
    if (!constant || !isa<SplatElementsAttr>(constant.getValue()))
      return firstLoop.emitError("convert-attn-to-nvvm: the first kv loop "
                                 "must start its carried values from splat "
                                 "constants (the online softmax's m = -inf, "
                                 "l = 0, O = 0)");
  }
  // Each thread holds a partial running sum (the quad's four add up in
  // attn.finalize): only a zero start splits into partial sums.
  for (auto [init, yielded] :
       llvm::zip(starts, firstLoop.getBody()->getTerminator()->getOperands()))
    if (yielded.getDefiningOp<RowSumOp>() &&
        !cast<SplatElementsAttr>(
             init.getDefiningOp<arith::ConstantOp>().getValue())
             .getSplatValue<APFloat>()
             .isPosZero())
      return firstLoop.emitError("convert-attn-to-nvvm: the running sum must "
                                 "start from +0 (each thread holds a partial "
                                 "sum)");
  // attn.stage orders a kv loop's iterations, and ping-pong turns pair up
  // the two warpgroups' kv steps: anywhere else the kernel has no schedule
  // for them.
  WalkResult stray = forall.getBody()->walk([&](Operation *op) {
    bool staged = op->hasAttr(AttnDialect::getStageAttrName());
    bool turn = isa<WaitTurnOp, PassTurnOp>(op);
    bool stepOnly = isa<RingPopOp, RingReleaseOp, WaitTileOp, WaitGemmsOp>(op);
    Operation *parent = op->getParentOp();
    // The prologue's and epilogue's else branches only yield values.
    bool inPipeline = plan.pipeline &&
                      (op->getBlock() == plan.pipeline->prologue.thenBlock() ||
                       op->getBlock() == plan.pipeline->epilogue.thenBlock());
    if ((!staged && !turn && !stepOnly) || inPipeline ||
        llvm::any_of(plan.kvLoops, [&](const KvLoop &kv) {
          return kv.loop.getOperation() == parent;
        }))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitError("convert-attn-to-nvvm: ");
    if (staged)
      diag << "attn.stage belongs on the ops of a consumer kv loop (or of the "
              "epilogue of rotated kv loops)";
    else if (turn)
      diag << "a ping-pong turn belongs around the attn.qk of a consumer kv "
              "loop (or of the prologue of rotated kv loops)";
    else
      diag << "'" << op->getName()
           << "' belongs in a kv step: a consumer kv loop, or the prologue "
              "or epilogue of rotated kv loops";
    return WalkResult::interrupt();
  });
  if (stray.wasInterrupted())
    return failure();
  if (failed(readLaunchDependents(plan, loopRegion, finalize)))
    return failure();
  for (auto [previous, next] :
       llvm::zip(plan.kvLoops, llvm::drop_begin(plan.kvLoops)))
    if (next.loop.getInitArgs() != previous.loop.getResults())
      return next.loop.emitError("convert-attn-to-nvvm: a kv loop must carry "
                                 "on the previous kv loop's results, in "
                                 "order");
  scf::ForOp lastLoop = plan.kvLoops.back().loop;
  for (Value operand :
       {finalize.getAcc(), finalize.getRowSum(), finalize.getRowMax()})
    if (operand.getDefiningOp() != lastLoop.getOperation() &&
        !(plan.pipeline && operand == finalize.getAcc()))
      return finalize.emitError("convert-attn-to-nvvm: attn.finalize must "
                                "read the last kv loop's results");
  plan.finalize = finalize;
  plan.reversedQueryBlock = getReversedQueryBlock(forall);
  // Ping-pong turns pair up the two warpgroups' steps: every loop takes
  // them, or none does.
  plan.pingPong = plan.kvLoops.front().turn.has_value();
  for (const KvLoop &kv : plan.kvLoops)
    if (kv.turn.has_value() != plan.pingPong)
      return kv.loop.emitError("convert-attn-to-nvvm: the kv loops of a tile "
                               "take ping-pong turns (attn.wait_turn, "
                               "attn.pass_turn) all alike or not at all");

  bool sawKey = false, sawValue = false;
  auto loadOf = [&](Value tile, bool isKey) -> TileLoad {
    if (TileLoad load = TileLoad::of(tile))
      return load;
    TileLoad pushed;
    // K is the pop's result 0, V its result 1 (as the producer pushes them).
    OpResult popped = RingPopOp::ofTile(tile);
    if (popped && popped.getResultNumber() == (isKey ? 0u : 1u))
      specialized.getProducer().walk([&](RingPushOp push) {
        pushed = TileLoad::of(isKey ? push.getKey() : push.getValue());
      });
    return pushed;
  };
  // The attn.load_tile (or attn.load_paged_tile) of a K or V tile, which
  // must read its kv loop's block (the rows the kernel's TMA loads take);
  // null after a diagnostic.
  auto kvLoad = [&](Operation *user, Value tile, bool isKey) -> TileLoad {
    StringRef what = isKey ? "K" : "V";
    if (OpResult popped = RingPopOp::ofTile(tile);
        popped && popped.getResultNumber() != (isKey ? 0u : 1u)) {
      user->emitError("convert-attn-to-nvvm: ")
          << user->getName() << " reads the popped " << (isKey ? "V" : "K")
          << " tile where it takes " << what << " (attn.ring_pop's result "
          << (isKey ? 0 : 1) << ")";
      return {};
    }
    TileLoad load = loadOf(tile, isKey);
    if (!load) {
      user->emitError("convert-attn-to-nvvm: ")
          << what << " tiles must come from attn.load_tile, "
          << "attn.load_paged_tile or attn.load_varlen_tile (directly or "
             "through the producer's attn.ring_push)";
      return {};
    }
    if (!loadsLoopBlock(load)) {
      load.getOperation()->emitError("convert-attn-to-nvvm: the ")
          << what
          << " tile's row must be its kv loop's induction variable times "
             "block_n";
      return {};
    }
    return load;
  };
  // The softmax scale (attn.softcap's with a softcap, else attn.finalize's)
  // and the f32 operands the kernel computes at its entry.
  Value softmaxScale = plan.lseScale;
  SmallVector<std::pair<Operation *, Value>> scaleUsers = {
      {finalize, plan.lseScale}};
  WalkResult walk = forall.getBody()->walk([&](Operation *op) -> WalkResult {
    if (auto pv = dyn_cast<PVOp>(op)) {
      auto valueType = pv.getValue().getType();
      plan.blockN = valueType.getShape()[0];
      plan.valueHeadDim = valueType.getShape()[1];
      TileLoad valueLoad = kvLoad(op, pv.getValue(), /*isKey=*/false);
      if (!valueLoad)
        return WalkResult::interrupt();
      plan.valueLoad = valueLoad;
      // A page pool's rows are pages, not the sequence (PagedKv::length).
      if (!valueLoad.getPaged())
        plan.seqKSources.push_back(valueLoad.getSource());
      sawValue = true;
    } else if (auto qk = dyn_cast<QKOp>(op)) {
      TileLoad keyLoad = kvLoad(op, qk.getKey(), /*isKey=*/true);
      if (!keyLoad)
        return WalkResult::interrupt();
      plan.keyLoad = keyLoad;
      // A page pool is [pages, page_size, heads, D] whatever the layout.
      auto keyShape =
          cast<RankedTensorType>(keyLoad.getSource().getType()).getShape();
      plan.headsKV = keyLoad.getPaged()
                         ? keyShape[2]
                         : toLogicalBHSD(keyShape, plan.layout)[1];
      if (!keyLoad.getPaged())
        plan.seqKSources.push_back(keyLoad.getSource());
      sawKey = true;
    } else if (isa<ExpDiffOp, RescaleFactorOp>(op)) {
      // The kernel computes one exp2 multiplier for the whole tile.
      Value scaleLog2 = op->getOperand(op->getNumOperands() - 1);
      if (plan.scaleLog2 && plan.scaleLog2 != scaleLog2) {
        op->emitError("convert-attn-to-nvvm: every attn.exp_diff and "
                      "attn.rescale_factor of a tile must take the same "
                      "scale_log2 value (the kernel computes it once)");
        return WalkResult::interrupt();
      }
      plan.scaleLog2 = scaleLog2;
      scaleUsers.emplace_back(op, scaleLog2);
      auto exp = dyn_cast<ExpDiffOp>(op);
      if (std::optional<uint64_t> period =
              exp ? exp.getSoftwareExp2Period() : std::nullopt)
        plan.softwareExp2Period =
            plan.softwareExp2Period
                ? std::min<int64_t>(plan.softwareExp2Period, *period)
                : *period;
    } else if (auto cap = dyn_cast<SoftcapOp>(op)) {
      plan.softcap = cap.getCap().convertToFloat();
      softmaxScale = cap.getScale();
      scaleUsers.emplace_back(op, softmaxScale);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Each kv step waits for the tiles and GEMM results it reads where the IR
  // says (attn-insert-waits), which the kernel lowers as they stand.
  SmallVector<Block *> steps;
  for (const KvLoop &kv : plan.kvLoops)
    steps.push_back(kv.loop.getBody());
  if (plan.pipeline) {
    steps.push_back(plan.pipeline->prologue.thenBlock());
    steps.push_back(plan.pipeline->epilogue.thenBlock());
  }
  for (Block *step : steps)
    if (failed(verifyStepWaits(step)))
      return failure();
  // readKvLoops requires attn.qk and attn.pv in every kv loop.
  assert(sawKey && sawValue && "a kv loop without attn.qk or attn.pv");
  plan.seqQSources.push_back(queryLoad.getSource());
  for (Value source : plan.seqKSources)
    if (failed(requireDynamicLength(source, "K or V")))
      return failure();

  // Every index the kernel clones from the IR must be computable there.
  if ((plan.keyLoad.getPaged() || plan.valueLoad.getPaged()) &&
      failed(readPagedKv(plan)))
    return failure();
  if ((plan.queryLoad.getVarlen() || plan.keyLoad.getVarlen() ||
       plan.valueLoad.getVarlen()) &&
      failed(readVarlen(plan)))
    return failure();
  if (failed(verifyArgumentOrder(plan)))
    return failure();
  if (plan.varlen && plan.kvSplit)
    return fail("a variable-length batch with kv splits has no GPU lowering "
                "(the CPU pipeline runs it)");
  // The split count's argument is a kernel parameter; a paged tile's cache
  // length is read through the cache_lengths pointer, a varlen tile's
  // offsets through cu_seqlens_q and cu_seqlens_k, and the kernel's tile
  // scheduler gives the sequence and query block of attn.sequence_tile.
  auto lowerable = [&](Value v, Operation *user, ArrayRef<Value> roots = {}) {
    SmallVector<Value> all(roots), indexTensors;
    if (plan.kvSplit && plan.kvSplit->argument)
      all.push_back(plan.kvSplit->argument);
    if (plan.paged)
      indexTensors.push_back(plan.paged->cacheLengths);
    if (plan.varlen) {
      indexTensors.push_back(plan.varlen->cuSeqlensQ);
      indexTensors.push_back(plan.varlen->cuSeqlensK);
      llvm::append_range(all, plan.varlen->tile->getResults());
    }
    return verifyLowerableIndex(v, user, forall, plan.seqQSources,
                                plan.seqKSources, plan.layout, all,
                                indexTensors);
  };
  if (plan.paged &&
      failed(lowerable(plan.paged->length, plan.keyLoad.getOperation())))
    return failure();
  if (failed(lowerable(queryLoad.getRow(), queryLoad.getOperation())) ||
      failed(lowerable(plan.keyLoad.getHead(), plan.keyLoad.getOperation())))
    return failure();
  if (plan.varlen) {
    // The tile index may read the forall's tile count (attn-order-tiles),
    // which the kernel takes from the grid.
    Operation *tile = plan.varlen->tile;
    SmallVector<Value> gridBound;
    if (auto bound =
            dyn_cast<Value>(forall.getMixedUpperBound()[plan.queryBlockIv]))
      gridBound.push_back(bound);
    if (failed(lowerable(plan.varlen->tile.getTile(), tile, gridBound)) ||
        failed(lowerable(plan.varlen->queryBegin, queryLoad.getOperation())) ||
        failed(lowerable(plan.varlen->queryEnd, queryLoad.getOperation())) ||
        failed(lowerable(plan.varlen->keyBegin, plan.keyLoad.getOperation())))
      return failure();
  }
  // A persistent kernel computes the query-block count from the IR (a
  // varlen kernel, never persistent, takes it from its grid).
  if (auto bound =
          dyn_cast<Value>(forall.getMixedUpperBound()[plan.queryBlockIv]))
    if (!plan.varlen && failed(lowerable(bound, forall)))
      return failure();
  if (plan.pipeline) {
    for (Value bound : plan.pipeline->unrotatedBounds)
      if (failed(lowerable(bound, plan.pipeline->prologue)))
        return failure();
    for (auto mask : plan.pipeline->prologue.thenBlock()->getOps<MaskOp>())
      for (Value operand : {mask.getRowOffset(), mask.getColOffset(),
                            mask.getSeqQ(), mask.getSeqK()})
        if (failed(lowerable(operand, mask)))
          return failure();
  }
  for (const KvLoop &kv : plan.kvLoops) {
    if (failed(lowerable(kv.loop.getLowerBound(), kv.loop)) ||
        failed(lowerable(kv.loop.getUpperBound(), kv.loop)))
      return failure();
    Value iv = kv.loop.getInductionVar();
    for (Operation *op : kv.scoreModifiers)
      if (auto mask = dyn_cast<MaskOp>(op))
        for (Value operand : {mask.getRowOffset(), mask.getColOffset(),
                              mask.getSeqQ(), mask.getSeqK()})
          if (failed(lowerable(operand, mask, iv)))
            return failure();
  }
  // The scale values come from constants and at most one f32 argument of
  // the function (attn-generalize-scale), which the kernel takes at launch.
  auto func = forall->getParentOfType<FunctionOpInterface>();
  SmallVector<Value> scaleArguments;
  if (func)
    for (BlockArgument arg : func.getArguments())
      if (arg.getType().isF32())
        scaleArguments.push_back(arg);
  if (scaleArguments.size() > 1)
    return fail("the function has " + Twine(scaleArguments.size()) +
                " f32 arguments; a kernel takes one (the softmax scale)");
  // readKvLoops requires an attn.exp_diff in every kv loop.
  assert(plan.scaleLog2 && "a kv loop without attn.exp_diff");
  for (auto [user, value] : scaleUsers)
    if (failed(lowerable(value, user, scaleArguments)))
      return failure();
  // The kernel takes the argument if any scale value is computed from it;
  // otherwise every one is a constant and the scale is compiled in.
  if (!scaleArguments.empty() && llvm::any_of(scaleUsers, [&](auto &use) {
        return dependsOn(use.second, scaleArguments.front());
      }))
    plan.scaleArgument = cast<BlockArgument>(scaleArguments.front());
  FloatAttr constantScale;
  if (!plan.scaleArgument &&
      matchPattern(softmaxScale, m_Constant(&constantScale)))
    plan.constantScale = constantScale.getValueAsDouble();
  if (auto mul = plan.scaleLog2.getDefiningOp<arith::MulFOp>()) {
    FloatAttr factor;
    plan.scaleLog2IsParameter =
        plan.scaleArgument && mul.getLhs() == plan.scaleArgument &&
        matchPattern(mul.getRhs(), m_Constant(&factor)) &&
        factor.getValueAsDouble() == attnc::rt::kLog2E;
  }
  if (plan.producerLoop &&
      (failed(
           lowerable(plan.producerLoop.getLowerBound(), plan.producerLoop)) ||
       failed(lowerable(plan.producerLoop.getUpperBound(), plan.producerLoop))))
    return failure();

  // One CTA row per query head on the grid's y dimension.
  if (plan.headsQ > 65535)
    return fail("heads_q = " + Twine(plan.headsQ) +
                " exceeds the 65535 query heads a grid's y dimension holds");
  Type el = plan.elementType;
  if (!el.isBF16() && !el.isF16())
    return fail(Twine("element type must be bf16 or f16 for wgmma, got ") +
                (el.isF32() ? "f32" : "another type"));
  for (auto [what, dim] :
       {std::pair<StringRef, int64_t>{"head dim", plan.headDim},
        {"value head dim", plan.valueHeadDim}})
    if (dim % 8 != 0 || dim < 32 || dim > 256)
      return fail(what +
                  " must be a multiple of 8 from 32 to 256 (wgmma n and "
                  "16-byte TMA rows), got " +
                  Twine(dim));

  constexpr int64_t kRows = WgmmaAccumulatorAttr::kRowsPerWarpgroup;
  if (specialized &&
      int64_t(specialized.getConsumerWarpgroups()) * kRows != plan.blockM)
    return specialized.emitError("convert-attn-to-nvvm: consumers(")
           << specialized.getConsumerWarpgroups()
           << ") must be block_m / 64 = " << plan.blockM / kRows
           << ": each consumer warpgroup computes 64 query rows (one "
              "wgmma m64 tile)";
  // wgmma multiplies tiles of one element type.
  for (TileLoad load : {plan.keyLoad, plan.valueLoad})
    if (load.getTile().getType().getElementType() != el)
      return load.getOperation()->emitError(
                 "convert-attn-to-nvvm: K and V tiles must have Q's element "
                 "type ")
             << el << ", got " << load.getTile().getType().getElementType();
  // Where each tile value lives, as attn-assign-layouts recorded it (the
  // accumulator layout's warpgroups are block_m / 64: its verifier).
  if (failed(readTileLayouts(plan)))
    return failure();
  // As the lowering decides: only a rescale by its step's own alpha knows
  // which rows' maxima moved (the one attn-conditional-rescale marks).
  for (const KvLoop &kv : plan.kvLoops)
    kv.loop.walk([&](ScaleRowsOp op) {
      auto alpha = op.getFactor().getDefiningOp<RescaleFactorOp>();
      plan.conditionalRescale |=
          op.getConditional() && alpha && alpha->getBlock() == op->getBlock();
    });

  // Shared memory as attn-allocate-shared-memory laid it out; whether P
  // goes through it and whether the grid is persistent follow.
  auto smem = forall->getAttrOfType<SharedMemoryAttr>(
      AttnDialect::getSharedMemoryAttrName());
  if (!smem)
    return fail("the tile has no #attn.shared_memory (run "
                "attn-allocate-shared-memory; attn-lower-to-nvvm-pipeline "
                "does)");
  if (specialized && smem.getStages() != int64_t(specialized.getStages()))
    return fail("#attn.shared_memory has " + Twine(smem.getStages()) +
                " K/V stages but attn.warp_specialize has " +
                Twine(specialized.getStages()));
  if (smem.isPersistent() && !specialized)
    return fail("a persistent kernel (#attn.shared_memory with query_free) "
                "needs a warp-specialized tile (attn-warp-specialize)");
  plan.smem.query = smem.getQuery();
  plan.smem.queryBytes = smem.getQueryBytes();
  plan.smem.probsBytes = smem.getProbsBytes();
  plan.smem.keyStages = smem.getKeys();
  plan.smem.valueStages = smem.getValues();
  plan.smem.stages = smem.getStages();
  plan.smem.keyStageBytes = smem.getKeyStageBytes();
  plan.smem.valueStageBytes = smem.getValueStageBytes();
  plan.smem.probs = smem.getProbs();
  plan.smem.queryFull = smem.getQueryFull();
  plan.smem.keyFull = smem.getKeyFull();
  plan.smem.valueFull = smem.getValueFull();
  plan.smem.keyEmpty = smem.getKeyEmpty();
  plan.smem.valueEmpty = smem.getValueEmpty();
  plan.smem.queryFree = smem.getQueryFree();
  plan.smem.total = smem.getSize();
  llvm::append_range(plan.smem.warpgroupBarriers, smem.getWarpgroupBarriers());
  llvm::append_range(plan.smem.turnBarriers, smem.getTurnBarriers());
  plan.probsInRegisters = !plan.smem.probs;
  plan.persistent = smem.isPersistent();
  // A persistent CTA walks (query block, head, batch) tiles; a kv split
  // would be a fourth coordinate of that walk, which it does not have.
  if (plan.persistent && plan.kvSplit)
    return fail("a split-KV tile (kv_splits) has no persistent schedule: "
                "drop --persistent or the attention's kv_splits");
  // The grid of a varlen kernel is its tile scheduler's bound on the
  // sequences' tiles (attn.sequence_tile), not tiles a CTA walks.
  if (plan.persistent && plan.varlen)
    return fail("a variable-length batch has no persistent schedule: drop "
                "--persistent");
  if (plan.kvSplit && plan.kvSplit->fixed &&
      (*plan.kvSplit->fixed < 2 || *plan.kvSplit->fixed > 65535))
    return fail("a compiled-in kv split count must be in [2, 65535] (grid "
                "z is batch x splits), got " +
                Twine(*plan.kvSplit->fixed));
  if (plan.softwarePipelined() && !plan.probsInRegisters)
    return fail("the intra-warpgroup overlap (attn.stage = 1) needs P in "
                "registers, but #attn.shared_memory has a P buffer");
  // The attribute's verifier checked alignment and overlaps; the buffers
  // must also hold this tile.
  SharedMemoryLayout needed(
      {plan.blockM, plan.blockN}, plan.headDim, plan.valueHeadDim,
      {plan.queryAtoms, plan.keyAtoms, plan.valueAtoms, plan.probsAtoms},
      plan.smem.stages, plan.probsInRegisters, plan.persistent);
  if (plan.smem.queryBytes < needed.queryBytes ||
      plan.smem.keyStageBytes < needed.keyStageBytes ||
      plan.smem.valueStageBytes < needed.valueStageBytes ||
      plan.smem.probsBytes.value_or(0) < needed.probsBytes.value_or(0))
    return fail("#attn.shared_memory is too small for the tile: it needs " +
                Twine(needed.queryBytes) + " bytes of Q, " +
                Twine(needed.keyStageBytes) + " per K stage and " +
                Twine(needed.valueStageBytes) + " per V stage");
  if (plan.smem.total > SharedMemoryLayout::kMaxBytes)
    return fail("#attn.shared_memory has " + Twine(plan.smem.total) +
                " bytes, more than the " +
                Twine(SharedMemoryLayout::kMaxBytes) +
                " a CTA may use on sm_90a");
  // The kernel indexes the named barriers by consumer warpgroup.
  auto consecutive = [](ArrayRef<int64_t> ids) {
    for (auto [a, b] : llvm::zip(ids, llvm::drop_begin(ids)))
      if (b != a + 1)
        return false;
    return true;
  };
  if (static_cast<int64_t>(plan.smem.warpgroupBarriers.size()) !=
          plan.consumerWarpgroups ||
      !consecutive(plan.smem.warpgroupBarriers))
    return fail("#attn.shared_memory's warpgroup_barriers must hold one id "
                "per consumer warpgroup (" +
                Twine(plan.consumerWarpgroups) + "), consecutive");
  if (plan.pingPong != !plan.smem.turnBarriers.empty())
    return fail(plan.pingPong ? "the kv loops take ping-pong turns but "
                                "#attn.shared_memory has no turn_barriers"
                              : "#attn.shared_memory has turn_barriers but "
                                "the kv loops take no ping-pong turns");
  if (plan.pingPong && (static_cast<int64_t>(plan.smem.turnBarriers.size()) !=
                            plan.consumerWarpgroups ||
                        !consecutive(plan.smem.turnBarriers)))
    return fail("#attn.shared_memory's turn_barriers must hold one id per "
                "consumer warpgroup (" +
                Twine(plan.consumerWarpgroups) + "), consecutive");
  // A packed Q (attn-pack-gqa) holds the query heads of one kv head as
  // rows: the runtime's view of the caller's Q is the argument's packing,
  // the tile's masks and ranges the attention's (attn.finalize repeats it),
  // each kv head has one packed head, and every mask places a row at its
  // query position (packed_rows).
  int64_t tilePacking = plan.finalize.getPackedQueryHeads().value_or(1);
  if (tilePacking != plan.packedQueryHeads)
    return fail("the tile's rows are " +
                (tilePacking > 1 ? Twine(tilePacking) + " packed query heads"
                                 : Twine("one query head's")) +
                " (attn.finalize's packed_query_heads), but Q " +
                (plan.packedQueryHeads > 1
                     ? "packs " + Twine(plan.packedQueryHeads)
                     : Twine("is not a packed argument")) +
                " (attn.packed_query_heads, which the runtime's view "
                "follows); attn-pack-gqa sets both");
  if (plan.packedQueryHeads > 1) {
    if (plan.headsQ != plan.headsKV)
      return fail(
          "Q has attn.packed_query_heads = " + Twine(plan.packedQueryHeads) +
          ", but only an attention with as many (packed) query heads as kv "
          "heads computes a packed problem (attn-pack-gqa)");
    for (const KvLoop &kv : plan.kvLoops)
      if (MaskOp mask = kv.mask(); mask && !mask.getPackedRows())
        return mask.emitError("convert-attn-to-nvvm: Q has "
                              "attn.packed_query_heads = ")
               << plan.packedQueryHeads
               << ", so this mask must take its rows as packed query heads "
                  "(packed_rows)";
  }
  if (plan.warpSpecialize() && failed(verifyProducerLoop(plan)))
    return failure();
  return plan;
}
