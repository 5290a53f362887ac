// A static sequence of 2^40 queries: attnc-run must refuse before allocating.
func.func @huge(%q: tensor<1x1x1099511627776x64xf32>, %k: tensor<1x1x16x64xf32>, %v: tensor<1x1x16x64xf32>) -> tensor<1x1x1099511627776x64xf32> {
  %o = attn.attention %q, %k, %v : tensor<1x1x1099511627776x64xf32>, tensor<1x1x16x64xf32>, tensor<1x1x16x64xf32> -> tensor<1x1x1099511627776x64xf32>
  return %o : tensor<1x1x1099511627776x64xf32>
}
