// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=64 block-n=32 stop-after=graph" \
// RUN:   | FileCheck %s --check-prefix=GRAPH
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=64 block-n=32 stop-after=tiled" \
// RUN:   | FileCheck %s --check-prefix=TILED --implicit-check-not=attn.attention
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=64 block-n=32 stop-after=fused" \
// RUN:   | FileCheck %s --check-prefix=FUSED --implicit-check-not=attn.attention
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=64 block-n=32" \
// RUN:   | FileCheck %s --check-prefix=SPLIT --implicit-check-not=attn.attention
// An unknown stage is an error, not a silent full pipeline.
// RUN: not attnc-opt %s --attn-tiling-pipeline="stop-after=bogus" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOGUS

// The IR after each stage of the tiling pipeline (each followed by
// canonicalize and CSE).

// graph: nothing runs.
// GRAPH-LABEL: func.func @gqa_causal(
// GRAPH:         attn.attention %{{.*}} mask = causal
// GRAPH-NOT:     scf.forall

// tiled: the three-pass softmax, three kv loops over the same range.
// TILED-LABEL: func.func @gqa_causal(
// TILED:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 8, %{{.*}})
// TILED:           attn.load_tile {{.*}} -> tensor<64x64xbf16>
// TILED:           %[[MAX:.*]] = scf.for %{{.*}} = %[[LO:.*]] to %[[HI:.*]] step %{{.*}} iter_args({{.*}}) -> (tensor<64xf32>) {
// TILED:             attn.mask {{.*}} kind = causal : tensor<64x32xf32>
// TILED:             attn.row_max
// TILED:           %[[SUM:.*]] = scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} iter_args({{.*}}) -> (tensor<64xf32>) {
// TILED:             attn.row_sum
// TILED:           %[[ACC:.*]] = scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} iter_args({{.*}}) -> (tensor<64x64xf32>) {
// TILED:             attn.pv
// TILED:           attn.finalize %[[ACC]], %[[SUM]], %[[MAX]]
// TILED-NOT:     attn.rescale_factor

// fused: one loop carrying (m, l, acc).
// FUSED-LABEL: func.func @gqa_causal(
// FUSED:         scf.forall
// FUSED:           %[[R:.*]]:3 = scf.for {{.*}} -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
// FUSED:             attn.mask {{.*}} kind = causal
// FUSED:             attn.rescale_factor
// FUSED:             attn.row_sum
// FUSED:             attn.pv
// FUSED:             scf.yield
// FUSED-NEXT:      }
// FUSED-NOT:       scf.for
// FUSED:           attn.finalize %[[R]]#2, %[[R]]#1, %[[R]]#0
// FUSED-NOT:     attn.kv_range

// split (the default last stage): the fused loop split into an unmasked
// "full" range and a masked "tail".
// SPLIT-LABEL: func.func @gqa_causal(
// SPLIT:         scf.forall
// SPLIT:           %[[FULL:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[FE:.*]] step
// SPLIT-NOT:         attn.mask
// SPLIT:           } {attn.kv_range = "full"}
// SPLIT:           %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[FE]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2)
// SPLIT:             attn.mask {{.*}} kind = causal
// SPLIT:           } {attn.kv_range = "tail"}
// SPLIT:           attn.finalize %[[TAIL]]#2, %[[TAIL]]#1, %[[TAIL]]#0

// BOGUS: stop-after{{.*}}bogus
func.func @gqa_causal(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}
