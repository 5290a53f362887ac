//===- HopperKernel.cpp - build the sm_90a attention kernel ---------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One CTA computes block_m query rows of one (batch, head) (a persistent
// kernel: one such tile after another): block_m / 64 consumer warpgroups
// (128 threads each, 64 rows each) share every K/V tile. With warp
// specialization (the default on sm_90a) a producer warpgroup is added:
// setmaxnreg moves its registers to the consumers, and one of its threads
// streams Q and every K/V block into a ring of 2-3 stages (separate K and V
// mbarriers, so S = Q K^T starts before V lands), waiting on per-stage
// "empty" mbarriers that each consumer warpgroup arrives on once it is done
// with a stage. Without it, consumer thread 0 issues the loads and a block
// barrier ends every step. Per kv block, in each consumer warpgroup:
//
//   S   = wgmma SS (Q from smem, K from smem; both K-major, 128B swizzle)
//   S   = mask(S)                         (only in the masked loops)
//   m'  = max(m, rowmax S); a = exp2((m - m') c); P = exp2(S c - m' c)
//   l   = a l + rowsum P;  O = a O
//   O  += wgmma RS (P from registers as bf16/f16, V from smem, MN-major)
//
// With two consumer warpgroups they take turns issuing S (ping-pong on named
// barriers), so one's softmax overlaps the other's GEMMs. Optionally
// (intra-warpgroup-overlap) the softmax of block j runs while P V of block
// j-1 is in flight; O *= alpha(j-1) then runs while S(j) is in flight. The
// epilogue normalizes O, writes it into the Q buffer in the swizzled box layout
// and stores it with TMA; LSE is stored directly.
//
// Named barriers: 0 = whole CTA, 1..3 = per-consumer-warpgroup epilogue,
// 3..4 = ping-pong (only with exactly two consumers, so ids never clash).
//
// Accumulator layout (wgmma m64nN, f32): thread t of the warpgroup holds rows
// r0 = 16 (t / 32) + (t % 32) / 4 and r0 + 8; value 4j + e sits at row
// r0 + 8 (e / 2), column 8j + 2 (t % 4) + e % 2. Row reductions therefore
// combine the 4 threads of a quad (shuffles by 1 and 2). The same order makes
// consecutive value pairs of S exactly the A-fragment registers of the RS
// wgmma, so P never leaves registers.
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::attn;
namespace rt = attnc::rt;

static constexpr int64_t kWarpgroupThreads = 128;
static constexpr int64_t kWarpgroupRows = 64; // rows of one wgmma m64 tile
// Named barriers: 0 = whole CTA, 1..3 = per-warpgroup epilogue, 3-4 =
// ping-pong, which runs only with two consumer warpgroups (ids 1-2).
static constexpr int64_t kPingPongBarrierBase = 3;
static constexpr int64_t kAtomBytes = 128; // one 128B swizzle row
static constexpr int64_t kAtomElems = 64;  // bf16/f16 elements per atom row

SharedMemoryLayout::SharedMemoryLayout(const KernelPlan &plan) {
  int64_t width = 2; // bf16 / f16
  keyStageBytes = plan.blockN * plan.headDim * width;
  valueStageBytes = plan.blockN * plan.valueHeadDim * width;
  query = 0;
  // The Q buffer also holds the O tile in the epilogue.
  keyStages =
      query + plan.blockM * std::max(plan.headDim, plan.valueHeadDim) * width;
  stages = plan.stages;
  valueStages = keyStages + stages * keyStageBytes;
  probs = valueStages + stages * valueStageBytes;
  // P is stored as whole 64-column atoms (storeRowsSwizzled).
  int64_t probsBytes =
      plan.blockM * llvm::alignTo(plan.blockN, kAtomElems) * width;
  barriers = probs + (plan.probsInRegisters ? 0 : probsBytes);
  // Q, then full K, full V and (warp-specialized) empty mbarrier per stage,
  // then (persistent) Q free.
  total = barriers + 8 * (1 + 3 * stages + (plan.persistent ? 1 : 0));
}

namespace {

/// Emits the kernel body; one instance per kernel.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Location loc, const KernelPlan &plan)
      : b(b), loc(loc), plan(plan), smem(plan) {}

  void emit(LLVM::LLVMFuncOp func);

private:
  //===--- scalar helpers ------------------------------------------------===//
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type f32() { return b.getF32Type(); }
  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value c64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value cIdx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value cF32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value negInf() { return cF32(-INFINITY); }
  Value toIndex(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  Value toI32(Value v) { return arith::IndexCastOp::create(b, loc, i32(), v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value eqI(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value isNegInf(Value x) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                 negInf());
  }
  Value intrinsic(StringRef name, Value x) {
    return LLVM::CallIntrinsicOp::create(b, loc, f32(), b.getStringAttr(name),
                                         ValueRange{x})
        .getResult(0);
  }
  Value exp2(Value x) { return intrinsic("llvm.nvvm.ex2.approx.ftz.f", x); }
  Value log2(Value x) { return intrinsic("llvm.nvvm.lg2.approx.ftz.f", x); }
  Value quadReduce(Value x, bool isMax);
  /// scf.if with results; each branch returns the values it yields.
  SmallVector<Value> ifThenElse(Value cond,
                                function_ref<SmallVector<Value>()> thenFn,
                                function_ref<SmallVector<Value>()> elseFn) {
    auto branch = [&](function_ref<SmallVector<Value>()> fn) {
      return [&, fn](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, loc, fn());
      };
    };
    auto op = scf::IfOp::create(b, loc, cond, branch(thenFn), branch(elseFn));
    return SmallVector<Value>(op.getResults());
  }
  /// Emits `body` under `scf.if cond` with this emitter's builder.
  void ifThen(Value cond, function_ref<void()> body) {
    auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op.thenBlock()->getTerminator());
    body();
  }

