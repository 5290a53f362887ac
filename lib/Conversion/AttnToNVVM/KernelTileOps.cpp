//===- KernelTileOps.cpp - one lowering per tile op of a kv loop ----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each op of a consumer's kv loop body becomes the instructions of this
// thread's fragment of its tile: S, P and O in the wgmma accumulator layout,
// m, l and alpha as the thread's two rows (FragmentTypes.h).
// The schedule (KernelStep.cpp) calls these in the order it runs the ops and
// places the waits, barriers and stage releases between them.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "attnc/Conversion/SoftwareExp2.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

/// The row of the thread's pair that accumulator register `i` holds.
static int64_t rowOfElement(size_t i) {
  return WgmmaAccumulatorAttr::getRegisterRow(i);
}

static bool isRowVector(Value v) {
  return isa_and_present<AccumulatorRowsAttr>(
      cast<RankedTensorType>(v.getType()).getEncoding());
}

Value KernelEmitter::packedTile(TileValues &values, Value tile) {
  TileFragment &f = values.tiles[tile];
  if (!f.packed)
    f.packed =
        pack(f.elements, fragments.convertAccumulatorType(tile.getType()));
  return f.packed;
}

ArrayRef<Value> KernelEmitter::tileElements(TileValues &values, Value tile) {
  TileFragment &f = values.tiles[tile];
  if (f.elements.empty())
    f.elements = unpack(
        f.packed,
        fragments.convertAccumulatorType(tile.getType()).getBody().size());
  return f.elements;
}

SmallVector<Value> KernelEmitter::flatten(TileValues &values,
                                          ValueRange irValues) {
  SmallVector<Value> flat;
  for (Value v : irValues) {
    SmallVector<Type> types = fragments.convertTileType(v.getType());
    if (types.empty())
      continue; // a ring tile
    if (isRowVector(v))
      llvm::append_range(flat, values.rows.at(v).rows);
    else
      flat.push_back(packedTile(values, v));
    assert(flat.back().getType() == types.back() &&
           "a tile's kernel values have its converted types");
  }
  return flat;
}

ValueRange KernelEmitter::unflatten(TileValues &values, ValueRange irValues,
                                    ValueRange flat) {
  for (Value v : irValues) {
    SmallVector<Type> types = fragments.convertTileType(v.getType());
    ValueRange held = flat.take_front(types.size());
    flat = flat.drop_front(types.size());
    if (types.empty())
      continue; // a ring tile
    if (isRowVector(v))
      values.rows[v] = RowFragment{{held[0], held[1]}, Value()};
    else
      values.tiles[v] = TileFragment{held[0], {}};
  }
  return flat;
}

void KernelEmitter::lowerConstant(TileValues &values,
                                  arith::ConstantOp constant) {
  auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
  assert(splat && "readKernelPlan admits splat initial values only");
  double value = splat.getSplatValue<APFloat>().convertToDouble();
  Value tile = constant.getResult();
  if (isRowVector(tile)) {
    values.rows[tile] = RowFragment{{cF32(value), cF32(value)}, Value()};
    return;
  }
  LLVM::LLVMStructType type = fragments.convertAccumulatorType(tile.getType());
  if (value == 0.0 && !std::signbit(value)) {
    values.tiles[tile] = TileFragment{LLVM::ZeroOp::create(b, loc, type), {}};
    return;
  }
  // A 16-bit tile's registers each hold a pair of its elements.
  Type element = cast<RankedTensorType>(tile.getType()).getElementType();
  Value v = element.isF32() ? cF32(value)
                            : packPair(cF32(value), cF32(value), element);
  values.tiles[tile] =
      TileFragment{{}, SmallVector<Value>(type.getBody().size(), v)};
}

void KernelEmitter::lowerRingSlot(TileValues &values, Operation *op,
                                  Value iteration) {
  auto [stage, phase] = stageAndPhase(iteration);
  for (Value tile : op->getResults())
    values.slots[tile] = RingSlot{stage, phase};
}

