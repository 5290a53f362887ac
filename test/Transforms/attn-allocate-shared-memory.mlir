// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory | FileCheck %s
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="stages=3" --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   | FileCheck %s --check-prefix=THREE
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=off" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory="probs-in-registers=false" | FileCheck %s --check-prefix=PROBS
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=192 block-n=64" \
// RUN:   --attn-warp-specialize="ping-pong=false" --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   | FileCheck %s --check-prefix=NO-TURNS

// Two stages, 128 x 64 tiles, D = 64: Q (16 KiB), two 8 KiB K and V stages,
// then the mbarriers. With two stages consumers hand K back on its own
// "empty" barrier: key_empty and value_empty differ.
// CHECK-LABEL: func.func @causal
// CHECK:       attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384,
// CHECK-SAME:    keys = [[KEYS:[0-9]+]], values = [[VALUES:[0-9]+]], stages = 2,
// CHECK-SAME:    key_stage_bytes = 8192, value_stage_bytes = 8192,
// CHECK-SAME:    query_full = [[QFULL:[0-9]+]], key_full = {{[0-9]+}}, value_full = {{[0-9]+}},
// CHECK-SAME:    key_empty = [[KEMPTY:[0-9]+]], value_empty = [[VEMPTY:[0-9]+]], size = {{[0-9]+}},
// Named barriers after the CTA's 0: one per consumer warpgroup, then the
// two warpgroups' ping-pong turn barriers.
// CHECK-SAME:    warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>
// CHECK-SAME:    mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]

// Three stages: one arrival releases K and V (key_empty = value_empty).
// THREE-LABEL: func.func @causal
// THREE:       #attn.shared_memory<{{.*}}stages = 3,
// THREE-SAME:    key_empty = [[EMPTY:[0-9]+]], value_empty = [[EMPTY]], size = {{[0-9]+}},

// P through shared memory: a P buffer of block_m x block_n after the stages,
// in the table's 128-byte swizzle.
// PROBS:       #[[$SHARED:[a-z0-9_]+]] = #attn.swizzled_shared<swizzle = 128>
// PROBS-LABEL: func.func @causal
// PROBS:       #attn.shared_memory<{{.*}}probs = {{[0-9]+}}, probs_bytes = 16384,
// PROBS-SAME:    probs_layout = #[[$SHARED]],

// Three consumer warpgroups (192 rows) without turns: three warpgroup
// barriers and no turn barriers.
// NO-TURNS-LABEL: func.func @causal
// NO-TURNS:       #attn.shared_memory<{{.*}}size = {{[0-9]+}}, warpgroup_barriers = [1, 2, 3]>

func.func @causal(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                  %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// D = 128, Dv = 64: O (128 x 64, 16 KiB) is staged over Q (128 x 128,
// 32 KiB), whose buffer keeps Q's size.
// CHECK-LABEL: func.func @value_dim_below_query_dim
// CHECK:       attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 32768, output = 0, output_bytes = 16384,
// CHECK-SAME:    keys = 32768,
func.func @value_dim_below_query_dim(%q: tensor<?x4x?x128xbf16>, %k: tensor<?x4x?x128xbf16>,
                                     %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// D = 64, Dv = 128: the Q buffer grows to hold O (32 KiB).
// CHECK-LABEL: func.func @value_dim_above_query_dim
// CHECK:       attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 32768, output = 0, output_bytes = 32768,
// CHECK-SAME:    keys = 32768,
func.func @value_dim_above_query_dim(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                                     %v: tensor<?x4x?x128xbf16>) -> tensor<?x4x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x128xbf16>
      -> tensor<?x4x?x128xbf16>
  return %o : tensor<?x4x?x128xbf16>
}

// The rules of the choices that need shared memory, as diagnostics.
// RUN: not attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory="probs-in-registers=false" 2>&1 | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: error: attn-allocate-shared-memory: the intra-warpgroup overlap (kv loops with attn.stage = 1) needs probs-in-registers
// RUN: not attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=256" \
// RUN:   --attn-warp-specialize="stages=8" --attn-assign-layouts --attn-allocate-shared-memory 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// RUN: not attnc-opt %s --attn-tiling-pipeline="block-m=1024 block-n=64" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory 2>&1 | FileCheck %s --check-prefix=BARRIERS
// BARRIERS: error: attn-allocate-shared-memory: 16 consumer warpgroups need 16 named barriers, more than the 15 a CTA has besides bar.sync 0; choose a smaller block_m
// TOO-BIG: error: attn-allocate-shared-memory: tile 128x256 needs {{[0-9]+}} bytes of shared memory (Q, 8 K/V stages), more than the 232448 bytes a CTA may use on sm_90a
// The conversion takes the barrier ids from here and computes none: kv loops
// that take ping-pong turns need the turn barriers.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   | sed 's/, turn_barriers = \[3, 4\]//' \
// RUN:   | not attnc-opt --attn-insert-waits --convert-attn-to-nvvm 2>&1 | FileCheck %s --check-prefix=NO-TURN-BARRIERS
// NO-TURN-BARRIERS: error: convert-attn-to-nvvm: the kv loops take ping-pong turns but #attn.shared_memory has no turn_barriers
// ... and uses the ids it is given: the turns wait on turn_barriers[w] and
// the epilogue on warpgroup_barriers[w] (w the consumer warpgroup).
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   | sed 's/warpgroup_barriers = \[1, 2\], turn_barriers = \[3, 4\]/warpgroup_barriers = [9, 10], turn_barriers = [12, 13]/' \
// RUN:   | attnc-opt --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --check-prefix=MOVED-BARRIERS
// MOVED-BARRIERS:      %[[TURN:.*]] = arith.constant 12 : i32
// MOVED-BARRIERS-NEXT: %[[TURN_ID:.*]] = arith.addi %{{.*}}, %[[TURN]] : i32
// MOVED-BARRIERS-NEXT: nvvm.barrier.arrive id = %[[TURN_ID]] number_of_threads = %{{.*}}
// MOVED-BARRIERS:      %[[WG:.*]] = arith.constant 9 : i32
// MOVED-BARRIERS-NEXT: %[[WG_ID:.*]] = arith.addi %{{.*}}, %[[WG]] : i32
// MOVED-BARRIERS-NEXT: nvvm.barrier id = %[[WG_ID]] number_of_threads = %{{.*}}
