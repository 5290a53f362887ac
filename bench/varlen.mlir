// Varlen prefill kernels, compiled by bench/prepare-gpu.sh into
// artifacts/varlen, checked and timed by bench/varlen.py: GQA 32:8, bf16,
// BSHD, sequences packed without padding (cu_seqlens_q / cu_seqlens_k),
// bottom-right causal per sequence (the chunked-prefill alignment; for
// equal query and key counts it is the usual causal mask) at D = 128 and
// D = 64, with the LSE; and the dense kernel of the same graph (a batch of
// equal lengths), the "dense kernel" varlen.py compares against.

func.func @varlen_d128_causal(%q: tensor<1x?x32x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                              %v: tensor<1x?x8x128xbf16>, %cu_seqlens_q: tensor<?xi32>,
                              %cu_seqlens_k: tensor<?xi32>) -> (tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
  return %o, %lse : tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
}

func.func @varlen_d64_causal(%q: tensor<1x?x32x64xbf16>, %k: tensor<1x?x8x64xbf16>,
                             %v: tensor<1x?x8x64xbf16>, %cu_seqlens_q: tensor<?xi32>,
                             %cu_seqlens_k: tensor<?xi32>) -> (tensor<1x?x32x64xbf16>, tensor<1x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x64xbf16>, tensor<1x?x8x64xbf16>, tensor<1x?x8x64xbf16>
      -> tensor<1x?x32x64xbf16>, tensor<1x32x?xf32>
  return %o, %lse : tensor<1x?x32x64xbf16>, tensor<1x32x?xf32>
}

func.func @varlen_d128_full(%q: tensor<1x?x32x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                            %v: tensor<1x?x8x128xbf16>, %cu_seqlens_q: tensor<?xi32>,
                            %cu_seqlens_k: tensor<?xi32>) -> tensor<1x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v layout = bshd
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x32x128xbf16>
  return %o : tensor<1x?x32x128xbf16>
}

func.func @dense_d128_causal(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                             %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// Checked only (varlen.py's sweep): BHSD with a head dim of partial
// 64-column atoms, and split head dims.
func.func @varlen_d80_bhsd_causal(%q: tensor<1x8x?x80xbf16>, %k: tensor<1x2x?x80xbf16>,
                                  %v: tensor<1x2x?x80xbf16>, %cu_seqlens_q: tensor<?xi32>,
                                  %cu_seqlens_k: tensor<?xi32>) -> (tensor<1x8x?x80xbf16>, tensor<1x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x80xbf16>, tensor<1x2x?x80xbf16>, tensor<1x2x?x80xbf16>
      -> tensor<1x8x?x80xbf16>, tensor<1x8x?xf32>
  return %o, %lse : tensor<1x8x?x80xbf16>, tensor<1x8x?xf32>
}

func.func @varlen_d192_dv128_causal(%q: tensor<1x?x8x192xf16>, %k: tensor<1x?x8x192xf16>,
                                    %v: tensor<1x?x8x128xf16>, %cu_seqlens_q: tensor<?xi32>,
                                    %cu_seqlens_k: tensor<?xi32>) -> tensor<1x?x8x128xf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x8x192xf16>, tensor<1x?x8x192xf16>, tensor<1x?x8x128xf16>
      -> tensor<1x?x8x128xf16>
  return %o : tensor<1x?x8x128xf16>
}
