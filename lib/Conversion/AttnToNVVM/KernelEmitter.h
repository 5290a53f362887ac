//===- KernelEmitter.h - the sm_90a kernel emitter --------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The class HopperKernel.cpp, KernelGemm.cpp and KernelStep.cpp implement:
// one instance emits one kernel (see HopperKernel.cpp for its structure).
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H

#include "HopperKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

namespace mlir::attn::hopper {

inline constexpr int64_t kWarpgroupThreads = 128;
inline constexpr int64_t kWarpgroupRows = 64; // rows of one wgmma m64 tile
// Named barriers: 0 = whole CTA, 1..3 = per-warpgroup epilogue, 3-4 =
// ping-pong, which runs only with two consumer warpgroups (ids 1-2).
inline constexpr int64_t kPingPongBarrierBase = 3;
inline constexpr int64_t kAtomBytes = 128; // one 128B swizzle row
inline constexpr int64_t kAtomElems = SharedMemoryLayout::kAtomElems;

/// Emits the kernel body; one instance per kernel.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Location loc, const KernelPlan &plan,
                KernelAbiAttr abi)
      : b(b), loc(loc), plan(plan), abi(abi), smem(plan.smem),
        index(plan.seqQSources, plan.seqKSources) {}

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
  /// tanh.approx.f32 (MUFU.TANH; LLVM 22 has no NVVM intrinsic for it).
  Value tanhApprox(Value x);
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
  // mbarriers at the offsets of the forall's #attn.shared_memory.
  Value queryBarrier() { return smemPtr(smem.queryFull); }
  /// Persistent kernels: consumers arrive here once they stored a tile's O
  /// from the Q buffer, so the producer may load the next Q into it.
  Value queryFreeBarrier() { return smemPtr(*smem.queryFree); }
  Value keyBarrier(Value stage) {
    return smemPtr(smem.keyFull, mul(stage, c32(8)));
  }
  Value valueBarrier(Value stage) {
    return smemPtr(smem.valueFull, mul(stage, c32(8)));
  }
  /// Whether consumers hand K back on its own barrier, a step before V (the
  /// allocation gives K and V separate "empty" barriers).
  bool releasesKeysEarly() const { return smem.releasesKeysEarly(); }
  /// Consumers arrive here when they are done with a stage's K.
  Value keyEmptyBarrier(Value stage) {
    return smemPtr(smem.keyEmpty, mul(stage, c32(8)));
  }
  /// Consumers arrive here when they are done with a stage's V (and K, when
  /// not released early).
  Value valueEmptyBarrier(Value stage) {
    return smemPtr(smem.valueEmpty, mul(stage, c32(8)));
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
  void issueKeyLoad(Value stage, Value kvBlock);
  void issueValueLoad(Value stage, Value kvBlock);
  void issueKeyValueLoads(Value stage, Value kvBlock) {
    issueKeyLoad(stage, kvBlock);
    issueValueLoad(stage, kvBlock);
  }

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
  /// The score modifiers of `kv`'s body, in IR order, on this thread's
  /// scores of kv block `kvBlock`; true if one of them masks.
  bool applyScoreModifiers(SmallVectorImpl<Value> &s, const KvLoop &kv,
                           Value kvBlock);
  /// attn.mask: hidden scores become -inf.
  void applyMask(SmallVectorImpl<Value> &s, MaskOp mask, Value kvBlock);
  /// attn.softcap: s = cap * tanh(s * scale / cap).
  void applySoftcap(SmallVectorImpl<Value> &s, SoftcapOp softcap);
  Softmax softmax(Value scores, Value kvBlock, const KvLoop &kv,
                  ValueRange mOld, ValueRange lOld);
  Value rescale(Value acc, const Value alpha[2]);
  Value rescaleIfMoved(Value acc, const Softmax &sm);
  /// One arrival per consumer warpgroup on `barrier`, behind `after`.
  void arriveOncePerWarpgroup(Value barrier, ArrayRef<Value> after);
  /// Frees `stage`'s K (where K is released early; else a no-op).
  void releaseKeys(Value stage, ArrayRef<Value> after = {});
  /// Frees `stage`'s V (and K, where not released early) for the next loads;
  /// without a producer, a block barrier and the refill of the stage.
  void releaseValues(Value stage, Value kvBlock, ArrayRef<Value> after = {});
  std::pair<Value, Value> stageAndPhase(Value iteration);
  Value computeScores(Value stage, Value phase);
  void keepAlive(ArrayRef<Value> values);
  Value pingPongBarrier(Value wg);
  void pingPongWait();
  void pingPongArriveOther();
  /// One kv block, GEMMs and softmax in sequence.
  SmallVector<Value> kvStep(Value kvBlock, Value iteration, ValueRange carried,
                            const KvLoop &kv);
  /// One kv block with the P V of the previous block overlapping this
  /// block's softmax; also carries the previous block's P (f32) and alpha.
  SmallVector<Value> kvStepOverlapped(Value kvBlock, Value iteration,
                                      ValueRange carried, const KvLoop &kv);
  /// The loop bounds of the current tile's kv loops (bounds.front() is its
  /// first kv block, bounds.back() its end) and its number of kv blocks.
  struct TileBounds {
    SmallVector<Value> bounds;
    Value blocks;
  };
  /// Makes query block `qBlock` of (`headIndex`, `batchIndex`) the current
  /// tile: head, batch, kv head, rowBegin and this thread's row0.
  void setTile(Value qBlock, Value headIndex, Value batchIndex);
  /// The bounds of the current tile's kv loops, lowered from the IR's; also
  /// sets kvEnd.
  TileBounds tileBounds();
  /// The bounds of the producer's kv loop, lowered from the IR's.
  std::pair<Value, Value> producerBounds();
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
  void publishWarpgroupWrites();

  OpBuilder &b;
  Location loc;
  const KernelPlan &plan;
  /// The kernel's parameters (and launch) in order.
  KernelAbiAttr abi;
  SharedMemoryLayout smem;
  /// The tile IR's index arithmetic, cloned into the kernel.
  IndexLowering index;

  // Kernel-wide values.
  Value smemBase, tmQuery, tmKey, tmValue;
  Value tid, lane, warpgroup, warpInGroup, row0, isLeader;
  /// This thread's first accumulator row within the query tile (row0 minus
  /// the tile's first row).
  Value rowInTile;
  Value batch, head, kvHead, rowBegin;
  Value seqQ, seqK, kvEnd;
  /// The exp2 multiplier and the LSE's scale (KernelPlan::scaleLog2,
  /// lseScale).
  Value scaleLog2, lseScale;
  /// Persistent kernels: the batch size (a kernel parameter).
  Value batchCount;
  /// Descriptors of shared-memory offset 0: K-major operands (Q, K, P: rows
  /// of 128 bytes, 8-row groups 1024 B apart) and V (MN-major: 64-column
  /// atoms block_n rows apart).
  Value kMajorDescriptor, valueMajorDescriptor;
  Type accType, scoresType;
};

/// The launch interface of the kernel for `plan` (KernelAbi.cpp): its
/// signature and manifest are built from it.
KernelAbiAttr buildKernelAbi(MLIRContext *ctx, const KernelPlan &plan);

} // namespace mlir::attn::hopper

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELEMITTER_H
