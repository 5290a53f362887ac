//===- KernelGemm.cpp - wgmma operands and issues -------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared-memory descriptors (per-kernel base + immediate), the SS wgmma of
// S = Q K^T, the RS wgmma of O += P V (inline PTX) and its SS ablation, and
// the packing of accumulator values into bf16/f16 pairs.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

/// The wgmma shared-memory descriptor (128-byte swizzle) of the start of
/// dynamic shared memory, built once per kernel. Its bits 0-13 hold the
/// address >> 4; shared addresses stay below 2^18, so the descriptor of
/// base + offset is this one plus offset >> 4 (descriptorAt): each GEMM
/// then adds an immediate instead of rebuilding the descriptor (that cost
/// ~7 instructions per wgmma, ~110 per kv block at D = 128).
Value KernelEmitter::descriptorBase(SwizzledAtoms atoms, int64_t leadingBytes) {
  // Mode 1 of bits 62-63 is the 128-byte swizzle (verifyTiledAttention admits
  // no other: verifyTileLayouts for Q, K and V, verifySharedMemory for P);
  // the stride byte
  // offset is one 8-row pattern group.
  assert(atoms.swizzle == kSm90aSharedTileSwizzle &&
         "a 128-byte swizzled tile");
  int64_t strideBytes = SwizzledSharedAttr::kPatternRows * atoms.swizzle;
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

Value KernelEmitter::packPair(Value lo, Value hi, Type element) {
  Value narrow = LLVM::FPTruncOp::create(b, loc, VectorType::get({2}, element),
                                         pairOf(lo, hi));
  return LLVM::BitcastOp::create(b, loc, i32(), narrow);
}

/// The K-major operand slice k16 (16 columns) of a tile of `bufferRows` rows
/// stored as `atoms` at `bufferOffset` (+ `rowOffset` bytes).
Value KernelEmitter::kMajorSlice(SwizzledAtoms atoms, int64_t bufferOffset,
                                 int64_t bufferRows, int64_t k16,
                                 Value rowOffset) {
  constexpr int64_t kSliceColumns = 16;
  int64_t slicesPerAtom = atoms.columns() / kSliceColumns;
  int64_t atom = k16 / slicesPerAtom;
  int64_t within =
      (k16 % slicesPerAtom) * kSliceColumns * SwizzledAtoms::kElementBytes;
  return descriptorAt(
      kMajorDescriptor,
      bufferOffset + atom * atoms.atomBytes(bufferRows) + within, rowOffset);
}

/// The wgmma operand type of 16-bit element type `element` (bf16 or f16).
static NVVM::WGMMATypes wgmmaType(Type element) {
  return element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
}

/// The atoms of a shared-memory tile type (#attn.swizzled_shared).
static SwizzledAtoms atomsOf(RankedTensorType tile) {
  return cast<SwizzledSharedAttr>(tile.getEncoding()).getAtoms();
}

/// One m64nNk16 wgmma SS of `element` operands (A K-major; B K-major, or
/// MN-major with `bTransposed`) accumulating into `acc` (or overwriting
/// it).
Value KernelEmitter::wgmmaSS(Value acc, Value a, Value bDesc, int64_t n,
                             Type element, bool accumulate, bool bTransposed) {
  NVVM::WGMMATypes type = wgmmaType(element);
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, a, bDesc,
      NVVM::MMAShapeAttr::get(b.getContext(), 64, n, 16), type, type,
      NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      bTransposed ? NVVM::MMALayout::row : NVVM::MMALayout::col, nullptr);
}

Value KernelEmitter::scoresGemm(QKOp op, Value stage) {
  RankedTensorType query = op.getQuery().getType();
  RankedTensorType key = op.getKey().getType();
  int64_t blockM = query.getDimSize(0), blockN = key.getDimSize(0);
  int64_t headDim = query.getDimSize(1);
  SwizzledAtoms queryAtoms = atomsOf(query), keyAtoms = atomsOf(key);
  Value s = LLVM::ZeroOp::create(
      b, loc, fragments.convertAccumulatorType(op.getScores().getType()));
  Value keyStage = mul(stage, c32(smem.getKeyStageBytes()));
  // This warpgroup's 64 rows inside each atom of Q.
  Value queryRows = mul(warpgroup, c32(queryAtoms.atomBytes(kWarpgroupRows)));
  // D is a multiple of 8: a last half k16 slice reads zero-filled columns.
  for (int64_t k = 0; k < (headDim + 15) / 16; ++k)
    s = wgmmaSS(
        s, kMajorSlice(queryAtoms, smem.getQuery(), blockM, k, queryRows),
        kMajorSlice(keyAtoms, smem.getKeys(), blockN, k, keyStage), blockN,
        query.getElementType(), /*accumulate=*/k != 0, /*bTransposed=*/false);
  return s;
}

/// O += P V with P in registers: the RS form of wgmma, which neither NVVM
/// nor NVGPU can express in MLIR 22, as one inline-asm statement per k16.
Value KernelEmitter::outputGemm(PVOp op, Value acc, ArrayRef<Value> probs,
                                Value stage) {
  RankedTensorType value = op.getValue().getType();
  auto accType = cast<LLVM::LLVMStructType>(acc.getType());
  int64_t n = accType.getBody().size(); // accumulator registers per thread
  std::string el =
      NVVM::stringifyWGMMATypes(wgmmaType(value.getElementType())).str();
  std::string asmText =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(2 * n + 5) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
      std::to_string(value.getDimSize(1)) + "k16.f32." + el + "." + el + " {";
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

  for (int64_t t = 0; t < value.getDimSize(0) / 16; ++t) {
    Value desc = valueDescriptor(value, stage, t);
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

/// The k16-th slice of 16 keys of V (of type `value`) as the B operand of
/// P V.
Value KernelEmitter::valueDescriptor(RankedTensorType value, Value stage,
                                     int64_t k16) {
  return descriptorAt(valueMajorDescriptor,
                      smem.getValues() + atomsOf(value).atomBytes(16 * k16),
                      mul(stage, c32(smem.getValueStageBytes())));
}

/// O += P V with P written to shared memory first and read by wgmma SS: the
/// path FA3 compares the RS form against (probs-in-registers=false).
Value KernelEmitter::outputGemmFromShared(PVOp op, Value acc,
                                          ArrayRef<Value> probs, Value stage) {
  RankedTensorType value = op.getValue().getType();
  int64_t blockM = op.getAcc().getType().getDimSize(0);
  SwizzledAtoms atoms = smem.getProbsLayout().getAtoms();
  storeRowsSwizzled(probs, atoms, *smem.getProbs(), blockM);
  // wgmma reads P through the async proxy.
  publishWarpgroupWrites();
  Value probRows = mul(warpgroup, c32(atoms.atomBytes(kWarpgroupRows)));
  for (int64_t t = 0; t < value.getDimSize(0) / 16; ++t)
    acc =
        wgmmaSS(acc, kMajorSlice(atoms, *smem.getProbs(), blockM, t, probRows),
                valueDescriptor(value, stage, t), value.getDimSize(1),
                value.getElementType(),
                /*accumulate=*/true, /*bTransposed=*/true);
  return acc;
}

/// The in-flight RS wgmma reads these registers until wgmma.wait_group;
/// using them in an (empty) asm statement after the wait keeps LLVM from
/// ending their live ranges earlier. The statement emits no PTX, so ptxas
/// tracks the wgmma's register reads on its own (removing it changes the
/// PTX's register numbering, unmeasured).
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
