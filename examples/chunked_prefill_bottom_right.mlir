// Chunked prefill against a KV cache: 100 new queries attend to 1000 cached
// plus new keys, causal aligned at the bottom-right corner (query i sees keys
// up to i + Nk - Nq), MQA (one key/value head), head dim 256, bf16, with LSE.
func.func @chunked_prefill(%q: tensor<2x8x100x256xbf16>, %k: tensor<2x1x1100x256xbf16>,
                           %v: tensor<2x1x1100x256xbf16>)
    -> (tensor<2x8x100x256xbf16>, tensor<2x8x100xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<2x8x100x256xbf16>, tensor<2x1x1100x256xbf16>, tensor<2x1x1100x256xbf16>
      -> tensor<2x8x100x256xbf16>, tensor<2x8x100xf32>
  return %o, %lse : tensor<2x8x100x256xbf16>, tensor<2x8x100xf32>
}
