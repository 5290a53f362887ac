// One decode step against a long cache, split across the kv range
// (flash-decoding): GQA 32:8, D = 128, bf16, with LSE. With one query row
// per sequence the grid has only B x 32 tiles; kv_splits(8) gives each
// (batch, head) eight tiles, one per eighth of the cache, and
// attn.combine_splits merges their partial outputs by their LSEs. The
// split count is a value so that a launch can pick it from the lengths
// (an index argument of the function: the runtime's split heuristic; here a
// constant). On the GPU the tiles and the merge are two kernels of one
// artifact (docs/Pipeline.md, "Split kv ranges").
func.func @decode_split_kv(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                           %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>) {
  %splits = arith.constant 8 : index
  %o, %lse = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x32x1x128xbf16>, tensor<?x32x1xf32>
}
