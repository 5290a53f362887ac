// Two exits: one returns the attention's result, the other the query.
func.func @two_exits(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x16x32xf32>,
                     %v: tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32> {
  %c = arith.constant true
  %o = attn.attention %q, %k, %v
      : tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>, tensor<1x2x16x32xf32>
      -> tensor<1x2x16x32xf32>
  cf.cond_br %c, ^result, ^query
^result:
  return %o : tensor<1x2x16x32xf32>
^query:
  return %q : tensor<1x2x16x32xf32>
}
