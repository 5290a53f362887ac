// RUN: attnc-opt %s -split-input-file --attn-raise-attention -verify-diagnostics \
// RUN:   | FileCheck %s --implicit-check-not=attn.attention

// Near misses: each contraction of probabilities by V that is not raised
// gets a remark saying which part did not match, and stays as it is.

// CHECK-LABEL: func.func @not_attention
// Contractions that are not attention get no remark: a plain batch_matmul,
// and one of exponentials that are not normalized.
func.func @not_attention(%a: tensor<2x4x4xf32>, %b: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ab = linalg.batch_matmul ins(%a, %b : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.exp ins(%ab : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = linalg.batch_matmul ins(%x, %b : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// linalg.softmax normalizes over the query rows.
func.func @softmax_wrong_axis(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: softmax over dimension 1, not the key dimension 2}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The mask hides each query's own key (j == i).
func.func @mask_diagonal(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ne, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not causal, bottom-right causal or a sliding window}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A large finite negative number is not -inf: rows it masks entirely differ.
func.func @mask_finite(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %big = arith.constant -1.0e9 : f32
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %big : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it adds -1e+09 at (0, 1), neither 0 nor -inf}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask that hides every key.
func.func @mask_hides_all(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mask = arith.constant dense<0xFF800000> : tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it hides every key}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask computed with an op the evaluator does not know.
func.func @mask_unevaluated_op(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %two = arith.constant 2 : index
    %odd = arith.remui %j, %two : index
    %ok = arith.cmpi eq, %odd, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: the mask uses arith.remui, which is not evaluated}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// j + 125 <= i + 125 in i8: row 3's 128 wraps to -128, so row 3 sees only
// its own key (j = 3 wraps too), not keys 0 to 2 as causal would.
func.func @mask_i8_wraps(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %me = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i8 = arith.index_cast %i : index to i8
    %j8 = arith.index_cast %j : index to i8
    %c125 = arith.constant 125 : i8
    %ip = arith.addi %i8, %c125 : i8
    %jp = arith.addi %j8, %c125 : i8
    %ok = arith.cmpi sle, %jp, %ip : i8
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %oe = tensor.empty() : tensor<2x4x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not causal, bottom-right causal or a sliding window}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%oz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The same sum with overflow<nsw>: its wrap is poison, not evaluated.
func.func @mask_nsw_wraps(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %me = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i8 = arith.index_cast %i : index to i8
    %j8 = arith.index_cast %j : index to i8
    %c125 = arith.constant 125 : i8
    %ip = arith.addi %i8, %c125 overflow<nsw> : i8
    %jp = arith.addi %j8, %c125 overflow<nsw> : i8
    %ok = arith.cmpi sle, %jp, %ip : i8
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %oe = tensor.empty() : tensor<2x4x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: arith.addi wraps under its overflow flags, a poison value that is not evaluated}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%oz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// j <= i compared in bf16 (8 significand bits): key 257 rounds to 256, so
// query 256 sees key 257; not causal.
func.func @mask_bf16_rounds(%q: tensor<1x260x4xf32>, %k: tensor<1x260x4xf32>, %v: tensor<1x260x4xf32>) -> tensor<1x260x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x260x260xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x260x260xf32>) -> tensor<1x260x260xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<1x260x4xf32>, tensor<1x260x4xf32>) outs(%sz : tensor<1x260x260xf32>) -> tensor<1x260x260xf32>
  %me = tensor.empty() : tensor<260x260xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<260x260xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %fi = arith.sitofp %i32 : i32 to bf16
    %fj = arith.sitofp %j32 : i32 to bf16
    %ok = arith.cmpf ole, %fj, %fi : bf16
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<260x260xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x260x260xf32>, tensor<260x260xf32>) outs(%e : tensor<1x260x260xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x260x260xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x260x260xf32>) outs(%e : tensor<1x260x260xf32>) -> tensor<1x260x260xf32>
  %oe = tensor.empty() : tensor<1x260x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x260x4xf32>) -> tensor<1x260x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not causal, bottom-right causal or a sliding window}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x260x260xf32>, tensor<1x260x4xf32>) outs(%oz : tensor<1x260x4xf32>) -> tensor<1x260x4xf32>
  return %o : tensor<1x260x4xf32>
}

