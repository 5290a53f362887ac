// Llama-3-8B-style prefill: 32 query heads share 8 key/value heads (GQA 4:1),
// head dim 128, causal, bf16, with the row log-sum-exp (natural log) that
// context-parallel and split-prefix merges need. Batch and sequence length
// are dynamic: attnc-run picks them (--batch, --seq-q, --seq-k).
func.func @llama3_prefill(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                          %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
}
