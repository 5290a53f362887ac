// RUN: attnc-opt %s -split-input-file --attn-conditional-rescale | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-conditional-rescale | FileCheck %s --check-prefix=PIPELINE
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=conditional

// O's rescale (a tile) becomes conditional; l's (a row vector) does not.
// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %[[L:[^:]*]]: tensor<128xf32>, %[[ACC:[^:]*]]: tensor<128x64xf32>, %[[F:[^:]*]]: tensor<128xf32>
// CHECK:         %[[LS:.*]] = attn.scale_rows %[[L]], %[[F]] : tensor<128xf32>, tensor<128xf32>
// CHECK:         %[[OS:.*]] = attn.scale_rows %[[ACC]], %[[F]] conditional : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         return %[[LS]], %[[OS]]
func.func @step(%l: tensor<128xf32>, %acc: tensor<128x64xf32>, %f: tensor<128xf32>)
    -> (tensor<128xf32>, tensor<128x64xf32>) {
  %ls = attn.scale_rows %l, %f : tensor<128xf32>, tensor<128xf32>
  %os = attn.scale_rows %acc, %f : tensor<128x64xf32>, tensor<128xf32>
  return %ls, %os : tensor<128xf32>, tensor<128x64xf32>
}

// -----

// In a tiled, warp-specialized attention every kv loop's O rescale (the
// full and the masked loop) is marked, and only those.
// PIPELINE-LABEL: func.func @causal(
// PIPELINE:         } consumer {
// PIPELINE:           scf.for
// PIPELINE:             %[[LS0:.*]] = attn.scale_rows %{{.*}}, %{{.*}} : tensor<128xf32>, tensor<128xf32>
// PIPELINE:             %[[OS0:.*]] = attn.scale_rows %{{.*}}, %{{.*}} conditional : tensor<128x64xf32>, tensor<128xf32>
// PIPELINE:             attn.pv %{{.*}}, %{{.*}}, %[[OS0]]
// PIPELINE:           } {attn.kv_range = "full"}
// PIPELINE:           scf.for
// PIPELINE:             %[[OS1:.*]] = attn.scale_rows %{{.*}}, %{{.*}} conditional : tensor<128x64xf32>, tensor<128xf32>
// PIPELINE:             attn.pv %{{.*}}, %{{.*}}, %[[OS1]]
// PIPELINE:           } {attn.kv_range = "tail"}
// DEFAULT-LABEL: func.func @causal(
// DEFAULT:         attn.scale_rows
func.func @causal(%q: tensor<?x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                  %v: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x2x?x64xbf16>
  return %o : tensor<?x2x?x64xbf16>
}
