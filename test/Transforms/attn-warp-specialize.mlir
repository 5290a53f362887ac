// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize -canonicalize -cse | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="intra-warpgroup-overlap=true" | FileCheck %s --check-prefix=OVERLAP
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="ping-pong=false" | FileCheck %s --check-prefix=NO-PINGPONG
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a" | FileCheck %s --check-prefix=TABLE
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a intra-warpgroup-overlap=off stages=2" \
// RUN:   | FileCheck %s --check-prefix=TABLE-OVERRIDDEN
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:     --attn-warp-specialize="target=sm_90a stages=2" \
// RUN:   | FileCheck %s --check-prefix=TABLE-TWO-STAGES

// The pass wraps the kv loops and attn.finalize of each query tile in an
// attn.warp_specialize: the producer region streams every K/V tile pair of
// the tile's kv range into the ring; the consumer region runs the (split)
// online-softmax loops on tiles it pops, and yields the tile's results.

// Causal, two consumer warpgroups (128 rows): FA3's 24/240 registers and
// ping-pong. The producer covers [begin, end), the range the consumers'
// full and tail loops partition, so pushes and pops match one to one.
// CHECK-LABEL: func.func @causal(
// CHECK-SAME:      %[[Q:[^:]*]]: tensor<?x4x?x64xbf16>, %[[K:[^:]*]]: tensor<?x4x?x64xbf16>, %[[V:[^:]*]]: tensor<?x4x?x64xbf16>)
// CHECK:         scf.forall (%[[B:.*]], %[[H:.*]], %[[QB:.*]]) in
// CHECK:           %[[QTILE:.*]] = attn.load_tile %[[Q]]
// CHECK:           %[[RES:.*]]:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// CHECK-NEXT:        scf.for %[[KB:.*]] = %[[BEGIN:.*]] to %[[END:.*]] step %{{.*}} {
// CHECK-NEXT:          %[[ROW:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK-NEXT:          %[[KT:.*]] = attn.load_tile %[[K]][%[[B]], %[[H]], %[[ROW]]] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT:          %[[VT:.*]] = attn.load_tile %[[V]][%[[B]], %[[H]], %[[ROW]]] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT:          attn.ring_push %[[KT]], %[[VT]] : tensor<64x64xbf16>, tensor<64x64xbf16>
// CHECK-NEXT:        }
// CHECK-NEXT:        attn.yield
// CHECK-NEXT:      } consumer {
// Ping-pong: warpgroup 0 has the first turn, which warpgroup 1 passes to
// it before the kv loops.
// CHECK-NEXT:        attn.pass_turn warpgroup(1)
// CHECK-NEXT:        %[[FULL:.*]]:3 = scf.for %{{.*}} = %[[BEGIN]] to %[[SPLIT:.*]] step
// CHECK-NEXT:          %[[K1:.*]], %[[V1:.*]] = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
// Ping-pong: the S GEMM is issued in this warpgroup's turn.
// CHECK-NEXT:          attn.wait_turn
// CHECK-NEXT:          attn.qk %[[QTILE]], %[[K1]]
// CHECK-NEXT:          attn.pass_turn
// The ring: K goes back once S is computed, V at the end of the step.
// CHECK-NEXT:          attn.ring_release %[[K1]] : tensor<64x64xbf16>
// CHECK:               attn.pv %{{.*}}, %[[V1]], %{{.*}}
// CHECK-NEXT:          attn.ring_release %[[V1]] : tensor<64x64xbf16>
// CHECK-NEXT:          scf.yield
// CHECK:             } {attn.kv_range = "full"}
// CHECK-NEXT:        %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[SPLIT]] to %[[END]] step
// CHECK:               %[[K2:.*]], %[[V2:.*]] = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
// CHECK-NEXT:          attn.wait_turn
// CHECK-NEXT:          attn.qk %[[QTILE]], %[[K2]]
// CHECK-NEXT:          attn.pass_turn
// CHECK-NEXT:          attn.ring_release %[[K2]]
// CHECK-NEXT:          attn.mask
// CHECK:               attn.pv %{{.*}}, %[[V2]], %{{.*}}
// CHECK:             } {attn.kv_range = "tail"}
// CHECK-NEXT:        %[[O:.*]], %[[LSE:.*]] = attn.finalize %[[TAIL]]#2, %[[TAIL]]#1, %[[TAIL]]#0
// Warpgroup 0 consumes the arrival the first pass left pending.
// CHECK-NEXT:        attn.wait_turn warpgroup(0)
// CHECK-NEXT:        attn.yield %[[O]], %[[LSE]] : tensor<128x64xbf16>, tensor<128xf32>
// CHECK-NEXT:      } : tensor<128x64xbf16>, tensor<128xf32>
// CHECK:           tensor.extract_slice %[[RES]]#0
// CHECK:           tensor.extract_slice %[[RES]]#1
// The intra-warpgroup overlap is a two-stage software pipeline of every kv
// loop: the accumulator update (O's rescale and P V) is stage 1, run for
// block j-1 during iteration j; everything the running max and sum need
// stays in stage 0.
// OVERLAP-LABEL: func.func @causal(
// OVERLAP:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// OVERLAP:         } consumer {
// OVERLAP:           scf.for
// The turn ops stay in stage 0, around the S GEMM.
// OVERLAP:             attn.wait_turn{{$}}
// OVERLAP-NEXT:        attn.qk
// OVERLAP-NEXT:        attn.pass_turn{{$}}
// OVERLAP-NOT:         attn.stage
// OVERLAP:             attn.row_sum %{{.*}} init %{{.*}} scaled %{{.*}} : tensor<128x{{[0-9]+}}xf32> -> tensor<128xf32>
// OVERLAP-NOT:         attn.stage
// OVERLAP:             %[[SCALED:.*]] = attn.scale_rows %{{.*}}, %{{.*}} {attn.stage = 1 : i64} : tensor<128x64xf32>, tensor<128xf32>
// OVERLAP-NEXT:        attn.pv %{{.*}}, %{{.*}}, %[[SCALED]] {attn.stage = 1 : i64}
// V is read by stage 1's P V: its release is stage 1 too.
// OVERLAP-NEXT:        attn.ring_release %{{.*}} {attn.stage = 1 : i64}
// OVERLAP-NEXT:        scf.yield
// OVERLAP:           } {attn.kv_range = "full"}
// OVERLAP:           scf.for
// OVERLAP:             attn.scale_rows {{.*}} {attn.stage = 1 : i64}
// OVERLAP-NEXT:        attn.pv {{.*}} {attn.stage = 1 : i64}
// OVERLAP:           } {attn.kv_range = "tail"}
// Before any cleanup, too, the producer's loop bounds are the very values
// the consumers' first and last loop take.
// NO-PINGPONG-LABEL: func.func @causal(
// NO-PINGPONG:     attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// NO-PINGPONG:       scf.for %{{.*}} = %[[BEGIN:[^ ]+]] to %[[END:[^ ]+]] step
// NO-PINGPONG:     } consumer {
// NO-PINGPONG-NEXT:  scf.for %{{.*}} = %[[BEGIN]] to %[[SPLIT:[^ ]+]] step
// NO-PINGPONG-NOT:   attn.wait_turn
// NO-PINGPONG-NOT:   attn.pass_turn
// NO-PINGPONG:       scf.for %{{.*}} = %[[SPLIT]] to %[[END]] step
// NO-PINGPONG-NOT:   attn.wait_turn
// NO-PINGPONG-NOT:   attn.pass_turn
// NO-PINGPONG:       attn.finalize
// With the sm_90a table: specialized, with ping-pong at D <= 128.
// TABLE-LABEL: func.func @causal(
// TABLE:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
func.func @causal(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                  %v: tensor<?x4x?x64xbf16>) -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

