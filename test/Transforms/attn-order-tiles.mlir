// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-order-tiles | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-order-tiles="order=in-order" | FileCheck %s --check-prefix=IN-ORDER
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-order-tiles="order=longest-first" | FileCheck %s --check-prefix=LONGEST
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-order-tiles --attn-order-tiles | FileCheck %s --check-prefix=TWICE
// RUN: not attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline --attn-order-tiles="order=random" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// A causal mask: the last query blocks see the most keys. auto launches
// them first: every use of the query-block induction variable (the one
// mapped to #gpu.block<x>) reads ub - 1 - iv instead, ub being the
// forall's bound ceil(Nq / 64).
// CHECK-LABEL: func.func @causal(
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in (%{{.*}}, 2, %[[BLOCKS]])
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[BLOCKS]], %[[ONE]] : index
// CHECK-NEXT:      %[[REV:.*]] = arith.subi %[[LAST]], %[[QB]] : index
// CHECK-NOT:       %[[QB]]
// CHECK:           %[[ROW:.*]] = arith.muli %[[REV]], %{{.*}} : index
// CHECK:           attn.load_tile %{{.*}}[%{{.*}}, %{{.*}}, %[[ROW]]]
// CHECK:         mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]
// IN-ORDER-LABEL: func.func @causal(
// IN-ORDER:         scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in
// IN-ORDER-NEXT:      %[[ROW:.*]] = arith.muli %[[QB]], %{{.*}} : index
// A second run finds the order made and leaves it.
// TWICE-LABEL: func.func @causal(
// TWICE:         scf.forall
// TWICE-COUNT-2:   arith.subi
// TWICE-NOT:       arith.subi %{{.*}}, %{{.*}} : index
// TWICE:           attn.load_tile
func.func @causal(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                  %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// Without a mask every query block does the same work: auto keeps the
// order, longest-first reverses it anyway.
// CHECK-LABEL: func.func @full(
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in
// CHECK-NEXT:      arith.muli %[[QB]], %{{.*}} : index
// LONGEST-LABEL: func.func @full(
// LONGEST:         scf.forall (%{{.*}}, %{{.*}}, %[[QB:.*]]) in
// LONGEST-NEXT:      arith.constant 1 : index
// LONGEST-NEXT:      %[[LAST:.*]] = arith.subi
// LONGEST-NEXT:      arith.subi %[[LAST]], %[[QB]] : index
func.func @full(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// BAD: error: attn-order-tiles: order must be in-order, longest-first or auto, got 'random'