  //===--- shared memory, barriers, TMA -----------------------------------===//
  Value smemPtr(int64_t offset, Value dynamicOffset = {});
  Value smemAddr32(int64_t offset, Value dynamicOffset = {});
  Value barrier(int64_t index) { return smemPtr(smem.barriers + 8 * index); }
  Value queryBarrier() { return barrier(0); }
  /// Persistent kernels: consumers arrive here once they stored a tile's O
  /// from the Q buffer, so the producer may load the next Q into it.
  Value queryFreeBarrier() {
    return smemPtr(smem.barriers + 8 + 24 * smem.stages);
  }
  Value keyBarrier(Value stage) {
    return smemPtr(smem.barriers + 8, mul(stage, c32(8)));
  }
  Value valueBarrier(Value stage) {
    return smemPtr(smem.barriers + 8 + 8 * smem.stages, mul(stage, c32(8)));
  }
  /// Consumers arrive here when they are done with a stage's K and V.
  Value emptyBarrier(Value stage) {
    return smemPtr(smem.barriers + 8 + 16 * smem.stages, mul(stage, c32(8)));
  }
  void waitBarrier(Value bar, Value phase) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, phase, c32(0x989680));
  }
  void expectBytes(Value bar, int64_t bytes) {
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), bar, c32(bytes),
                                           NVVM::MemScopeKind::CTA,
                                           /*relaxed=*/false, Value());
  }
  /// TMA-loads `rows` rows x `cols` columns of one head into `dst`, one
  /// 64-column swizzle atom per box.
  void loadTile(Value tensorMap, int64_t dstOffset, Value dstDynamicOffset,
                int64_t rows, int64_t cols, Value row, Value head, Value batch,
                Value bar);
  void issueKeyValueLoads(Value stage, Value kvBlock);

  //===--- wgmma ----------------------------------------------------------===//
  Value descriptorBase(int64_t leadingBytes, int64_t strideBytes);
  Value descriptorAt(Value base, int64_t byteOffset, Value dynamicByteOffset);
  Value kMajorSlice(int64_t bufferOffset, int64_t bufferRows, int64_t k16,
                    Value rowOffset);
  Value wgmmaSS(Value acc, Value a, Value bDesc, int64_t n, bool accumulate,
                bool bTransposed);
  Value scoresGemm(Value stage);
  Value outputGemm(Value acc, ArrayRef<Value> probs, Value stage);
  Value outputGemmFromShared(Value acc, ArrayRef<Value> probs, Value stage);
  Value valueDescriptor(Value stage, int64_t k16);
  SmallVector<Value> unpack(Value structValue, int64_t n);
  Value pack(ArrayRef<Value> values, Type structType);
  Value packPair(Value lo, Value hi);

  //===--- the online-softmax step ----------------------------------------===//
  /// Online-softmax state after one block: running max and sum of the
  /// thread's two rows, the rescale factor and P in f32 (packProbs makes it
  /// the RS A fragment).
  struct Softmax {
    Value m[2], l[2], alpha[2];
    /// i1: a row max of this thread moved (alpha != 1).
    Value maxMoved;
    SmallVector<Value> p;
  };
  SmallVector<Value> packProbs(ArrayRef<Value> p);
  Softmax softmax(Value scores, Value kvBlock, bool masked, ValueRange mOld,
                  ValueRange lOld);
  Value rescale(Value acc, const Value alpha[2]);
  Value rescaleIfMoved(Value acc, const Softmax &sm);
  /// Frees `stage` for the next K/V loads; the arrival waits for `after`.
  void releaseStage(Value stage, Value kvBlock, ArrayRef<Value> after = {});
  std::pair<Value, Value> stageAndPhase(Value iteration);
  Value computeScores(Value stage, Value phase);
  void keepAlive(ArrayRef<Value> values);
  Value pingPongBarrier(Value wg);
  void pingPongWait();
  void pingPongArriveOther();
  /// One kv block, GEMMs and softmax in sequence.
  SmallVector<Value> kvStep(Value kvBlock, Value iteration, ValueRange carried,
                            bool masked);
  /// One kv block with the P V of the previous block overlapping this
  /// block's softmax; also carries the previous block's P (f32) and alpha.
  SmallVector<Value> kvStepOverlapped(Value kvBlock, Value iteration,
                                      ValueRange carried, bool masked);
  /// The loop bounds of the current tile's kv loops (bounds.front() is its
  /// first kv block, bounds.back() its end) and its number of kv blocks.
  struct TileBounds {
    SmallVector<Value> bounds;
    Value blocks;
  };
  /// Makes query block `qBlock` of (`headIndex`, `batchIndex`) the current
  /// tile: head, batch, kv head, rowBegin and this thread's row0.
  void setTile(Value qBlock, Value headIndex, Value batchIndex);
  /// The current tile's kv range, split as attn-split-masked-loops splits it;
  /// also sets kvEnd.
  TileBounds tileBounds();
  void loadQuery();
  /// Ring iteration of the tile's `local`-th kv block (persistent kernels
  /// continue the count of the previous tiles).
  Value ringIteration(Value iterationBase, Value local) {
    return plan.persistent ? add(iterationBase, local) : local;
  }
  void forEachTile(function_ref<Value(Value, Value)> body);
  /// Consumer warpgroups on the current tile: wait for Q (mbarrier parity
  /// `queryPhase`), run the kv loops (ring iterations from `iterationBase`
  /// on), store O and LSE.
  void emitConsumer(Value output, Value lse, ArrayRef<Value> bounds,
                    Value iterationBase, Value queryPhase);
  void storeOutputTile(ArrayRef<Value> o, const Value inv[2], Value outputMap);
  void storeRowsSwizzled(ArrayRef<Value> pairs, int64_t bufferOffset,
                         int64_t bufferRows);

  OpBuilder &b;
  Location loc;
  const KernelPlan &plan;
  SharedMemoryLayout smem;

  // Kernel-wide values.
  Value smemBase, tmQuery, tmKey, tmValue;
  Value tid, lane, warpgroup, warpInGroup, row0, isLeader;
  Value batch, head, kvHead, rowBegin;
  Value seqQ, seqK, kvEnd;
  /// Persistent kernels: the batch size (a kernel parameter).
  Value batchCount;
  /// Descriptors of shared-memory offset 0: K-major operands (Q, K, P: rows
  /// of 128 bytes, 8-row groups 1024 B apart) and V (MN-major: 64-column
  /// atoms block_n rows apart).
  Value kMajorDescriptor, valueMajorDescriptor;
  Type accType, scoresType;
};

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

Value KernelEmitter::smemPtr(int64_t offset, Value dynamicOffset) {
  Value off = c32(offset);
  if (dynamicOffset)
    off = add(off, dynamicOffset);
  return LLVM::GEPOp::create(b, loc, smemBase.getType(), b.getI8Type(),
                             smemBase, ValueRange{off});
}

Value KernelEmitter::smemAddr32(int64_t offset, Value dynamicOffset) {
  Value ptr = smemPtr(offset, dynamicOffset);
  return LLVM::PtrToIntOp::create(b, loc, i32(), ptr);
}

void KernelEmitter::loadTile(Value tensorMap, int64_t dstOffset,
                             Value dstDynamicOffset, int64_t rows, int64_t cols,
                             Value row, Value headIdx, Value batchIdx,
                             Value bar) {
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  for (int64_t atom = 0; atom < cols / kAtomElems; ++atom) {
    Value dst = smemPtr(dstOffset + atom * rows * kAtomBytes, dstDynamicOffset);
    dst = LLVM::AddrSpaceCastOp::create(b, loc, clusterPtr, dst);
    SmallVector<Value> coords = {c32(atom * kAtomElems), row, headIdx,
                                 batchIdx};
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, tensorMap, coords, bar, ValueRange{}, Value(), Value(),
        NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr, Value());
  }
}

