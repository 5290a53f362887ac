// Decode steps (one query token per sequence against a KV cache) for the
// attn-pack-gqa checks of attn-lower-to-nvvm-pipeline.mlir.

// GQA 32:8 without a mask, with the LSE: packed, 4 query heads per kv head.
func.func @decode_gqa(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                      %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}

// MQA 32:1: all 32 query heads in one packed head.
func.func @decode_mqa(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x1x?x128xbf16>,
                      %v: tensor<?x1x?x128xbf16>) -> tensor<?x32x1x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x1x128xbf16>, tensor<?x1x?x128xbf16>, tensor<?x1x?x128xbf16>
      -> tensor<?x32x1x128xbf16>
  return %o : tensor<?x32x1x128xbf16>
}

// GQA 32:8 with a bottom-right causal mask: packed by pack-gqa=auto, not by
// unmasked.
func.func @decode_causal(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                         %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x1x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x1x128xbf16>
  return %o : tensor<?x32x1x128xbf16>
}

// GQA 32:8 with a causal mask and a dynamic Nq (a prefill): packed by
// pack-gqa=auto too (token-major rows: whole tokens a tile).
func.func @prefill_causal(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                          %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

// A BSHD decode step ([B, 1, Hq, D]): packed, token-major rows as BHSD's.
func.func @decode_bshd(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                       %v: tensor<?x?x8x128xbf16>) -> tensor<?x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// GQA 12:2 (g = 6, which does not divide a warpgroup's 64 rows): packed for
// its one token only.
func.func @decode_g6(%q: tensor<?x12x1x128xbf16>, %k: tensor<?x2x?x128xbf16>,
                     %v: tensor<?x2x?x128xbf16>) -> tensor<?x12x1x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x12x1x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>
      -> tensor<?x12x1x128xbf16>
  return %o : tensor<?x12x1x128xbf16>
}
