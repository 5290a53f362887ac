// Paged decode kernels, compiled by bench/prepare-gpu.sh into
// artifacts/decode-paged, checked and timed by bench/decode_paged.py next to
// the dense decode kernel of the same graph (bench/decode.mlir's
// decode_d128_gqa with kv_splits, artifacts/decode-split*): GQA 32:8, D = 128,
// bf16, no mask, O only; K and V in page pools of 16 and of 256 tokens read
// through a block table, each sequence with its own cache length; the split
// count is chosen at launch, as for the dense kernel.

func.func @paged_d128_p16(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x16x8x128xbf16>, %v: tensor<?x16x8x128xbf16>,
                          %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits) pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x?x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

func.func @paged_d128_p256(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x256x8x128xbf16>, %v: tensor<?x256x8x128xbf16>,
                           %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits) pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x?x128xbf16>, tensor<?x256x8x128xbf16>, tensor<?x256x8x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}
