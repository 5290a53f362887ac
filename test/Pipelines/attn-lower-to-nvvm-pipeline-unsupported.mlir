// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline -split-input-file -verify-diagnostics
// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="warp-specialize=off" -split-input-file 2>&1 | FileCheck %s --check-prefix=UNSPECIALIZED

// A varlen batch has a CPU lowering and no GPU lowering yet: each GPU
// stage that meets its attn.load_varlen_tile says so (attn-warp-specialize,
// or convert-attn-to-nvvm without it), instead of lowering the tile as if
// its K and V were dense. A paged KV cache's pages must be whole 8-row
// swizzle atoms inside or across a kv block.
func.func @paged_odd_pages(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x24x2x64xbf16>,
                           %v: tensor<?x24x2x64xbf16>, %table: tensor<?x?xi32>,
                           %lengths: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // UNSPECIALIZED: error: convert-attn-to-nvvm: a page of 24 tokens must be a multiple of 8 that divides block_n = 128 or is a multiple of it
  // expected-error @+1 {{convert-attn-to-nvvm: a page of 24 tokens must be a multiple of 8 that divides block_n = 128 or is a multiple of it}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x24x2x64xbf16>, tensor<?x24x2x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @varlen(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                  %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>,
                  %cu_k: tensor<?xi32>) -> tensor<1x8x?x64xbf16> {
  // UNSPECIALIZED: error: convert-attn-to-nvvm: no GPU lowering for 'attn.load_varlen_tile' yet (a variable-length batch; the CPU pipeline runs it)
  // expected-error @+1 {{attn-warp-specialize: K comes from 'attn.load_varlen_tile' (a variable-length batch), which has no GPU lowering yet}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}