// -----

// A mask comparing floats with an unordered predicate.
func.func @mask_unordered_compare(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %fi = arith.index_cast %i : index to i32
    %fj = arith.index_cast %j : index to i32
    %xi = arith.sitofp %fi : i32 to f32
    %xj = arith.sitofp %fj : i32 to f32
    %ok = arith.cmpf ule, %xj, %xi : f32
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: the mask compares floats with an unordered predicate}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask behind an op the evaluator does not look through.
func.func @mask_reshaped(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %m3 = arith.constant dense<0.0> : tensor<1x4x4xf32>
  %mask = tensor.collapse_shape %m3 [[0, 1], [2]] : tensor<1x4x4xf32> into tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: the mask is computed by tensor.collapse_shape, which is not evaluated}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask generic that writes its result transposed.
func.func @mask_transposed_output(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: the mask's linalg.generic is not elementwise}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask generic that yields its init.
func.func @mask_reads_init(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mi = arith.constant dense<0.0> : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%mi : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %out : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: the mask's linalg.generic reads its init}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask of the full score shape (it could differ between heads).
func.func @mask_per_head(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not broadcast over batch and heads}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask computed inline from the batch index.
func.func @inline_mask_per_head(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 2 : index
    %ok = arith.cmpi ule, %j, %b : index
    %m = arith.select %ok, %zero, %ninf : f32
    %r = arith.addf %a0, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not broadcast over batch and heads}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A tensor the function receives is not a mask the op can express.
func.func @mask_from_argument(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %m: tensor<4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %m : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores add a tensor that is not computed from constants (not a mask)}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Two masks added one after the other.
func.func @two_masks(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %s2 = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %memask = tensor.empty() : tensor<4x4xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%memask : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s2, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x2 : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores add two masks}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Scores scaled by a tensor the function receives.
func.func @scale_not_splat(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %c: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores are scaled by a value that is not a splat constant}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A negative scale would turn the mask's -inf into +inf.
func.func @negative_scale(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<-0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: scale -0.5 is not positive}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// tanh on unscaled scores (a soft cap of 1) is not matched.
func.func @scores_tanh(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.tanh %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax input is computed by math.tanh, not by scaling and masking Q K^T}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Q K read as Q times K ([.., D, N]) without a transpose of K.
func.func @k_not_transposed(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %s = linalg.batch_matmul ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q K^T reads K as [.., D, N], but K is not a transpose}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// K transposed over its batch dimension.
func.func @k_wrong_permutation(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %k4: tensor<4x4x2xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k4 : tensor<4x4x2xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [2, 1, 0]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: K is transposed by an unexpected permutation}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Q K^T reads Q as [.., D, M].
func.func @q_wrong_contraction(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %s = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %mul : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q K^T does not contract Q over its last dimension}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Q K^T reads K with the query dimension.
func.func @k_wrong_contraction(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %s = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %mul : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q K^T does not contract K over its head dimension}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// P V reads V as [.., Dv, N].
func.func @pv_wrong_dim(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: P V does not contract P's key dimension with V's rows}}
  %o = linalg.generic {indexing_maps = [affine_map<(b, m, e, n) -> (b, m, n)>, affine_map<(b, m, e, n) -> (b, e, n)>, affine_map<(b, m, e, n) -> (b, m, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %mul : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// P V accumulates into ones.
func.func @pv_nonzero_init(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: P V accumulates into a tensor that is not zero}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%ones : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// Q K^T accumulates into ones.
func.func @qk_nonzero_init(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%ones : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q K^T accumulates into a tensor that is not zero}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// V in bf16, the output in f32.
func.func @mixed_element_types(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xbf16>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q, K, V and the output do not share one element type}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xbf16>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The select replaces NaN by 1, not 0.
func.func @nan_guard_one(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p0 = linalg.softmax dimension(2) ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p0 : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %nan = arith.cmpf uno, %a0, %a0 : f32
    %r = arith.select %nan, %one, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the select around the softmax is not a NaN guard (select(isnan(p) or row max == -inf, 0, p))}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The NaN guard tests the max of the unscaled scores.
func.func @nan_guard_other_max(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initmax2 = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max2 = linalg.reduce ins(%s : tensor<2x4x4xf32>) outs(%initmax2 : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %pg = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %max2 : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %none = arith.cmpf oeq, %a1, %ninf : f32
    %r = arith.select %none, %zero, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the NaN guard tests the row max of other scores}}
  %o = linalg.batch_matmul ins(%pg, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The max subtracted is a tensor the function receives.
func.func @max_not_reduction(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %rowmax: tensor<2x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %rowmax : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max is not a one-input reduction}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The max reduces over the query rows.
func.func @max_wrong_dim(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max reduces dimension 1, not the key dimension 2}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The 'max' reduction adds.
func.func @max_adds(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max does not combine with a maximum}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The max starts from 0, not -inf.
func.func @max_from_zero(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max does not start from -inf}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The max is of the unscaled scores.
func.func @max_of_other(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%s : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax subtracts the row max of other scores}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// exp(x - y) for a full tensor y.
func.func @sub_not_row(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %y: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>

  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%ex : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax subtracts a value that is not a row vector}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// The sum is of the scores, not of their exponentials.
func.func @sum_of_other(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %initmax = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initmax : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
  %ex = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %initsum = linalg.fill ins(%zero : f32) outs(%re : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.reduce ins(%x : tensor<2x4x4xf32>) outs(%initsum : tensor<2x4xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax divides by the row sum of other values}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// exp(x) * 0.5 is not a softmax.
func.func @exp_not_normalized(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %re = tensor.empty() : tensor<2x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %c = arith.constant dense<0.5> : tensor<2x4x4xf32>
  %x = linalg.mul ins(%s, %c : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %ex = math.exp %a0 : f32
    %half = arith.constant 0.5 : f32
    %r = arith.mulf %ex, %half : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the probabilities are not exp(s - max) / sum}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%sz : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// A mask over dynamic sequence lengths is not evaluated.
func.func @mask_dynamic_lengths(%q: tensor<2x?x4xf32>, %k: tensor<2x?x4xf32>, %v: tensor<2x?x4xf32>) -> (tensor<2x?x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %m = tensor.dim %q, %c1 : tensor<2x?x4xf32>
  %n = tensor.dim %k, %c1 : tensor<2x?x4xf32>
  %e = tensor.empty(%m, %n) : tensor<2x?x?xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<2x?x4xf32>, tensor<2x?x4xf32>) outs(%sz : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %me = tensor.empty(%m, %n) : tensor<?x?xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<?x?xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<2x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x?x?xf32>) outs(%e : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %eo = tensor.empty(%m) : tensor<2x?x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  // expected-remark @+1 {{not raised: the mask is over dynamic sequence lengths}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x4xf32>) outs(%oz : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  return %o : tensor<2x?x4xf32>
}

// -----

// Masks are evaluated up to 4194304 positions.
func.func @mask_too_large(%q: tensor<1x4096x4xf32>, %k: tensor<1x2048x4xf32>, %v: tensor<1x2048x4xf32>) -> (tensor<1x4096x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4096x2048xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4096x2048xf32>) -> tensor<1x4096x2048xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<1x4096x4xf32>, tensor<1x2048x4xf32>) outs(%sz : tensor<1x4096x2048xf32>) -> tensor<1x4096x2048xf32>
  %me = tensor.empty() : tensor<4096x2048xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<4096x2048xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4096x2048xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4096x2048xf32>, tensor<4096x2048xf32>) outs(%e : tensor<1x4096x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x4096x2048xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4096x2048xf32>) outs(%e : tensor<1x4096x2048xf32>) -> tensor<1x4096x2048xf32>
  %eo = tensor.empty() : tensor<1x4096x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4096x4xf32>) -> tensor<1x4096x4xf32>
  // expected-remark @+1 {{not raised: the mask has 4096 x 2048 positions, more than the 4194304 evaluated}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4096x2048xf32>, tensor<1x2048x4xf32>) outs(%oz : tensor<1x4096x4xf32>) -> tensor<1x4096x4xf32>
  return %o : tensor<1x4096x4xf32>
}

// -----

// Lengths whose product overflows 64 bits (2^32 x 2^32) are as large.
func.func @mask_positions_overflow(%q: tensor<1x4294967296x4xf32>, %k: tensor<1x4294967296x4xf32>, %v: tensor<1x4294967296x4xf32>) -> (tensor<1x4294967296x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4294967296x4294967296xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4294967296x4294967296xf32>) -> tensor<1x4294967296x4294967296xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<1x4294967296x4xf32>, tensor<1x4294967296x4xf32>) outs(%sz : tensor<1x4294967296x4294967296xf32>) -> tensor<1x4294967296x4294967296xf32>
  %me = tensor.empty() : tensor<4294967296x4294967296xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} outs(%me : tensor<4294967296x4294967296xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ok = arith.cmpi ule, %j, %i : index
    %val = arith.select %ok, %zero, %ninf : f32
    linalg.yield %val : f32
  } -> tensor<4294967296x4294967296xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (m, n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<1x4294967296x4294967296xf32>, tensor<4294967296x4294967296xf32>) outs(%e : tensor<1x4294967296x4294967296xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x4294967296x4294967296xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<1x4294967296x4294967296xf32>) outs(%e : tensor<1x4294967296x4294967296xf32>) -> tensor<1x4294967296x4294967296xf32>
  %eo = tensor.empty() : tensor<1x4294967296x4xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4294967296x4xf32>) -> tensor<1x4294967296x4xf32>
  // expected-remark @+1 {{not raised: the mask has 4294967296 x 4294967296 positions, more than the 4194304 evaluated}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4294967296x4294967296xf32>, tensor<1x4294967296x4xf32>) outs(%oz : tensor<1x4294967296x4xf32>) -> tensor<1x4294967296x4xf32>
  return %o : tensor<1x4294967296x4xf32>
}