void KernelEmitter::lowerQK(TileValues &values, QKOp op) {
  const RingSlot &key = values.slots.at(op.getKey());
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value scores = scoresGemm(key.stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  values.tiles[op.getScores()] = TileFragment{scores, {}};
}

void KernelEmitter::lowerMask(TileValues &values, MaskOp mask, Value kvBlock) {
  // The mask's operands as the IR computes them, the kv loop's induction
  // variable (in the rotated loops' prologue: the kv range's begin) being
  // this block.
  IRMapping block;
  if (auto loop = mask->getParentOfType<scf::ForOp>())
    block.map(loop.getInductionVar(), kvBlock);
  else if (plan.pipeline)
    block.map(plan.pipeline->begin, kvBlock);
  SmallVector<Value> operands =
      index.lower(b,
                  ValueRange{mask.getRowOffset(), mask.getColOffset(),
                             mask.getSeqQ(), mask.getSeqK()},
                  &block);
  MaskSpec spec = mask.getMaskSpec();
  // Visibility is invariant under moving query, key and both lengths by
  // the same amount along the diagonal; moving by this thread's first
  // column leaves each element a constant column, so every test compares
  // against an immediate and nothing per element stays live across the
  // loop (per-element columns made ptxas spill at block_n = 80).
  Value colBase = add(operands[1], toIndex(fragmentColumn(tid)));
  auto shift = [&](Value v) {
    return arith::SubIOp::create(b, loc, v, colBase).getResult();
  };
  // Packed query heads: a row is its head's query position row mod seq_q,
  // taken before the shift (which visibility is invariant under, not the
  // modulo), in 32 bits (the kernel's lengths are 32-bit).
  Value packedSeqQ = spec.packedRows ? toI32(operands[2]) : Value();
  spec.packedRows = false;
  auto position = [&](Value row) -> Value {
    if (!packedSeqQ)
      return row;
    return toIndex(arith::RemUIOp::create(b, loc, toI32(row), packedSeqQ));
  };
  Value firstRow = add(operands[0], toIndex(rowInTile));
  Value rows[kRowsPerThread] = {
      shift(position(firstRow)),
      shift(position(
          add(firstRow, cIdx(WgmmaAccumulatorAttr::kRowPairDistance))))};
  Value shiftedSeqQ = shift(operands[2]), shiftedSeqK = shift(operands[3]);
  SmallVector<Value> s(tileElements(values, mask.getScores()));
  for (size_t i = 0; i < s.size(); ++i) {
    Value col = cIdx(WgmmaAccumulatorAttr::getRegisterColumn(i));
    Value visible = buildKeyVisible(b, loc, rows[rowOfElement(i)], col,
                                    shiftedSeqQ, shiftedSeqK, spec);
    s[i] = arith::SelectOp::create(b, loc, visible, s[i], negInf());
  }
  values.tiles[mask.getResult()] = TileFragment{{}, std::move(s)};
}

Value KernelEmitter::tanhApprox(Value x) {
  // MUFU.TANH; LLVM 22 has no NVVM intrinsic for tanh.approx.f32.
  return LLVM::InlineAsmOp::create(
             b, loc, TypeRange{f32()}, ValueRange{x}, "tanh.approx.f32 $0, $1;",
             "=f,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

void KernelEmitter::lowerSoftcap(TileValues &values, SoftcapOp softcap) {
  SmallVector<Value> s(tileElements(values, softcap.getScores()));
  float cap = softcap.getCap().convertToFloat();
  Value scale = index.lower(b, softcap.getScale());
  Value inner = arith::DivFOp::create(b, loc, scale, cF32(cap));
  for (Value &v : s)
    v = tanhApprox(arith::MulFOp::create(b, loc, v, inner));
  // output_scale * tanh(...). attn-defer-softcap-cap sets output_scale = 1
  // where the cap can be left to the row max and the exponentials: then no
  // score is multiplied.
  float outputScale = softcap.getOutputScaleOrCap().convertToFloat();
  if (outputScale != 1.0f)
    for (Value &v : s)
      v = arith::MulFOp::create(b, loc, cF32(outputScale), v);
  values.tiles[softcap.getResult()] = TileFragment{{}, std::move(s)};
}

Value KernelEmitter::quadReduce(Value x, bool isMax) {
  return laneReduce(x, isMax, WgmmaAccumulatorAttr::kLanesPerRowPair);
}

/// Partial maxima a thread keeps per row while reducing it: each is a chain
/// of dependent max instructions (4 cycles apart on sm_90); the two rows'
/// eight chains are more than the 4 a max per cycle needs.
static constexpr size_t kRowMaxChains = 4;

void KernelEmitter::lowerRowMax(TileValues &values, RowMaxOp op) {
  // The init is the running max, so the result is max(m_old, rowmax S): a
  // row's four quad threads agree on it after the reduction.
  // A score scale f (positive: the verifier) commutes with the max, so it
  // multiplies the row's max once: max(m_old, f max S).
  // Element k of a row goes to partial maximum k mod kRowMaxChains, and the
  // partials (then the init) are combined pairwise: a row's 20-32 scores
  // (block_n = 80-128) are 7-10 dependent max instructions deep instead of
  // 20-32 in one running max, so the exponentials start earlier and more of
  // them run under the previous block's P V wgmma. max is exact, so the
  // order changes no value (at most the sign of a zero maximum).
  ArrayRef<Value> s = tileElements(values, op.getScores());
  std::optional<APFloat> scoreScale = op.getScoreScale();
  Value factor = scoreScale ? cF32(scoreScale->convertToFloat()) : Value();
  const RowFragment &init = values.rows.at(op.getInit());
  RowFragment out;
  for (int r = 0; r < kRowsPerThread; ++r) {
    SmallVector<Value> partial;
    size_t k = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      if (rowOfElement(i) != r)
        continue;
      if (k < kRowMaxChains)
        partial.push_back(s[i]);
      else
        partial[k % kRowMaxChains] =
            arith::MaxNumFOp::create(b, loc, partial[k % kRowMaxChains], s[i]);
      ++k;
    }
    if (!factor)
      partial.push_back(init.rows[r]);
    while (partial.size() > 1) {
      SmallVector<Value> next;
      for (size_t j = 0; j + 1 < partial.size(); j += 2)
        next.push_back(
            arith::MaxNumFOp::create(b, loc, partial[j], partial[j + 1]));
      if (partial.size() % 2)
        next.push_back(partial.back());
      partial = std::move(next);
    }
    out.rows[r] = quadReduce(partial.front(), /*isMax=*/true);
    if (factor)
      out.rows[r] = arith::MaxNumFOp::create(
          b, loc, init.rows[r],
          arith::MulFOp::create(b, loc, factor, out.rows[r]));
  }
  values.rows[op.getResult()] = out;
}

/// Whether scores `s` may hold -inf: they passed an attn.mask.
static bool mayBeMasked(Value s) {
  while (Operation *def = s.getDefiningOp()) {
    if (isa<MaskOp>(def))
      return true;
    if (!isa<SoftcapOp>(def))
      return false;
    s = def->getOperand(0);
  }
  return false;
}

KernelEmitter::RowValues KernelEmitter::negScaledMax(const TileValues &values,
                                                     Value rowMax, Value c) {
  const RowFragment &m = values.rows.at(rowMax);
  // Scores that passed no mask are finite, hence so is their max.
  bool masked = mayBeMasked(rowMax.getDefiningOp<RowMaxOp>().getScores());
  RowValues neg;
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value mUse = masked ? arith::SelectOp::create(b, loc, isNegInf(m.rows[r]),
                                                  cF32(0.0), m.rows[r])
                              .getResult()
                        : m.rows[r];
    neg[r] =
        arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, mUse, c));
  }
  return neg;
}

