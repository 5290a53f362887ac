//===- HopperKernel.h - build the sm_90a attention kernel ---------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_CONVERSION_ATTNTONVVM_HOPPERKERNEL_H
#define ATTNC_LIB_CONVERSION_ATTNTONVVM_HOPPERKERNEL_H

#include "TiledAttention.h"

#include "attnc/Transforms/TileConfig.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::attn {

/// Emits into `module` the kernel `name` for `tiled` as an llvm.func (NVVM,
/// LLVM, arith and scf ops) whose signature follows its #attn.kernel_abi, which
/// it carries as `attn.kernel_abi`, and returns it; null where a conversion
/// of its loops failed (with a diagnostic).
LLVM::LLVMFuncOp buildHopperAttentionKernel(OpBuilder &b, Location loc,
                                            gpu::GPUModuleOp module,
                                            StringRef name,
                                            const TiledAttention &tiled);

/// The PTX entry name of the combine kernel of the split-KV attention kernel
/// `kernel`: the two are entries of one module, so the conversion reserves
/// it beside the split-KV kernel's own name.
inline std::string combineKernelName(StringRef kernel) {
  return (kernel + "_combine").str();
}

} // namespace mlir::attn

#endif // ATTNC_LIB_CONVERSION_ATTNTONVVM_HOPPERKERNEL_H
