// The widest window the verifier takes, on both sides, with and without a
// causal mask: the masks' diagonal + side arithmetic must not overflow.
func.func @widest_window(%q: tensor<1x2x77x32xf32>, %k: tensor<1x2x129x32xf32>,
                         %v: tensor<1x2x129x32xf32>) -> tensor<1x2x77x32xf32> {
  %o = attn.attention %q, %k, %v window = [2147483647, 2147483647]
      : tensor<1x2x77x32xf32>, tensor<1x2x129x32xf32>, tensor<1x2x129x32xf32>
      -> tensor<1x2x77x32xf32>
  return %o : tensor<1x2x77x32xf32>
}

func.func @widest_window_causal(%q: tensor<1x2x77x32xf32>, %k: tensor<1x2x129x32xf32>,
                                %v: tensor<1x2x129x32xf32>) -> tensor<1x2x77x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [2147483647, 0]
      : tensor<1x2x77x32xf32>, tensor<1x2x129x32xf32>, tensor<1x2x129x32xf32>
      -> tensor<1x2x77x32xf32>
  return %o : tensor<1x2x77x32xf32>
}
