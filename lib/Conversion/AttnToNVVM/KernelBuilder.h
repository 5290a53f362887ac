//===- KernelBuilder.h - scalar helpers of the kernel emitters --*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The constants, integer arithmetic, MUFU intrinsics and structured control
// flow that the attention kernel (KernelEmitter) and the split-KV combine
// kernel (CombineKernel.cpp) are written with.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELBUILDER_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

namespace mlir::attn::hopper {

/// Emits at `b`'s insertion point, at `loc`.
class KernelBuilder {
protected:
  KernelBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

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
  Value i64Of(Value v) { return arith::ExtUIOp::create(b, loc, i64(), v); }
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

  /// Where a kernel packs the g query heads of a kv head into its rows, it
  /// orders them token-major, as FlashAttention-3 does: packed row
  /// r = n * g + j (i32) is token n of the kv head's query head j (an
  /// unpacked row, g = 1, is its token).
  Value packedToken(Value row, int64_t group) {
    if (group == 1)
      return row;
    return arith::DivUIOp::create(b, loc, row, c32(group));
  }
  Value packedHeadInGroup(Value row, int64_t group) {
    if (group == 1)
      return c32(0);
    return arith::RemUIOp::create(b, loc, row, c32(group));
  }
  /// The caller's query head (i64) of packed row `row` of kv head `kvHead`
  /// (i64): kvHead * g + j.
  Value packedQueryHead(Value kvHead, Value row, int64_t group) {
    if (group == 1)
      return kvHead;
    return add(mul(kvHead, c64(group)), i64Of(packedHeadInGroup(row, group)));
  }
  /// The i64 index in the caller's LSE [B, Hq, Nq] of packed row `row` of
  /// `kvHeadRow` = batch * Hkv + kv head (i64), whose `packedRows` (i32) are
  /// Nq * g: query head kv head * g + j's token n.
  Value callerLseIndex(Value kvHeadRow, Value packedRows, Value row,
                       int64_t group) {
    Value tokens = packedToken(packedRows, group);
    Value token = packedToken(row, group);
    return add(mul(packedQueryHead(kvHeadRow, row, group), i64Of(tokens)),
               i64Of(token));
  }

  Value log2(Value x) { return intrinsic("llvm.nvvm.lg2.approx.ftz.f", x); }
  /// The vector<2xf32> (lo, hi): two adjacent columns, one 8-byte access.
  Value pairOf(Value lo, Value hi) {
    auto pairType = VectorType::get({2}, f32());
    Value v = LLVM::PoisonOp::create(b, loc, pairType);
    v = LLVM::InsertElementOp::create(b, loc, v, lo, c32(0));
    return LLVM::InsertElementOp::create(b, loc, v, hi, c32(1));
  }
  /// The max (or sum) of f32 `x` over each group of `lanes` consecutive
  /// lanes of a warp (a power of two up to 32), in every lane of the group:
  /// a shuffle butterfly.
  Value laneReduce(Value x, bool isMax, int lanes) {
    for (int offset = 1; offset < lanes; offset *= 2) {
      Value other =
          NVVM::ShflOp::create(b, loc, f32(), c32(-1), x, c32(offset),
                               c32(0x1f), NVVM::ShflKind::bfly, UnitAttr());
      x = isMax ? arith::MaxNumFOp::create(b, loc, x, other).getResult()
                : arith::AddFOp::create(b, loc, x, other).getResult();
    }
    return x;
  }

  OpBuilder &b;
  Location loc;
};

} // namespace mlir::attn::hopper

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_KERNELBUILDER_H
