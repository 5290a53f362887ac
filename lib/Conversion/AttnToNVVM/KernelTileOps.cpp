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
// Each op's conversion pattern (TileOpPatterns.cpp) calls its lowering with
// the op's operands as those values and replaces its results with the
// values it returns.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "attnc/Conversion/SoftwareExp2.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

/// The row of the thread's pair that accumulator register `i` holds.
static int64_t rowOfElement(size_t i) {
  return WgmmaAccumulatorAttr::getRegisterRow(i);
}

SmallVector<Value> KernelEmitter::lowerConstant(RankedTensorType type,
                                                double value) {
  if (isa<AccumulatorRowsAttr>(type.getEncoding()))
    return {cF32(value), cF32(value)};
  LLVM::LLVMStructType structType = fragments.convertAccumulatorType(type);
  if (value == 0.0 && !std::signbit(value))
    return {LLVM::ZeroOp::create(b, loc, structType)};
  // A 16-bit tile's registers each hold a pair of its elements.
  Value v = type.getElementType().isF32()
                ? cF32(value)
                : packPair(cF32(value), cF32(value), type.getElementType());
  return {pack(SmallVector<Value>(structType.getBody().size(), v), structType)};
}

Value KernelEmitter::lowerQK(QKOp op, ValueRange key) {
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value scores = scoresGemm(op, key[0]);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return scores;
}

Value KernelEmitter::lowerMask(MaskOp mask, Value scores, ValueRange operands) {
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
  // Packed query heads (token-major): a row is query position row / g,
  // taken before the shift (which visibility is invariant under, not the
  // division), in 32 bits (the kernel's lengths are 32-bit).
  int64_t group = spec.packedQueryHeads;
  spec.packedQueryHeads = 1;
  auto position = [&](Value row) -> Value {
    if (group == 1)
      return row;
    return toIndex(arith::DivUIOp::create(b, loc, toI32(row), c32(group)));
  };
  Value firstRow = add(operands[0], toIndex(rowInTile));
  Value rows[kRowsPerThread] = {
      shift(position(firstRow)),
      shift(position(
          add(firstRow, cIdx(WgmmaAccumulatorAttr::kRowPairDistance))))};
  Value shiftedSeqQ = shift(operands[2]), shiftedSeqK = shift(operands[3]);
  SmallVector<Value> s = unpackTile(scores);
  for (size_t i = 0; i < s.size(); ++i) {
    Value col = cIdx(WgmmaAccumulatorAttr::getRegisterColumn(i));
    Value visible = buildKeyVisible(b, loc, rows[rowOfElement(i)], col,
                                    shiftedSeqQ, shiftedSeqK, spec);
    s[i] = arith::SelectOp::create(b, loc, visible, s[i], negInf());
  }
  return pack(s, scores.getType());
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

Value KernelEmitter::lowerSoftcap(SoftcapOp softcap, Value scores,
                                  Value scale) {
  SmallVector<Value> s = unpackTile(scores);
  float cap = softcap.getCap().convertToFloat();
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
  return pack(s, scores.getType());
}

Value KernelEmitter::quadReduce(Value x, bool isMax) {
  return laneReduce(x, isMax, WgmmaAccumulatorAttr::kLanesPerRowPair);
}

/// Partial maxima a thread keeps per row while reducing it: each is a chain
/// of dependent max instructions (4 cycles apart on sm_90); the two rows'
/// eight chains are more than the 4 a max per cycle needs.
static constexpr size_t kRowMaxChains = 4;

KernelEmitter::RowValues KernelEmitter::lowerRowMax(RowMaxOp op, Value scores,
                                                    ValueRange init) {
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
  SmallVector<Value> s = unpackTile(scores);
  std::optional<APFloat> scoreScale = op.getScoreScale();
  Value factor = scoreScale ? cF32(scoreScale->convertToFloat()) : Value();
  RowValues out;
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
      partial.push_back(init[r]);
    while (partial.size() > 1) {
      SmallVector<Value> next;
      for (size_t j = 0; j + 1 < partial.size(); j += 2)
        next.push_back(
            arith::MaxNumFOp::create(b, loc, partial[j], partial[j + 1]));
      if (partial.size() % 2)
        next.push_back(partial.back());
      partial = std::move(next);
    }
    out[r] = quadReduce(partial.front(), /*isMax=*/true);
    if (factor)
      out[r] = arith::MaxNumFOp::create(
          b, loc, init[r], arith::MulFOp::create(b, loc, factor, out[r]));
  }
  return out;
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

KernelEmitter::RowValues KernelEmitter::negScaledMax(Value rowMax, ValueRange m,
                                                     Value c) {
  // Scores that passed no mask are finite, hence so is their max; a fixed
  // max (attn-softcap-fixed-max: a constant, not an attn.row_max) is finite.
  auto step = rowMax.getDefiningOp<RowMaxOp>();
  assert((step || isFixedMax(rowMax)) && "readKvLoop's step forms");
  bool masked = step && mayBeMasked(step.getScores());
  RowValues neg;
  for (int r = 0; r < kRowsPerThread; ++r) {
    Value mUse = masked ? arith::SelectOp::create(b, loc, isNegInf(m[r]),
                                                  cF32(0.0), m[r])
                              .getResult()
                        : m[r];
    neg[r] =
        arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, mUse, c));
  }
  return neg;
}