void KernelEmitter::issueKeyValueLoads(Value stage, Value kvBlock) {
  Value row = toI32(mul(kvBlock, cIdx(plan.blockN)));
  Value kb = keyBarrier(stage), vb = valueBarrier(stage);
  expectBytes(kb, smem.keyStageBytes);
  loadTile(tmKey, smem.keyStages, mul(stage, c32(smem.keyStageBytes)),
           plan.blockN, plan.headDim, row, kvHead, batch, kb);
  expectBytes(vb, smem.valueStageBytes);
  loadTile(tmValue, smem.valueStages, mul(stage, c32(smem.valueStageBytes)),
           plan.blockN, plan.valueHeadDim, row, kvHead, batch, vb);
}

/// The wgmma shared-memory descriptor (128-byte swizzle) of the start of
/// dynamic shared memory, built once per kernel. Its bits 0-13 hold the
/// address >> 4; shared addresses stay below 2^18, so the descriptor of
/// base + offset is this one plus offset >> 4 (descriptorAt): each GEMM
/// then adds an immediate instead of rebuilding the descriptor (that cost
/// ~7 instructions per wgmma, ~110 per kv block at D = 128).
Value KernelEmitter::descriptorBase(int64_t leadingBytes, int64_t strideBytes) {
  Value start = arith::ExtUIOp::create(
      b, loc, i64(), arith::ShRUIOp::create(b, loc, smemAddr32(0), c32(4)));
  int64_t fixed = ((leadingBytes >> 4) << 16) | ((strideBytes >> 4) << 32) |
                  (int64_t(1) << 62);
  return arith::OrIOp::create(b, loc, start, c64(fixed));
}

/// The descriptor `byteOffset` (+ `dynamicByteOffset`, a multiple of 16)
/// bytes past `base`'s address.
Value KernelEmitter::descriptorAt(Value base, int64_t byteOffset,
                                  Value dynamicByteOffset) {
  Value desc = base;
  if (dynamicByteOffset)
    desc = arith::AddIOp::create(
        b, loc, desc,
        arith::ExtUIOp::create(
            b, loc, i64(),
            arith::ShRUIOp::create(b, loc, dynamicByteOffset, c32(4))));
  return byteOffset ? arith::AddIOp::create(b, loc, desc, c64(byteOffset >> 4))
                          .getResult()
                    : desc;
}

SmallVector<Value> KernelEmitter::unpack(Value structValue, int64_t n) {
  SmallVector<Value> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, structValue, i));
  return values;
}

Value KernelEmitter::pack(ArrayRef<Value> values, Type structType) {
  Value s = LLVM::PoisonOp::create(b, loc, structType);
  for (auto [i, v] : llvm::enumerate(values))
    s = LLVM::InsertValueOp::create(b, loc, s, v, int64_t(i));
  return s;
}

Value KernelEmitter::packPair(Value lo, Value hi) {
  auto pairType = VectorType::get({2}, f32());
  Value v = LLVM::PoisonOp::create(b, loc, pairType);
  v = LLVM::InsertElementOp::create(b, loc, v, lo, c32(0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, c32(1));
  Value narrow = LLVM::FPTruncOp::create(
      b, loc, VectorType::get({2}, plan.elementType), v);
  return LLVM::BitcastOp::create(b, loc, i32(), narrow);
}

/// The K-major operand slice k16 (16 columns) of a tile stored as 64-column
/// atoms `bufferRows` rows apart at `bufferOffset` (+ `rowOffset` bytes).
Value KernelEmitter::kMajorSlice(int64_t bufferOffset, int64_t bufferRows,
                                 int64_t k16, Value rowOffset) {
  int64_t atom = k16 / 4, within = (k16 % 4) * 32;
  return descriptorAt(kMajorDescriptor,
                      bufferOffset + atom * bufferRows * kAtomBytes + within,
                      rowOffset);
}

/// One m64nNk16 wgmma SS (A K-major; B K-major, or MN-major with
/// `bTransposed`) accumulating into `acc` (or overwriting it).
Value KernelEmitter::wgmmaSS(Value acc, Value a, Value bDesc, int64_t n,
                             bool accumulate, bool bTransposed) {
  NVVM::WGMMATypes type = plan.elementType.isBF16() ? NVVM::WGMMATypes::bf16
                                                    : NVVM::WGMMATypes::f16;
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, a, bDesc,
      NVVM::MMAShapeAttr::get(b.getContext(), 64, n, 16), type, type,
      NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      bTransposed ? NVVM::MMALayout::row : NVVM::MMALayout::col, nullptr);
}

Value KernelEmitter::scoresGemm(Value stage) {
  Value s = LLVM::ZeroOp::create(b, loc, scoresType);
  Value keyStage = mul(stage, c32(smem.keyStageBytes));
  // This warpgroup's 64 rows inside each 128-byte-wide Q box.
  Value queryRows = mul(warpgroup, c32(kWarpgroupRows * kAtomBytes));
  for (int64_t k = 0; k < plan.headDim / 16; ++k)
    s = wgmmaSS(s, kMajorSlice(smem.query, plan.blockM, k, queryRows),
                kMajorSlice(smem.keyStages, plan.blockN, k, keyStage),
                plan.blockN, /*accumulate=*/k != 0, /*bTransposed=*/false);
  return s;
}

/// O += P V with P in registers: the RS form of wgmma, which neither NVVM
/// nor NVGPU can express in MLIR 22, as one inline-asm statement per k16.
Value KernelEmitter::outputGemm(Value acc, ArrayRef<Value> probs, Value stage) {
  int64_t n = plan.valueHeadDim / 2; // accumulator registers per thread
  std::string el = plan.elementType.isBF16() ? "bf16" : "f16";
  std::string asmText =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(2 * n + 5) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
      std::to_string(plan.valueHeadDim) + "k16.f32." + el + "." + el + " {";
  for (int64_t i = 0; i < n; ++i)
    asmText += (i ? ", $" : "$") + std::to_string(i);
  asmText += "}, {$" + std::to_string(2 * n) + ", $" +
             std::to_string(2 * n + 1) + ", $" + std::to_string(2 * n + 2) +
             ", $" + std::to_string(2 * n + 3) + "}, $" +
             std::to_string(2 * n + 4) + ", p, 1, 1, 1;\n}";
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < n; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "r,r,r,r,l,n";

  for (int64_t t = 0; t < plan.blockN / 16; ++t) {
    Value desc = valueDescriptor(stage, t);
    SmallVector<Value> operands = unpack(acc, n);
    for (int64_t r = 0; r < 4; ++r)
      operands.push_back(probs[4 * t + r]);
    operands.push_back(desc);
    operands.push_back(c32(1));
    acc =
        LLVM::InlineAsmOp::create(
            b, loc, TypeRange{accType}, operands, asmText, constraints,
            /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
            ArrayAttr())
            .getResult(0);
  }
  return acc;
}

