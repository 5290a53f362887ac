// Parses, but fails the verifier: the key head dim differs from the query's.
func.func @bad_head_dim(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x64xf32>,
                        %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x64xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}
