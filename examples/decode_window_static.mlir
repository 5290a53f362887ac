// One decode step of a sliding-window model with static shapes: a single new
// query per sequence sees the last 256 of 512 cached keys (window [255, 0]
// on the bottom-right diagonal), GQA 4:1, bf16, with LSE. For these shapes no
// kv block is partly visible, so tiling folds every attn.mask away; the
// kernel must still take the mask from the tile (attn.finalize) and visit
// only the last 256 keys.
func.func @decode_window(%q: tensor<2x8x1x128xbf16>, %k: tensor<2x2x512x128xbf16>,
                         %v: tensor<2x2x512x128xbf16>)
    -> (tensor<2x8x1x128xbf16>, tensor<2x8x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right window = [255, 0]
      : tensor<2x8x1x128xbf16>, tensor<2x2x512x128xbf16>, tensor<2x2x512x128xbf16>
      -> tensor<2x8x1x128xbf16>, tensor<2x8x1xf32>
  return %o, %lse : tensor<2x8x1x128xbf16>, tensor<2x8x1xf32>
}