KernelEmitter::RowValues KernelEmitter::lowerRescaleFactor(RescaleFactorOp op,
                                                           ValueRange oldMax,
                                                           ValueRange newMax,
                                                           Value scaleLog2) {
  RowValues negM = negScaledMax(op.getNewMax(), newMax, scaleLog2);
  RowValues alpha;
  for (int r = 0; r < kRowsPerThread; ++r) {
    // a = exp2((m_old - m) c) needs no -inf guard: m_old = -inf < m gives
    // fma(-inf, c, -m c) = -inf, so a = 0. An unchanged max gives exactly 1
    // (the fma would leave the rounding error of m c), so that O *= a can
    // be skipped without changing a bit.
    Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       oldMax[r], newMax[r]);
    alpha[r] = arith::SelectOp::create(
        b, loc, same, cF32(1.0),
        exp2(LLVM::FMAOp::create(b, loc, oldMax[r], scaleLog2, negM[r])));
  }
  return alpha;
}

Value KernelEmitter::rescale(Value acc, ValueRange alpha) {
  auto type = cast<LLVM::LLVMStructType>(acc.getType());
  SmallVector<Value> o = unpack(acc, type.getBody().size());
  for (size_t i = 0; i < o.size(); ++i)
    o[i] = arith::MulFOp::create(b, loc, o[i], alpha[rowOfElement(i)]);
  return pack(o, type);
}

/// Whether the row of factor `alpha` moved (i1), where `alpha` is
/// lowerRescaleFactor's select(m_old == m, 1, exp2(...)) of this step: the
/// negated condition, which needs no compare. Null for another factor.
static Value rowMoved(OpBuilder &b, Location loc, Value alpha) {
  auto select = alpha.getDefiningOp<arith::SelectOp>();
  if (!select || !matchPattern(select.getTrueValue(), m_OneFloat()))
    return {};
  return arith::XOrIOp::create(b, loc, select.getCondition(),
                               arith::ConstantIntOp::create(b, loc, 1, 1));
}

Value KernelEmitter::lowerScaleRows(ScaleRowsOp op, Value acc,
                                    ValueRange alpha) {
  // O *= alpha only in warps where some row max moved: late in a long kv
  // range most maxima are final, and the 64-128 multiplies per block sit on
  // the softmax's critical path (FlashAttention-4 skips them the same way).
  // The vote keeps the branch uniform per warp; wgmma only needs the warps
  // to reconverge before it. A factor computed in another step (carried
  // into a rotated loop) has no moved bit to vote on: every warp rescales.
  Value moved;
  for (int r = 0; op.getConditional() && r < kRowsPerThread; ++r) {
    Value row = rowMoved(b, loc, alpha[r]);
    if (!row) {
      moved = {};
      break;
    }
    moved = r == 0 ? row : arith::OrIOp::create(b, loc, moved, row);
  }
  if (!moved)
    return rescale(acc, alpha);
  Value anyMoved = NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), c32(-1),
                                            moved, NVVM::VoteSyncKind::any);
  return ifThenElse(
      anyMoved, [&]() -> SmallVector<Value> { return {rescale(acc, alpha)}; },
      [&]() -> SmallVector<Value> { return {acc}; })[0];
}

