// A 3-D graph: raising keeps the reshapes to [B, H, S, D] around the
// attention, so Q is not an argument of the function.
func.func @bmm_3d(%q: tensor<8x16x32xf32>, %k: tensor<8x16x32xf32>, %v: tensor<8x16x32xf32>) -> tensor<8x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<8x16x32xf32>, tensor<8x16x32xf32>) outs(%sz : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x16x16xf32>) outs(%e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %oe = tensor.empty() : tensor<8x16x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x16xf32>, tensor<8x16x32xf32>) outs(%oz : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  return %o : tensor<8x16x32xf32>
}
