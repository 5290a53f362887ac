// Attentions with kv_splits: attn-tile splits each query tile's kv range
// into that many parts and merges them with attn.combine_splits.

// Decode-like GQA 4:1, three splits, with the LSE.
func.func @gqa_splits(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x64xbf16>) -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %splits = arith.constant 3 : index
  %o, %lse = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}

// Bottom-right causal (chunked prefill against a cache): the splits left of
// a query block's diagonal see every key, later ones only some or none.
func.func @causal_splits(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>,
                         %v: tensor<1x4x?x64xf16>) -> (tensor<1x4x?x64xf16>, tensor<1x4x?xf32>) {
  %splits = arith.constant 4 : index
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right kv_splits(%splits)
      : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>
      -> tensor<1x4x?x64xf16>, tensor<1x4x?xf32>
  return %o, %lse : tensor<1x4x?x64xf16>, tensor<1x4x?xf32>
}

// A sliding window, a softcap and the BSHD layout; more splits than kv
// blocks, so some splits are empty.
func.func @window_softcap_splits(%q: tensor<1x?x2x32xbf16>, %k: tensor<1x?x1x32xbf16>,
                                 %v: tensor<1x?x1x32xbf16>) -> tensor<1x?x2x32xbf16> {
  %splits = arith.constant 64 : index
  %o = attn.attention %q, %k, %v mask = causal window = [40, 0] softcap = 20.0
      layout = bshd kv_splits(%splits)
      : tensor<1x?x2x32xbf16>, tensor<1x?x1x32xbf16>, tensor<1x?x1x32xbf16>
      -> tensor<1x?x2x32xbf16>
  return %o : tensor<1x?x2x32xbf16>
}

// One split is the unsplit attention.
func.func @one_split(%q: tensor<1x2x?x64xf32>, %k: tensor<1x2x?x64xf32>,
                     %v: tensor<1x2x?x64xf32>) -> tensor<1x2x?x64xf32> {
  %splits = arith.constant 1 : index
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<1x2x?x64xf32>, tensor<1x2x?x64xf32>, tensor<1x2x?x64xf32>
      -> tensor<1x2x?x64xf32>
  return %o : tensor<1x2x?x64xf32>
}
