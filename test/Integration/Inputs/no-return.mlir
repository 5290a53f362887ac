// The function computes attention but returns its query instead.
func.func @returns_query(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                         %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %q : tensor<1x2x16x32xf32>
}
