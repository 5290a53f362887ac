// RUN: attnc-opt %s -split-input-file --attn-raise-attention | FileCheck %s

// Graphs whose operands are not all 4-D BHSD or BSHD arguments: the op gets
// reshapes and transposes around it (canonicalization folds those that undo
// the graph's own).

// A 3-D graph without a reshape from 4-D: one batch, batch_matmul's batch
// as heads. No scale in the graph: scale = 1.
// CHECK-LABEL: func.func @bmm_3d
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<8x16x32xf32>, %[[K:[^:]*]]: tensor<8x16x32xf32>, %[[V:[^:]*]]: tensor<8x16x32xf32>)
// CHECK-DAG:     %[[Q4:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [1, 8, 16, 32]
// CHECK-DAG:     %[[K4:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2], [3]] output_shape [1, 8, 16, 32]
// CHECK-DAG:     %[[V4:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1], [2], [3]] output_shape [1, 8, 16, 32]
// CHECK:         %[[O:.*]] = attn.attention %[[Q4]], %[[K4]], %[[V4]] scale = 1.000000e+00 :
// CHECK-NEXT:    %[[O3:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0, 1], [2], [3]] : tensor<1x8x16x32xf32> into tensor<8x16x32xf32>
// CHECK-NEXT:    return %[[O3]]
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

// -----

// A 2-D graph of linalg.matmul: one batch, one head; V's head dim differs.
// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<16x32xf32>, %[[K:[^:]*]]: tensor<24x32xf32>, %[[V:[^:]*]]: tensor<24x64xf32>)
// CHECK-DAG:     %[[Q4:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 16, 32]
// CHECK-DAG:     %[[K4:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 24, 32]
// CHECK-DAG:     %[[V4:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 24, 64]
// CHECK:         %[[O:.*]] = attn.attention %[[Q4]], %[[K4]], %[[V4]] scale = 1.000000e+00 :
// CHECK-SAME:      -> tensor<1x1x16x64xf32>
// CHECK-NEXT:    %[[O2:.*]] = tensor.collapse_shape %[[O]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x16x64xf32> into tensor<16x64xf32>
// CHECK-NEXT:    return %[[O2]]
func.func @matmul_2d(%q: tensor<16x32xf32>, %k: tensor<24x32xf32>, %v: tensor<24x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %kt0 = tensor.empty() : tensor<32x24xf32>
  %kt = linalg.transpose ins(%k : tensor<24x32xf32>) outs(%kt0 : tensor<32x24xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x24xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x32xf32>, tensor<32x24xf32>) outs(%sz : tensor<16x24xf32>) -> tensor<16x24xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %oe = tensor.empty() : tensor<16x64xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<16x64xf32>) -> tensor<16x64xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x24xf32>, tensor<24x64xf32>) outs(%oz : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %o : tensor<16x64xf32>
}

// -----

#qm = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#km = affine_map<(b, h, m, n, k) -> (b, h, k, n)>
#sm = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
#pm = affine_map<(b, h, m, e, n) -> (b, h, m, n)>
#vm = affine_map<(b, h, m, e, n) -> (b, h, n, e)>
#om = affine_map<(b, h, m, e, n) -> (b, h, m, e)>