// -----

// Q is [2, 4, ...] and K [4, 2, ...] before their reshapes.
func.func @batch_sizes_differ(%q4: tensor<2x4x4x4xf32>, %k4: tensor<4x2x4x4xf32>, %v4: tensor<2x4x4x4xf32>) -> (tensor<8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<2x4x4x4xf32> into tensor<8x4x4xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<4x2x4x4xf32> into tensor<8x4x4xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<2x4x4x4xf32> into tensor<8x4x4xf32>
  %e = tensor.empty() : tensor<8x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<8x4x4xf32>, tensor<8x4x4xf32>) outs(%sz : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x4x4xf32>) outs(%e : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  // expected-remark @+1 {{not raised: Q, K and V have different batch sizes}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x4x4xf32>, tensor<8x4x4xf32>) outs(%sz : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  return %o : tensor<8x4x4xf32>
}

// -----

// K has 8 heads, V 4 heads expanded to 8.
func.func @kv_heads_differ(%q4: tensor<1x8x4x4xf32>, %k4: tensor<1x8x4x4xf32>, %v4: tensor<1x4x4x4xf32>) -> (tensor<8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x8x4x4xf32> into tensor<8x4x4xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x8x4x4xf32> into tensor<8x4x4xf32>
  %vb0 = tensor.empty() : tensor<1x4x2x4x4xf32>
  %vb = linalg.broadcast ins(%v4 : tensor<1x4x4x4xf32>) outs(%vb0 : tensor<1x4x2x4x4xf32>) dimensions = [2]
  %vq = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x4x2x4x4xf32> into tensor<1x8x4x4xf32>
  %v = tensor.collapse_shape %vq [[0, 1], [2], [3]] : tensor<1x8x4x4xf32> into tensor<8x4x4xf32>
  %e = tensor.empty() : tensor<8x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<8x4x4xf32>, tensor<8x4x4xf32>) outs(%sz : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x4x4xf32>) outs(%e : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  // expected-remark @+1 {{not raised: K and V have different heads or lengths}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x4x4xf32>, tensor<8x4x4xf32>) outs(%sz : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  return %o : tensor<8x4x4xf32>
}

