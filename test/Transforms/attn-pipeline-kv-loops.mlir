// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" \
// RUN:   --attn-pipeline-kv-loops | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" \
// RUN:   --attn-pipeline-kv-loops --attn-pipeline-kv-loops | FileCheck %s --check-prefix=TWICE
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=off" \
// RUN:   --attn-pipeline-kv-loops | FileCheck %s --check-prefix=UNSTAGED

// A causal tile: the full loop, then the masked tail loop. The prologue runs
// stage 0 of block `begin` with the tail loop's mask (any block may need
// it); the loops run blocks max(bound, begin + 1) on, each step issuing S of
// block j, then O *= alpha and O += P V of block j-1 (carried: P, alpha, V)
// inside its ping-pong turn, the softmax of block j, and the release of
// block j-1's V; the epilogue runs stage 1 of the last block, without its V
// release (a CTA computes one tile: no later load waits for the stage).
// P is carried in bf16: stage 0 rounds it (attn.truncate) after its row sum,
// where the P V stood.

// CHECK-LABEL: func.func @causal
// CHECK:         attn.warp_specialize
// CHECK:         } consumer {
// CHECK:           %[[HAS:.+]] = arith.cmpi slt, %[[BEGIN:.+]], %[[END:.+]] : index
// CHECK:           %[[SECOND:.+]] = arith.addi %[[BEGIN]], %{{.+}} : index
// CHECK:           %[[PRO:.+]]:6 = scf.if %[[HAS]] -> ({{.*}}tensor<128x64xf32>, tensor<128x64xbf16>, tensor<128xf32>, tensor<64x64xbf16>) {
// CHECK:             %[[COL:.+]] = arith.muli %[[BEGIN]], %{{.+}} : index
// CHECK:             %[[K0:.+]], %[[V0:.+]] = attn.ring_pop
// CHECK-NEXT:        attn.wait_turn
// CHECK-NEXT:        %[[S0:.+]] = attn.qk %{{.+}}, %[[K0]]
// CHECK-NEXT:        attn.pass_turn
// CHECK-NEXT:        attn.ring_release %[[K0]]
// CHECK-NEXT:        %[[MASKED0:.+]] = attn.mask %[[S0]] rows %{{.+}} cols %[[COL]]
// CHECK-NEXT:        %[[M0:.+]] = attn.row_max %[[MASKED0]] init %[[MINIT:[^ ]+]]
// CHECK-NEXT:        %[[ALPHA0:.+]] = attn.rescale_factor
// CHECK-NEXT:        %[[P0:.+]] = attn.exp_diff %[[MASKED0]], %[[M0]]
// CHECK-NEXT:        %[[L0:.+]] = attn.row_sum %[[P0]] init %[[LINIT:[^ ]+]] scaled %[[ALPHA0]]
// CHECK-NOT:         attn.pv
// CHECK-NEXT:        %[[P0_BF16:.+]] = attn.truncate %[[P0]] : tensor<128x64xf32> to tensor<128x64xbf16>
// CHECK-NEXT:        scf.yield %[[M0]], %[[L0]], %[[OINIT:[^,]+]], %[[P0_BF16]], %[[ALPHA0]], %[[V0]]
// CHECK-NEXT:      } else {
// CHECK-DAG:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<128x64xbf16>
// CHECK-DAG:         %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<128xf32>
// CHECK-DAG:         %[[NOV:.+]] = ub.poison : tensor<64x64xbf16>
// CHECK:             scf.yield %[[MINIT]], %[[LINIT]], %[[OINIT]], %[[ZERO]], %[[ONE]], %[[NOV]]
// CHECK:           %[[LB:.+]] = arith.maxsi %[[BEGIN]], %[[SECOND]] : index
// CHECK:           %[[MID:.+]] = arith.maxsi %{{.+}}, %[[SECOND]] : index
// CHECK:           %[[FULL:.+]]:6 = scf.for %{{.+}} = %[[LB]] to %[[MID]] step %{{.+}} iter_args(%{{.+}} = %[[PRO]]#0, %{{.+}} = %[[PRO]]#1, %{{.+}} = %[[PRO]]#2, %{{.+}} = %[[PRO]]#3, %{{.+}} = %[[PRO]]#4, %{{.+}} = %[[PRO]]#5)
// CHECK:             attn.qk
// CHECK-NOT:         attn.mask
// CHECK:           } {attn.kv_range = "full"}
// CHECK:           %[[UB:.+]] = arith.maxsi %[[END]], %[[SECOND]] : index
// CHECK:           %[[TAIL:.+]]:6 = scf.for %[[J:.+]] = %[[MID]] to %[[UB]] step %{{.+}} iter_args(%[[M:[^ ]+]] = %[[FULL]]#0, %[[L:[^ ]+]] = %[[FULL]]#1, %[[O:[^ ]+]] = %[[FULL]]#2, %[[P:[^ ]+]] = %[[FULL]]#3, %[[ALPHA:[^ ]+]] = %[[FULL]]#4, %[[V:[^ ]+]] = %[[FULL]]#5)
// CHECK:             %[[KJ:.+]], %[[VJ:.+]] = attn.ring_pop
// CHECK-NEXT:        attn.wait_turn
// CHECK-NEXT:        %[[S:.+]] = attn.qk %{{.+}}, %[[KJ]]
// CHECK-NEXT:        %[[OS:.+]] = attn.scale_rows %[[O]], %[[ALPHA]] {attn.stage = 1 : i64}
// CHECK-NEXT:        %[[PV:.+]] = attn.pv %[[P]], %[[V]], %[[OS]] {attn.stage = 1 : i64} : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
// CHECK-NEXT:        attn.pass_turn
// CHECK-NEXT:        attn.ring_release %[[KJ]] :
// CHECK-NEXT:        %[[MASKED:.+]] = attn.mask %[[S]]
// CHECK-NEXT:        %[[MJ:.+]] = attn.row_max %[[MASKED]] init %[[M]]
// CHECK-NEXT:        %[[ALPHAJ:.+]] = attn.rescale_factor %[[M]], %[[MJ]]
// CHECK-NEXT:        %[[PJ:.+]] = attn.exp_diff %[[MASKED]], %[[MJ]]
// CHECK-NEXT:        %[[LJ:.+]] = attn.row_sum %[[PJ]] init %[[L]] scaled %[[ALPHAJ]] :
// CHECK-NEXT:        %[[PJ_BF16:.+]] = attn.truncate %[[PJ]]
// CHECK-NEXT:        attn.ring_release %[[V]] {attn.stage = 1 : i64}
// CHECK-NEXT:        scf.yield %[[MJ]], %[[LJ]], %[[PV]], %[[PJ_BF16]], %[[ALPHAJ]], %[[VJ]]
// CHECK-NEXT:      } {attn.kv_range = "tail"}
// CHECK-NEXT:      %[[EPI:.+]] = scf.if %[[HAS]] -> (tensor<128x64xf32>) {
// CHECK-NEXT:        %[[OLAST:.+]] = attn.scale_rows %[[TAIL]]#2, %[[TAIL]]#4 {attn.stage = 1 : i64}
// CHECK-NEXT:        %[[PVLAST:.+]] = attn.pv %[[TAIL]]#3, %[[TAIL]]#5, %[[OLAST]] {attn.stage = 1 : i64}
// CHECK-NEXT:        scf.yield %[[PVLAST]]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[TAIL]]#2
// CHECK-NEXT:      }
// CHECK-NEXT:      attn.finalize %[[EPI]], %[[TAIL]]#1, %[[TAIL]]#0

