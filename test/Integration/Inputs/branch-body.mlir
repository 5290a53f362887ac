// A body of several blocks: the attention is in the second, which returns
// its result.
func.func @branch(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                  %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  cf.br ^compute
^compute:
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}
