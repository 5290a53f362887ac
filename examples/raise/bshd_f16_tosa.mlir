// Attention as a frontend lowers it to TOSA: f16 Q, K, V in [B, S, H, D]
// (BSHD), transposed to [B, H, S, D] and reshaped to [B * H, S, D] for
// tosa.matmul, scores in f32 scaled by 1/sqrt(128), softmax as reduce_max,
// sub, exp, reduce_sum, reciprocal and mul, probabilities cast to f16 for
// P V, and the output transposed back to BSHD.
//
//   attnc-opt --attn-raise-attention --canonicalize bshd_f16_tosa.mlir
//
// gives one attn.attention (layout = bshd, scale = 0.0883883) that
// attnc-compile compiles to an sm_90a kernel.
func.func @bshd_f16(%qb: tensor<2x128x4x128xf16>, %kb: tensor<2x384x4x128xf16>,
                    %vb: tensor<2x384x4x128xf16>) -> tensor<2x128x4x128xf16> {
  %q4 = tosa.transpose %qb {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x128x4x128xf16>) -> tensor<2x4x128x128xf16>
  %k4 = tosa.transpose %kb {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x384x4x128xf16>) -> tensor<2x4x384x128xf16>
  %v4 = tosa.transpose %vb {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x384x4x128xf16>) -> tensor<2x4x384x128xf16>
  %sq = tosa.const_shape {values = dense<[8, 128, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sk = tosa.const_shape {values = dense<[8, 384, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.reshape %q4, %sq : (tensor<2x4x128x128xf16>, !tosa.shape<3>) -> tensor<8x128x128xf16>
  %k = tosa.reshape %k4, %sk : (tensor<2x4x384x128xf16>, !tosa.shape<3>) -> tensor<8x384x128xf16>
  %v = tosa.reshape %v4, %sk : (tensor<2x4x384x128xf16>, !tosa.shape<3>) -> tensor<8x384x128xf16>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x384x128xf16>) -> tensor<8x128x384xf16>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x128x128xf16>, tensor<8x128x384xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x128x384xf32>
  %c = "tosa.const"() {values = dense<0.0883883461> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %x = tosa.mul %s, %c, %shift : (tensor<8x128x384xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x128x384xf32>
  %max = tosa.reduce_max %x {axis = 2 : i32} : (tensor<8x128x384xf32>) -> tensor<8x128x1xf32>
  %d = tosa.sub %x, %max : (tensor<8x128x384xf32>, tensor<8x128x1xf32>) -> tensor<8x128x384xf32>
  %e = tosa.exp %d : (tensor<8x128x384xf32>) -> tensor<8x128x384xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x128x384xf32>) -> tensor<8x128x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x128x1xf32>) -> tensor<8x128x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x128x384xf32>, tensor<8x128x1xf32>, tensor<1xi8>) -> tensor<8x128x384xf32>
  %ph = tosa.cast %p : (tensor<8x128x384xf32>) -> tensor<8x128x384xf16>
  %o = tosa.matmul %ph, %v, %zp, %zp : (tensor<8x128x384xf16>, tensor<8x384x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x128x128xf16>
  %so = tosa.const_shape {values = dense<[2, 4, 128, 128]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %so : (tensor<8x128x128xf16>, !tosa.shape<4>) -> tensor<2x4x128x128xf16>
  %ob = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x128x128xf16>) -> tensor<2x128x4x128xf16>
  return %ob : tensor<2x128x4x128xf16>
}