/// V's k16-th slice of 16 keys as the B operand of P V.
Value KernelEmitter::valueDescriptor(Value stage, int64_t k16) {
  return descriptorAt(valueMajorDescriptor,
                      smem.valueStages + k16 * 16 * kAtomBytes,
                      mul(stage, c32(smem.valueStageBytes)));
}

/// O += P V with P written to shared memory first and read by wgmma SS: the
/// path FA3 compares the RS form against (probs-in-registers=false).
Value KernelEmitter::outputGemmFromShared(Value acc, ArrayRef<Value> probs,
                                          Value stage) {
  storeRowsSwizzled(probs, smem.probs, plan.blockM);
  // The generic-proxy stores must be visible to wgmma (async proxy) and
  // complete in the whole warpgroup before it reads P.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(b, loc, Type(), add(warpgroup, c32(1)),
                          c32(kWarpgroupThreads), nullptr, Value());
  Value probRows = mul(warpgroup, c32(kWarpgroupRows * kAtomBytes));
  for (int64_t t = 0; t < plan.blockN / 16; ++t)
    acc = wgmmaSS(acc, kMajorSlice(smem.probs, plan.blockM, t, probRows),
                  valueDescriptor(stage, t), plan.valueHeadDim,
                  /*accumulate=*/true, /*bTransposed=*/true);
  return acc;
}

