// Attention as a frontend lowers a Llama-style prefill layer to linalg on
// tensors: bf16 Q, K, V in [B, H, S, D], 8 query heads sharing 2 key/value
// heads (repeat_kv: broadcast and reshape), heads merged into the batch of
// linalg.batch_matmul, scores scaled by 1/sqrt(64) and masked causally in
// f32, softmax in f32, probabilities truncated to bf16 for P V.
//
//   attnc-opt --attn-raise-attention --canonicalize llama_gqa_causal_linalg.mlir
//
// gives one attn.attention (mask = causal, scale = 0.125) that
// attnc-compile compiles to an sm_90a kernel.
func.func @llama_gqa_causal(%q4: tensor<1x8x256x64xbf16>, %k4: tensor<1x2x256x64xbf16>,
                            %v4: tensor<1x2x256x64xbf16>) -> tensor<1x8x256x64xbf16> {
  %zero = arith.constant 0.0 : f32
  %zerob = arith.constant 0.0 : bf16
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  // repeat_kv: [1, 2, 256, 64] -> [1, 2, 4, 256, 64] -> [1, 8, 256, 64].
  %kb0 = tensor.empty() : tensor<1x2x4x256x64xbf16>
  %kb = linalg.broadcast ins(%k4 : tensor<1x2x256x64xbf16>) outs(%kb0 : tensor<1x2x4x256x64xbf16>) dimensions = [2]
  %kq = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x4x256x64xbf16> into tensor<1x8x256x64xbf16>
  %vb = linalg.broadcast ins(%v4 : tensor<1x2x256x64xbf16>) outs(%kb0 : tensor<1x2x4x256x64xbf16>) dimensions = [2]
  %vq = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x4x256x64xbf16> into tensor<1x8x256x64xbf16>
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x8x256x64xbf16> into tensor<8x256x64xbf16>
  %k = tensor.collapse_shape %kq [[0, 1], [2], [3]] : tensor<1x8x256x64xbf16> into tensor<8x256x64xbf16>
  %v = tensor.collapse_shape %vq [[0, 1], [2], [3]] : tensor<1x8x256x64xbf16> into tensor<8x256x64xbf16>
  // S = Q K^T in f32.
  %kt0 = tensor.empty() : tensor<8x64x256xbf16>
  %kt = linalg.transpose ins(%k : tensor<8x256x64xbf16>) outs(%kt0 : tensor<8x64x256xbf16>) permutation = [0, 2, 1]
  %se = tensor.empty() : tensor<8x256x256xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%se : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x256x64xbf16>, tensor<8x64x256xbf16>)
      outs(%sz : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  // The causal mask from iota comparisons, as a [S, S] tensor.
  %me = tensor.empty() : tensor<256x256xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%me : tensor<256x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %visible = arith.cmpi sle, %j, %i : index
    %m = arith.select %visible, %zero, %ninf : f32
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<8x256x256xf32>, tensor<256x256xf32>) outs(%se : tensor<8x256x256xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %scaled = arith.mulf %a, %scale : f32
    %masked = arith.addf %scaled, %m : f32
    linalg.yield %masked : f32
  } -> tensor<8x256x256xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<8x256x256xf32>) outs(%se : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %pe = tensor.empty() : tensor<8x256x256xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<8x256x256xf32>) outs(%pe : tensor<8x256x256xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x256x256xbf16>
  // O = P V, back to [B, H, S, D].
  %oe = tensor.empty() : tensor<8x256x64xbf16>
  %oz = linalg.fill ins(%zerob : bf16) outs(%oe : tensor<8x256x64xbf16>) -> tensor<8x256x64xbf16>
  %o = linalg.batch_matmul ins(%pb, %v : tensor<8x256x256xbf16>, tensor<8x256x64xbf16>)
      outs(%oz : tensor<8x256x64xbf16>) -> tensor<8x256x64xbf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 8, 256, 64]
      : tensor<8x256x64xbf16> into tensor<1x8x256x64xbf16>
  return %o4 : tensor<1x8x256x64xbf16>
}
