// Kernel configurations whose PTX CI assembles with ptxas (test/Target).
func.func @d64_causal(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x8x?x64xbf16>,
                      %v: tensor<?x8x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>
      -> tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}
func.func @d128_gqa(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x4x?x128xbf16>,
                    %v: tensor<?x4x?x128xbf16>) -> tensor<?x16x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x16x?x128xbf16>, tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>
      -> tensor<?x16x?x128xbf16>
  return %o : tensor<?x16x?x128xbf16>
}
func.func @d256_window_f16(%q: tensor<?x?x8x256xf16>, %k: tensor<?x?x8x256xf16>,
                           %v: tensor<?x?x8x256xf16>) -> (tensor<?x?x8x256xf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right window = [512, 0] layout = bshd
      : tensor<?x?x8x256xf16>, tensor<?x?x8x256xf16>, tensor<?x?x8x256xf16>
      -> tensor<?x?x8x256xf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x256xf16>, tensor<?x8x?xf32>
}
func.func @d256_causal(%q: tensor<?x8x?x256xbf16>, %k: tensor<?x8x?x256xbf16>,
                       %v: tensor<?x8x?x256xbf16>) -> (tensor<?x8x?x256xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x256xbf16>, tensor<?x8x?x256xbf16>, tensor<?x8x?x256xbf16>
      -> tensor<?x8x?x256xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x256xbf16>, tensor<?x8x?xf32>
}