KernelEmitter::Softmax KernelEmitter::softmax(Value scores, Value kvBlock,
                                              bool masked, ValueRange mOld,
                                              ValueRange lOld) {
  SmallVector<Value> s = unpack(scores, plan.blockN / 2);
  if (masked) {
    // Visibility is invariant under moving query, key and both lengths by
    // the same amount along the diagonal; moving by this thread's first
    // column leaves each element a constant column, so every test compares
    // against an immediate and nothing per element stays live across the
    // loop (per-element columns made ptxas spill at block_n = 80).
    Value colBase =
        add(mul(kvBlock, cIdx(plan.blockN)),
            toIndex(mul(arith::AndIOp::create(b, loc, tid, c32(3)), c32(2))));
    auto shift = [&](Value v) {
      return arith::SubIOp::create(b, loc, v, colBase).getResult();
    };
    Value rows[2] = {shift(toIndex(row0)), shift(toIndex(add(row0, c32(8))))};
    Value shiftedSeqQ = shift(toIndex(seqQ)),
          shiftedSeqK = shift(toIndex(seqK));
    for (size_t i = 0; i < s.size(); ++i) {
      Value col = cIdx(8 * (i / 4) + i % 2);
      Value visible = buildKeyVisible(b, loc, rows[(i % 4) / 2], col,
                                      shiftedSeqQ, shiftedSeqK, plan.mask);
      s[i] = arith::SelectOp::create(b, loc, visible, s[i], negInf());
    }
  }

  Softmax out;
  Value c = cF32(plan.scaleLog2);
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

void KernelEmitter::releaseStage(Value stage, Value kvBlock,
                                 ArrayRef<Value> after) {
  if (plan.warpSpecialize) {
    // Hand the stage back to the producer: one arrival per warpgroup, after
    // its wgmma reads of K and V completed.
    Value wgLeader = eqI(arith::AndIOp::create(b, loc, tid, c32(127)), c32(0));
    // ptxas schedules an arrive as early as it can, and the wgmma wait that
    // must precede it moves up with it. Predicating it on `after` keeps both
    // behind the computation of those values: row sums are >= 0, +inf or
    // NaN (huge or bad input), so "not less than -1" is always true, and a
    // stage is never left unreleased (the producer would hang).
    for (Value v : after)
      wgLeader = arith::AndIOp::create(
          b, loc, wgLeader,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, v,
                                cF32(-1.0)));
    ifThen(wgLeader, [&] {
      NVVM::MBarrierArriveOp::create(b, loc, Type(), emptyBarrier(stage),
                                     Value());
    });
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
                                         ValueRange carried, bool masked) {
  auto [stage, phase] = stageAndPhase(iteration);
  if (plan.pingPong())
    pingPongWait();
  Value scores = computeScores(stage, phase);
  if (plan.pingPong())
    pingPongArriveOther();
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  // V landed with K (or soon after): wait now, so that no try-wait loop
  // separates the softmax from P's conversion and the P V issue.
  waitBarrier(valueBarrier(stage), phase);
  Softmax sm = softmax(scores, kvBlock, masked, carried.take_front(2),
                       carried.slice(2, 2));
  Value acc = rescaleIfMoved(carried[4], sm);
  SmallVector<Value> probs = packProbs(sm.p);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  acc = plan.probsInRegisters ? outputGemm(acc, probs, stage)
                              : outputGemmFromShared(acc, probs, stage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  releaseStage(stage, kvBlock);
  return {sm.m[0], sm.m[1], sm.l[0], sm.l[1], acc};
}

SmallVector<Value> KernelEmitter::kvStepOverlapped(Value kvBlock,
                                                   Value iteration,
                                                   ValueRange carried,
                                                   bool masked) {
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
  Softmax sm = softmax(scores, kvBlock, masked, carried.take_front(2),
                       carried.slice(2, 2));
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0); // P V done
  keepAlive(prevProbs);
  // After the softmax: an arrive ptxas hoisted took the full wait above it.
  releaseStage(prevStage, kvBlock, {sm.l[0], sm.l[1]});
  return {sm.m[0],     sm.m[1],    sm.l[0],
          sm.l[1],     acc,        pack(sm.p, scoresType),
          sm.alpha[0], sm.alpha[1]};
}

/// The in-flight RS wgmma reads these registers until wgmma.wait_group;
/// using them in an (empty) asm statement after the wait keeps the register
/// allocator from reusing them earlier.
void KernelEmitter::keepAlive(ArrayRef<Value> values) {
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += i ? ",r" : "r";
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, values, "", constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

void KernelEmitter::emit(LLVM::LLVMFuncOp func) {
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  MLIRContext *ctx = b.getContext();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  smemBase = LLVM::AddressOfOp::create(b, loc, sharedPtr, "attn_smem");
  tmQuery = entry->getArgument(0);
  tmKey = entry->getArgument(1);
  tmValue = entry->getArgument(2);
  Value output = entry->getArgument(3); // O's tensor map
  Value lse = plan.hasLse ? entry->getArgument(4) : Value();
  seqQ = entry->getArgument(plan.hasLse ? 5 : 4);
  seqK = entry->getArgument(plan.hasLse ? 6 : 5);
  if (plan.persistent)
    batchCount = entry->getArgument(plan.hasLse ? 7 : 6);

  scoresType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(plan.blockN / 2, f32()));
  accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(plan.valueHeadDim / 2, f32()));

  kMajorDescriptor = descriptorBase(16, 1024);
  valueMajorDescriptor = descriptorBase(plan.blockN * kAtomBytes, 1024);
  tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  lane = arith::AndIOp::create(b, loc, tid, c32(31));
  // Consumer warpgroup wg owns rows [64 wg, 64 wg + 64) of the query block;
  // with warp specialization warpgroup 0 is the producer.
  Value rawWarpgroup = arith::ShRUIOp::create(b, loc, tid, c32(7));
  warpgroup =
      plan.warpSpecialize
          ? arith::SubIOp::create(b, loc, rawWarpgroup, c32(1)).getResult()
          : rawWarpgroup;
  warpInGroup = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, tid, c32(5)), c32(3));
  isLeader = eqI(tid, c32(0));
  if (!plan.persistent) {
    Value qBlock = NVVM::BlockIdXOp::create(b, loc, i32());
    if (plan.longestFirst)
      qBlock = arith::SubIOp::create(
          b, loc,
          arith::SubIOp::create(
              b, loc, NVVM::GridDimXOp::create(b, loc, i32()), c32(1)),
          qBlock);
    Value headIndex = NVVM::BlockIdYOp::create(b, loc, i32());
    Value batchIndex = NVVM::BlockIdZOp::create(b, loc, i32());
    setTile(qBlock, headIndex, batchIndex);
  }

  // Barriers: one arrival (the leader's expect_tx) plus the TMA bytes; the
  // empty ones (and the persistent kernel's Q-free one) one per consumer
  // warpgroup.
  ifThen(isLeader, [&] {
    for (int64_t i = 0; i < 1 + 2 * smem.stages; ++i)
      NVVM::MBarrierInitOp::create(b, loc, barrier(i), c32(1), Value());
    for (int64_t i = 0; i < smem.stages; ++i)
      NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(c32(i)),
                                   c32(plan.consumerWarpgroups()), Value());
    if (plan.persistent)
      NVVM::MBarrierInitOp::create(b, loc, queryFreeBarrier(),
                                   c32(plan.consumerWarpgroups()), Value());
    // Make the initialized barriers visible to the TMA unit.
    NVVM::FenceMbarrierInitOp::create(b, loc);
  });
  NVVM::Barrier0Op::create(b, loc);
  // A persistent kernel computes each tile's bounds in its tile loops.
  TileBounds fixedTile;
  if (!plan.persistent)
    fixedTile = tileBounds();

  if (!plan.warpSpecialize) {
    // Thread 0 is producer and consumer: it fills both stages up front and
    // refills each after the block barrier that ends its use (kvStep).
    const TileBounds &tile = fixedTile;
    ifThen(isLeader, [&] {
      loadQuery();
      for (int64_t s = 0; s < smem.stages; ++s) {
        Value kb = add(tile.bounds.front(), cIdx(s));
        Value inRange =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, kb, kvEnd);
        ifThen(inRange, [&] { issueKeyValueLoads(c32(s), kb); });
      }
    });
    emitConsumer(output, lse, tile.bounds, c32(0), c32(0));
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return;
  }

  // Producer warpgroup (few registers): one thread streams every K/V block
  // into the ring, waiting for the consumers to release a stage. Consumer
  // warpgroups (the registers freed by the producer) compute. Both walk the
  // same tiles and count ring iterations across them.
  auto role = scf::IfOp::create(b, loc, eqI(rawWarpgroup, c32(0)),
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(role.thenBlock()->getTerminator());
    NVVM::SetMaxRegisterOp::create(b, loc, plan.producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    ifThen(isLeader, [&] {
      forEachTile([&](Value iterationBase, Value tileCount) {
        TileBounds tile = plan.persistent ? tileBounds() : fixedTile;
        Value begin = tile.bounds.front();
        // Q waits until the consumers stored the previous tile's O from its
        // buffer; the first K/V block does not, so it loads meanwhile.
        auto loadQueryWhenFree = [&] {
          if (plan.persistent)
            waitBarrier(queryFreeBarrier(),
                        arith::XOrIOp::create(
                            b, loc, arith::AndIOp::create(b, loc, tileCount,
                                                          c32(1)),
                            c32(1)));
          loadQuery();
        };
        if (!plan.persistent)
          loadQuery();
        auto loop = scf::ForOp::create(b, loc, begin, kvEnd, cIdx(1));
        {
          OpBuilder::InsertionGuard loopGuard(b);
          b.setInsertionPoint(loop.getBody()->getTerminator());
          Value kb = loop.getInductionVar();
          Value it = ringIteration(
              iterationBase, toI32(arith::SubIOp::create(b, loc, kb, begin)));
          auto [stage, phase] = stageAndPhase(it);
          // The first use of a stage waits on the phase before the
          // barrier's first, which counts as complete.
          Value parity = arith::XOrIOp::create(b, loc, phase, c32(1));
          waitBarrier(emptyBarrier(stage), parity);
          issueKeyValueLoads(stage, kb);
          if (plan.persistent)
            ifThen(eqI(kb, begin), loadQueryWhenFree);
        }
        if (plan.persistent)
          ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       begin, kvEnd),
                 loadQueryWhenFree);
        return add(iterationBase, tile.blocks);
      });
    });
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(role.elseBlock()->getTerminator());
    NVVM::SetMaxRegisterOp::create(b, loc, plan.consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    forEachTile([&](Value iterationBase, Value tileCount) {
      TileBounds tile = plan.persistent ? tileBounds() : fixedTile;
      Value queryPhase =
          plan.persistent ? arith::AndIOp::create(b, loc, tileCount, c32(1))
                                .getResult()
                          : c32(0);
      emitConsumer(output, lse, tile.bounds, iterationBase, queryPhase);
      return add(iterationBase, tile.blocks);
    });
  }
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

void KernelEmitter::setTile(Value qBlock, Value headIndex, Value batchIndex) {
  head = headIndex;
  batch = batchIndex;
  kvHead = plan.groupSize() == 1
               ? head
               : arith::DivUIOp::create(b, loc, head, c32(plan.groupSize()))
                     .getResult();
  rowBegin = mul(qBlock, c32(plan.blockM));
  row0 = add(add(rowBegin, mul(warpgroup, c32(kWarpgroupRows))),
             add(mul(warpInGroup, c32(16)),
                 arith::ShRUIOp::create(b, loc, lane, c32(2))));
}

