//===- KernelStep.cpp - one kv block of a consumer ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The online-softmax step of one kv block: the S wait, mask, row max and
// sum, exponentials, O rescale and P V issue, in sequence (kvStep) or with
// the previous block's P V in flight (kvStepOverlapped); the ring's stage
// and parity, the ping-pong barriers and the stage release.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

Value KernelEmitter::quadReduce(Value x, bool isMax) {
  for (int offset : {1, 2}) {
    Value other =
        NVVM::ShflOp::create(b, loc, f32(), c32(-1), x, c32(offset), c32(0x1f),
                             NVVM::ShflKind::bfly, UnitAttr());
    x = isMax ? arith::MaxNumFOp::create(b, loc, x, other).getResult()
              : arith::AddFOp::create(b, loc, x, other).getResult();
  }
  return x;
}

Value KernelEmitter::tanhApprox(Value x) {
  return LLVM::InlineAsmOp::create(
             b, loc, TypeRange{f32()}, ValueRange{x}, "tanh.approx.f32 $0, $1;",
             "=f,f", /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             ArrayAttr())
      .getResult(0);
}

void KernelEmitter::applyMask(SmallVectorImpl<Value> &s, MaskOp mask,
                              Value kvBlock) {
  // The mask's operands as the IR computes them, the kv loop's induction
  // variable being this block.
  IRMapping block;
  block.map(mask->getParentOfType<scf::ForOp>().getInductionVar(), kvBlock);
  SmallVector<Value> operands =
      index.lower(b,
                  ValueRange{mask.getRowOffset(), mask.getColOffset(),
                             mask.getSeqQ(), mask.getSeqK()},
                  &block);
  MaskSpec spec;
  spec.kind = mask.getKind();
  if (std::optional<ArrayRef<int64_t>> window = mask.getWindow())
    spec.window = SmallVector<int64_t, 2>(*window);
  // Visibility is invariant under moving query, key and both lengths by
  // the same amount along the diagonal; moving by this thread's first
  // column leaves each element a constant column, so every test compares
  // against an immediate and nothing per element stays live across the
  // loop (per-element columns made ptxas spill at block_n = 80).
  Value colBase =
      add(operands[1],
          toIndex(mul(arith::AndIOp::create(b, loc, tid, c32(3)), c32(2))));
  auto shift = [&](Value v) {
    return arith::SubIOp::create(b, loc, v, colBase).getResult();
  };
  Value firstRow = add(operands[0], toIndex(rowInTile));
  Value rows[2] = {shift(firstRow), shift(add(firstRow, cIdx(8)))};
  Value shiftedSeqQ = shift(operands[2]), shiftedSeqK = shift(operands[3]);
  for (size_t i = 0; i < s.size(); ++i) {
    Value col = cIdx(8 * (i / 4) + i % 2);
    Value visible = buildKeyVisible(b, loc, rows[(i % 4) / 2], col, shiftedSeqQ,
                                    shiftedSeqK, spec);
    s[i] = arith::SelectOp::create(b, loc, visible, s[i], negInf());
  }
}

void KernelEmitter::applySoftcap(SmallVectorImpl<Value> &s, SoftcapOp softcap) {
  float cap = softcap.getCap().convertToFloat();
  Value scale = index.lower(b, softcap.getScale());
  Value inner = arith::DivFOp::create(b, loc, scale, cF32(cap));
  Value outer = cF32(cap);
  for (Value &v : s)
    v = arith::MulFOp::create(
        b, loc, outer, tanhApprox(arith::MulFOp::create(b, loc, v, inner)));
}

bool KernelEmitter::applyScoreModifiers(SmallVectorImpl<Value> &s,
                                        const KvLoop &kv, Value kvBlock) {
  bool masked = false;
  for (Operation *op : kv.scoreModifiers) {
    if (auto mask = dyn_cast<MaskOp>(op)) {
      applyMask(s, mask, kvBlock);
      masked = true;
    } else {
      applySoftcap(s, cast<SoftcapOp>(op));
    }
  }
  return masked;
}

