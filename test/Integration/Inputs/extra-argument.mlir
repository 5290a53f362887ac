// q, k, v in order, and one argument more that the attention does not read.
func.func @extra(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                 %v: tensor<1x2x16x32xf32>, %unused: tensor<1x2x16x32xf32>)
    -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}
