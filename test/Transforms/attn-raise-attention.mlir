// RUN: attnc-opt %s --attn-raise-attention \
// RUN:   | FileCheck %s --implicit-check-not=linalg. --implicit-check-not=tosa. --implicit-check-not=tensor.

// The graphs compute the same numbers before and after raising: attnc-run
// runs each raised (at the graph and the split stage) and as written
// (cpu:unraised, through upstream lowering), against the float64 reference
// of the raised op.
// RUN: attnc-run --raise %s --stages=graph,split --block-m=16 --block-n=16 \
// RUN:   | FileCheck %s --check-prefix=NUM --implicit-check-not=FAIL

// NUM-DAG: {{^}}bmm_softmax {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}generic_causal {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}bmm_transpose_b {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}scale_on_q_and_k {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}gqa_window {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}bshd {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}bf16_scores_in_f32 {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}tosa_unmasked {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}tosa_gqa_bshd_causal {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}band {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}band_unsigned {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}dynamic_lengths {{.*}} cpu:unraised {{.*}} PASS
// NUM-DAG: {{^}}tosa_bf16 {{.*}} cpu:unraised {{.*}} PASS
// NUM: {{^}}39 passed, 0 failed

#q = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#kt = affine_map<(b, h, m, n, k) -> (b, h, n, k)>
#s = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
#id = affine_map<(b, h, m, n) -> (b, h, m, n)>
#row = affine_map<(b, h, m, n) -> (b, h, m)>
#mn = affine_map<(b, h, m, n) -> (m, n)>
#id2 = affine_map<(m, n) -> (m, n)>
#p = affine_map<(b, h, m, e, n) -> (b, h, m, n)>
#v = affine_map<(b, h, m, e, n) -> (b, h, n, e)>
#o = affine_map<(b, h, m, e, n) -> (b, h, m, e)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row3 = affine_map<(b, m, n) -> (b, m)>
#mn3 = affine_map<(b, m, n) -> (m, n)>
#id4 = affine_map<(b, h, s, d) -> (b, h, s, d)>
#qm = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#km = affine_map<(b, h, m, n, k) -> (b, h, n, k)>
#sm = affine_map<(b, h, m, n, k) -> (b, h, m, n)>
#pm = affine_map<(b, h, m, e, n) -> (b, h, m, n)>
#vm = affine_map<(b, h, m, e, n) -> (b, h, n, e)>
#om = affine_map<(b, h, m, e, n) -> (b, h, m, e)>

// linalg.batch_matmul on [B * H, S, D] reshapes of 4-D operands, K^T by
// linalg.transpose, the scale by linalg.mul with a splat, linalg.softmax.
// CHECK-LABEL: func.func @bmm_softmax
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x4x64x32xf32>, %[[K:.*]]: tensor<2x4x64x32xf32>, %[[V:.*]]: tensor<2x4x64x32xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 0.176776692 :
// CHECK-NEXT:    return %[[O]]
func.func @bmm_softmax(%q4: tensor<2x4x64x32xf32>, %k4: tensor<2x4x64x32xf32>, %v4: tensor<2x4x64x32xf32>) -> tensor<2x4x64x32xf32> {
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<2x4x64x32xf32> into tensor<8x64x32xf32>
  %kt0 = tensor.empty() : tensor<8x32x64xf32>
  %kt = linalg.transpose ins(%k : tensor<8x64x32xf32>) outs(%kt0 : tensor<8x32x64xf32>) permutation = [0, 2, 1]
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x64x64xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x64x32xf32>, tensor<8x32x64xf32>) outs(%sz : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  %c = arith.constant dense<0.176776695> : tensor<8x64x64xf32>
  %ss = linalg.mul ins(%s, %c : tensor<8x64x64xf32>, tensor<8x64x64xf32>) outs(%s0 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<8x64x64xf32>) outs(%s0 : tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  %o0 = tensor.empty() : tensor<8x64x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x64x64xf32>, tensor<8x64x32xf32>) outs(%oz : tensor<8x64x32xf32>) -> tensor<8x64x32xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 64, 32] : tensor<8x64x32xf32> into tensor<2x4x64x32xf32>
  return %o4 : tensor<2x4x64x32xf32>
}

