//===- TileConfig.cpp - per-target attention tile table -------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/TileConfig.h"

using namespace mlir::attn;

TileConfig mlir::attn::getDefaultTileConfig(int64_t headDim, bool causal,
                                            llvm::StringRef target) {
  if (target == "sm_90a") {
    // FA3 (hopper/tile_size.h): bigger kv tiles while registers and shared
    // memory allow; 176-wide kv tiles only pay off without a causal diagonal.
    if (headDim <= 64)
      return {192, 128};
    if (headDim <= 128)
      return {128, causal ? 128 : 176};
    if (headDim <= 192)
      return {128, 112};
    return {128, 80};
  }
  return {64, 64};
}
