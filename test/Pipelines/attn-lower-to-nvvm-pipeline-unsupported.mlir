// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline -split-input-file -verify-diagnostics
// RUN: not attnc-opt %s --attn-lower-to-nvvm-pipeline="warp-specialize=off" -split-input-file 2>&1 | FileCheck %s --check-prefix=UNSPECIALIZED

// A paged KV cache's pages must be a power of two of 16 to 256 tokens
// inside or across a kv block.
func.func @paged_odd_pages(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x24x2x64xbf16>,
                           %v: tensor<?x24x2x64xbf16>, %table: tensor<?x?xi32>,
                           %lengths: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // UNSPECIALIZED: error: convert-attn-to-nvvm: a page of 24 tokens must be a power of two from 16 to 256 that divides block_n = 128 or is a multiple of it
  // expected-error @+1 {{convert-attn-to-nvvm: a page of 24 tokens must be a power of two from 16 to 256 that divides block_n = 128 or is a multiple of it}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x24x2x64xbf16>, tensor<?x24x2x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

// The kernel takes a launch-chosen split count as its kv_splits parameter,
// which sets grid z and the combine kernel too: a count computed from it
// otherwise would split the keys into more ranges than are launched.
func.func @computed_splits(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                           %v: tensor<?x2x?x64xbf16>, %n: index) -> tensor<?x8x1x64xbf16> {
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  // UNSPECIALIZED: error: convert-attn-to-nvvm: the kv split count must be a constant or an index argument of the function (the runtime chooses it at launch)
  // expected-error @+1 {{convert-attn-to-nvvm: the kv split count must be a constant or an index argument of the function (the runtime chooses it at launch)}}
  %o = attn.attention %q, %k, %v kv_splits(%m)
      : tensor<?x8x1x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

// A value head dim above 256 with kv splits is refused by the head-dim rule
// of every kernel (the combine kernel, a column pair a thread of 128,
// relies on it), not by a rule of the combine's own.
func.func @split_wide_values(%q: tensor<?x32x1x64xbf16>, %k: tensor<?x8x?x64xbf16>,
                             %v: tensor<?x8x?x264xbf16>) -> tensor<?x32x1x264xbf16> {
  // UNSPECIALIZED: error: convert-attn-to-nvvm: value head dim must be a multiple of 8 from 32 to 256 (wgmma n and 16-byte TMA rows), got 264
  // expected-error @+1 {{convert-attn-to-nvvm: value head dim must be a multiple of 8 from 32 to 256 (wgmma n and 16-byte TMA rows), got 264}}
  %o = attn.attention %q, %k, %v
      : tensor<?x32x1x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x264xbf16>
      -> tensor<?x32x1x264xbf16>
  return %o : tensor<?x32x1x264xbf16>
}