// Contractions as linalg.generic (K^T in the indexing maps), a causal mask
// from linalg.index (j <= i) added in the same op as the scale, the softmax
// decomposed into max / sub+exp / sum / div generics, and a NaN guard
// (select(isnan(p), 0, p)) fused into the division.
// CHECK-LABEL: func.func @generic_causal
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>, %[[V:.*]]: tensor<1x2x16x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal scale = 2.500000e-01 :
// CHECK-NEXT:    return %[[O]]
func.func @generic_causal(%q: tensor<1x2x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %s = linalg.generic {indexing_maps = [#q, #kt, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) outs(%sz : tensor<1x2x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x16xf32>
  %me = tensor.empty() : tensor<16x16xf32>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<16x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<16x16xf32>
  %c = arith.constant 0.25 : f32
  %x = linalg.generic {indexing_maps = [#id, #mn, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x2x16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<1x2x16x16xf32>) {
  ^bb0(%a: f32, %mk: f32, %out: f32):
    %t = arith.mulf %a, %c : f32
    %u = arith.addf %t, %mk : f32
    linalg.yield %u : f32
  } -> tensor<1x2x16x16xf32>
  %re = tensor.empty() : tensor<1x2x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x2x16x16xf32>) outs(%mi : tensor<1x2x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) outs(%e : tensor<1x2x16x16xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x16xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%re : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<1x2x16x16xf32>) outs(%zi : tensor<1x2x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<1x2x16x16xf32>, tensor<1x2x16xf32>) outs(%e : tensor<1x2x16x16xf32>) {
  ^bb0(%a: f32, %sm: f32, %out: f32):
    %r = arith.divf %a, %sm : f32
    %nan = arith.cmpf uno, %r, %r : f32
    %g = arith.select %nan, %zero, %r : f32
    linalg.yield %g : f32
  } -> tensor<1x2x16x16xf32>
  %oe = tensor.empty() : tensor<1x2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x16x16xf32>, tensor<1x2x16x8xf32>) outs(%oz : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>
  return %o : tensor<1x2x16x8xf32>
}

// batch_matmul with K^T in its indexing_maps, scores divided by a splat, a
// bottom-right causal mask (j <= i + Nk - Nq), linalg.reduce for max and
// sum, the normalization as a reciprocal times exp, and the NaN guard
// select(rowmax == -inf, 0, p).
// CHECK-LABEL: func.func @bmm_transpose_b
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[K:.*]]: tensor<1x2x32x8xf32>, %[[V:.*]]: tensor<1x2x32x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal_bottom_right scale = 2.500000e-01 :
// CHECK-NEXT:    return %[[O]]
func.func @bmm_transpose_b(%q4: tensor<1x2x16x8xf32>, %k4: tensor<1x2x32x8xf32>, %v4: tensor<1x2x32x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %four = arith.constant 4.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x2x32x8xf32> into tensor<2x32x8xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x2x32x8xf32> into tensor<2x32x8xf32>
  %e = tensor.empty() : tensor<2x16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x16x8xf32>, tensor<2x32x8xf32>) outs(%sz : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %me = tensor.empty() : tensor<16x32xf32>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<16x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %d = arith.addi %i, %c16 : index
    %ok = arith.cmpi sge, %d, %j : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<16x32xf32>
  %x = linalg.generic {indexing_maps = [#id3, #mn3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<2x16x32xf32>) {
  ^bb0(%a: f32, %mk: f32, %out: f32):
    %t = arith.divf %a, %four : f32
    %u = arith.addf %mk, %t : f32
    linalg.yield %u : f32
  } -> tensor<2x16x32xf32>
  %re = tensor.empty() : tensor<2x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x16xf32>) -> tensor<2x16xf32>
  %max = linalg.reduce ins(%x : tensor<2x16x32xf32>) outs(%mi : tensor<2x16xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maxnumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x16x32xf32>, tensor<2x16xf32>) outs(%e : tensor<2x16x32xf32>) {
  ^bb0(%a: f32, %mx: f32, %out: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x16x32xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%re : tensor<2x16xf32>) -> tensor<2x16xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x16x32xf32>) outs(%zi : tensor<2x16xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %rcp = linalg.generic {indexing_maps = [affine_map<(b, m) -> (b, m)>, affine_map<(b, m) -> (b, m)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x16xf32>) outs(%re : tensor<2x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %rcp, %max : tensor<2x16x32xf32>, tensor<2x16xf32>, tensor<2x16xf32>) outs(%e : tensor<2x16x32xf32>) {
  ^bb0(%a: f32, %r: f32, %mx: f32, %out: f32):
    %pr = arith.mulf %a, %r : f32
    %empty = arith.cmpf oeq, %mx, %ninf : f32
    %g = arith.select %empty, %zero, %pr : f32
    linalg.yield %g : f32
  } -> tensor<2x16x32xf32>
  %oe = tensor.empty() : tensor<2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x32xf32>, tensor<2x32x8xf32>) outs(%oz : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : tensor<2x16x8xf32> into tensor<1x2x16x8xf32>
  return %o4 : tensor<1x2x16x8xf32>
}

// The scale moved onto Q (before the reshape) and onto K (a 0-d splat
// tensor, after it): the attribute is their product.
// CHECK-LABEL: func.func @scale_on_q_and_k
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x2x16x8xf32>, %[[K:.*]]: tensor<2x2x16x8xf32>, %[[V:.*]]: tensor<2x2x16x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 1.250000e-01 :
// CHECK-NEXT:    return %[[O]]
func.func @scale_on_q_and_k(%q4: tensor<2x2x16x8xf32>, %k4: tensor<2x2x16x8xf32>, %v4: tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant dense<0.25> : tensor<f32>
  %e4 = tensor.empty() : tensor<2x2x16x8xf32>
  %qs = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q4 : tensor<2x2x16x8xf32>) outs(%e4 : tensor<2x2x16x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.mulf %half, %a : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x8xf32>
  %q = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %e3 = tensor.empty() : tensor<4x16x8xf32>
  %ks = linalg.generic {indexing_maps = [#id3, affine_map<(b, m, n) -> ()>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k, %quarter : tensor<4x16x8xf32>, tensor<f32>) outs(%e3 : tensor<4x16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8xf32>
  %kt0 = tensor.empty() : tensor<4x8x16xf32>
  %kt = linalg.transpose ins(%ks : tensor<4x16x8xf32>) outs(%kt0 : tensor<4x8x16xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%sz : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%oz : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, 16, 8] : tensor<4x16x8xf32> into tensor<2x2x16x8xf32>
  return %o4 : tensor<2x2x16x8xf32>
}

// GQA: K and V heads expanded by linalg.broadcast and a reshape; a sliding
// window mask (j <= i and i - j < 4) in i64 arithmetic.
// CHECK-LABEL: func.func @gqa_window
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x4x16x8xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>, %[[V:.*]]: tensor<1x2x16x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal window = [3, 0] scale = 0.353553385 :
// CHECK-NEXT:    return %[[O]]
func.func @gqa_window(%q4: tensor<1x4x16x8xf32>, %k4: tensor<1x2x16x8xf32>, %v4: tensor<1x2x16x8xf32>) -> tensor<1x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.35355339> : tensor<4x16x16xf32>
  %kb0 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %kb = linalg.broadcast ins(%k4 : tensor<1x2x16x8xf32>) outs(%kb0 : tensor<1x2x2x16x8xf32>) dimensions = [2]
  %kq = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %vb0 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %vb = linalg.broadcast ins(%v4 : tensor<1x2x16x8xf32>) outs(%vb0 : tensor<1x2x2x16x8xf32>) dimensions = [2]
  %vq = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %k = tensor.collapse_shape %kq [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %v = tensor.collapse_shape %vq [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %kt0 = tensor.empty() : tensor<4x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<4x16x8xf32>) outs(%kt0 : tensor<4x8x16xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%sz : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ss = linalg.mul ins(%scale, %s : tensor<4x16x16xf32>, tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %me = tensor.empty() : tensor<16x16xf32>
  %mask = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<16x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %c4 = arith.constant 4 : i64
    %dist = arith.subi %ii, %jj : i64
    %causal = arith.cmpi sle, %jj, %ii : i64
    %near = arith.cmpi slt, %dist, %c4 : i64
    %ok = arith.andi %causal, %near : i1
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<16x16xf32>
  %x = linalg.generic {indexing_maps = [#id3, #mn3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ss, %mask : tensor<4x16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<4x16x16xf32>) {
  ^bb0(%a: f32, %mk: f32, %out: f32):
    %u = arith.addf %a, %mk : f32
    linalg.yield %u : f32
  } -> tensor<4x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x16x16xf32>) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%oz : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  return %o4 : tensor<1x4x16x8xf32>
}

// BSHD operands transposed to BHSD for 4-D generic contractions and the
// output transposed back: the op takes the BSHD tensors.
// CHECK-LABEL: func.func @bshd
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x16x2x8xf32>, %[[K:.*]]: tensor<1x24x2x8xf32>, %[[V:.*]]: tensor<1x24x2x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 0.353553385 layout = bshd :
// CHECK-NEXT:    return %[[O]]
func.func @bshd(%qb: tensor<1x16x2x8xf32>, %kb: tensor<1x24x2x8xf32>, %vb: tensor<1x24x2x8xf32>) -> tensor<1x16x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35355339 : f32
  %q0 = tensor.empty() : tensor<1x2x16x8xf32>
  %q = linalg.transpose ins(%qb : tensor<1x16x2x8xf32>) outs(%q0 : tensor<1x2x16x8xf32>) permutation = [0, 2, 1, 3]
  %k0 = tensor.empty() : tensor<1x2x24x8xf32>
  %k = linalg.transpose ins(%kb : tensor<1x24x2x8xf32>) outs(%k0 : tensor<1x2x24x8xf32>) permutation = [0, 2, 1, 3]
  %v = linalg.transpose ins(%vb : tensor<1x24x2x8xf32>) outs(%k0 : tensor<1x2x24x8xf32>) permutation = [0, 2, 1, 3]
  %e = tensor.empty() : tensor<1x2x16x24xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qm, #km, #sm], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x16x8xf32>, tensor<1x2x24x8xf32>) outs(%sz : tensor<1x2x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x24xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, m, n) -> (b, h, m, n)>, affine_map<(b, h, m, n) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x2x16x24xf32>) outs(%e : tensor<1x2x16x24xf32>) {
  ^bb0(%a: f32, %out: f32):
    %t = arith.mulf %a, %c : f32
    linalg.yield %t : f32
  } -> tensor<1x2x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x16x24xf32>) outs(%e : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %oe = tensor.empty() : tensor<1x2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %o = linalg.generic {indexing_maps = [#pm, #vm, #om], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x2x16x24xf32>, tensor<1x2x24x8xf32>) outs(%oz : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x8xf32>
  %ob0 = tensor.empty() : tensor<1x16x2x8xf32>
  %ob = linalg.transpose ins(%o : tensor<1x2x16x8xf32>) outs(%ob0 : tensor<1x16x2x8xf32>) permutation = [0, 2, 1, 3]
  return %ob : tensor<1x16x2x8xf32>
}

// bf16 operands, scores accumulated and normalized in f32, P truncated to
// bf16 for P V.
// CHECK-LABEL: func.func @bf16_scores_in_f32
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xbf16>, %[[K:.*]]: tensor<1x2x16x8xbf16>, %[[V:.*]]: tensor<1x2x16x8xbf16>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 0.353553385 :
// CHECK-NEXT:    return %[[O]]
func.func @bf16_scores_in_f32(%q4: tensor<1x2x16x8xbf16>, %k4: tensor<1x2x16x8xbf16>, %v4: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  %zero = arith.constant 0.0 : f32
  %zerob = arith.constant 0.0 : bf16
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x2x16x8xbf16> into tensor<2x16x8xbf16>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x2x16x8xbf16> into tensor<2x16x8xbf16>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x2x16x8xbf16> into tensor<2x16x8xbf16>
  %kt0 = tensor.empty() : tensor<2x8x16xbf16>
  %kt = linalg.transpose ins(%k : tensor<2x16x8xbf16>) outs(%kt0 : tensor<2x8x16xbf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<2x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x16x8xbf16>, tensor<2x8x16xbf16>) outs(%sz : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %c = arith.constant dense<0.35355339> : tensor<2x16x16xf32>
  %ss = linalg.mul ins(%s, %c : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %eb = tensor.empty() : tensor<2x16x16xbf16>
  %pb = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x16x16xf32>) outs(%eb : tensor<2x16x16xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x16x16xbf16>
  %oe = tensor.empty() : tensor<2x16x8xbf16>
  %oz = linalg.fill ins(%zerob : bf16) outs(%oe : tensor<2x16x8xbf16>) -> tensor<2x16x8xbf16>
  %o = linalg.batch_matmul ins(%pb, %v : tensor<2x16x16xbf16>, tensor<2x16x8xbf16>) outs(%oz : tensor<2x16x8xbf16>) -> tensor<2x16x8xbf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : tensor<2x16x8xbf16> into tensor<1x2x16x8xbf16>
  return %o4 : tensor<1x2x16x8xbf16>
}

// TOSA: reshape, transpose, matmul, mul by a splat, reduce_max, sub, exp,
// reduce_sum, reciprocal, mul, matmul, reshape back.
// CHECK-LABEL: func.func @tosa_unmasked
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x4x32x16xf32>, %[[K:.*]]: tensor<1x4x32x16xf32>, %[[V:.*]]: tensor<1x4x32x16xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 2.500000e-01 :
// CHECK-NEXT:    return %[[O]]
func.func @tosa_unmasked(%q4: tensor<1x4x32x16xf32>, %k4: tensor<1x4x32x16xf32>, %v4: tensor<1x4x32x16xf32>) -> tensor<1x4x32x16xf32> {
  %s3 = tosa.const_shape {values = dense<[4, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %q4, %s3 : (tensor<1x4x32x16xf32>, !tosa.shape<3>) -> tensor<4x32x16xf32>
  %k = tosa.reshape %k4, %s3 : (tensor<1x4x32x16xf32>, !tosa.shape<3>) -> tensor<4x32x16xf32>
  %v = tosa.reshape %v4, %s3 : (tensor<1x4x32x16xf32>, !tosa.shape<3>) -> tensor<4x32x16xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x32x16xf32>) -> tensor<4x16x32xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x32x16xf32>, tensor<4x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x32xf32>
  %c = "tosa.const"() {values = dense<0.25> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %ss = tosa.mul %s, %c, %shift : (tensor<4x32x32xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x32x32xf32>
  %max = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<4x32x32xf32>) -> tensor<4x32x1xf32>
  %d = tosa.sub %ss, %max : (tensor<4x32x32xf32>, tensor<4x32x1xf32>) -> tensor<4x32x32xf32>
  %e = tosa.exp %d : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x32x32xf32>) -> tensor<4x32x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x32x1xf32>) -> tensor<4x32x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x32x32xf32>, tensor<4x32x1xf32>, tensor<1xi8>) -> tensor<4x32x32xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x32x32xf32>, tensor<4x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x32x16xf32>
  %s4 = tosa.const_shape {values = dense<[1, 4, 32, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %s4 : (tensor<4x32x16xf32>, !tosa.shape<4>) -> tensor<1x4x32x16xf32>
  return %o4 : tensor<1x4x32x16xf32>
}

// TOSA with BSHD transposes, GQA by reshape + tile + reshape, scale split
// between Q and the scores, and a constant causal mask.
// CHECK-LABEL: func.func @tosa_gqa_bshd_causal
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x8x4x16xf32>, %[[K:.*]]: tensor<1x8x2x16xf32>, %[[V:.*]]: tensor<1x8x2x16xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal scale = 2.500000e-01 layout = bshd :
// CHECK-NEXT:    return %[[O]]
func.func @tosa_gqa_bshd_causal(%qb: tensor<1x8x4x16xf32>, %kb: tensor<1x8x2x16xf32>, %vb: tensor<1x8x2x16xf32>) -> tensor<1x8x4x16xf32> {
  %q4 = tosa.transpose %qb {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x4x16xf32>) -> tensor<1x4x8x16xf32>
  %k4 = tosa.transpose %kb {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %v4 = tosa.transpose %vb {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %unit = tosa.const_shape {values = dense<[1, 2, 1, 8, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %times = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %heads = tosa.const_shape {values = dense<[1, 4, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k4, %unit : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %kt5 = tosa.tile %k5, %times : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %kq = tosa.reshape %kt5, %heads : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %v5 = tosa.reshape %v4, %unit : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %vt5 = tosa.tile %v5, %times : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %vq = tosa.reshape %vt5, %heads : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %s3 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %q4, %s3 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %k = tosa.reshape %kq, %s3 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %v = tosa.reshape %vq, %s3 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %qs = tosa.mul %q, %c, %shift : (tensor<4x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x16xf32>
  %s = tosa.matmul %qs, %kt, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %c2 = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %ss = tosa.mul %c2, %s, %shift : (tensor<1x1x1xf32>, tensor<4x8x8xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %mask = "tosa.const"() {values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x8x8xf32>} : () -> tensor<1x8x8xf32>
  %x = tosa.add %ss, %mask : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %x, %max : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %r, %e, %shift : (tensor<4x8x1xf32>, tensor<4x8x8xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %o4 = tosa.reshape %o, %heads : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %ob = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x8x16xf32>) -> tensor<1x8x4x16xf32>
  return %ob : tensor<1x8x4x16xf32>
}

// A symmetric band |i - j| <= 2 without causality: mask none, window [2, 2].
// CHECK-LABEL: func.func @band
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>, %[[V:.*]]: tensor<1x2x16x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] window = [2, 2] scale = 1.000000e+00 :
// CHECK-NEXT:    return %[[O]]
func.func @band(%q4: tensor<1x2x16x8xf32>, %k4: tensor<1x2x16x8xf32>, %v4: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %e = tensor.empty() : tensor<2x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %d = arith.subi %ii, %jj : i32
    %c2 = arith.constant 2 : i32
    %cm2 = arith.constant -2 : i32
    %lo = arith.cmpi sge, %d, %cm2 : i32
    %hi = arith.cmpi sle, %d, %c2 : i32
    %ok = arith.andi %lo, %hi : i1
    %m = arith.select %ok, %zero, %ninf : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %oe = tensor.empty() : tensor<2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>) outs(%oz : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : tensor<2x16x8xf32> into tensor<1x2x16x8xf32>
  return %o4 : tensor<1x2x16x8xf32>
}

// The band as one unsigned comparison, i - j <u 4: a key after the query
// makes the difference negative, which wraps to above 4 and is hidden. A
// causal sliding window [3, 0].
// CHECK-LABEL: func.func @band_unsigned
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>, %[[V:.*]]: tensor<1x2x16x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal window = [3, 0] scale = 1.000000e+00 :
// CHECK-NEXT:    return %[[O]]
func.func @band_unsigned(%q4: tensor<1x2x16x8xf32>, %k4: tensor<1x2x16x8xf32>, %v4: tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %e = tensor.empty() : tensor<2x16x16xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x16x8xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %x = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %i, %j : index
    %c4 = arith.constant 4 : index
    %ok = arith.cmpi ult, %d, %c4 : index
    %m = arith.select %ok, %zero, %ninf : f32
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x16xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x16x16xf32>) outs(%e : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %oe = tensor.empty() : tensor<2x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x16xf32>, tensor<2x16x8xf32>) outs(%oz : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 16, 8] : tensor<2x16x8xf32> into tensor<1x2x16x8xf32>
  return %o4 : tensor<1x2x16x8xf32>
}

// Dynamic batch and sequence lengths (attnc-run picks B = 2, Nq = 113,
// Nk = 203): the graph's own reshape back to 4-D is followed.
// CHECK-LABEL: func.func @dynamic_lengths
// CHECK-SAME:    (%[[Q:.*]]: tensor<?x4x?x8xf32>, %[[K:.*]]: tensor<?x4x?x8xf32>, %[[V:.*]]: tensor<?x4x?x8xf32>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 1.000000e+00 :
// CHECK-NEXT:    return %[[O]]
func.func @dynamic_lengths(%q4: tensor<?x4x?x8xf32>, %k4: tensor<?x4x?x8xf32>, %v4: tensor<?x4x?x8xf32>) -> tensor<?x4x?x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q4, %c0 : tensor<?x4x?x8xf32>
  %m = tensor.dim %q4, %c2 : tensor<?x4x?x8xf32>
  %n = tensor.dim %k4, %c2 : tensor<?x4x?x8xf32>
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<?x4x?x8xf32> into tensor<?x?x8xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<?x4x?x8xf32> into tensor<?x?x8xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<?x4x?x8xf32> into tensor<?x?x8xf32>
  %bh = tensor.dim %q, %c0 : tensor<?x?x8xf32>
  %e = tensor.empty(%bh, %m, %n) : tensor<?x?x?xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<?x?x8xf32>, tensor<?x?x8xf32>) outs(%sz : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %oe = tensor.empty(%bh, %m) : tensor<?x?x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x?x?xf32>, tensor<?x?x8xf32>) outs(%oz : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [%b, 4, %m, 8] : tensor<?x?x8xf32> into tensor<?x4x?x8xf32>
  return %o4 : tensor<?x4x?x8xf32>
}

// TOSA in bf16: matmuls accumulate to f32 (as TOSA requires), the softmax
// runs in f32, P and O are cast back to bf16.
// CHECK-LABEL: func.func @tosa_bf16
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x16x8xbf16>, %[[K:.*]]: tensor<1x2x16x8xbf16>, %[[V:.*]]: tensor<1x2x16x8xbf16>)
// CHECK-NEXT:    %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 0.353553385 :
// CHECK-NEXT:    return %[[O]]
func.func @tosa_bf16(%q4: tensor<1x2x16x8xbf16>, %k4: tensor<1x2x16x8xbf16>, %v4: tensor<1x2x16x8xbf16>) -> tensor<1x2x16x8xbf16> {
  %s3 = tosa.const_shape {values = dense<[2, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %q4, %s3 : (tensor<1x2x16x8xbf16>, !tosa.shape<3>) -> tensor<2x16x8xbf16>
  %k = tosa.reshape %k4, %s3 : (tensor<1x2x16x8xbf16>, !tosa.shape<3>) -> tensor<2x16x8xbf16>
  %v = tosa.reshape %v4, %s3 : (tensor<1x2x16x8xbf16>, !tosa.shape<3>) -> tensor<2x16x8xbf16>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x16x8xbf16>) -> tensor<2x8x16xbf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x16x8xbf16>, tensor<2x8x16xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x16x16xf32>
  %c = "tosa.const"() {values = dense<0.35355339> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x16x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x16x16xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x16x16xf32>) -> tensor<2x16x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x16x16xf32>, tensor<2x16x1xf32>) -> tensor<2x16x16xf32>
  %e = tosa.exp %d : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x16x16xf32>) -> tensor<2x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x16x16xf32>, tensor<2x16x1xf32>, tensor<1xi8>) -> tensor<2x16x16xf32>
  %pb = tosa.cast %p : (tensor<2x16x16xf32>) -> tensor<2x16x16xbf16>
  %o = tosa.matmul %pb, %v, %zp, %zp : (tensor<2x16x16xbf16>, tensor<2x16x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x16x8xf32>
  %ob = tosa.cast %o : (tensor<2x16x8xf32>) -> tensor<2x16x8xbf16>
  %s4 = tosa.const_shape {values = dense<[1, 2, 16, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %ob, %s4 : (tensor<2x16x8xbf16>, !tosa.shape<4>) -> tensor<1x2x16x8xbf16>
  return %o4 : tensor<1x2x16x8xbf16>
}
