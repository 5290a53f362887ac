// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline -split-input-file -verify-diagnostics
// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="warp-specialize=off" 2>&1 | FileCheck %s --check-prefix=UNSPECIALIZED

// A paged KV cache has a CPU lowering and no GPU lowering yet: each GPU
// stage that meets its attn.load_paged_tile says so (attn-warp-specialize,
// or convert-attn-to-nvvm without it), instead of lowering the tile as if
// its K and V were dense.
func.func @paged(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                 %v: tensor<?x16x2x64xbf16>, %table: tensor<?x?xi32>,
                 %lengths: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // UNSPECIALIZED: error: convert-attn-to-nvvm: no GPU lowering for 'attn.load_paged_tile' in a kv loop
  // expected-error @+1 {{attn-warp-specialize: K comes from a paged KV cache (attn.load_paged_tile), which has no GPU lowering yet}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}