void KernelEmitter::lowerRescaleFactor(TileValues &values, RescaleFactorOp op) {
  Value c = index.lower(b, op.getScaleLog2());
  const RowFragment &mOld = values.rows.at(op.getOldMax());
  const RowFragment &mNew = values.rows.at(op.getNewMax());
  RowValues negM = negScaledMax(values, op.getNewMax(), c);
  RowFragment alpha;
  for (int r = 0; r < kRowsPerThread; ++r) {
    // a = exp2((m_old - m) c) needs no -inf guard: m_old = -inf < m gives
    // fma(-inf, c, -m c) = -inf, so a = 0. An unchanged max gives exactly 1
    // (the fma would leave the rounding error of m c), so that O *= a can
    // be skipped without changing a bit.
    Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       mOld.rows[r], mNew.rows[r]);
    alpha.rows[r] = arith::SelectOp::create(
        b, loc, same, cF32(1.0),
        exp2(LLVM::FMAOp::create(b, loc, mOld.rows[r], c, negM[r])));
    Value moved = arith::XOrIOp::create(
        b, loc, same, arith::ConstantIntOp::create(b, loc, 1, 1));
    alpha.moved =
        r == 0 ? moved
               : arith::OrIOp::create(b, loc, alpha.moved, moved).getResult();
  }
  values.rows[op.getResult()] = alpha;
}

