// Attentions of packed query heads (packed_query_heads = 4, as
// attn-pack-gqa writes them) for test/Integration/packed-masks.test: each
// head's rows are 4 query heads' Nq tokens, and the masks see a row at its
// query position (row / 4).
func.func @packed_decode_causal(%q: tensor<?x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                                %v: tensor<?x2x?x64xbf16>)
    -> (tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
  return %o, %lse : tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
}

func.func @packed_window(%q: tensor<?x2x?x32xf32>, %k: tensor<?x2x?x32xf32>,
                         %v: tensor<?x2x?x32xf32>)
    -> (tensor<?x2x?x32xf32>, tensor<?x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal window = [20, 0] packed_query_heads = 4
      : tensor<?x2x?x32xf32>, tensor<?x2x?x32xf32>, tensor<?x2x?x32xf32>
      -> tensor<?x2x?x32xf32>, tensor<?x2x?xf32>
  return %o, %lse : tensor<?x2x?x32xf32>, tensor<?x2x?xf32>
}

func.func @packed_split(%q: tensor<?x1x?x32xf32>, %k: tensor<?x1x?x32xf32>,
                        %v: tensor<?x1x?x32xf32>)
    -> (tensor<?x1x?x32xf32>, tensor<?x1x?xf32>) {
  %splits = arith.constant 3 : index
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      kv_splits(%splits)
      : tensor<?x1x?x32xf32>, tensor<?x1x?x32xf32>, tensor<?x1x?x32xf32>
      -> tensor<?x1x?x32xf32>, tensor<?x1x?xf32>
  return %o, %lse : tensor<?x1x?x32xf32>, tensor<?x1x?xf32>
}