KernelEmitter::TileBounds KernelEmitter::tileBounds() {
  Value seqQIdx = toIndex(seqQ), seqKIdx = toIndex(seqK);
  KvBlockRange range =
      buildKvBlockRange(b, loc, toIndex(rowBegin), seqQIdx, seqKIdx,
                        plan.blockM, plan.blockN, plan.mask);
  kvEnd = range.end;
  auto clamp = [&](Value v, Value lo, Value hi) -> Value {
    return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo),
                                  hi);
  };
  // The same partition of [begin, end) as attn-split-masked-loops.
  TileBounds tile;
  tile.bounds = {range.begin};
  SmallVector<bool> loopIsMasked = plan.loopIsMasked();
  if (loopIsMasked.size() == 3)
    tile.bounds.push_back(clamp(range.fullBegin, range.begin, range.end));
  if (loopIsMasked.size() >= 2)
    tile.bounds.push_back(clamp(range.fullEnd, tile.bounds.back(), range.end));
  tile.bounds.push_back(range.end);
  tile.blocks = toI32(arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, range.end, range.begin), cIdx(0)));
  return tile;
}

void KernelEmitter::loadQuery() {
  Value qb = queryBarrier();
  expectBytes(qb, plan.blockM * plan.headDim * 2);
  loadTile(tmQuery, smem.query, Value(), plan.blockM, plan.headDim, rowBegin,
           head, batch, qb);
}

/// Runs `body` for this CTA's tile (set from the block index), or, in a
/// persistent kernel, for tiles blockIdx.x, blockIdx.x + gridDim.x, ... of
/// the ceil(Nq / block_m) x heads x batch tiles, query blocks fastest (the
/// order the hardware launches a non-persistent grid in; longest first
/// reverses them). `body` gets and returns the ring iteration at which the
/// tile starts; it also gets how many tiles this CTA did before.
void KernelEmitter::forEachTile(function_ref<Value(Value, Value)> body) {
  if (!plan.persistent) {
    body(c32(0), c32(0));
    return;
  }
  Value qBlocks = arith::DivUIOp::create(
      b, loc, add(seqQ, c32(plan.blockM - 1)), c32(plan.blockM));
  Value tiles = mul(mul(qBlocks, c32(plan.headsQ)), batchCount);
  Value first = toIndex(NVVM::BlockIdXOp::create(b, loc, i32()));
  Value end = toIndex(tiles);
  Value stride = toIndex(NVVM::GridDimXOp::create(b, loc, i32()));
  auto loop = scf::ForOp::create(b, loc, first, end, stride,
                                 ValueRange{c32(0), c32(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = toI32(loop.getInductionVar());
  Value qIndex = arith::RemUIOp::create(b, loc, t, qBlocks);
  Value headAndBatch = arith::DivUIOp::create(b, loc, t, qBlocks);
  Value qBlock =
      plan.longestFirst
          ? arith::SubIOp::create(b, loc, arith::SubIOp::create(b, loc, qBlocks,
                                                                c32(1)),
                                  qIndex)
                .getResult()
          : qIndex;
  Value headIndex =
      arith::RemUIOp::create(b, loc, headAndBatch, c32(plan.headsQ));
  Value batchIndex =
      arith::DivUIOp::create(b, loc, headAndBatch, c32(plan.headsQ));
  setTile(qBlock, headIndex, batchIndex);
  Value tileCount = loop.getRegionIterArgs()[1];
  Value next = body(loop.getRegionIterArgs()[0], tileCount);
  scf::YieldOp::create(b, loc, ValueRange{next, add(tileCount, c32(1))});
}

/// The consumer warpgroups: wait for Q, run the kv loops, store O and LSE.
void KernelEmitter::emitConsumer(Value output, Value lse,
                                 ArrayRef<Value> bounds, Value iterationBase,
                                 Value queryPhase) {
  MLIRContext *ctx = b.getContext();
  Value kvBegin = bounds.front();
  waitBarrier(queryBarrier(), queryPhase);
  Value zeroAcc = LLVM::ZeroOp::create(b, loc, accType);
  SmallVector<Value> carried = {negInf(), negInf(), cF32(0.0), cF32(0.0),
                                zeroAcc};
  auto emitLoops = [&](ArrayRef<Value> loopBounds, auto step) {
    for (auto [i, masked] : llvm::enumerate(plan.loopIsMasked())) {
      auto loop = scf::ForOp::create(b, loc, loopBounds[i], loopBounds[i + 1],
                                     cIdx(1), carried);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kb = loop.getInductionVar();
      Value iteration = ringIteration(
          iterationBase, toI32(arith::SubIOp::create(b, loc, kb, kvBegin)));
      scf::YieldOp::create(
          b, loc, step(kb, iteration, loop.getRegionIterArgs(), masked));
      carried = loop.getResults();
    }
  };

  if (plan.pingPong()) {
    // Warpgroup 0 goes first: warpgroup 1 pre-arrives on its barrier.
    ifThen(eqI(warpgroup, c32(1)), [&] { pingPongArriveOther(); });
  }
  if (!plan.overlapSoftmax()) {
    emitLoops(bounds, [&](Value kb, Value it, ValueRange c, bool masked) {
      return kvStep(kb, it, c, masked);
    });
  } else {
    // Block `begin` alone (S and softmax), then blocks begin+1.. with the
    // previous block's P V overlapping, then the last block's P V.
    Value hasBlocks = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            kvBegin, kvEnd);
    // Carried: m, l, O, then block j-1's P (f32, the S layout) and alpha.
    auto first = ifThenElse(
        hasBlocks,
        [&]() -> SmallVector<Value> {
          if (plan.pingPong())
            pingPongWait();
          auto [stage, phase] = plan.persistent
                                    ? stageAndPhase(iterationBase)
                                    : std::pair<Value, Value>{c32(0), c32(0)};
          Value scores = computeScores(stage, phase);
          if (plan.pingPong())
            pingPongArriveOther();
          NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
          Softmax sm = softmax(scores, kvBegin, /*masked=*/true,
                               ValueRange{carried[0], carried[1]},
                               ValueRange{carried[2], carried[3]});
          return {sm.m[0],     sm.m[1],    sm.l[0],
                  sm.l[1],     zeroAcc,    pack(sm.p, scoresType),
                  sm.alpha[0], sm.alpha[1]};
        },
        [&]() -> SmallVector<Value> {
          return {carried[0], carried[1],
                  carried[2], carried[3],
                  zeroAcc,    LLVM::ZeroOp::create(b, loc, scoresType),
                  cF32(1.0),  cF32(1.0)};
        });
    carried = first;
    Value second = add(kvBegin, cIdx(1));
    SmallVector<Value> shifted;
    for (Value bound : bounds)
      shifted.push_back(arith::MaxSIOp::create(b, loc, bound, second));
    emitLoops(shifted, [&](Value kb, Value it, ValueRange c, bool masked) {
      return kvStepOverlapped(kb, it, c, masked);
    });
    Value acc = ifThenElse(
        hasBlocks,
        [&]() -> SmallVector<Value> {
          Value last = ringIteration(
              iterationBase,
              toI32(arith::SubIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, kvEnd, cIdx(1)),
                  kvBegin)));
          auto [stage, phase] = stageAndPhase(last);
          waitBarrier(valueBarrier(stage), phase);
          Value alpha[2] = {carried[6], carried[7]};
          Value out = rescale(carried[4], alpha);
          SmallVector<Value> probs =
              packProbs(unpack(carried[5], plan.blockN / 2));
          NVVM::WgmmaFenceAlignedOp::create(b, loc);
          out = outputGemm(out, probs, stage);
          NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
          NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
          // The next tile's loads reuse this stage.
          if (plan.persistent)
            releaseStage(stage, kvEnd);
          return {out};
        },
        [&]() -> SmallVector<Value> { return {carried[4]}; })[0];
    carried = {carried[0], carried[1], carried[2], carried[3], acc};
  }

  // Epilogue: O = acc / l through shared memory and a TMA store (which clips
  // rows past Nq); LSE = m * scale + ln l stored directly.
  Value l[2] = {quadReduce(carried[2], false), quadReduce(carried[3], false)};
  Value empty[2], inv[2];
  for (int r = 0; r < 2; ++r) {
    empty[r] = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, l[r],
                                     cF32(0.0));
    inv[r] =
        arith::SelectOp::create(b, loc, empty[r], cF32(0.0),
                                arith::DivFOp::create(b, loc, cF32(1.0), l[r]));
  }
  // Warpgroup 1 arrived once more than warpgroup 0 waited (its
  // pre-arrival): consume it so no arrival is left pending. After the O
  // store, and not right after the loops: there it held up warpgroup 0's
  // epilogue until warpgroup 1's last S wgmma, and an arrival made
  // conditional in the loop cost up to 12 % (run 10). A persistent kernel
  // consumes it before the store, whose Q-free arrival lets warpgroup 1 go
  // on to the next tile's pre-arrival (two arrivals of one warpgroup on a
  // barrier must not meet).
  auto consumePreArrival = [&] {
    if (plan.pingPong())
      ifThen(eqI(warpgroup, c32(0)), [&] {
        NVVM::BarrierOp::create(b, loc, Type(), pingPongBarrier(c32(0)),
                                c32(2 * kWarpgroupThreads), nullptr, Value());
      });
  };
  if (plan.persistent)
    consumePreArrival();
  storeOutputTile(unpack(carried[4], plan.valueHeadDim / 2), inv, output);
  if (!plan.persistent)
    consumePreArrival();

  if (!lse)
    return;
  auto i64Of = [&](Value v) {
    return arith::ExtUIOp::create(b, loc, i64(), v);
  };
  Value hq = c64(plan.headsQ), seqQ64 = i64Of(seqQ);
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
  Value isQuadLead = eqI(arith::AndIOp::create(b, loc, lane, c32(3)), c32(0));
  for (int r = 0; r < 2; ++r) {
    Value row = r == 0 ? row0 : add(row0, c32(8));
    Value rowOk = arith::AndIOp::create(
        b, loc, isQuadLead,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, row, seqQ));
    ifThen(rowOk, [&] {
      Value value = arith::AddFOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, carried[r], cF32(plan.softmaxScale)),
          arith::MulFOp::create(b, loc, log2(l[r]), cF32(M_LN2)));
      value = arith::SelectOp::create(b, loc, empty[r], negInf(), value);
      Value index =
          add(mul(add(mul(i64Of(batch), hq), i64Of(head)), seqQ64), i64Of(row));
      Value ptr =
          LLVM::GEPOp::create(b, loc, globalPtr, f32(), lse, ValueRange{index});
      LLVM::StoreOp::create(b, loc, value, ptr, /*alignment=*/4);
    });
  }
}

