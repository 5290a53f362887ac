// Pages of 10^8 tokens: the page pools are the memory.
func.func @p(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x100000000x2x64xbf16>, %v: tensor<?x100000000x2x64xbf16>, %table: tensor<?x?xi32>, %lengths: tensor<?xi32>)
    -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x?x64xbf16>, tensor<?x100000000x2x64xbf16>, tensor<?x100000000x2x64xbf16> -> tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}
