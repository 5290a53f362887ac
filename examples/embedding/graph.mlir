// The attention a framework hands to the embedding examples: causal GQA,
// 32 query heads on 8 key/value heads, head dim 128, bf16.
// TODO(attn-raise-attention): once the raising pass lands, this becomes the
// linalg graph (matmul, scale, mask, softmax, matmul) and the examples raise
// it to attn.attention first.
func.func @graph(%q: tensor<1x32x2048x128xbf16>, %k: tensor<1x8x2048x128xbf16>,
                 %v: tensor<1x8x2048x128xbf16>) -> tensor<1x32x2048x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x32x2048x128xbf16>, tensor<1x8x2048x128xbf16>, tensor<1x8x2048x128xbf16>
      -> tensor<1x32x2048x128xbf16>
  return %o : tensor<1x32x2048x128xbf16>
}
