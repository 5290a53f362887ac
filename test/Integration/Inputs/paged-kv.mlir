// Paged KV caches for test/Integration/paged-kv.test: decode and chunked
// prefill against pools of small, large and odd pages.
func.func @paged_p16(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                     %v: tensor<?x16x2x64xbf16>, %table: tensor<?x?xi32>,
                     %lengths: tensor<?xi32>)
    -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x?x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16>
      -> tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

func.func @paged_p256_bshd(%q: tensor<?x?x4x32xf32>, %k: tensor<?x256x1x32xf32>,
                           %v: tensor<?x256x1x32xf32>, %table: tensor<?x?xi32>,
                           %lengths: tensor<?xi32>)
    -> (tensor<?x?x4x32xf32>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v layout = bshd
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x?x4x32xf32>, tensor<?x256x1x32xf32>, tensor<?x256x1x32xf32>
      -> tensor<?x?x4x32xf32>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x?x4x32xf32>, tensor<?x4x?xf32>
}

func.func @paged_p7_split(%q: tensor<?x4x?x32xf32>, %k: tensor<?x7x2x32xf32>,
                          %v: tensor<?x7x2x32xf32>, %table: tensor<?x?xi32>,
                          %lengths: tensor<?xi32>)
    -> (tensor<?x4x?x32xf32>, tensor<?x4x?xf32>) {
  %splits = arith.constant 3 : index
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right kv_splits(%splits)
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x4x?x32xf32>, tensor<?x7x2x32xf32>, tensor<?x7x2x32xf32>
      -> tensor<?x4x?x32xf32>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x32xf32>, tensor<?x4x?xf32>
}
