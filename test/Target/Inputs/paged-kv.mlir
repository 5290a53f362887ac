// Paged KV kernels for ptxas-paged-kv.test: a decode step of GQA 32:8 over pages
// of 16 tokens (eight pages a kv block), split across the cache at launch, and
// one over pages of 256 tokens (two kv blocks a page).

func.func @paged_d128_p16(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x16x8x128xbf16>, %v: tensor<?x16x8x128xbf16>,
                          %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits) pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x?x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}
func.func @paged_d128_p256(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x256x8x128xbf16>, %v: tensor<?x256x8x128xbf16>,
                          %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x?x128xbf16>, tensor<?x256x8x128xbf16>, tensor<?x256x8x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}
