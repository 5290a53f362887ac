// Two attn.attention ops in one function: attnc-run cannot tell which to check.
func.func @twice(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                 %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  %o2 = attn.attention %o, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o2 : tensor<1x2x16x32xf32>
}
