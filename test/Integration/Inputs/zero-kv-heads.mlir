// Zero key/value heads: GQA needs Hq to be a multiple of Hkv > 0.
func.func @no_kv_heads(%q: tensor<1x4x16x32xf32>, %k: tensor<1x0x16x32xf32>,
                       %v: tensor<1x0x16x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x16x32xf32>, tensor<1x0x16x32xf32>, tensor<1x0x16x32xf32>
      -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}
