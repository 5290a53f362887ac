// Kernels compiled by bench/gpu-check.sh (attnc-compile) and checked and
// timed on the GPU by bench/gpu_check.py. Batch and sequence lengths are
// dynamic; heads, head dims, dtype, mask and layout are compiled in.

func.func @d64_full(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @d64_causal(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @d128_full(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d128_causal(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d256_full(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @d256_causal(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @d128_causal_br(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d128_gqa4_causal(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
}

func.func @d64_mqa(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x1x?x64xbf16>, %v: tensor<?x1x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x8x?x64xbf16>, tensor<?x1x?x64xbf16>, tensor<?x1x?x64xbf16> -> tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

func.func @d128_f16(%q: tensor<?x16x?x128xf16>, %k: tensor<?x16x?x128xf16>, %v: tensor<?x16x?x128xf16>) -> (tensor<?x16x?x128xf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x128xf16>, tensor<?x16x?x128xf16>, tensor<?x16x?x128xf16> -> tensor<?x16x?x128xf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xf16>, tensor<?x16x?xf32>
}

func.func @d128_bshd_causal(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> (tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal layout = bshd
      : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>
}

func.func @d128_window(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v window = [96, 32]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d192_full(%q: tensor<?x16x?x192xbf16>, %k: tensor<?x16x?x192xbf16>, %v: tensor<?x16x?x192xbf16>) -> (tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x192xbf16>, tensor<?x16x?x192xbf16>, tensor<?x16x?x192xbf16> -> tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>
}

func.func @d128_nolse(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> tensor<?x16x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>
  return %o : tensor<?x16x?x128xbf16>
}

// Softcap (Gemma 2): the tanh of attn.softcap, applied in every kv block.
func.func @d128_softcap(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v softcap = 30.0
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d128_causal_softcap(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}