// -----

// GQA 4:1, BSHD: the producer loads from the kv head the consumers used
// (computed before the kv loops) in the operands' layout.
// CHECK-LABEL: func.func @gqa_bshd(
// CHECK-SAME:      %{{[^:]*}}: tensor<2x?x8x128xbf16>, %[[K:[^:]*]]: tensor<2x?x2x128xbf16>
// CHECK:         scf.forall (%[[B:.*]], %[[H:.*]], %{{.*}}) in
// CHECK:           %[[KVH:.*]] = arith.divui %[[H]], %{{.*}} : index
// CHECK:           attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// CHECK:             attn.load_tile %[[K]][%[[B]], %[[KVH]], %{{.*}}] layout = bshd : tensor<2x?x2x128xbf16> -> tensor<64x128xbf16>
// CHECK:             attn.ring_push
// CHECK:           } consumer {
// CHECK-NOT:         attn.load_tile
// CHECK:             attn.ring_pop : tensor<64x128xbf16>, tensor<64x128xbf16>
// At D = 128 the sm_90a table adds a third stage and the overlap, unless the
// options say otherwise; stages=2 alone keeps the overlap (with two stages
// the kernel hands K back early, which keeps it fed).
// TABLE-LABEL: func.func @gqa_bshd(
// TABLE:         attn.warp_specialize consumers(2) stages(3) registers(24, 240) producer {
// TABLE:           attn.pv {{.*}} {attn.stage = 1 : i64}
// TABLE-OVERRIDDEN-LABEL: func.func @gqa_bshd(
// TABLE-OVERRIDDEN:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// TABLE-OVERRIDDEN-NOT:     attn.stage
// TABLE-OVERRIDDEN-LABEL: func.func @
// TABLE-TWO-STAGES-LABEL: func.func @gqa_bshd(
// TABLE-TWO-STAGES:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// TABLE-TWO-STAGES:           attn.pv {{.*}} {attn.stage = 1 : i64}
// TABLE-TWO-STAGES-LABEL: func.func @
func.func @gqa_bshd(%q: tensor<2x?x8x128xbf16>, %k: tensor<2x?x2x128xbf16>,
                    %v: tensor<2x?x2x128xbf16>) -> tensor<2x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v layout = bshd
      : tensor<2x?x8x128xbf16>, tensor<2x?x2x128xbf16>, tensor<2x?x2x128xbf16>
      -> tensor<2x?x8x128xbf16>
  return %o : tensor<2x?x8x128xbf16>
}

