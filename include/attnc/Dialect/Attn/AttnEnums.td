//===- AttnEnums.td - attn dialect enums -------------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_ENUMS_TD
#define ATTN_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Attn_MaskKind : I32EnumAttr<"MaskKind", "attention mask kind", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Causal", 1, "causal">,
    I32EnumAttrCase<"CausalBottomRight", 2, "causal_bottom_right">
  ]> {
  let cppNamespace = "::mlir::attn";
  let description = [{
    `causal`: query row i sees key column j iff j <= i (aligned at the top-left
    corner of the score matrix). `causal_bottom_right`: j <= i + (Nk - Nq), so
    the last query sees every key (FlashAttention >= 2.1 and KV-cache decoding).
  }];
}

def Attn_Layout : I32EnumAttr<"Layout", "memory order of the 4-D operands", [
    I32EnumAttrCase<"BHSD", 0, "bhsd">,
    I32EnumAttrCase<"BSHD", 1, "bshd">
  ]> {
  let cppNamespace = "::mlir::attn";
}

#endif // ATTN_ENUMS_TD
