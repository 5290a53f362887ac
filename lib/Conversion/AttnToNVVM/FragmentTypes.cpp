//===- FragmentTypes.cpp - the registers that hold a tile value -----------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FragmentTypes.h"

using namespace mlir;
using namespace mlir::attn;
using namespace mlir::attn::hopper;

FragmentTypeConverter::FragmentTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion(
      [ctx](RankedTensorType type,
            SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        Attribute layout = type.getEncoding();
        Type f32 = Float32Type::get(ctx);
        if (isa_and_present<WgmmaAccumulatorAttr>(layout)) {
          int64_t registers =
              WgmmaAccumulatorAttr::getRegistersPerThread(type.getShape()[1]);
          // A 16-bit tile packs each pair of adjacent elements in one i32.
          bool packed = !type.getElementType().isF32();
          results.push_back(LLVM::LLVMStructType::getLiteral(
              ctx,
              SmallVector<Type>(packed ? registers / 2 : registers,
                                packed ? IntegerType::get(ctx, 32) : f32)));
          return success();
        }
        if (isa_and_present<AccumulatorRowsAttr>(layout)) {
          results.append(kRowsPerThread, f32);
          return success();
        }
        // A K or V tile in shared memory is its ring stage and the parity
        // of the stage's phase (i32 each); Q, at its own offset, the same.
        if (isa_and_present<SwizzledSharedAttr>(layout)) {
          results.append(2, IntegerType::get(ctx, 32));
          return success();
        }
        // A plain tensor (the valid rows the tile's store writes, the
        // forall's result it writes them into) holds no registers: it
        // stays as it is, and the store's pattern reads the tile's.
        if (!layout)
          return std::nullopt;
        return failure();
      });
  // A tile value that an op the conversion keeps reads stands for its
  // kernel values through a cast (the emitter erases those left unused).
  addSourceMaterialization(
      [](OpBuilder &b, Type type, ValueRange values, Location loc) -> Value {
        return UnrealizedConversionCastOp::create(b, loc, type, values)
            .getResult(0);
      });
}

LLVM::LLVMStructType
FragmentTypeConverter::convertAccumulatorType(Type tileType) const {
  assert(isa<WgmmaAccumulatorAttr>(
             cast<RankedTensorType>(tileType).getEncoding()) &&
         "an accumulator-layout tile");
  return cast<LLVM::LLVMStructType>(convertType(tileType));
}