/// Writes this warpgroup's 64 rows of an accumulator-layout tile, given as
/// packed element pairs (pair k holds values 2k and 2k+1), into the buffer
/// at `bufferOffset` in the 128-byte swizzled layout of a TMA box / wgmma
/// operand: 64-column atoms `bufferRows` rows apart.
void KernelEmitter::storeRowsSwizzled(ArrayRef<Value> pairs,
                                      int64_t bufferOffset,
                                      int64_t bufferRows) {
  Value warp = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, tid, c32(5)), c32(3));
  Value tileRowBase = mul(warpgroup, c32(kWarpgroupRows));
  Value localRow =
      add(mul(warp, c32(16)), arith::ShRUIOp::create(b, loc, lane, c32(2)));
  Value quadCol = mul(arith::AndIOp::create(b, loc, lane, c32(3)), c32(2));
  for (int r = 0; r < 2; ++r) {
    Value row = add(tileRowBase, add(localRow, c32(8 * r)));
    Value rowBytes = mul(row, c32(kAtomBytes));
    Value phase = arith::AndIOp::create(b, loc, row, c32(7));
    for (size_t i = 2 * r; i < 2 * pairs.size(); i += 4) {
      int64_t colBase = 8 * (i / 4); // + quadCol
      int64_t atom = colBase / kAtomElems;
      int64_t chunk = (colBase % kAtomElems) / 8;
      // 16-byte chunk c of row r sits at chunk c ^ (r % 8).
      Value swizzled =
          mul(arith::XOrIOp::create(b, loc, c32(chunk), phase), c32(16));
      Value offset = add(add(rowBytes, swizzled), mul(quadCol, c32(2)));
      Value ptr =
          smemPtr(bufferOffset + atom * bufferRows * kAtomBytes, offset);
      LLVM::StoreOp::create(b, loc, pairs[i / 2], ptr, /*alignment=*/4);
    }
  }
}

