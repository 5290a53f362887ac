// RUN: attnc-opt %s -attn-tile="block-m=64 block-n=32" -split-input-file -verify-diagnostics

// A varlen tile of packed query heads holds whole tokens of one sequence:
// 64 rows are not whole tokens of 6 rows each (attn-pack-gqa packs a varlen
// batch only where g divides 64; this attention was written by hand).
func.func @varlen_rows_not_whole_tokens(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                                        %v: tensor<1x2x?x64xbf16>, %cq: tensor<?xi32>,
                                        %ck: tensor<?xi32>) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-tile: a varlen tile of packed query heads holds whole tokens, so block_m = 64 must be a multiple of packed_query_heads = 6}}
  %o = attn.attention %q, %k, %v packed_query_heads = 6
      varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}