// -----

// Static lengths: canonicalization inlined the single-trip tail (keys
// 512..575 of Nk = 513), so that block's ring_pop sits in the consumer
// region itself. No loop holds the whole kv range, so the producer builds
// it anew (buildKvBlockRange) and loads each block from its own index.
// The producer pushes all nine blocks (eight in the loop, the inlined tail).
// CHECK-LABEL: func.func @static_ragged(
// CHECK:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// CHECK-NEXT:      scf.for %[[KB:.*]] = %c0 to %c9 step %c1
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK:           } consumer {
// CHECK:             scf.for
// CHECK:               attn.ring_pop
// CHECK:             } {attn.kv_range = "full"}
// CHECK-NEXT:        %{{.*}}, %{{.*}} = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
// CHECK:             attn.mask
// CHECK:             attn.finalize
func.func @static_ragged(%q: tensor<1x2x100x64xbf16>, %k: tensor<1x2x513x64xbf16>,
                         %v: tensor<1x2x513x64xbf16>) -> tensor<1x2x100x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x100x64xbf16>, tensor<1x2x513x64xbf16>, tensor<1x2x513x64xbf16>
      -> tensor<1x2x100x64xbf16>
  return %o : tensor<1x2x100x64xbf16>
}

// -----

// D = 256: the sm_90a table keeps the producer but drops ping-pong (it cost
// 3-6 % in bench/RESULTS.md run 13), and overlaps the softmax with P V on
// two stages (a third does not fit; run 27); without a target the pass
// sets ping-pong and no overlap.
// CHECK-LABEL: func.func @d256(
// CHECK:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// CHECK:           attn.wait_turn
// CHECK-NEXT:      attn.qk
// CHECK-NEXT:      attn.pass_turn
// TABLE-LABEL: func.func @d256(
// TABLE:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// TABLE-NOT:       attn.wait_turn
// TABLE:           attn.pv {{.*}} {attn.stage = 1 : i64}
// TABLE-NOT:       attn.wait_turn
// TABLE:         attn.finalize
func.func @d256(%q: tensor<1x2x?x256xbf16>, %k: tensor<1x2x?x256xbf16>,
                %v: tensor<1x2x?x256xbf16>) -> tensor<1x2x?x256xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
      -> tensor<1x2x?x256xbf16>
  return %o : tensor<1x2x?x256xbf16>
}

// -----

// A sliding window above D = 128 keeps the sequential step: its two masked
// loops next to the overlap's carried P and a 128-register O spilled.
// TABLE-LABEL: func.func @d256_window(
// TABLE:         attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// TABLE-NOT:       attn.stage
// TABLE:         return
func.func @d256_window(%q: tensor<1x2x?x256xbf16>, %k: tensor<1x2x?x256xbf16>,
                       %v: tensor<1x2x?x256xbf16>) -> tensor<1x2x?x256xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [512, 0]
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>
      -> tensor<1x2x?x256xbf16>
  return %o : tensor<1x2x?x256xbf16>
}

// -----

