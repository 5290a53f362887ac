// RUN: attnc-opt %s --convert-attn-to-loops \
// RUN:   | FileCheck %s --implicit-check-not=attn. --implicit-check-not='tensor<'
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=64 block-n=32" \
// RUN:   | attnc-opt --convert-attn-to-loops \
// RUN:   | FileCheck %s --check-prefix=TILED --implicit-check-not=attn. --implicit-check-not='tensor<'

// The CPU reference lowering takes attn IR of any stage to scf loops over
// memrefs: no attn op and no tensor is left, and the function boundary uses
// plain memrefs.

// Graph level: the untiled computation as loop nests. The GQA head mapping
// h floordiv 4 indexes K and V.
// CHECK:       #[[$GQA:.*]] = affine_map<(d0) -> (d0 floordiv 4)>
// CHECK-LABEL: func.func @gqa_causal(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: memref<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: memref<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: memref<2x2x?x64xbf16>)
// CHECK-SAME:    -> (memref<2x8x?x64xbf16>, memref<2x8x?xf32>)
// S = Q K^T: one loop nest, K indexed by h floordiv 4.
// CHECK:         %[[S:.*]] = memref.alloc({{.*}}) {{.*}} : memref<2x8x?x?xf32>
// CHECK:         scf.for
// CHECK:           memref.store %{{.*}}, %[[S]]
// CHECK:         %[[QV:.*]] = memref.load %[[Q]][%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[I:[a-z0-9_]+]], %[[D:[a-z0-9_]+]]] : memref<2x8x?x64xbf16>
// CHECK:         %[[KVH:.*]] = affine.apply #[[$GQA]](%[[H]])
// CHECK:         %[[KV:.*]] = memref.load %[[K]][%[[B]], %[[KVH]], %[[J:[a-z0-9_]+]], %[[D]]] : memref<2x2x?x64xbf16>
// CHECK:         memref.store %{{.*}}, %[[S]][%[[B]], %[[H]], %[[I]], %[[J]]] : memref<2x8x?x?xf32>
// P V reads V through the same head mapping.
// CHECK:         affine.apply #[[$GQA]]
// CHECK:         memref.load %[[V]][
// CHECK:         %[[O:.*]] = memref.alloc({{.*}}) {{.*}} : memref<2x8x?x64xbf16>
// CHECK:         memref.store %{{.*}}, %[[O]][
// CHECK:         math.log
// CHECK:         return %[[O]], %{{.*}} : memref<2x8x?x64xbf16>, memref<2x8x?xf32>

// Split stage: the scf.forall is now a loop nest over (batch, head, query
// block), the three kv loops keep their order and their attn.kv_range tags,
// and the output tile is copied into the clipped rows of the result.
// TILED-LABEL: func.func @gqa_causal(
// TILED-SAME:    %[[Q:[a-z0-9_]+]]: memref<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: memref<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: memref<2x2x?x64xbf16>)
// TILED-SAME:    -> (memref<2x8x?x64xbf16>, memref<2x8x?xf32>)
// TILED:         %[[O:.*]] = memref.alloc({{.*}}) {{.*}} : memref<2x8x?x64xbf16>
// TILED:         %[[LSE:.*]] = memref.alloc({{.*}}) {{.*}} : memref<2x8x?xf32>
// TILED:         scf.for %[[B:.*]] = {{.*}} {
// TILED:           scf.for %[[H:.*]] = {{.*}} {
// TILED:             scf.for %[[QB:.*]] = {{.*}} {
// TILED:               memref.load %[[Q]][%[[B]], %[[H]], %{{.*}}, %{{.*}}] : memref<2x8x?x64xbf16>
// TILED:               scf.for {{.*}} iter_args({{.*}}) -> (memref<64xf32>, memref<64xf32>, memref<64x64xf32>{{.*}}) {
// TILED:                 memref.load %[[K]][
// TILED:                 memref.load %[[V]][
// TILED:               } {attn.kv_range = "full"}
// TILED:               scf.for {{.*}} iter_args({{.*}}) -> (memref<64xf32>, memref<64xf32>, memref<64x64xf32>{{.*}}) {
// TILED:                 memref.load %[[K]][
// TILED:                 memref.load %[[V]][
// TILED:               } {attn.kv_range = "tail"}
// TILED:               %[[OS:.*]] = memref.subview %[[O]][%[[B]], %[[H]], %{{.*}}, 0] [1, 1, %{{.*}}, 64] [1, 1, 1, 1]
// TILED:               memref.copy %{{.*}}, %[[OS]]
// TILED:               %[[LS:.*]] = memref.subview %[[LSE]][%[[B]], %[[H]], %{{.*}}] [1, 1, %{{.*}}] [1, 1, 1]
// TILED:               memref.copy %{{.*}}, %[[LS]]
// TILED:         return %[[O]], %[[LSE]] : memref<2x8x?x64xbf16>, memref<2x8x?xf32>
func.func @gqa_causal(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}