// -----

// The number of heads is not known.
func.func @heads_dynamic(%q4: tensor<1x?x4x4xf32>, %k4: tensor<1x?x4x4xf32>, %v4: tensor<1x?x4x4xf32>) -> (tensor<?x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %q = tensor.collapse_shape %q4 [[0, 1], [2], [3]] : tensor<1x?x4x4xf32> into tensor<?x4x4xf32>
  %k = tensor.collapse_shape %k4 [[0, 1], [2], [3]] : tensor<1x?x4x4xf32> into tensor<?x4x4xf32>
  %v = tensor.collapse_shape %v4 [[0, 1], [2], [3]] : tensor<1x?x4x4xf32> into tensor<?x4x4xf32>
  %c0 = arith.constant 0 : index
  %bh = tensor.dim %q, %c0 : tensor<?x4x4xf32>
  %e = tensor.empty(%bh) : tensor<?x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%q, %k : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%sz : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<?x4x4xf32>) outs(%e : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  // expected-remark @+1 {{not raised: the number of heads is dynamic}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%sz : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
  return %o : tensor<?x4x4xf32>
}

// -----

// A 5-D contraction.
func.func @operand_5d(%q: tensor<1x1x2x4x4xf32>, %k: tensor<1x1x2x4x4xf32>, %v: tensor<1x1x2x4x4xf32>) -> (tensor<1x1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x2x4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, c, m, n, k) -> (a, b, c, m, k)>, affine_map<(a, b, c, m, n, k) -> (a, b, c, n, k)>, affine_map<(a, b, c, m, n, k) -> (a, b, c, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x1x2x4x4xf32>, tensor<1x1x2x4x4xf32>) outs(%sz : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %mul : f32
    linalg.yield %r : f32
  } -> tensor<1x1x2x4x4xf32>
  %p = linalg.softmax dimension(4) ins(%s : tensor<1x1x2x4x4xf32>) outs(%e : tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32>
  // expected-remark @+1 {{not raised: operand 5-D: expected 2-D, 3-D (batch * heads) or 4-D}}
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, c, m, n, k) -> (a, b, c, m, k)>, affine_map<(a, b, c, m, n, k) -> (a, b, c, k, n)>, affine_map<(a, b, c, m, n, k) -> (a, b, c, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x1x2x4x4xf32>, tensor<1x1x2x4x4xf32>) outs(%sz : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mul = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %mul : f32
    linalg.yield %r : f32
  } -> tensor<1x1x2x4x4xf32>
  return %o : tensor<1x1x2x4x4xf32>
}