// Static decode with a window: canonicalization removes the (zero-trip)
// masked loops and with them every attn.mask (attn.finalize keeps the
// mask). The producer walks the remaining loop's bounds, so it pushes
// exactly the blocks the consumers pop (2..3), not all four.
// CHECK-LABEL: func.func @decode_window(
// CHECK:         attn.warp_specialize
// CHECK-NEXT:      scf.for %{{.*}} = %[[BEGIN:.*]] to %[[END:.*]] step
// CHECK:           attn.ring_push
// CHECK:         } consumer {
// CHECK-NEXT:      attn.pass_turn warpgroup(1)
// CHECK-NEXT:      scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:             attn.ring_pop
// CHECK:           attn.finalize {{.*}} mask = causal_bottom_right window = [127, 0]
func.func @decode_window(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x256x64xbf16>,
                         %v: tensor<1x2x256x64xbf16>) -> tensor<1x2x1x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [127, 0]
      : tensor<1x2x1x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>
      -> tensor<1x2x1x64xbf16>
  return %o : tensor<1x2x1x64xbf16>
}

// -----

// Both kv blocks inlined into the tile's body (single-trip loops): each
// attn.qk is paired with the attn.pv its P feeds, so both blocks pop, and
// the producer, which builds the range anew, pushes both.
// CHECK-LABEL: func.func @two_inlined_blocks(
// CHECK:         attn.warp_specialize
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:         } consumer {
// CHECK-NEXT:      %[[K0:.*]], %[[V0:.*]] = attn.ring_pop : tensor<128x64xbf16>, tensor<128x64xbf16>
// CHECK-NEXT:      attn.qk %{{.*}}, %[[K0]]
// CHECK:           attn.pv %{{.*}}, %[[V0]], %{{.*}}
// CHECK:           %[[K1:.*]], %[[V1:.*]] = attn.ring_pop : tensor<128x64xbf16>, tensor<128x64xbf16>
// CHECK-NEXT:      attn.qk %{{.*}}, %[[K1]]
// CHECK:           attn.pv %{{.*}}, %[[V1]], %{{.*}}
func.func @two_inlined_blocks(%q: tensor<1x2x128x64xbf16>, %k: tensor<1x2x256x64xbf16>,
                              %v: tensor<1x2x256x64xbf16>) -> tensor<1x2x128x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right tile_sizes = [128, 128]
      : tensor<1x2x128x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>
      -> tensor<1x2x128x64xbf16>
  return %o : tensor<1x2x128x64xbf16>
}

// -----

// A split-KV tile (kv_splits): the producer streams the blocks of its own
// split, the range its consumer loops partition (attn-tile's clipping,
// clipKvBlockRangeToSplit): its loop's bounds are the consumer loops'
// values.
// CHECK-LABEL: func.func @kv_splits(
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}, %[[SPLIT:.*]]) in ({{.*}}, 4, %{{.*}}, %[[N:[a-z0-9_]+]])
// CHECK:           %[[PER:.*]] = arith.ceildivsi %{{.*}}, %[[N]] : index
// CHECK:           %[[FIRST:.*]] = arith.muli %[[SPLIT]], %[[PER]] : index
// CHECK:           %[[LAST:.*]] = arith.addi %[[FIRST]], %[[PER]] : index
// CHECK:           %[[BEGIN:.*]] = arith.maxsi %[[FIRST]], %{{.*}} : index
// CHECK:           %[[END:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK:           attn.warp_specialize
// CHECK:             scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:               attn.ring_push
// CHECK:           } consumer {
// CHECK:             scf.for %{{.*}} = %[[BEGIN]] to
// CHECK:         attn.combine_splits
func.func @kv_splits(%q: tensor<1x4x?x64xbf16>, %k: tensor<1x4x?x64xbf16>,
                     %v: tensor<1x4x?x64xbf16>, %s: index) -> tensor<1x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%s)
      : tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>
      -> tensor<1x4x?x64xbf16>
  return %o : tensor<1x4x?x64xbf16>
}

// -----

// Packed query heads under a windowed bottom-right mask (a decode step of
// GQA packed by attn-pack-gqa): the producer streams exactly the consumer
// loops' blocks, from the first loop's lower bound to the last's upper
// bound (the range attn-tile took at the rows' query positions, Nq = rows
// / 4, as the masks take them).
// CHECK-LABEL: func.func @packed_decode_window(
// CHECK:         attn.warp_specialize
// CHECK:           scf.for %{{.*}} = %[[BEGIN:[^ ]+]] to %[[END:[^ ]+]] step
// CHECK:         } consumer {
// CHECK:           scf.for %{{.*}} = %[[BEGIN]] to %[[SPLIT0:[^ ]+]] step
// CHECK:           scf.for %{{.*}} = %[[SPLIT0]] to %[[SPLIT1:[^ ]+]] step
// CHECK:           scf.for %{{.*}} = %[[SPLIT1]] to %[[END]] step
func.func @packed_decode_window(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                                %v: tensor<?x8x?x128xbf16>) -> tensor<?x8x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [100, 0] packed_query_heads = 4
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

