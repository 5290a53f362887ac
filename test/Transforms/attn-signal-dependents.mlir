// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-signal-dependents | FileCheck %s
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-signal-dependents="at=start" | FileCheck %s --check-prefix=START
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=128" \
// RUN:   --attn-signal-dependents | FileCheck %s --check-prefix=UNSPECIALIZED
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=128" \
// RUN:   --attn-signal-dependents="at=start" | FileCheck %s --check-prefix=UNSPECIALIZED-START
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-signal-dependents --attn-signal-dependents="at=start" | FileCheck %s --check-prefix=TWICE
// RUN: not attnc-opt %s --attn-signal-dependents="at=end" 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// A split-KV tile lets its combine kernel launch at its epilogue: after the
// consumer's last kv loop, right before attn.finalize.
// CHECK-LABEL: func.func @split(
// CHECK:         attn.warp_specialize
// CHECK:         } consumer {
// CHECK:           scf.for
// CHECK:           } {attn.kv_range = "full"}
// CHECK:           %[[LAST:.*]]:3 = scf.for
// CHECK:           } {attn.kv_range = "tail"}
// CHECK-NEXT:      attn.launch_dependents
// CHECK-NEXT:      attn.finalize %[[LAST]]#2
// CHECK-NOT:     attn.launch_dependents

// at=start: before the consumer's first kv loop and the ping-pong's first
// turn.
// START-LABEL: func.func @split(
// START:         } consumer {
// START-NEXT:      attn.launch_dependents
// START-NEXT:      attn.pass_turn warpgroup(1)
// START-NEXT:      scf.for
// START-NOT:     attn.launch_dependents

// Without warp specialization the tile is the forall's body.
// UNSPECIALIZED-LABEL: func.func @split(
// UNSPECIALIZED:         scf.forall
// UNSPECIALIZED:           } {attn.kv_range = "tail"}
// UNSPECIALIZED-NEXT:      attn.launch_dependents
// UNSPECIALIZED-NEXT:      attn.finalize

// UNSPECIALIZED-START-LABEL: func.func @split(
// UNSPECIALIZED-START:         scf.forall
// UNSPECIALIZED-START:           attn.launch_dependents
// UNSPECIALIZED-START-NEXT:      scf.for
// UNSPECIALIZED-START-LABEL: func.func @not_split(
// UNSPECIALIZED-START-NOT:   attn.launch_dependents

// A tile that signals already is left alone: the one op stays at the
// epilogue, where the first run put it.
// TWICE-LABEL: func.func @split(
// TWICE:         } consumer {
// TWICE-NOT:       attn.launch_dependents
// TWICE:           } {attn.kv_range = "tail"}
// TWICE-NEXT:      attn.launch_dependents
// TWICE-NEXT:      attn.finalize
// TWICE-NOT:     attn.launch_dependents

// BAD-OPTION: error: attn-signal-dependents: at must be epilogue or start, got 'end'
func.func @split(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                 %v: tensor<?x4x?x64xbf16>, %splits: index)
    -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal kv_splits(%splits)
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

// A tile without a kv split has no dependent kernel: no signal.
// CHECK-LABEL: func.func @not_split(
// CHECK-NOT:     attn.launch_dependents
// START-LABEL: func.func @not_split(
// START-NOT:     attn.launch_dependents
// UNSPECIALIZED-LABEL: func.func @not_split(
// UNSPECIALIZED-NOT: attn.launch_dependents
// TWICE-LABEL: func.func @not_split(
// TWICE-NOT:     attn.launch_dependents
func.func @not_split(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                     %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