// The pass leaves rotated loops as they are.
// TWICE-LABEL: func.func @causal
// TWICE-COUNT-2: scf.if
// TWICE-NOT:     scf.if

// Loops without stages are left alone.
// UNSTAGED-LABEL: func.func @causal
// UNSTAGED-NOT:   scf.if
// UNSTAGED-NOT:   ub.poison
func.func @causal(%q: tensor<2x4x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                  %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x4x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>
  return %o, %lse : tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>
}

// -----

// Without a mask only the tail loop bounds the keys (a ragged Nk): the
// prologue takes its bounds mask, whichever loop its block is in.

// CHECK-LABEL: func.func @unmasked
// CHECK:         %[[PRO:.+]]:6 = scf.if
// CHECK:           attn.mask %{{.+}} rows %{{.+}} cols %{{.+}} seq_q %{{.+}} seq_k %{{.+}} : tensor<128x64xf32>
// CHECK:         } else {
// CHECK:         scf.for {{.+}} iter_args({{.+}} = %[[PRO]]#0,
// CHECK-NOT:       attn.mask
// CHECK:         } {attn.kv_range = "full"}
// CHECK:         scf.for
// CHECK:           attn.mask
// CHECK:         } {attn.kv_range = "tail"}
// CHECK:         scf.if
// CHECK:         attn.finalize

// TWICE-LABEL: func.func @unmasked
// TWICE-COUNT-2: scf.if
// TWICE-NOT:     scf.if
func.func @unmasked(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                    %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}
