// Variable-length batches of packed query heads (packed_query_heads = 4, as
// attn-pack-gqa writes them) for test/Integration/packed-varlen.test: each
// head's rows are 4 query heads' tokens, token-major, and cu_seqlens_q
// counts tokens (sequence b is rows [4 cu_q[b], 4 cu_q[b + 1])).
func.func @packed_varlen_prefill(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                                 %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>,
                                 %cu_k: tensor<?xi32>)
    -> (tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
}

func.func @packed_varlen_bshd_window(%q: tensor<1x?x1x32xf32>, %k: tensor<1x?x1x32xf32>,
                                     %v: tensor<1x?x1x32xf32>, %cu_q: tensor<?xi32>,
                                     %cu_k: tensor<?xi32>)
    -> (tensor<1x?x1x32xf32>, tensor<1x1x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal window = [20, 0] layout = bshd
      packed_query_heads = 4 varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>, tensor<1x?x1x32xf32>
      -> tensor<1x?x1x32xf32>, tensor<1x1x?xf32>
  return %o, %lse : tensor<1x?x1x32xf32>, tensor<1x1x?xf32>
}

// Split over the keys as attn-split-kv splits a varlen batch: one count for
// every sequence, each split its share of the sequence's own keys (some
// shares empty), the partials of the batch's one row set merged.
func.func @packed_varlen_split(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                               %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>,
                               %cu_k: tensor<?xi32>, %splits: index)
    -> (tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      kv_splits(%splits) varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
}
