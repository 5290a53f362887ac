//===- TileLayouts.cpp - the encodings of GPU tile values -----------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which tensor types each tile layout can encode (VerifiableTensorEncoding):
// a RankedTensorType with one of these encodings is only built when the
// shape and element type fit the layout.
//
//===----------------------------------------------------------------------===//

#include "attnc/Dialect/Attn/AttnOps.h"

using namespace mlir;
using namespace mlir::attn;

namespace {

LogicalResult verifyRowCount(int64_t rows, WgmmaAccumulatorAttr layout,
                             function_ref<InFlightDiagnostic()> emitError) {
  if (rows != layout.getRows())
    return emitError() << layout << " holds "
                       << WgmmaAccumulatorAttr::kRowsPerWarpgroup
                       << " rows per warpgroup (" << layout.getRows()
                       << "), not " << rows;
  return success();
}

} // namespace

LogicalResult
WgmmaAccumulatorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             int64_t warpgroups) {
  if (warpgroups < 1)
    return emitError() << "#attn.wgmma_accumulator: warpgroups must be "
                          "positive, got "
                       << warpgroups;
  return success();
}

LogicalResult WgmmaAccumulatorAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  // f32: the accumulator itself; 16-bit: a tile rounded from it in the same
  // registers, two elements to one (wgmma's register A operand).
  if (shape.size() != 2 ||
      !(elementType.isF32() || elementType.isBF16() || elementType.isF16()))
    return emitError() << *this << " encodes 2-D f32, bf16 or f16 tiles";
  // wgmma's N: a multiple of 8 from 8 to 256.
  if (ShapedType::isDynamic(shape[1]) || shape[1] % kColumnsPerSlice ||
      shape[1] < kColumnsPerSlice || shape[1] > 256)
    return emitError() << *this << ": columns must be a multiple of "
                       << kColumnsPerSlice << " up to 256 (wgmma's N), got "
                       << shape[1];
  return verifyRowCount(shape[0], *this, emitError);
}

LogicalResult AccumulatorRowsAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 1 || !elementType.isF32())
    return emitError() << *this << " encodes 1-D f32 row vectors";
  return verifyRowCount(shape[0], getParent(), emitError);
}

LogicalResult
SwizzledSharedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t swizzle) {
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "#attn.swizzled_shared: swizzle must be 32, 64 or "
                          "128 bytes, got "
                       << swizzle;
  return success();
}

LogicalResult SwizzledSharedAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != 2 || !isa<FloatType>(elementType) ||
      elementType.getIntOrFloatBitWidth() != 16)
    return emitError() << *this << " encodes 2-D bf16/f16 tiles";
  if (ShapedType::isDynamic(shape[0]) || shape[0] % kPatternRows ||
      ShapedType::isDynamic(shape[1]))
    return emitError() << *this << ": rows must be a multiple of "
                       << kPatternRows << " and columns static";
  return success();
}