Value KernelEmitter::rescale(Value acc, const RowValues &alpha) {
  auto type = cast<LLVM::LLVMStructType>(acc.getType());
  SmallVector<Value> o = unpack(acc, type.getBody().size());
  for (size_t i = 0; i < o.size(); ++i)
    o[i] = arith::MulFOp::create(b, loc, o[i], alpha[rowOfElement(i)]);
  return pack(o, type);
}

void KernelEmitter::lowerScaleRows(TileValues &values, ScaleRowsOp op) {
  // The running sum's rescale is its attn.row_sum's init_scale: readKvLoop
  // admits one attn.scale_rows a step, O's.
  assert(!isRowVector(op.getInput()) && "readKvLoop admits O's rescale only");
  const RowFragment &alpha = values.rows.at(op.getFactor());
  Value acc = packedTile(values, op.getInput());
  // O *= alpha only in warps where some row max moved: late in a long kv
  // range most maxima are final, and the 64-128 multiplies per block sit on
  // the softmax's critical path (FlashAttention-4 skips them the same way).
  // The vote keeps the branch uniform per warp; wgmma only needs the warps
  // to reconverge before it. Without the moved bit (alpha carried from the
  // previous step) every warp rescales.
  if (!op.getConditional() || !alpha.moved) {
    values.tiles[op.getResult()] = TileFragment{rescale(acc, alpha.rows), {}};
    return;
  }
  Value anyMoved = NVVM::VoteSyncOp::create(
      b, loc, b.getI1Type(), c32(-1), alpha.moved, NVVM::VoteSyncKind::any);
  Value scaled = ifThenElse(
      anyMoved,
      [&]() -> SmallVector<Value> { return {rescale(acc, alpha.rows)}; },
      [&]() -> SmallVector<Value> { return {acc}; })[0];
  values.tiles[op.getResult()] = TileFragment{scaled, {}};
}

void KernelEmitter::lowerExpDiff(TileValues &values, ExpDiffOp op) {
  Value c = index.lower(b, op.getScaleLog2());
  RowValues negM = negScaledMax(values, op.getRowMax(), c);
  // p = exp2(s c - m c) as one fma per score: a separate mul and sub cost
  // 64 more instructions per block on the softmax's critical path.
  // With software_exp2_period = N, element pair k (elements 2k, 2k + 1)
  // with k % N = 0 computes exp2 on the FMA pipe, the others with MUFU.EX2,
  // which softcap's tanh.approx also needs (both 16/clk/SM on sm_90).
  std::optional<uint64_t> period = op.getSoftwareExp2Period();
  // A score scale f folds into the multiplier: (f s) c = s (f c).
  ArrayRef<Value> scores = tileElements(values, op.getScores());
  std::optional<APFloat> scoreScale = op.getScoreScale();
  Value scoreMultiplier =
      scoreScale
          ? arith::MulFOp::create(b, loc, cF32(scoreScale->convertToFloat()), c)
                .getResult()
          : c;
  SmallVector<Value> p;
  for (auto [i, s] : llvm::enumerate(scores)) {
    Value x =
        LLVM::FMAOp::create(b, loc, s, scoreMultiplier, negM[rowOfElement(i)]);
    bool software = period && (i / 2) % *period == 0;
    p.push_back(software ? buildSoftwareExp2(b, loc, x) : exp2(x));
  }
  values.tiles[op.getResult()] = TileFragment{{}, std::move(p)};
}

