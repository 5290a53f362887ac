// Varlen kernels for ptxas-varlen.test: bottom-right causal BSHD GQA at
// D = 128 (the varlen prefill of the examples), non-causal BHSD at D = 64,
// and causal BSHD at D = 256.
func.func @varlen_d128_causal(%q: tensor<1x?x32x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                              %v: tensor<1x?x8x128xbf16>, %cu_q: tensor<?xi32>,
                              %cu_k: tensor<?xi32>) -> (tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
  return %o, %lse : tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
}

func.func @varlen_d64_bhsd(%q: tensor<1x8x?x64xf16>, %k: tensor<1x8x?x64xf16>,
                           %v: tensor<1x8x?x64xf16>, %cu_q: tensor<?xi32>,
                           %cu_k: tensor<?xi32>) -> tensor<1x8x?x64xf16> {
  %o = attn.attention %q, %k, %v varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16> -> tensor<1x8x?x64xf16>
  return %o : tensor<1x8x?x64xf16>
}

func.func @varlen_d256_causal(%q: tensor<1x?x8x256xbf16>, %k: tensor<1x?x8x256xbf16>,
                              %v: tensor<1x?x8x256xbf16>, %cu_q: tensor<?xi32>,
                              %cu_k: tensor<?xi32>) -> tensor<1x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v mask = causal layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x8x256xbf16>, tensor<1x?x8x256xbf16>, tensor<1x?x8x256xbf16> -> tensor<1x?x8x256xbf16>
  return %o : tensor<1x?x8x256xbf16>
}
