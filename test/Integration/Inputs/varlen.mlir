// Variable-length batches for test/Integration/varlen.test: sequences of
// different lengths packed without padding, delimited by cu_seqlens.
func.func @varlen_prefill(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                          %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>,
                          %cu_k: tensor<?xi32>)
    -> (tensor<1x8x?x64xbf16>, tensor<1x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x8x?x64xbf16>, tensor<1x8x?xf32>
  return %o, %lse : tensor<1x8x?x64xbf16>, tensor<1x8x?xf32>
}

func.func @varlen_bshd_causal(%q: tensor<1x?x4x32xf32>, %k: tensor<1x?x4x32xf32>,
                              %v: tensor<1x?x4x32xf32>, %cu_q: tensor<?xi32>,
                              %cu_k: tensor<?xi32>)
    -> (tensor<1x?x4x32xf32>, tensor<1x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>
      -> tensor<1x?x4x32xf32>, tensor<1x4x?xf32>
  return %o, %lse : tensor<1x?x4x32xf32>, tensor<1x4x?xf32>
}

func.func @varlen_window_split(%q: tensor<1x4x?x32xf32>, %k: tensor<1x2x?x32xf32>,
                               %v: tensor<1x2x?x32xf32>, %cu_q: tensor<?xi32>,
                               %cu_k: tensor<?xi32>)
    -> (tensor<1x4x?x32xf32>, tensor<1x4x?xf32>) {
  %splits = arith.constant 3 : index
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right window = [40, 0]
      kv_splits(%splits) varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x4x?x32xf32>, tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>
      -> tensor<1x4x?x32xf32>, tensor<1x4x?xf32>
  return %o, %lse : tensor<1x4x?x32xf32>, tensor<1x4x?xf32>
}