// A paged KV cache: the producer streams the sequence's blocks, up to its
// cache length (the tile's, read before the loops), each K and V tile read
// from its page pool through the block table as the consumers' loads were;
// the consumers pop them. The producer keeps a block's page numbers, so
// the budget moves 32 registers to it (56 / 224).
// CHECK-LABEL: func.func @paged(
// CHECK-SAME:    %[[K:[^:]*]]: tensor<?x16x4x64xbf16>, %[[V:[^:]*]]: tensor<?x16x4x64xbf16>, %[[BT:[^:]*]]: tensor<?x?xi32>, %[[CL:[^:]*]]: tensor<?xi32>)
// CHECK:         scf.forall (%[[B:[^,]*]], %[[H:[^,]*]], %{{[^)]*}})
// CHECK:           %[[CACHED:.*]] = tensor.extract %[[CL]][%[[B]]] : tensor<?xi32>
// CHECK:           %[[LENGTH:.*]] = arith.index_cast %[[CACHED]] : i32 to index
// CHECK:           %[[BLOCKS:.*]] = arith.ceildivsi %[[LENGTH]], %c64 : index
// CHECK:           attn.warp_specialize consumers(2) stages(2) registers(56, 224) producer {
// CHECK:             scf.for %[[KB:.*]] = %c0 to %[[BLOCKS]] step %c1 {
// CHECK:               %[[ROW:.*]] = arith.muli %[[KB]], %c64 : index
// CHECK:               %[[KT:.*]] = attn.load_paged_tile %[[K]][%[[B]], %[[H]], %[[ROW]]] pages %[[BT]] length %[[LENGTH]]
// CHECK:               %[[VT:.*]] = attn.load_paged_tile %[[V]][%[[B]], %[[H]], %[[ROW]]] pages %[[BT]] length %[[LENGTH]]
// CHECK:               attn.ring_push %[[KT]], %[[VT]]
// CHECK:           } consumer {
// CHECK-NOT:         attn.load_paged_tile
// CHECK:             attn.ring_pop
func.func @paged(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x16x4x64xbf16>, %v: tensor<?x16x4x64xbf16>,
                 %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x4x?x64xbf16>, tensor<?x16x4x64xbf16>, tensor<?x16x4x64xbf16> -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// A paged tile split at launch: the producer streams its split's blocks of
// the sequence's cache, the same clipped range the consumers' loops take.
// CHECK-LABEL: func.func @paged_split(
// CHECK:         scf.forall (%[[B:[^,]*]], %[[H:[^,]*]], %{{[^,]*}}, %[[S:[^)]*]]) in (%{{[^,]*}}, 4, %{{[^,]*}}, %[[N:[^)]*]])
// CHECK:           %[[CACHED:.*]] = tensor.extract %{{.*}}[%[[B]]] : tensor<?xi32>
// CHECK:           %[[LENGTH:.*]] = arith.index_cast %[[CACHED]] : i32 to index
// CHECK:           %[[BLOCKS:.*]] = arith.ceildivsi %[[LENGTH]], %c64 : index
// CHECK:           %[[PER:.*]] = arith.ceildivsi %[[BLOCKS]], %[[N]] : index
// CHECK:           %[[FIRST:.*]] = arith.muli %[[S]], %[[PER]] : index
// CHECK:           %[[LAST:.*]] = arith.addi %[[FIRST]], %[[PER]] : index
// CHECK:           %[[BEGIN:.*]] = arith.maxsi %[[FIRST]], %c0 : index
// CHECK:           %[[END:.*]] = arith.minsi %[[BLOCKS]], %[[LAST]] : index
// CHECK:           attn.warp_specialize consumers(2) stages(2) registers(56, 224) producer {
// CHECK:             scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c1 {
// CHECK:               attn.load_paged_tile %{{.*}}[%[[B]], %[[H]], %{{.*}}] pages %{{.*}} length %[[LENGTH]]
func.func @paged_split(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x16x4x64xbf16>, %v: tensor<?x16x4x64xbf16>,
                       %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits) pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x4x?x64xbf16>, tensor<?x16x4x64xbf16>, tensor<?x16x4x64xbf16> -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