KernelEmitter::Softmax KernelEmitter::softmax(Value scores, Value kvBlock,
                                              const KvLoop &kv, ValueRange mOld,
                                              ValueRange lOld) {
  SmallVector<Value> s = unpack(scores, plan.blockN / 2);
  bool masked = applyScoreModifiers(s, kv, kvBlock);

  Softmax out;
  Value c = scaleLog2;
  Value mScaled[2], rowSum[2];
  for (int r = 0; r < 2; ++r) {
    Value m = mOld[r];
    for (size_t i = 0; i < s.size(); ++i)
      if ((i % 4) / 2 == size_t(r))
        m = arith::MaxNumFOp::create(b, loc, m, s[i]);
    out.m[r] = quadReduce(m, /*isMax=*/true);
    // In a masked block a row that has seen no key yet keeps m = -inf: use 0
    // so that exp2(-inf - m) is 0, not NaN. Unmasked blocks have finite
    // scores, hence a finite max.
    Value mUse = masked ? arith::SelectOp::create(b, loc, isNegInf(out.m[r]),
                                                  cF32(0.0), out.m[r])
                              .getResult()
                        : out.m[r];
    mScaled[r] = arith::MulFOp::create(b, loc, mUse, c);
    rowSum[r] = cF32(0.0);
  }
  // p = exp2(s c - m c) as one fma per score: a separate mul and sub cost
  // 64 more instructions per block on the softmax's critical path.
  Value negMScaled[2];
  for (int r = 0; r < 2; ++r) {
    negMScaled[r] = arith::NegFOp::create(b, loc, mScaled[r]);
    // a = exp2((m_old - m) c) needs no -inf guard: m_old = -inf < m gives
    // fma(-inf, c, -m c) = -inf, so a = 0. An unchanged max gives exactly 1
    // (the fma would leave the rounding error of m c), so that O *= a can
    // be skipped without changing a bit.
    Value same = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       mOld[r], out.m[r]);
    out.alpha[r] = arith::SelectOp::create(
        b, loc, same, cF32(1.0),
        exp2(LLVM::FMAOp::create(b, loc, mOld[r], c, negMScaled[r])));
    Value moved = arith::XOrIOp::create(
        b, loc, same, arith::ConstantIntOp::create(b, loc, 1, 1));
    out.maxMoved =
        r == 0 ? moved
               : arith::OrIOp::create(b, loc, out.maxMoved, moved).getResult();
  }
  out.p.resize(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    int r = (i % 4) / 2;
    out.p[i] = exp2(LLVM::FMAOp::create(b, loc, s[i], c, negMScaled[r]));
    rowSum[r] = arith::AddFOp::create(b, loc, rowSum[r], out.p[i]);
  }
  for (int r = 0; r < 2; ++r)
    out.l[r] = LLVM::FMAOp::create(b, loc, lOld[r], out.alpha[r], rowSum[r]);
  return out;
}

SmallVector<Value> KernelEmitter::packProbs(ArrayRef<Value> p) {
  SmallVector<Value> probs;
  for (size_t i = 0; i < p.size(); i += 2)
    probs.push_back(packPair(p[i], p[i + 1]));
  return probs;
}

/// O *= alpha only in warps where some row max moved: late in a long kv
/// range most maxima are final, and the 64-128 multiplies per block sit on
/// the softmax's critical path (FlashAttention-4 skips them the same way).
/// The vote keeps the branch uniform per warp; wgmma only needs the warps
/// to reconverge before it.
Value KernelEmitter::rescaleIfMoved(Value acc, const Softmax &sm) {
  if (!plan.conditionalRescale)
    return rescale(acc, sm.alpha);
  Value anyMoved = NVVM::VoteSyncOp::create(
      b, loc, b.getI1Type(), c32(-1), sm.maxMoved, NVVM::VoteSyncKind::any);
  return ifThenElse(
      anyMoved,
      [&]() -> SmallVector<Value> { return {rescale(acc, sm.alpha)}; },
      [&]() -> SmallVector<Value> { return {acc}; })[0];
}

Value KernelEmitter::rescale(Value acc, const Value alpha[2]) {
  SmallVector<Value> o = unpack(acc, plan.valueHeadDim / 2);
  for (size_t i = 0; i < o.size(); ++i)
    o[i] = arith::MulFOp::create(b, loc, o[i], alpha[(i % 4) / 2]);
  return pack(o, accType);
}

/// One arrival per warpgroup on `barrier` (a stage handed back to the
/// producer), behind the computation of `after`: ptxas schedules an arrive
/// as early as it can, and the full wgmma wait that precedes it in program
/// order moves up with it, above the softmax. Row sums are >= 0, +inf or NaN
/// (huge or bad input), so "not less than -1" is always true, and a stage is
/// never left unreleased (the producer would hang).
void KernelEmitter::arriveOncePerWarpgroup(Value barrier,
                                           ArrayRef<Value> after) {
  Value wgLeader = eqI(arith::AndIOp::create(b, loc, tid, c32(127)), c32(0));
  for (Value v : after)
    wgLeader = arith::AndIOp::create(
        b, loc, wgLeader,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, v,
                              cF32(-1.0)));
  ifThen(wgLeader, [&] {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), barrier, Value());
  });
}

/// Hands a stage's K back to the producer once its S wgmma completed, where
/// K is released early; otherwise releaseValues frees K and V together (as
/// the block barrier does without a producer).
void KernelEmitter::releaseKeys(Value stage, ArrayRef<Value> after) {
  if (plan.warpSpecialize && releasesKeysEarly())
    arriveOncePerWarpgroup(keyEmptyBarrier(stage), after);
}