// -----

// TOSA: the max reduces over the query rows.
func.func @tosa_max_wrong_axis(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x4x4xf32>) -> tensor<2x1x4xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max reduces axis 1, not the key axis 2}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: the value subtracted is a sum.
func.func @tosa_max_not_reduce(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row max is not a tosa.reduce_max}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: the reciprocal is of a max.
func.func @tosa_sum_not_reduce(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_max %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax row sum is not a tosa.reduce_sum}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: the sum is of the scores.
func.func @tosa_sum_of_other(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax divides by the row sum of other values}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: the max is of the unscaled scores.
func.func @tosa_max_of_other(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax subtracts the row max of other scores}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: scores scaled by a tensor the function receives.
func.func @tosa_scale_not_splat(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %y: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %y, %shift : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores are multiplied by a tensor that is not a splat constant}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: a mask the function receives.
func.func @tosa_mask_from_argument(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>, %m: tensor<1x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.add %s, %m : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores add a tensor that is not computed from constants (not a mask)}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: two constant masks.
func.func @tosa_two_masks(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %m = "tosa.const"() {values = dense<0.0> : tensor<1x4x4xf32>} : () -> tensor<1x4x4xf32>
  %x0 = tosa.add %s, %m : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %x = tosa.add %x0, %m : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the scores add two masks}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: a mask with a batch dimension.
func.func @tosa_mask_per_head(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %m = "tosa.const"() {values = dense<0.0> : tensor<2x4x4xf32>} : () -> tensor<2x4x4xf32>
  %x = tosa.add %s, %m : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: mask not recognised: it is not broadcast over batch and heads}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: tanh of the scores.
func.func @tosa_scores_tanh(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.tanh %s : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: the softmax input is computed by tosa.tanh, not by scaling and masking Q K^T}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// -----

// TOSA: matmul(Q, K) without a transpose of K.
func.func @tosa_k_not_transposed(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %c = "tosa.const"() {values = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>

  %s = tosa.matmul %q, %k, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %x, %max : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %ex = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  // expected-remark @+1 {{not raised: Q K^T reads K as [.., D, N], but K is not a transpose}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}