Value KernelEmitter::lowerExpDiff(ExpDiffOp op, Value scores, ValueRange rowMax,
                                  Value scaleLog2) {
  RowValues negM = negScaledMax(op.getRowMax(), rowMax, scaleLog2);
  // p = exp2(s c - m c) with its exponent as one fma per score: a separate
  // mul and sub cost 64 more instructions per block on the softmax's
  // critical path.
  // With software_exp2_period = N, element pair k (elements 2k, 2k + 1)
  // with k % N = 0 computes exp2 on the FMA pipe, the others with MUFU.EX2,
  // which softcap's tanh.approx also needs (both 16/clk/SM on sm_90).
  std::optional<uint64_t> period = op.getSoftwareExp2Period();
  // A score scale f folds into the multiplier: (f s) c = s (f c).
  std::optional<APFloat> scoreScale = op.getScoreScale();
  Value scoreMultiplier =
      scoreScale ? arith::MulFOp::create(
                       b, loc, cF32(scoreScale->convertToFloat()), scaleLog2)
                       .getResult()
                 : scaleLog2;
  // Soft-capped scores that passed no mask, less a fixed max of 0: x = s c
  // is finite and bounded (attn-softcap-fixed-max's max-exponent), so the
  // software exp2 needs no underflow select and its first fma computes x.
  std::optional<double> bound = getScaledSoftcapBound(op);
  bool boundedExponent = matchPattern(op.getRowMax(), m_AnyZeroFloat()) &&
                         !op.getScores().getDefiningOp<MaskOp>() && bound &&
                         *bound <= kBoundedSoftwareExp2Domain;
  SmallVector<Value> p = unpackTile(scores);
  for (auto [i, s] : llvm::enumerate(p)) {
    bool software = period && (i / 2) % *period == 0;
    if (software && boundedExponent) {
      s = buildBoundedSoftwareExp2(b, loc, s, scoreMultiplier);
      continue;
    }
    Value x =
        LLVM::FMAOp::create(b, loc, s, scoreMultiplier, negM[rowOfElement(i)]);
    s = software ? buildSoftwareExp2(b, loc, x) : exp2(x);
  }
  return pack(p, scores.getType());
}

KernelEmitter::RowValues KernelEmitter::lowerRowSum(RowSumOp op, Value probs,
                                                    ValueRange init,
                                                    ValueRange initScale) {
  // The thread's partial sums (its columns of each row): attn.finalize
  // reduces them over the quad once, after the last block.
  SmallVector<Value> p = unpackTile(probs);
  // A rescaled init joins the sum last, by one fma (l = l a + rowsum P), so
  // that the additions do not wait for the factor; a plain one starts it.
  RowValues out;
  for (int r = 0; r < kRowsPerThread; ++r)
    out[r] = !init.empty() && initScale.empty() ? init[r] : cF32(0.0);
  for (size_t i = 0; i < p.size(); ++i)
    out[rowOfElement(i)] =
        arith::AddFOp::create(b, loc, out[rowOfElement(i)], p[i]);
  if (!initScale.empty())
    for (int r = 0; r < kRowsPerThread; ++r)
      out[r] = LLVM::FMAOp::create(b, loc, init[r], initScale[r], out[r]);
  return out;
}

SmallVector<Value> KernelEmitter::packPairs(ArrayRef<Value> p, Type element) {
  SmallVector<Value> pairs;
  for (size_t i = 0; i < p.size(); i += 2)
    pairs.push_back(packPair(p[i], p[i + 1], element));
  return pairs;
}

Value KernelEmitter::lowerTruncate(TruncateOp op, Value input) {
  Type element = op.getResult().getType().getElementType();
  return pack(packPairs(unpackTile(input), element),
              fragments.convertAccumulatorType(op.getResult().getType()));
}

SmallVector<Value> KernelEmitter::probsOperand(PVOp op, Value probs) {
  SmallVector<Value> regs = unpackTile(probs);
  if (op.getProbs().getType().getElementType().isF32())
    regs = packPairs(regs, op.getValue().getType().getElementType());
  return regs;
}

Value KernelEmitter::lowerPV(PVOp op, Value acc, Value probs,
                             ValueRange value) {
  // P as the GEMM's A operand: V's element type, two elements a register.
  SmallVector<Value> regs = probsOperand(op, probs);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  acc = tiled.probsInRegisters()
            ? outputGemm(op, acc, regs, value[0])
            : outputGemmFromShared(op, acc, regs, value[0]);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}
