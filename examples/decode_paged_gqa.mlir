// One decode step against a paged KV cache (vLLM's PagedAttention layout):
// GQA 32:8, D = 128, bf16, pages of 16 tokens. K and V live in page pools
// [num_pages, 16, 8, 128]; each sequence's row of the block table lists its
// pages in order, and cache_lengths holds its number of cached tokens, so the
// sequences of one batch may have any lengths. The one new query row sees
// every cached key (causal_bottom_right with Nq = 1).
// On the GPU the producer reads each kv block's pages from the block table
// and loads them with one TMA box a page (docs/Pipeline.md, "A paged KV
// cache").
func.func @decode_paged(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x16x8x128xbf16>,
                        %v: tensor<?x16x8x128xbf16>, %block_table: tensor<?x?xi32>,
                        %cache_lengths: tensor<?xi32>)
    -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x1x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16>
      -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}
