// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" \
// RUN:   --attn-pipeline-kv-loops --attn-insert-waits | FileCheck %s --check-prefix=ROTATED
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=off" \
// RUN:   --attn-insert-waits | FileCheck %s --check-prefix=PLAIN
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-insert-waits | FileCheck %s --check-prefix=UNSPECIALIZED
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths \
// RUN:   --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" \
// RUN:   --attn-pipeline-kv-loops --attn-insert-waits --attn-insert-waits \
// RUN:   | FileCheck %s --check-prefix=TWICE

// A rotated step (attn-pipeline-kv-loops) waits for its K and the previous
// block's V before its turn, for S with the previous block's P V still in
// flight (pending(1)), for that P V after the softmax (pending(0)), then
// releases both tiles behind its row sums. The prologue waits like a plain
// step and releases K after its softmax; the epilogue waits for V first.
// The consumers wait for Q once, before the first turn's pass and the
// prologue, their first kv op.

// ROTATED-LABEL: func.func @causal
// ROTATED:         %[[Q:.+]] = attn.load_tile %arg0
// ROTATED:         } consumer {
// ROTATED-NOT:       attn.wait_tile
// ROTATED:           attn.wait_tile %[[Q]] : tensor<128x64xbf16>
// ROTATED-NEXT:      attn.pass_turn warpgroup(1)
// ROTATED:           scf.if
// ROTATED:           %[[K0:.+]], %{{.+}} = attn.ring_pop
// ROTATED-NEXT:      attn.wait_turn
// ROTATED-NEXT:      attn.wait_tile %[[K0]]
// ROTATED-NEXT:      attn.qk %{{.+}}, %[[K0]]
// ROTATED-NEXT:      attn.pass_turn
// ROTATED-NEXT:      attn.wait_gemms pending(0)
// ROTATED-NEXT:      attn.mask
// ROTATED:           attn.row_sum
// ROTATED-NEXT:      attn.truncate
// ROTATED-NEXT:      attn.ring_release %[[K0]] :
// ROTATED-NEXT:      scf.yield
// ROTATED:         scf.for
// ROTATED:         scf.for {{.+}} iter_args({{.+}}, %[[V:[^ ]+]] = %{{[^ ]+}}) ->
// ROTATED:           %[[K:.+]], %{{.+}} = attn.ring_pop
// ROTATED-NEXT:      attn.wait_tile %[[K]]
// ROTATED-NEXT:      attn.wait_tile %[[V]]
// ROTATED-NEXT:      attn.wait_turn
// ROTATED-NEXT:      attn.qk %{{.+}}, %[[K]]
// ROTATED-NEXT:      attn.scale_rows
// ROTATED-NEXT:      attn.pv %{{.+}}, %[[V]],
// ROTATED-NEXT:      attn.pass_turn
// ROTATED-NEXT:      attn.wait_gemms pending(1)
// ROTATED-NEXT:      attn.mask
// ROTATED:           %[[L:.+]] = attn.row_sum
// ROTATED-NEXT:      attn.truncate
// ROTATED-NEXT:      attn.wait_gemms pending(0)
// ROTATED-NEXT:      attn.ring_release %[[K]] after(%[[L]] : tensor<128xf32>) :
// ROTATED-NEXT:      attn.ring_release %[[V]] after(%[[L]] : tensor<128xf32>) {attn.stage = 1 : i64}
// ROTATED-NEXT:      scf.yield
// ROTATED:         } {attn.kv_range = "tail"}
// ROTATED-NEXT:    %[[EPI:.+]] = scf.if
// ROTATED-NEXT:      attn.wait_tile %[[LASTV:[^ ]+]] :
// ROTATED-NEXT:      attn.scale_rows
// ROTATED-NEXT:      attn.pv %{{.+}}, %[[LASTV]],
// ROTATED-NEXT:      attn.wait_gemms pending(0)
// ROTATED-NEXT:      scf.yield

// A plain step: K before the S GEMM (inside the turn), S complete after the
// turn, K released, V waited for at once, and P V complete before V's
// release. Q is waited for before the first turn's pass.
// PLAIN-LABEL: func.func @causal
// PLAIN:         %[[Q:.+]] = attn.load_tile %arg0
// PLAIN:         } consumer {
// PLAIN-NOT:       attn.wait_tile
// PLAIN:           attn.wait_tile %[[Q]] : tensor<128x64xbf16>
// PLAIN-NEXT:      attn.pass_turn warpgroup(1)
// PLAIN-NEXT:      scf.for
// PLAIN:           %[[K:.+]], %[[V:.+]] = attn.ring_pop
// PLAIN-NEXT:      attn.wait_turn
// PLAIN-NEXT:      attn.wait_tile %[[K]]
// PLAIN-NEXT:      %[[S:.+]] = attn.qk %{{.+}}, %[[K]]
// PLAIN-NEXT:      attn.pass_turn
// PLAIN-NEXT:      attn.wait_gemms pending(0)
// PLAIN-NEXT:      attn.ring_release %[[K]]
// PLAIN-NEXT:      attn.wait_tile %[[V]]
// PLAIN-NEXT:      attn.row_max %[[S]]
// PLAIN:           attn.pv %{{.+}}, %[[V]],
// PLAIN:           attn.wait_gemms pending(0)
// PLAIN-NEXT:      attn.ring_release %[[V]]
// PLAIN-NEXT:      scf.yield

// Without a producer the step's loads name its stages: V's load moves up to
// its wait, right after S.
// UNSPECIALIZED-LABEL: func.func @causal
// UNSPECIALIZED:         %[[Q:.+]] = attn.load_tile %arg0
// UNSPECIALIZED-NOT:     attn.wait_tile
// UNSPECIALIZED:         attn.wait_tile %[[Q]] : tensor<64x64xbf16>
// UNSPECIALIZED-NEXT:    scf.for
// UNSPECIALIZED:           %[[K:.+]] = attn.load_tile %arg1
// UNSPECIALIZED-NEXT:      attn.wait_tile %[[K]]
// UNSPECIALIZED-NEXT:      attn.qk %{{.+}}, %[[K]]
// UNSPECIALIZED-NEXT:      attn.wait_gemms pending(0)
// UNSPECIALIZED-NEXT:      %[[V:.+]] = attn.load_tile %arg2
// UNSPECIALIZED-NEXT:      attn.wait_tile %[[V]]
// UNSPECIALIZED:           attn.pv %{{.+}}, %[[V]],
// UNSPECIALIZED:           attn.wait_gemms pending(0)
// UNSPECIALIZED-NEXT:      scf.yield

// Steps that hold waits, and a tile that waits for its Q, are left alone.
// TWICE-LABEL: func.func @causal
// TWICE-COUNT-7: attn.wait_tile
// TWICE-NOT:     attn.wait_tile
func.func @causal(%q: tensor<2x4x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                  %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x4x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>
  return %o, %lse : tensor<2x4x?x64xbf16>, tensor<2x4x?xf32>
}
