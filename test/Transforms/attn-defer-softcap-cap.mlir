// RUN: attnc-opt %s -split-input-file --attn-defer-softcap-cap | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-defer-softcap-cap="max-head-dim=128" \
// RUN:   | FileCheck %s --check-prefix=D128
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-defer-softcap-cap | FileCheck %s --check-prefix=PIPELINE

// The cap leaves the softcap (output_scale = 1) for the scores' users
// through the masks: the row max and the exponentials scale the scores by
// it. Other ops of the step are left as they are.
// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %[[Q:[^:]*]]: tensor<64x64xbf16>, %[[K:[^:]*]]: tensor<64x64xbf16>, %[[M:[^:]*]]: tensor<64xf32>, %[[SCALE:[^:]*]]: f32, %[[C:[^:]*]]: f32,
// CHECK:         %[[S:.*]] = attn.qk %[[Q]], %[[K]]
// CHECK:         %[[T:.*]] = attn.softcap %[[S]] scale %[[SCALE]] cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
// CHECK:         %[[MS:.*]] = attn.mask %[[T]]
// CHECK:         %[[MAX:.*]] = attn.row_max %[[MS]] init %[[M]] score_scale = 3.000000e+01 : tensor<64x64xf32> -> tensor<64xf32>
// CHECK:         %[[F:.*]] = attn.rescale_factor %[[M]], %[[MAX]] scale_log2 %[[C]] : tensor<64xf32>
// CHECK:         %[[P:.*]] = attn.exp_diff %[[MS]], %[[MAX]] scale_log2 %[[C]] score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
// CHECK:         attn.row_sum %[[P]] init %{{.*}} scaled %[[F]] : tensor<64x64xf32> -> tensor<64xf32>
func.func @step(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %m: tensor<64xf32>,
                %scale: f32, %c: f32, %l: tensor<64xf32>, %row: index, %col: index,
                %nq: index, %nk: index) -> (tensor<64xf32>, tensor<64xf32>) {
  %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
  %ms = attn.mask %t rows %row cols %col seq_q %nq seq_k %nk kind = causal : tensor<64x64xf32>
  %max = attn.row_max %ms init %m : tensor<64x64xf32> -> tensor<64xf32>
  %f = attn.rescale_factor %m, %max scale_log2 %c : tensor<64xf32>
  %p = attn.exp_diff %ms, %max scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
  %l1 = attn.row_sum %p init %l scaled %f : tensor<64x64xf32> -> tensor<64xf32>
  return %max, %l1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// A user that already scales its scores multiplies its scale by the cap.
// CHECK-LABEL: func.func @scaled_user(
// CHECK:         attn.softcap %{{.*}} cap = 3.000000e+01 output_scale = 1.000000e+00
// CHECK:         attn.row_max %{{.*}} score_scale = 6.000000e+01
func.func @scaled_user(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>,
                       %scale: f32) -> tensor<64xf32> {
  %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
  %max = attn.row_max %t score_scale = 2.0 : tensor<64x64xf32> -> tensor<64xf32>
  return %max : tensor<64xf32>
}

// -----

// Any other user needs the capped scores themselves: the softcap keeps its
// cap, and no user is scaled.
// CHECK-LABEL: func.func @other_user(
// CHECK:         attn.softcap %{{.*}} cap = 3.000000e+01 : tensor<64x64xf32>
// CHECK-NOT:     score_scale
// CHECK:         return
func.func @other_user(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>,
                      %scale: f32) -> (tensor<64xf32>, tensor<64x64xf32>) {
  %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
  %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
  %max = attn.row_max %t : tensor<64x64xf32> -> tensor<64xf32>
  return %max, %t : tensor<64xf32>, tensor<64x64xf32>
}

// -----

// The default max-head-dim (256) takes every head dim; above a smaller one
// the softcap keeps its cap.
// CHECK-LABEL: func.func @d256(
// CHECK:         attn.softcap %{{.*}} cap = 3.000000e+01 output_scale = 1.000000e+00
// CHECK:         attn.row_max %{{.*}} score_scale = 3.000000e+01
// D128-LABEL: func.func @d256(
// D128:         attn.softcap %{{.*}} cap = 3.000000e+01 : tensor<64x64xf32>
// D128:         attn.row_max %{{[^ ]+}} : tensor<64x64xf32> -> tensor<64xf32>
func.func @d256(%q: tensor<64x256xbf16>, %k: tensor<64x256xbf16>,
                %scale: f32) -> tensor<64xf32> {
  %s = attn.qk %q, %k : tensor<64x256xbf16>, tensor<64x256xbf16> -> tensor<64x64xf32>
  %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
  %max = attn.row_max %t : tensor<64x64xf32> -> tensor<64xf32>
  return %max : tensor<64xf32>
}

// -----

// Scores that no attn.qk computed have no head dim to judge by: left alone.
// CHECK-LABEL: func.func @not_from_qk(
// CHECK:         attn.softcap %{{.*}} cap = 3.000000e+01 : tensor<64x64xf32>
// CHECK:         attn.row_max %{{[^ ]+}} : tensor<64x64xf32> -> tensor<64xf32>
func.func @not_from_qk(%s: tensor<64x64xf32>, %scale: f32) -> tensor<64xf32> {
  %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
  %max = attn.row_max %t : tensor<64x64xf32> -> tensor<64xf32>
  return %max : tensor<64xf32>
}

// -----

// In a tiled, fused, mask-split attention both kv loops' softcaps leave
// their cap to the loop's row max and exponentials.
// PIPELINE-LABEL: func.func @causal(
// PIPELINE:         scf.for
// PIPELINE:           attn.softcap %{{.*}} cap = 5.000000e+01 output_scale = 1.000000e+00
// PIPELINE:           attn.row_max %{{.*}} score_scale = 5.000000e+01
// PIPELINE:           attn.exp_diff %{{.*}} score_scale = 5.000000e+01
// PIPELINE:         } {attn.kv_range = "full"}
// PIPELINE:         scf.for
// PIPELINE:           attn.softcap %{{.*}} cap = 5.000000e+01 output_scale = 1.000000e+00
// PIPELINE:           attn.mask
// PIPELINE:           attn.row_max %{{.*}} score_scale = 5.000000e+01
// PIPELINE:           attn.exp_diff %{{.*}} score_scale = 5.000000e+01
// PIPELINE:         } {attn.kv_range = "tail"}
func.func @causal(%q: tensor<?x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                  %v: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 50.0
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x2x?x64xbf16>
  return %o : tensor<?x2x?x64xbf16>
}
