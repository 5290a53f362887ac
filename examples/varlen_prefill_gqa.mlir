// A prefill of sequences of different lengths packed without padding
// (FlashAttention's varlen form): GQA 32:8, D = 128, bf16, causal per
// sequence. Q, K and V hold every sequence's tokens one after the other in
// batch 1, BSHD ([1, total_tokens, heads, 128]); cu_seqlens_q and
// cu_seqlens_k ([B + 1], i32) are the cumulative offsets, so sequence b is
// rows cu_seqlens[b] to cu_seqlens[b + 1] and attends only to its own keys.
// causal_bottom_right aligns each sequence's queries to the end of its keys,
// which is also right for a chunked prefill (more keys than queries).
// On the GPU each tile is one query block of one sequence (attn.sequence_tile,
// a scan over cu_seqlens_q in the kernel): no padding is computed.
func.func @varlen_prefill(%q: tensor<1x?x32x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                          %v: tensor<1x?x8x128xbf16>, %cu_seqlens_q: tensor<?xi32>,
                          %cu_seqlens_k: tensor<?xi32>)
    -> (tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
  return %o, %lse : tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
}
