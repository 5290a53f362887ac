// The scale and the kv split count as arguments after the tensors, as the
// GPU pipeline's kernels take them (attn-generalize-scale, attn-split-kv).
func.func @scale_argument(%q: tensor<1x2x16x32xf32>, %k: tensor<1x2x24x32xf32>,
                          %v: tensor<1x2x24x32xf32>, %scale: f32)
    -> tensor<1x2x16x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal scale_value(%scale)
      : tensor<1x2x16x32xf32>, tensor<1x2x24x32xf32>, tensor<1x2x24x32xf32>
      -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}

// A decode step with both, the split count first.
func.func @decode_arguments(%q: tensor<1x8x1x64xf32>, %k: tensor<1x2x?x64xf32>,
                            %v: tensor<1x2x?x64xf32>, %splits: index,
                            %scale: f32)
    -> (tensor<1x8x1x64xf32>, tensor<1x8x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v scale_value(%scale) kv_splits(%splits)
      : tensor<1x8x1x64xf32>, tensor<1x2x?x64xf32>, tensor<1x2x?x64xf32>
      -> tensor<1x8x1x64xf32>, tensor<1x8x1xf32>
  return %o, %lse : tensor<1x8x1x64xf32>, tensor<1x8x1xf32>
}
