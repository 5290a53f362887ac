// RUN: attnc-opt %s -split-input-file --attn-conditional-rescale | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-conditional-rescale | FileCheck %s --check-prefix=PIPELINE
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=conditional
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   --attn-pipeline-kv-loops --attn-conditional-rescale | FileCheck %s --check-prefix=ROTATED

// O's rescale by the step's alpha (a tile) becomes conditional; l's (a row
// vector) does not, nor a rescale by another factor (an argument here, as
// the rotated loops' carried alpha is), whose rows the kernel cannot tell.
// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %[[L:[^:]*]]: tensor<128xf32>, %[[ACC:[^:]*]]: tensor<128x64xf32>, %[[OTHER:[^:]*]]: tensor<128xf32>
// CHECK:         %[[F:.*]] = attn.rescale_factor
// CHECK:         %[[LS:.*]] = attn.scale_rows %[[L]], %[[F]] : tensor<128xf32>, tensor<128xf32>
// CHECK:         %[[OS:.*]] = attn.scale_rows %[[ACC]], %[[F]] conditional : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         %[[CARRIED:.*]] = attn.scale_rows %[[ACC]], %[[OTHER]] : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         return %[[LS]], %[[OS]], %[[CARRIED]]
func.func @step(%l: tensor<128xf32>, %acc: tensor<128x64xf32>, %other: tensor<128xf32>,
                %m_old: tensor<128xf32>, %m_new: tensor<128xf32>, %c: f32)
    -> (tensor<128xf32>, tensor<128x64xf32>, tensor<128x64xf32>) {
  %f = attn.rescale_factor %m_old, %m_new scale_log2 %c : tensor<128xf32>
  %ls = attn.scale_rows %l, %f : tensor<128xf32>, tensor<128xf32>
  %os = attn.scale_rows %acc, %f : tensor<128x64xf32>, tensor<128xf32>
  %carried = attn.scale_rows %acc, %other : tensor<128x64xf32>, tensor<128xf32>
  return %ls, %os, %carried : tensor<128xf32>, tensor<128x64xf32>, tensor<128x64xf32>
}

// -----

// In a tiled, warp-specialized attention every kv loop's O rescale (the
// full and the masked loop) is marked, and only those.
// PIPELINE-LABEL: func.func @causal(
// PIPELINE:         } consumer {
// PIPELINE:           scf.for
// PIPELINE:             %[[OS0:.*]] = attn.scale_rows %{{.*}}, %{{.*}} conditional : tensor<128x64xf32>, tensor<128xf32>
// PIPELINE:             attn.pv %{{.*}}, %{{.*}}, %[[OS0]]
// PIPELINE:           } {attn.kv_range = "full"}
// PIPELINE:           scf.for
// PIPELINE:             %[[OS1:.*]] = attn.scale_rows %{{.*}}, %{{.*}} conditional : tensor<128x64xf32>, tensor<128xf32>
// PIPELINE:             attn.pv %{{.*}}, %{{.*}}, %[[OS1]]
// PIPELINE:           } {attn.kv_range = "tail"}
// DEFAULT-LABEL: func.func @causal(
// DEFAULT:         attn.scale_rows
// With the overlap, the rotated loops' O update takes the previous step's
// alpha, carried, and the epilogue's the last step's: none is marked.
// ROTATED-LABEL: func.func @causal(
// ROTATED-NOT:     conditional
// ROTATED:         return
func.func @causal(%q: tensor<?x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                  %v: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x2x?x64xbf16>
  return %o : tensor<?x2x?x64xbf16>
}