/// Writes this warpgroup's 64 x Dv output rows, scaled by `inv` per row, into
/// the Q buffer (only this warpgroup read those rows), then one thread stores
/// them with TMA.
void KernelEmitter::storeOutputTile(ArrayRef<Value> o, const Value inv[2],
                                    Value outputMap) {
  SmallVector<Value> pairs;
  for (size_t i = 0; i < o.size(); i += 2) {
    Value rowInv = inv[(i % 4) / 2];
    pairs.push_back(packPair(arith::MulFOp::create(b, loc, o[i], rowInv),
                             arith::MulFOp::create(b, loc, o[i + 1], rowInv)));
  }
  storeRowsSwizzled(pairs, smem.query, plan.blockM);
  Value tileRowBase = mul(warpgroup, c32(kWarpgroupRows));
  // Generic-proxy writes must be visible to the TMA (async proxy) before the
  // warpgroup's barrier.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::BarrierOp::create(b, loc, Type(), add(warpgroup, c32(1)),
                          c32(kWarpgroupThreads), nullptr, Value());
  Value wgLeader = eqI(arith::AndIOp::create(b, loc, tid, c32(127)), c32(0));
  ifThen(wgLeader, [&] {
    Value rowInTile = mul(warpgroup, c32(kWarpgroupRows * kAtomBytes));
    for (int64_t atom = 0; atom < plan.valueHeadDim / kAtomElems; ++atom) {
      Value src =
          smemPtr(smem.query + atom * plan.blockM * kAtomBytes, rowInTile);
      SmallVector<Value> coords = {c32(atom * kAtomElems),
                                   add(rowBegin, tileRowBase), head, batch};
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          b, loc, outputMap, src, coords, Value(),
          NVVM::TMAStoreModeAttr::get(b.getContext(), NVVM::TMAStoreMode::TILE),
          Value());
    }
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    // Shared memory must outlive the reads of the store.
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
    // Then the next tile's Q may overwrite these rows.
    if (plan.persistent)
      NVVM::MBarrierArriveOp::create(b, loc, Type(), queryFreeBarrier(),
                                     Value());
  });
}

rt::Manifest buildManifest(const KernelPlan &plan,
                           const SharedMemoryLayout &smem) {
  rt::Manifest m;
  m.attncVersion = ATTNC_VERSION;
  m.entry = plan.name;
  m.ptx = "kernel.ptx";
  m.threadsPerBlock = kWarpgroupThreads * plan.warpgroups();
  m.dynamicSmemBytes = smem.total;
  if (plan.persistent) {
    m.grid[0] = {{rt::Symbol::NumSms}, 1};
    m.grid[1] = {{rt::Symbol::One}, 1};
    m.grid[2] = {{rt::Symbol::One}, 1};
  } else {
    m.grid[0] = {{rt::Symbol::SeqQ}, plan.blockM};
    m.grid[1] = {{rt::Symbol::HeadsQ}, 1};
    m.grid[2] = {{rt::Symbol::Batch}, 1};
  }
  m.problem.dtype =
      plan.elementType.isBF16() ? rt::DType::BF16 : rt::DType::F16;
  m.problem.headDim = plan.headDim;
  m.problem.headDimV = plan.valueHeadDim;
  m.problem.layout = plan.layout == Layout::BHSD ? "bhsd" : "bshd";
  m.problem.mask = stringifyMaskKind(plan.mask.kind).str();
  m.problem.gqa = plan.headsQ != plan.headsKV;
  m.problem.hasLse = plan.hasLse;
  auto tensorMap = [&](rt::TensorName t, int64_t rows) {
    rt::KernelParam p;
    p.kind = rt::ParamKind::TensorMap;
    p.tensor = t;
    p.dims = {rt::TensorDim::D, rt::TensorDim::S, rt::TensorDim::H,
              rt::TensorDim::B};
    p.box = {kAtomElems, rows, 1, 1};
    p.swizzle = rt::Swizzle::B128;
    return p;
  };
  auto pointer = [](rt::TensorName t) {
    rt::KernelParam p;
    p.kind = rt::ParamKind::Pointer;
    p.tensor = t;
    return p;
  };
  auto scalar = [](rt::Symbol s) {
    rt::KernelParam p;
    p.kind = rt::ParamKind::I32;
    p.value = s;
    return p;
  };
  m.params = {tensorMap(rt::TensorName::Q, plan.blockM),
              tensorMap(rt::TensorName::K, plan.blockN),
              tensorMap(rt::TensorName::V, plan.blockN),
              tensorMap(rt::TensorName::O, kWarpgroupRows)};
  if (plan.hasLse)
    m.params.push_back(pointer(rt::TensorName::Lse));
  m.params.push_back(scalar(rt::Symbol::SeqQ));
  m.params.push_back(scalar(rt::Symbol::SeqK));
  if (plan.persistent)
    m.params.push_back(scalar(rt::Symbol::Batch));
  auto option = [&](StringRef name, int64_t v) {
    m.options.push_back({name.str(), std::to_string(v), false});
  };
  option("block_m", plan.blockM);
  option("block_n", plan.blockN);
  option("stages", smem.stages);
  option("consumer_warpgroups", plan.consumerWarpgroups());
  option("warp_specialized", plan.warpSpecialize);
  option("ping_pong", plan.pingPong());
  option("intra_warpgroup_overlap", plan.overlapSoftmax());
  option("probs_in_registers", plan.probsInRegisters);
  option("longest_first", plan.longestFirst);
  option("conditional_rescale", plan.conditionalRescale);
  option("persistent", plan.persistent);
  option("heads_q", plan.headsQ);
  option("heads_kv", plan.headsKV);
  m.options.push_back(
      {"scale", llvm::formatv("{0:e8}", plan.scale).str(), false});
  if (plan.mask.window) {
    option("window_left", (*plan.mask.window)[0]);
    option("window_right", (*plan.mask.window)[1]);
  }
  return m;
}

} // namespace

LLVM::LLVMFuncOp mlir::attn::buildHopperAttentionKernel(
    OpBuilder &b, Location loc, gpu::GPUModuleOp module, const KernelPlan &plan,
    rt::Manifest &manifest) {
  MLIRContext *ctx = b.getContext();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  // Dynamic shared memory: a public zero-size 1024-aligned global becomes
  // `.extern .shared .align 1024`; gpu.dynamic_shared_memory would overlap
  // static shared memory (see docs/RationaleAttn.md).
  if (!module.lookupSymbol("attn_smem"))
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           "attn_smem", Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);

  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
  SmallVector<Type> params = {ptr, ptr, ptr, ptr};
  if (plan.hasLse)
    params.push_back(globalPtr);
  params.push_back(b.getI32Type());
  params.push_back(b.getI32Type());
  if (plan.persistent)
    params.push_back(b.getI32Type()); // batch
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, plan.name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params));
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                b.getDenseI32ArrayAttr(
                    {int32_t(kWarpgroupThreads * plan.warpgroups()), 1, 1}));
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  // Tensor maps by value (CUTLASS's __grid_constant__ const CUtensorMap).
  for (unsigned i = 0; i < 4; ++i) {
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    b.getUnitAttr());
  }
  KernelEmitter(b, loc, plan).emit(func);
  manifest = buildManifest(plan, SharedMemoryLayout(plan));
  return func;
}
