// Decode kernels, compiled by bench/prepare-gpu.sh (attnc-compile) into
// artifacts/decode (and the variants artifacts/decode-<label>), checked and
// timed on the GPU by bench/decode.py. One decode step: Nq = 1 query token per
// sequence (a few for speculative decoding) against a cache of Nk keys, with
// grouped-query heads, GQA 32:8 (4 query heads per kv head) and MQA 32:1.
// BHSD, bf16, no mask (but the last kernel's), O only (no LSE); batch and both sequence lengths are
// dynamic, heads and head dims are compiled in, the scale is given at launch.

func.func @decode_d128_gqa(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

func.func @decode_d128_mqa(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x1x?x128xbf16>, %v: tensor<?x1x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x1x?x128xbf16>, tensor<?x1x?x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

func.func @decode_d64_gqa(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x8x?x64xbf16>, %v: tensor<?x8x?x64xbf16>) -> tensor<?x32x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x32x?x64xbf16>
  return %o : tensor<?x32x?x64xbf16>
}

func.func @decode_d256_gqa(%q: tensor<?x32x?x256xbf16>, %k: tensor<?x8x?x256xbf16>, %v: tensor<?x8x?x256xbf16>) -> tensor<?x32x?x256xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x256xbf16>, tensor<?x8x?x256xbf16>, tensor<?x8x?x256xbf16> -> tensor<?x32x?x256xbf16>
  return %o : tensor<?x32x?x256xbf16>
}

// The call most serving stacks make: one decode step with a bottom-right
// causal mask (a no-op for Nq = 1, a real mask for a few speculative
// tokens). Packed by pack-gqa=auto (unpacked in artifacts/decode-no-pack and
// decode-unmasked-pack).
func.func @decode_d128_gqa_causal(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}