void KernelEmitter::lowerRowSum(TileValues &values, RowSumOp op) {
  // The thread's partial sums (its columns of each row): attn.finalize
  // reduces them over the quad once, after the last block.
  ArrayRef<Value> p = tileElements(values, op.getProbs());
  Value init = op.getInit(), initScale = op.getInitScale();
  // A rescaled init joins the sum last, by one fma (l = l a + rowsum P), so
  // that the additions do not wait for the factor; a plain one starts it.
  RowFragment out;
  if (init && !initScale)
    out.rows = values.rows.at(init).rows;
  else
    out.rows = {cF32(0.0), cF32(0.0)};
  for (size_t i = 0; i < p.size(); ++i)
    out.rows[rowOfElement(i)] =
        arith::AddFOp::create(b, loc, out.rows[rowOfElement(i)], p[i]);
  if (initScale) {
    const RowFragment &sum = values.rows.at(init);
    const RowFragment &factor = values.rows.at(initScale);
    for (int r = 0; r < kRowsPerThread; ++r)
      out.rows[r] =
          LLVM::FMAOp::create(b, loc, sum.rows[r], factor.rows[r], out.rows[r]);
  }
  values.rows[op.getResult()] = out;
}

SmallVector<Value> KernelEmitter::packPairs(ArrayRef<Value> p, Type element) {
  SmallVector<Value> pairs;
  for (size_t i = 0; i < p.size(); i += 2)
    pairs.push_back(packPair(p[i], p[i + 1], element));
  return pairs;
}

void KernelEmitter::lowerTruncate(TileValues &values, TruncateOp op) {
  Type element = op.getResult().getType().getElementType();
  values.tiles[op.getResult()] =
      TileFragment{{}, packPairs(tileElements(values, op.getInput()), element)};
}

SmallVector<Value> KernelEmitter::lowerPV(TileValues &values, PVOp op) {
  // P as the GEMM's A operand: V's element type, two elements a register.
  Type element = op.getValue().getType().getElementType();
  SmallVector<Value> probs(tileElements(values, op.getProbs()));
  if (op.getProbs().getType().getElementType().isF32())
    probs = packPairs(probs, element);
  const RingSlot &value = values.slots.at(op.getValue());
  Value acc = packedTile(values, op.getAcc());
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  acc = plan.probsInRegisters() ? outputGemm(acc, probs, value.stage)
                                : outputGemmFromShared(acc, probs, value.stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  values.tiles[op.getResult()] = TileFragment{acc, {}};
  return probs;
}

void KernelEmitter::lowerTileOp(TileValues &values, Operation *op,
                                Value kvBlock, Value iteration) {
  // A tile op whose result nothing reads is not in the kernel.
  if (op->use_empty() && isMemoryEffectFree(op))
    return;
  TypeSwitch<Operation *>(op)
      .Case<RingPopOp, LoadTileOp, LoadPagedTileOp, LoadVarlenTileOp>(
          [&](Operation *o) { lowerRingSlot(values, o, iteration); })
      .Case([&](QKOp o) { lowerQK(values, o); })
      .Case([&](MaskOp o) { lowerMask(values, o, kvBlock); })
      .Case([&](SoftcapOp o) { lowerSoftcap(values, o); })
      .Case([&](RowMaxOp o) { lowerRowMax(values, o); })
      .Case([&](RescaleFactorOp o) { lowerRescaleFactor(values, o); })
      .Case([&](ScaleRowsOp o) { lowerScaleRows(values, o); })
      .Case([&](ExpDiffOp o) { lowerExpDiff(values, o); })
      .Case([&](RowSumOp o) { lowerRowSum(values, o); })
      .Case([&](TruncateOp o) { lowerTruncate(values, o); })
      .Case([&](PVOp o) { (void)lowerPV(values, o); })
      .Case([&](WaitTurnOp) { waitForTurn(); })
      .Case([&](PassTurnOp) { passTurn(); })
      // Index arithmetic is cloned where an op's lowering needs it;
      // readKvLoop admits no other op.
      .Default([](Operation *other) {
        assert(!isa<AttnDialect>(other->getDialect()) &&
               "readKvLoop admits no other attn op in a kv loop");
      });
}
