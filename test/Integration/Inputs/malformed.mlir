// A syntax error: the type list of attn.attention is cut short.
func.func @truncated(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                     %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}