// Q, K and V all transposed from BSHD (K to [B, H, D, S] in one transpose)
// but the output kept in BHSD: layout = bshd and a transpose of O.
// CHECK-LABEL: func.func @bshd_in_bhsd_out
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<1x16x2x8xf32>, %[[K:[^:]*]]: tensor<1x24x2x8xf32>, %[[V:[^:]*]]: tensor<1x24x2x8xf32>)
// CHECK:         %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 1.000000e+00 layout = bshd :
// CHECK:         %[[OT:.*]] = linalg.transpose ins(%[[O]] : tensor<1x16x2x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// CHECK-NEXT:    return %[[OT]]
func.func @bshd_in_bhsd_out(%qb: tensor<1x16x2x8xf32>, %kb: tensor<1x24x2x8xf32>, %vb: tensor<1x24x2x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %q0 = tensor.empty() : tensor<1x2x16x8xf32>
  %q = linalg.transpose ins(%qb : tensor<1x16x2x8xf32>) outs(%q0 : tensor<1x2x16x8xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<1x2x8x24xf32>
  %kt = linalg.transpose ins(%kb : tensor<1x24x2x8xf32>) outs(%kt0 : tensor<1x2x8x24xf32>) permutation = [0, 2, 3, 1]
  %v0 = tensor.empty() : tensor<1x2x24x8xf32>
  %v = linalg.transpose ins(%vb : tensor<1x24x2x8xf32>) outs(%v0 : tensor<1x2x24x8xf32>) permutation = [0, 2, 1, 3]
  %e = tensor.empty() : tensor<1x2x16x24xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qm, #km, #sm], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<1x2x16x8xf32>, tensor<1x2x8x24xf32>) outs(%sz : tensor<1x2x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x2x16x24xf32>) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %oe = tensor.empty() : tensor<1x2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pm, #vm, #om], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x16x24xf32>, tensor<1x2x24x8xf32>) outs(%oz : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}

// -----

#qm = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#km = affine_map<(b, h, m, n, k) -> (b, h, k, n)>
#sm = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
#pm = affine_map<(b, h, m, e, n) -> (b, h, m, n)>
#vm = affine_map<(b, h, m, e, n) -> (b, h, n, e)>
#om = affine_map<(b, h, m, e, n) -> (b, h, m, e)>

// Only K comes from BSHD: layout = bhsd, K transposed to it.
// CHECK-LABEL: func.func @only_k_bshd
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<1x2x16x8xf32>, %[[K:[^:]*]]: tensor<1x24x2x8xf32>, %[[V:[^:]*]]: tensor<1x2x24x8xf32>)
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<1x24x2x8xf32>) {{.*}} permutation = [0, 2, 1, 3]
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[KT]], %[[V]] scale = 1.000000e+00 :
// CHECK-NEXT:    return %[[O]]
func.func @only_k_bshd(%q: tensor<1x2x16x8xf32>, %kb: tensor<1x24x2x8xf32>, %v: tensor<1x2x24x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %kt0 = tensor.empty() : tensor<1x2x8x24xf32>
  %kt = linalg.transpose ins(%kb : tensor<1x24x2x8xf32>) outs(%kt0 : tensor<1x2x8x24xf32>) permutation = [0, 2, 3, 1]
  %e = tensor.empty() : tensor<1x2x16x24xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qm, #km, #sm], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<1x2x16x8xf32>, tensor<1x2x8x24xf32>) outs(%sz : tensor<1x2x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x2x16x24xf32>) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %oe = tensor.empty() : tensor<1x2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pm, #vm, #om], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x16x24xf32>, tensor<1x2x24x8xf32>) outs(%oz : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}

// -----

// Stacked layers: the second attention's Q is the first one's output,
// which its reshape to [B * H, S, D] shows to be 4-D.
// CHECK-LABEL: func.func @stacked
// CHECK:         %[[O1:.*]] = attn.attention
// CHECK:         %[[O2:.*]] = attn.attention %[[O1]],
// CHECK:         %[[O2_3:.*]] = tensor.collapse_shape %[[O2]]
// CHECK-NEXT:    return %[[O2_3]]
func.func @stacked(%q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %oe = tensor.empty() : tensor<2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %s1 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %p1 = linalg.softmax dimension(2) ins(%s1 : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %o1 = linalg.batch_matmul ins(%p1, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>) outs(%oz : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %s2 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%o1, %k : tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %p2 = linalg.softmax dimension(2) ins(%s2 : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %o2 = linalg.batch_matmul ins(%p2, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>) outs(%oz : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %o2 : tensor<2x16x8xf32>
}
