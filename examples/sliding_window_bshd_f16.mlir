// Mistral-style local attention in the BSHD layout most frameworks hold
// activations in ([batch, seq, heads, dim]): each query sees the 256 keys at
// or before it (window [256, 0] on the bottom-right causal diagonal), f16.
func.func @sliding_window(%q: tensor<1x?x16x64xf16>, %k: tensor<1x?x16x64xf16>,
                          %v: tensor<1x?x16x64xf16>) -> tensor<1x?x16x64xf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [256, 0] layout = bshd
      : tensor<1x?x16x64xf16>, tensor<1x?x16x64xf16>, tensor<1x?x16x64xf16>
      -> tensor<1x?x16x64xf16>
  return %o : tensor<1x?x16x64xf16>
}
