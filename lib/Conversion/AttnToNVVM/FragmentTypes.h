//===- FragmentTypes.h - the registers that hold a tile value ---*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The type conversion of convert-attn-to-nvvm: a tile value of the kv loops
// becomes, by the layout its type encodes, the values one thread holds of
// it in the kernel. The kernel's loops carry these values, and the S and O
// wgmma instructions take and return them.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_FRAGMENTTYPES_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_FRAGMENTTYPES_H

#include "attnc/Dialect/Attn/AttnOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::attn::hopper {

/// Rows of a tile in #attn.wgmma_accumulator that one thread holds, and so
/// the values of a row vector in #attn.accumulator_rows it holds.
inline constexpr int64_t kRowsPerThread = WgmmaAccumulatorAttr::kRowsPerThread;

/// Converts the tile types of the kv loops to a thread's values of them:
/// - #attn.wgmma_accumulator (S, P, O): one LLVM struct of the thread's f32
///   registers (WgmmaAccumulatorAttr::getRegistersPerThread), the operand
///   and result type of wgmma; of a bf16 or f16 tile (attn.truncate's P),
///   half as many i32 registers, each a pair of adjacent elements (wgmma's
///   register A operand);
/// - #attn.accumulator_rows (m, l, alpha): the f32 values of the thread's
///   kRowsPerThread rows;
/// - #attn.swizzled_shared (a K or V ring slot): its ring stage and the
///   parity of the stage's mbarrier phase (i32 each); the tile stays in
///   shared memory. Its uses read them from the kv iteration
///   (placeRingSlots): what a rotated loop carries of its V is never read.
/// Types that are no tile (index, i1, f32 scalars) stay as they are; a tile
/// type without a layout has no conversion (verifyTiledAttention admits none
/// into the kv loops).
class FragmentTypeConverter : public TypeConverter {
public:
  explicit FragmentTypeConverter(MLIRContext *ctx);

  /// The struct of a thread's registers of an accumulator-layout tile type.
  LLVM::LLVMStructType convertAccumulatorType(Type tileType) const;
};

} // namespace mlir::attn::hopper

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_FRAGMENTTYPES_H
