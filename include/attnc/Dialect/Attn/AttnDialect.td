//===- AttnDialect.td - attn dialect definition ------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_TD
#define ATTN_DIALECT_TD

include "mlir/IR/OpBase.td"

def Attn_Dialect : Dialect {
  let name = "attn";
  let cppNamespace = "::mlir::attn";
  let summary = "Scaled dot-product attention and its block-level steps";
  let description = [{
    The `attn` dialect holds attention at two levels. The graph level has one
    op, `attn.attention`, computing `softmax(scale * Q K^T + mask) V` on whole
    tensors. The tile level names each block step of the FlashAttention
    algorithm on explicit, statically shaped tiles (`attn.qk`, `attn.mask`,
    `attn.row_max`, `attn.exp_diff`, `attn.row_sum`, `attn.pv`, ...), so that the
    tiling, online-softmax and GPU lowering passes can pattern-match their
    input without guessing. See docs/RationaleAttn.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  // The tile ops' folders produce splat tiles (attn.rescale_factor of a
  // max with itself); they become arith.constant.
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// The #attn.shared_memory of a tiling scf.forall
    /// (attn-allocate-shared-memory).
    static constexpr ::llvm::StringLiteral getSharedMemoryAttrName() {
      return "attn.shared_memory";
    }
    /// The software-pipeline stage (0 or 1, i64) of a tile op in a fused kv
    /// loop: stage-1 ops of block j run during iteration j + 1
    /// (attn-warp-specialize; attnc/Transforms/PipelineStages.h).
    static constexpr ::llvm::StringLiteral getStageAttrName() {
      return "attn.stage";
    }
    /// On a kernel function's Q argument: how many query heads of the
    /// caller's Q each of its heads packs (an i64 >= 2; attn-pack-gqa).
    static constexpr ::llvm::StringLiteral getPackedQueryHeadsAttrName() {
      return "attn.packed_query_heads";
    }
    /// On the f32 scale argument of a kernel function: the scale the graph
    /// was written with (attn-generalize-scale).
    static constexpr ::llvm::StringLiteral getScaleArgAttrName() {
      return "attn.scale";
    }
    /// The #attn.kernel_abi of a kernel's llvm.func (convert-attn-to-nvvm).
    static constexpr ::llvm::StringLiteral getKernelAbiAttrName() {
      return "attn.kernel_abi";
    }
  }];
}

class Attn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attn_Dialect, mnemonic, traits>;

#endif // ATTN_DIALECT_TD