void KernelEmitter::releaseValues(Value stage, Value kvBlock,
                                  ArrayRef<Value> after) {
  if (plan.warpSpecialize) {
    arriveOncePerWarpgroup(valueEmptyBarrier(stage), after);
    return;
  }
  // Everyone is done with this stage: refill it with block kb + 2.
  NVVM::Barrier0Op::create(b, loc);
  Value next = add(kvBlock, cIdx(smem.stages));
  Value refill = arith::AndIOp::create(
      b, loc, isLeader,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next, kvEnd));
  ifThen(refill, [&] { issueKeyValueLoads(stage, next); });
}

/// Iteration i of the kv loop uses stage i mod stages, in its
/// (i / stages)-th round: the mbarrier phase parity to wait for.
std::pair<Value, Value> KernelEmitter::stageAndPhase(Value iteration) {
  Value stages = c32(smem.stages);
  Value stage = arith::RemUIOp::create(b, loc, iteration, stages);
  Value phase = arith::AndIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, iteration, stages), c32(1));
  return {stage, phase};
}

Value KernelEmitter::computeScores(Value stage, Value phase) {
  waitBarrier(keyBarrier(stage), phase);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value scores = scoresGemm(stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return scores;
}

/// Ping-pong: warpgroup w issues its S wgmma only after the other warpgroup
/// issued its own (named barrier 3 + w, both warpgroups' 256 threads), so one
/// warpgroup's softmax runs while the other's GEMMs occupy the tensor cores.
Value KernelEmitter::pingPongBarrier(Value wg) {
  return add(wg, c32(kPingPongBarrierBase));
}

void KernelEmitter::pingPongWait() {
  NVVM::BarrierOp::create(b, loc, Type(), pingPongBarrier(warpgroup),
                          c32(2 * kWarpgroupThreads), nullptr, Value());
}

void KernelEmitter::pingPongArriveOther() {
  Value other = arith::SubIOp::create(b, loc, c32(1), warpgroup);
  NVVM::BarrierArriveOp::create(b, loc, pingPongBarrier(other),
                                c32(2 * kWarpgroupThreads));
}

SmallVector<Value> KernelEmitter::kvStep(Value kvBlock, Value iteration,
                                         ValueRange carried, const KvLoop &kv) {
  auto [stage, phase] = stageAndPhase(iteration);
  if (plan.pingPong())
    pingPongWait();
  Value scores = computeScores(stage, phase);
  if (plan.pingPong())
    pingPongArriveOther();
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  releaseKeys(stage);
  // V landed with K (or soon after): wait now, so that no try-wait loop
  // separates the softmax from P's conversion and the P V issue.
  waitBarrier(valueBarrier(stage), phase);
  Softmax sm =
      softmax(scores, kvBlock, kv, carried.take_front(2), carried.slice(2, 2));
  Value acc = rescaleIfMoved(carried[4], sm);
  SmallVector<Value> probs = packProbs(sm.p);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  acc = plan.probsInRegisters ? outputGemm(acc, probs, stage)
                              : outputGemmFromShared(acc, probs, stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  releaseValues(stage, kvBlock);
  return {sm.m[0], sm.m[1], sm.l[0], sm.l[1], acc};
}

SmallVector<Value> KernelEmitter::kvStepOverlapped(Value kvBlock,
                                                   Value iteration,
                                                   ValueRange carried,
                                                   const KvLoop &kv) {
  auto [stage, phase] = stageAndPhase(iteration);
  Value previous = arith::SubIOp::create(b, loc, iteration, c32(1));
  auto [prevStage, prevPhase] = stageAndPhase(previous);

  // FA3's order: issue S(j), O *= alpha(j-1) while S runs, issue
  // O += P(j-1) V(j-1), and run the softmax of block j with only S waited
  // for. Nothing after the P V issue writes O or the P registers before the
  // full wait (such writes made ptxas put the wait above the softmax). With
  // ping-pong the two issues are this warpgroup's turn. P(j-1) goes to bf16
  // before the K wait: live next to S(j) in flight, the f32 values made the
  // masked loops spill.
  SmallVector<Value> prevProbs = packProbs(unpack(carried[5], plan.blockN / 2));
  waitBarrier(keyBarrier(stage), phase);
  waitBarrier(valueBarrier(prevStage), prevPhase);
  if (plan.pingPong())
    pingPongWait();
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value scores = scoresGemm(stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  Value prevAlpha[2] = {carried[6], carried[7]};
  Value acc = rescale(carried[4], prevAlpha);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  acc = outputGemm(acc, prevProbs, prevStage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  if (plan.pingPong())
    pingPongArriveOther();
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1); // S(j) is ready
  Softmax sm =
      softmax(scores, kvBlock, kv, carried.take_front(2), carried.slice(2, 2));
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0); // P V done
  keepAlive(prevProbs);
  // After the softmax: an arrive ptxas hoisted took the full wait above it.
  releaseKeys(stage, {sm.l[0], sm.l[1]});
  releaseValues(prevStage, kvBlock, {sm.l[0], sm.l[1]});
  return {sm.m[0],     sm.m[1],    sm.l[0],
          sm.l[1],     acc,        pack(sm.p, scoresType),
          sm.alpha[0], sm.alpha[1]};
}
