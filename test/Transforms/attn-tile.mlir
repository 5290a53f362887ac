// RUN: attnc-opt %s -attn-tile="block-m=64 block-n=32" -split-input-file | FileCheck %s --implicit-check-not=attn.attention
// RUN: attnc-opt %s -attn-tile -split-input-file | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=attn.attention
// RUN: attnc-opt %s -attn-tile="target=sm_90a-fa3" -split-input-file | FileCheck %s --check-prefix=FA3 --implicit-check-not=attn.attention
// RUN: attnc-opt %s -attn-tile="target=generic" -split-input-file | FileCheck %s --check-prefix=GENERIC --implicit-check-not=attn.attention
// RUN: attnc-opt %s -attn-tile="block-m=16" -split-input-file | FileCheck %s --check-prefix=PARTIAL --implicit-check-not=attn.attention
// RUN: not attnc-opt %s -attn-tile="target=sm_80" -split-input-file 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: attn-tile: target must be one of sm_90a, sm_90a-fa3, generic (the tile tables; every kernel is sm_90a code), got 'sm_80'

// Tile sizes come from the op's tile_sizes, then the pass options, then the
// target's table:
//   sm_90a (default, what the kernel runs): 64 x 128 for D <= 128, else 64 x 64;
//   sm_90a-fa3 (FlashAttention-3): D <= 64: 192 x 128; D <= 128: 128 x 128
//     causal, 128 x 176 otherwise; D <= 192: 128 x 112; larger: 128 x 80;
//   generic: 64 x 64 (a target without a table is a diagnostic, RUN line
//   TARGET).

// GQA 4:1, causal, dynamic sequence lengths, with LSE: the full structure.
// CHECK-LABEL: func.func @gqa_causal(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[BATCH:.*]] = tensor.dim %[[Q]], %[[C0]]
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[NQ:.*]] = tensor.dim %[[Q]], %[[C2]]
// CHECK:         %[[NK:.*]] = tensor.dim %[[K]], %{{.*}}
// CHECK:         %[[BM:.*]] = arith.constant 64 : index
// CHECK:         %[[NQB:.*]] = arith.ceildivsi %[[NQ]], %[[BM]] : index
// CHECK:         %[[OINIT:.*]] = tensor.empty(%{{.*}}) : tensor<2x8x?x64xbf16>
// CHECK:         %[[LINIT:.*]] = tensor.empty(%[[NQ]]) : tensor<2x8x?xf32>
// The scale values, once before the tiles: the scale and scale * log2(e).
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[SL2:.*]] = arith.constant 0.180336878 : f32
// CHECK:         %[[RES:.*]]:2 = scf.forall (%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[QB:[a-z0-9_]+]]) in (%[[BATCH]], 8, %[[NQB]])
// CHECK-SAME:        shared_outs(%[[OOUT:[a-z0-9_]+]] = %[[OINIT]], %[[LOUT:[a-z0-9_]+]] = %[[LINIT]]) -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
// Query head h reads key/value head h / 4.
// CHECK:           %[[G:.*]] = arith.constant 4 : index
// CHECK:           %[[KVH:.*]] = arith.divui %[[H]], %[[G]] : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]], %{{.*}} : index
// CHECK:           %[[QT:.*]] = attn.load_tile %[[Q]][%[[B]], %[[H]], %[[ROW]]] : tensor<2x8x?x64xbf16> -> tensor<64x64xbf16>
// Pass 1: the row max.
// CHECK:           %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK:           %[[MAX:.*]] = scf.for %[[KB1:.*]] = %[[LO:.*]] to %[[HI:.*]] step %{{.*}} iter_args(%[[M:.*]] = %[[NEGINF]]) -> (tensor<64xf32>) {
// CHECK:             %[[COL1:.*]] = arith.muli %[[KB1]], %{{.*}} : index
// CHECK:             %[[KT1:.*]] = attn.load_tile %[[K]][%[[B]], %[[KVH]], %[[COL1]]] : tensor<2x2x?x64xbf16> -> tensor<32x64xbf16>
// CHECK:             %[[S1:.*]] = attn.qk %[[QT]], %[[KT1]] : tensor<64x64xbf16>, tensor<32x64xbf16> -> tensor<64x32xf32>
// CHECK:             %[[MS1:.*]] = attn.mask %[[S1]] rows %[[ROW]] cols %[[COL1]] seq_q %[[NQ]] seq_k %[[NK]] kind = causal : tensor<64x32xf32>
// CHECK:             %[[M1:.*]] = attn.row_max %[[MS1]] init %[[M]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK:             scf.yield %[[M1]] : tensor<64xf32>
// CHECK:           }
// Pass 2: the row sum of exp2((S - max) * scale * log2 e), same kv range.
// CHECK:           %[[ZROWS:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK:           %[[SUM:.*]] = scf.for %[[KB2:.*]] = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%[[L:.*]] = %[[ZROWS]]) -> (tensor<64xf32>) {
// CHECK:             attn.load_tile %[[K]]
// CHECK:             %[[MS2:.*]] = attn.mask {{.*}} kind = causal
// CHECK:             %[[P2:.*]] = attn.exp_diff %[[MS2]], %[[MAX]] scale_log2 %[[SL2]] : tensor<64x32xf32>, tensor<64xf32>
// CHECK:             %[[L1:.*]] = attn.row_sum %[[P2]] init %[[L]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK:             scf.yield %[[L1]] : tensor<64xf32>
// CHECK:           }
// Pass 3: P V, same kv range.
// CHECK:           %[[ZACC:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK:           %[[ACC:.*]] = scf.for %[[KB3:.*]] = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%[[A:.*]] = %[[ZACC]]) -> (tensor<64x64xf32>) {
// CHECK:             attn.load_tile %[[K]]
// CHECK:             %[[MS3:.*]] = attn.mask {{.*}} kind = causal
// CHECK:             %[[P3:.*]] = attn.exp_diff %[[MS3]], %[[MAX]]
// CHECK:             %[[VT:.*]] = attn.load_tile %[[V]][%[[B]], %[[KVH]], %{{.*}}] : tensor<2x2x?x64xbf16> -> tensor<32x64xbf16>
// CHECK:             %[[A1:.*]] = attn.pv %[[P3]], %[[VT]], %[[A]] : tensor<64x32xf32>, tensor<32x64xbf16>, tensor<64x64xf32>
// CHECK:             scf.yield %[[A1]] : tensor<64x64xf32>
// CHECK:           }
// The epilogue stores only the rows that exist: min(64, Nq - row).
// The tile's mask is recorded on attn.finalize: the loops' attn.mask ops can
// fold away for static shapes, and the GPU lowering needs the mask itself.
// CHECK:           %[[OT:.*]], %[[LT:.*]] = attn.finalize %[[ACC]], %[[SUM]], %[[MAX]] scale %[[SCALE]] mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
// CHECK:           %[[LEFT:.*]] = arith.subi %[[NQ]], %[[ROW]] : index
// CHECK:           %[[ROWS:.*]] = arith.minsi %{{.*}}, %[[LEFT]] : index
// CHECK:           %[[OS:.*]] = tensor.extract_slice %[[OT]][0, 0] [%[[ROWS]], 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
// CHECK:           %[[LS:.*]] = tensor.extract_slice %[[LT]][0] [%[[ROWS]]] [1] : tensor<64xf32> to tensor<?xf32>
// CHECK:           scf.forall.in_parallel {
// CHECK:             tensor.parallel_insert_slice %[[OS]] into %[[OOUT]][%[[B]], %[[H]], %[[ROW]], 0] [1, 1, %[[ROWS]], 64] [1, 1, 1, 1]
// CHECK:             tensor.parallel_insert_slice %[[LS]] into %[[LOUT]][%[[B]], %[[H]], %[[ROW]]] [1, 1, %[[ROWS]]] [1, 1, 1]
// CHECK:           }
// CHECK:         }
// CHECK:         return %[[RES]]#0, %[[RES]]#1

// D = 64: 192 x 128 tiles from the default table.
// DEFAULT-LABEL: func.func @gqa_causal(
// DEFAULT:         %[[BM:.*]] = arith.constant 192 : index
// DEFAULT:         arith.ceildivsi %{{.*}}, %[[BM]]
// DEFAULT:         attn.load_tile {{.*}} -> tensor<192x64xbf16>
// DEFAULT:         attn.load_tile {{.*}} -> tensor<128x64xbf16>
// DEFAULT:         attn.qk {{.*}} -> tensor<192x128xf32>
// DEFAULT:         attn.finalize {{.*}} -> tensor<192x64xbf16>

// D = 64: 192 x 128 in FA3's table.
// FA3-LABEL:     func.func @gqa_causal(
// FA3:             %[[BM:.*]] = arith.constant 192 : index
// FA3:             arith.ceildivsi %{{.*}}, %[[BM]]
// FA3:             attn.load_tile {{.*}} -> tensor<192x64xbf16>
// FA3:             attn.load_tile {{.*}} -> tensor<128x64xbf16>
// FA3:             attn.qk {{.*}} -> tensor<192x128xf32>
// FA3:             attn.finalize {{.*}} -> tensor<192x64xbf16>

// GENERIC-LABEL: func.func @gqa_causal(
// GENERIC:         attn.qk {{.*}} -> tensor<64x64xf32>

// Only block-m is given: block-n still comes from the table.
// PARTIAL-LABEL: func.func @gqa_causal(
// PARTIAL:         attn.load_tile {{.*}} -> tensor<16x64xbf16>
// PARTIAL:         attn.qk {{.*}} -> tensor<16x128xf32>
func.func @gqa_causal(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}

// -----

// Hq == Hkv: no head division. No mask: every kv block is visited,
// [0, ceildiv(Nk, BN)), and attn.mask only hides the ragged key tail
// (200 = 6 * 32 + 8). The value head dim (16) sizes acc and output.
// CHECK-LABEL: func.func @mha_no_mask(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<1x4x100x32xf32>, %[[K:[a-z0-9_]+]]: tensor<1x4x200x32xf32>, %[[V:[a-z0-9_]+]]: tensor<1x4x200x16xf32>)
// CHECK:         %[[NK:.*]] = tensor.dim %[[K]], %{{.*}}
// CHECK:         %[[OINIT:.*]] = tensor.empty() : tensor<1x4x100x16xf32>
// 1/sqrt(32) is the default scale.
// CHECK:         %[[SCALE:.*]] = arith.constant 0.176776692 : f32
// CHECK:         scf.forall (%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[QB:[a-z0-9_]+]]) in (%{{.*}}, 4, %{{.*}}) shared_outs(%[[OOUT:[a-z0-9_]+]] = %[[OINIT]]) -> (tensor<1x4x100x16xf32>) {
// CHECK-NOT:       arith.divui
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]]
// CHECK:           attn.load_tile %[[Q]][%[[B]], %[[H]], %[[ROW]]] : tensor<1x4x100x32xf32> -> tensor<64x32xf32>
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:           %[[BN:.*]] = arith.constant 32 : index
// CHECK:           %[[NKB:.*]] = arith.ceildivsi %[[NK]], %[[BN]] : index
// CHECK:           scf.for %[[KB1:.*]] = %[[ZERO]] to %[[NKB]] step
// CHECK:             %[[COL1:.*]] = arith.muli %[[KB1]]
// CHECK:             attn.load_tile %[[K]][%[[B]], %[[H]], %[[COL1]]] : tensor<1x4x200x32xf32> -> tensor<32x32xf32>
// CHECK:             attn.mask %{{.*}} rows %[[ROW]] cols %[[COL1]] seq_q %{{.*}} seq_k %[[NK]] : tensor<64x32xf32>
// CHECK:             attn.row_max
// CHECK:           scf.for %{{.*}} = %[[ZERO]] to %[[NKB]] step
// CHECK:             attn.row_sum
// CHECK:           scf.for %{{.*}} = %[[ZERO]] to %[[NKB]] step {{.*}} -> (tensor<64x16xf32>)
// CHECK:             attn.load_tile %[[V]][%[[B]], %[[H]], %{{.*}}] : tensor<1x4x200x16xf32> -> tensor<32x16xf32>
// CHECK:             attn.pv
// CHECK:           attn.finalize {{.*}} scale %[[SCALE]] : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xf32>
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[OOUT]][%[[B]], %[[H]], %[[ROW]], 0] [1, 1, %{{.*}}, 16]

// D = 32, no mask: the sm_90a tables' 192-row tile for D <= 64, but the
// 100 static query rows fill two 64-row warpgroups, not three
// (getDefaultTileConfig's static rows).
// DEFAULT-LABEL: func.func @mha_no_mask(
// DEFAULT:         attn.qk {{.*}} -> tensor<128x128xf32>
// FA3-LABEL:     func.func @mha_no_mask(
// FA3:             attn.qk {{.*}} -> tensor<128x128xf32>
func.func @mha_no_mask(%q: tensor<1x4x100x32xf32>, %k: tensor<1x4x200x32xf32>,
                       %v: tensor<1x4x200x16xf32>) -> tensor<1x4x100x16xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x100x32xf32>, tensor<1x4x200x32xf32>, tensor<1x4x200x16xf32>
      -> tensor<1x4x100x16xf32>
  return %o : tensor<1x4x100x16xf32>
}

// -----

// MQA in bshd with a softcap: every head reads kv head h / 8, tiles are
// loaded with layout = bshd, and the stored slab is [b, rows, h, :].
// The softcap applies the scale, so the softmax scale becomes 1.
// CHECK-LABEL: func.func @mqa_bshd_softcap(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<?x?x8x64xf16>, %[[K:[a-z0-9_]+]]: tensor<?x?x1x64xf16>, %[[V:[a-z0-9_]+]]: tensor<?x?x1x64xf16>)
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[NQ:.*]] = tensor.dim %[[Q]], %[[C1]]
// CHECK:         %[[NK:.*]] = tensor.dim %[[K]], %{{.*}}
// The softcap takes the scale; the softmax runs with scale 1 (log2(e)).
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[SL2:.*]] = arith.constant 1.44269502 : f32
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         scf.forall (%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[QB:[a-z0-9_]+]]) in (%{{.*}}, 8, %{{.*}}) shared_outs(%[[OOUT:[a-z0-9_]+]] = %{{.*}}) -> (tensor<?x?x8x64xf16>) {
// CHECK:           %[[G:.*]] = arith.constant 8 : index
// CHECK:           %[[KVH:.*]] = arith.divui %[[H]], %[[G]] : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]]
// CHECK:           attn.load_tile %[[Q]][%[[B]], %[[H]], %[[ROW]]] layout = bshd : tensor<?x?x8x64xf16> -> tensor<64x64xf16>
// CHECK:           scf.for
// CHECK:             attn.load_tile %[[K]][%[[B]], %[[KVH]], %{{.*}}] layout = bshd : tensor<?x?x1x64xf16> -> tensor<32x64xf16>
// CHECK:             %[[S1:.*]] = attn.qk
// CHECK:             %[[SC1:.*]] = attn.softcap %[[S1]] scale %[[SCALE]] cap = 3.000000e+01 : tensor<64x32xf32>
// CHECK:             attn.mask %[[SC1]] rows %[[ROW]] cols %{{.*}} seq_q %[[NQ]] seq_k %[[NK]] : tensor<64x32xf32>
// CHECK:             attn.row_max
// CHECK:           scf.for
// CHECK:             attn.softcap
// CHECK:             attn.exp_diff {{.*}} scale_log2 %[[SL2]]
// CHECK:             attn.row_sum
// CHECK:           scf.for
// CHECK:             attn.softcap
// CHECK:             attn.exp_diff {{.*}} scale_log2 %[[SL2]]
// CHECK:             attn.load_tile %[[V]][%[[B]], %[[KVH]], %{{.*}}] layout = bshd : tensor<?x?x1x64xf16> -> tensor<32x64xf16>
// CHECK:             attn.pv
// CHECK:           attn.finalize {{.*}} scale %[[ONE]] : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf16>
// CHECK:           %[[ROWS:.*]] = arith.minsi
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[OOUT]][%[[B]], %[[ROW]], %[[H]], 0] [1, %[[ROWS]], 1, 64] [1, 1, 1, 1] : tensor<?x64xf16> into tensor<?x?x8x64xf16>
// With dynamic rows, D = 64 takes the tables' 192 rows.
// DEFAULT-LABEL: func.func @mqa_bshd_softcap(
// DEFAULT:         attn.qk {{.*}} -> tensor<192x128xf32>
// FA3-LABEL:     func.func @mqa_bshd_softcap(
// FA3:             attn.qk {{.*}} -> tensor<192x128xf32>
func.func @mqa_bshd_softcap(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x1x64xf16>,
                            %v: tensor<?x?x1x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v scale = 0.125 softcap = 30.0 layout = bshd
      : tensor<?x?x8x64xf16>, tensor<?x?x1x64xf16>, tensor<?x?x1x64xf16>
      -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}

// -----

// The mask kind and window reach every attn.mask; without a softcap the
// mask takes the raw scores.
// CHECK-LABEL: func.func @window_bottom_right(
// CHECK:         scf.for
// CHECK:           %[[S1:.*]] = attn.qk
// CHECK:           attn.mask %[[S1]] {{.*}} kind = causal_bottom_right window = [48, 0] : tensor<64x32xf32>
// CHECK:         scf.for
// CHECK:           %[[S2:.*]] = attn.qk
// CHECK:           attn.mask %[[S2]] {{.*}} kind = causal_bottom_right window = [48, 0] : tensor<64x32xf32>
// CHECK:         scf.for
// CHECK:           %[[S3:.*]] = attn.qk
// CHECK:           attn.mask %[[S3]] {{.*}} kind = causal_bottom_right window = [48, 0] : tensor<64x32xf32>
// CHECK:         attn.finalize

// D = 128, causal: 128 x 128 (two consumer warpgroups).
// DEFAULT-LABEL: func.func @window_bottom_right(
// DEFAULT:         attn.qk {{.*}} -> tensor<128x128xf32>
// FA3-LABEL:     func.func @window_bottom_right(
// FA3:             attn.qk {{.*}} -> tensor<128x128xf32>
func.func @window_bottom_right(%q: tensor<1x2x?x128xbf16>, %k: tensor<1x2x?x128xbf16>,
                               %v: tensor<1x2x?x128xbf16>) -> tensor<1x2x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [48, 0]
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
      -> tensor<1x2x?x128xbf16>
  return %o : tensor<1x2x?x128xbf16>
}

// -----

// D = 128 without a causal mask (a window alone does not count): FA3 takes
// 176-wide kv tiles.
// DEFAULT-LABEL: func.func @d128_window_only(
// DEFAULT:         attn.mask {{.*}} window = [64, 64] : tensor<128x128xf32>
// FA3-LABEL:     func.func @d128_window_only(
// FA3:             attn.mask {{.*}} window = [64, 64] : tensor<128x176xf32>
func.func @d128_window_only(%q: tensor<1x2x?x128xbf16>, %k: tensor<1x2x?x128xbf16>,
                            %v: tensor<1x2x?x128xbf16>) -> tensor<1x2x?x128xbf16> {
  %o = attn.attention %q, %k, %v window = [64, 64]
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
      -> tensor<1x2x?x128xbf16>
  return %o : tensor<1x2x?x128xbf16>
}

// -----

// D > 128: 128 x 80 tiles.
// DEFAULT-LABEL: func.func @d192(
// DEFAULT:         attn.qk {{.*}} -> tensor<128x80xf32>
// FA3-LABEL:     func.func @d192(
// FA3:             attn.qk {{.*}} -> tensor<128x112xf32>
func.func @d192(%q: tensor<1x2x?x192xf16>, %k: tensor<1x2x?x192xf16>,
                %v: tensor<1x2x?x192xf16>) -> tensor<1x2x?x192xf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>, tensor<1x2x?x192xf16>
      -> tensor<1x2x?x192xf16>
  return %o : tensor<1x2x?x192xf16>
}

// -----

// DEFAULT-LABEL: func.func @d256(
// DEFAULT:         attn.qk {{.*}} -> tensor<128x80xf32>
// FA3-LABEL:     func.func @d256(
// FA3:             attn.qk {{.*}} -> tensor<128x80xf32>
func.func @d256(%q: tensor<1x2x?x256xf16>, %k: tensor<1x2x?x256xf16>,
                %v: tensor<1x2x?x256xf16>) -> tensor<1x2x?x256xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x256xf16>, tensor<1x2x?x256xf16>, tensor<1x2x?x256xf16>
      -> tensor<1x2x?x256xf16>
  return %o : tensor<1x2x?x256xf16>
}

// -----

// The op's tile_sizes win over the pass options and the table.
// CHECK-LABEL: func.func @tile_sizes_attr(
// CHECK:         %[[BM:.*]] = arith.constant 96 : index
// CHECK:         arith.ceildivsi %{{.*}}, %[[BM]]
// CHECK:         attn.load_tile {{.*}} -> tensor<96x128xbf16>
// CHECK:         attn.load_tile {{.*}} -> tensor<48x128xbf16>
// CHECK:         attn.qk {{.*}} -> tensor<96x48xf32>
// DEFAULT-LABEL: func.func @tile_sizes_attr(
// DEFAULT:         attn.qk {{.*}} -> tensor<96x48xf32>
// FA3-LABEL:     func.func @tile_sizes_attr(
// FA3:             attn.qk {{.*}} -> tensor<96x48xf32>
// GENERIC-LABEL: func.func @tile_sizes_attr(
// GENERIC:         attn.qk {{.*}} -> tensor<96x48xf32>
// PARTIAL-LABEL: func.func @tile_sizes_attr(
// PARTIAL:         attn.qk {{.*}} -> tensor<96x48xf32>
func.func @tile_sizes_attr(%q: tensor<1x2x?x128xbf16>, %k: tensor<1x2x?x128xbf16>,
                           %v: tensor<1x2x?x128xbf16>) -> tensor<1x2x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal tile_sizes = [96, 48]
      : tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
      -> tensor<1x2x?x128xbf16>
  return %o : tensor<1x2x?x128xbf16>
}

// -----

// kv_splits: one tile per (query block, kv split), a fourth forall
// dimension. Split s takes kv blocks [s c, (s + 1) c), c = ceil(ceil(Nk /
// block_n) / S), clipped to the tile's kv range; it writes its normalized
// f32 output and its LSE into the partials, which attn.combine_splits merges.
// CHECK-LABEL: func.func @kv_splits(
// CHECK-SAME:      %[[Q:[^:]*]]: tensor<2x8x?x64xbf16>, %[[K:[^:]*]]: tensor<2x2x?x64xbf16>
// CHECK-SAME:      %[[S:[^:]*]]: index)
// CHECK-DAG:     %[[B:.*]] = tensor.dim %[[Q]], %c0
// CHECK-DAG:     %[[NQ:.*]] = tensor.dim %[[Q]], %c2
// CHECK-DAG:     %[[NK:.*]] = tensor.dim %[[K]], %c2
// A split count below 1 counts as 1.
// CHECK:         %[[SPLITS:.*]] = arith.maxsi %[[S]], %c1 : index
// CHECK:         %[[PO:.*]] = tensor.empty(%[[SPLITS]], %[[B]], %[[NQ]]) : tensor<?x?x8x?x64xf32>
// CHECK:         %[[PL:.*]] = tensor.empty(%[[SPLITS]], %[[B]], %[[NQ]]) : tensor<?x?x8x?xf32>
// CHECK:         %[[TILES:.*]]:2 = scf.forall (%[[BI:.*]], %[[HI:.*]], %[[QB:.*]], %[[SI:.*]]) in (%[[B]], 8, %{{.*}}, %[[SPLITS]])
// CHECK-SAME:        shared_outs(%[[PO_OUT:.*]] = %[[PO]], %[[PL_OUT:.*]] = %[[PL]])
// CHECK:           %[[PER:.*]] = arith.ceildivsi %{{.*}}, %[[SPLITS]] : index
// CHECK:           %[[FIRST:.*]] = arith.muli %[[SI]], %[[PER]] : index
// CHECK:           %[[LAST:.*]] = arith.addi %[[FIRST]], %[[PER]] : index
// CHECK:           %[[BEGIN:.*]] = arith.maxsi %{{.*}}, %[[FIRST]] : index
// CHECK:           %[[END:.*]] = arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK:           scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:           scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:           scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:           attn.finalize {{.*}} -> tensor<64x64xf32>
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[PO_OUT]][%[[SI]], %[[BI]], %[[HI]], %{{.*}}, 0] [1, 1, 1, %{{.*}}, 64] [1, 1, 1, 1, 1] : tensor<?x64xf32> into tensor<?x?x8x?x64xf32>
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[PL_OUT]][%[[SI]], %[[BI]], %[[HI]], %{{.*}}] [1, 1, 1, %{{.*}}] [1, 1, 1, 1] : tensor<?xf32> into tensor<?x?x8x?xf32>
// CHECK:         } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
// CHECK:         %[[O:.*]], %[[LSE:.*]] = attn.combine_splits %[[TILES]]#0, %[[TILES]]#1
// CHECK-SAME:        : tensor<?x?x8x?x64xf32>, tensor<?x?x8x?xf32> -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
// CHECK:         return %[[O]], %[[LSE]]
func.func @kv_splits(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                     %v: tensor<2x2x?x64xbf16>, %s: index)
    -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v kv_splits(%s)
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}

// -----

// One kv split is the unsplit attention: the usual three-dimensional forall,
// no partials.
// CHECK-LABEL: func.func @one_kv_split(
// CHECK:         scf.forall (%{{[^,]*}}, %{{[^,]*}}, %{{[^)]*}}) in
// CHECK-NOT:     attn.combine_splits
// CHECK:         return
func.func @one_kv_split(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                        %v: tensor<2x2x?x64xbf16>) -> tensor<2x8x?x64xbf16> {
  %one = arith.constant 1 : index
  %o = attn.attention %q, %k, %v kv_splits(%one)
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>
  return %o : tensor<2x8x?x64xbf16>
}

// -----

// A paged KV cache: each tile reads its sequence's cache length, and K and
// V come from the page pools through the block table, up to that length;
// the kv range and the masks take the length as Nk.
// CHECK-LABEL: func.func @paged(
// CHECK-SAME:      %[[Q:[^:]+]]: tensor<2x8x?x64xbf16>, %[[K:[^:]+]]: tensor<?x16x2x64xbf16>, %[[V:[^:]+]]: tensor<?x16x2x64xbf16>, %[[TABLE:[^:]+]]: tensor<2x?xi32>, %[[LENGTHS:[^:]+]]: tensor<2xi32>)
// CHECK:         scf.forall (%[[B:[^,]*]], %[[H:[^,]*]], %{{[^)]*}}) in
// CHECK:           %[[KVH:.*]] = arith.divui %[[H]], %c4
// CHECK:           %[[LEN32:.*]] = tensor.extract %[[LENGTHS]][%[[B]]] : tensor<2xi32>
// CHECK:           %[[LEN:.*]] = arith.index_cast %[[LEN32]] : i32 to index
// CHECK:           %[[BLOCKS:.*]] = arith.ceildivsi %[[LEN]], %c32
// CHECK:           scf.for
// CHECK:             attn.load_paged_tile %[[K]][%[[B]], %[[KVH]], %{{.*}}] pages %[[TABLE]] length %[[LEN]] : tensor<?x16x2x64xbf16>, tensor<2x?xi32> -> tensor<32x64xbf16>
// CHECK:             attn.mask {{.*}} seq_k %[[LEN]] {{.*}}kind = causal_bottom_right
// CHECK:           attn.load_paged_tile %[[V]][%[[B]], %[[KVH]], %{{.*}}] pages %[[TABLE]] length %[[LEN]]
// CHECK-NOT:       attn.load_tile %[[K]]
// CHECK-NOT:       attn.load_tile %[[V]]
func.func @paged(%q: tensor<2x8x?x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                 %v: tensor<?x16x2x64xbf16>, %table: tensor<2x?xi32>,
                 %lengths: tensor<2xi32>) -> tensor<2x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<2x?xi32>, tensor<2xi32>)
      : tensor<2x8x?x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16>
      -> tensor<2x8x?x64xbf16>
  return %o : tensor<2x8x?x64xbf16>
}

// -----

// A varlen batch: the tiles of every head are the sequences' query blocks
// one after the other, attn.sequence_tile mapping a linear tile to its
// sequence and query block; ceil(total / 64) + B tiles bound them (the
// extra ones run past the last sequence's rows). Each tile reads its
// sequence's rows of the packed Q, K and V with attn.load_varlen_tile,
// takes the sequence's lengths as Nq and Nk (a block past them runs no kv
// block) and stores at the sequence's rows of the packed O and LSE.
// CHECK-LABEL: func.func @varlen(
// CHECK-SAME:      %[[Q:[^:]+]]: tensor<1x?x8x64xbf16>, %[[K:[^:]+]]: tensor<1x?x2x64xbf16>, %[[V:[^:]+]]: tensor<1x?x2x64xbf16>, %[[CUQ:[^:]+]]: tensor<?xi32>, %[[CUK:[^:]+]]: tensor<?xi32>)
// CHECK:         %[[OFFSETS:.*]] = tensor.dim %[[CUQ]], %c0
// CHECK:         %[[SEQS:.*]] = arith.subi %[[OFFSETS]], %c1
// CHECK:         %[[TOTAL:.*]] = tensor.dim %[[Q]], %c1
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivsi %[[TOTAL]], %c64
// CHECK:         %[[TILES:.*]] = arith.addi %[[BLOCKS]], %[[SEQS]]
// CHECK:         scf.forall (%{{[^,]*}}, %[[H:[^,]*]], %[[T:[^)]*]]) in (1, 8, %[[TILES]])
// CHECK:           %[[S:.*]], %[[QB:.*]] = attn.sequence_tile %[[CUQ]][%[[T]]] block_m = 64 : tensor<?xi32>
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]], %c64
// CHECK:           %[[NEXT:.*]] = arith.addi %[[S]], %c1
// CHECK:           %[[QB32:.*]] = tensor.extract %[[CUQ]][%[[S]]]
// CHECK:           %[[QBEGIN:.*]] = arith.index_cast %[[QB32]]
// CHECK:           %[[QE32:.*]] = tensor.extract %[[CUQ]][%[[NEXT]]]
// CHECK:           %[[QEND:.*]] = arith.index_cast %[[QE32]]
// CHECK:           %[[KB32:.*]] = tensor.extract %[[CUK]][%[[S]]]
// CHECK:           %[[KBEGIN:.*]] = arith.index_cast %[[KB32]]
// CHECK:           %[[KE32:.*]] = tensor.extract %[[CUK]][%[[NEXT]]]
// CHECK:           %[[KEND:.*]] = arith.index_cast %[[KE32]]
// CHECK:           %[[NQ:.*]] = arith.subi %[[QEND]], %[[QBEGIN]]
// CHECK:           %[[NK:.*]] = arith.subi %[[KEND]], %[[KBEGIN]]
// CHECK:           attn.load_varlen_tile %[[Q]][%[[H]], %[[ROW]]] rows %[[QBEGIN]] to %[[QEND]] layout = bshd : tensor<1x?x8x64xbf16> -> tensor<64x64xbf16>
// CHECK:           %[[INSIDE:.*]] = arith.cmpi slt, %[[ROW]], %[[NQ]]
// CHECK:           %[[RANGE_NK:.*]] = arith.select %[[INSIDE]], %[[NK]], %c0
// CHECK:           arith.ceildivsi %[[RANGE_NK]], %c32
// CHECK:           scf.for
// CHECK:             attn.load_varlen_tile %[[K]][%{{.*}}, %{{.*}}] rows %[[KBEGIN]] to %[[KEND]] layout = bshd
// CHECK:             attn.mask {{.*}} seq_q %[[NQ]] seq_k %[[NK]] kind = causal_bottom_right
// CHECK:           attn.load_varlen_tile %[[V]][%{{.*}}, %{{.*}}] rows %[[KBEGIN]] to %[[KEND]] layout = bshd
// CHECK:           %[[ROWS:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK:           %[[OUT_ROW:.*]] = arith.addi %[[QBEGIN]], %[[ROW]]
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[ZERO:.*]], %[[OUT_ROW]], %[[H]], 0] [1, %[[ROWS]], 1, 64]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[ZERO]], %[[H]], %[[OUT_ROW]]] [1, 1, %[[ROWS]]]
func.func @varlen(%q: tensor<1x?x8x64xbf16>, %k: tensor<1x?x2x64xbf16>,
                  %v: tensor<1x?x2x64xbf16>, %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>)
    -> (tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x8x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>
      -> tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
  return %o, %lse : tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
}

// -----

// A varlen batch of packed query heads (g = 4 rows a token): the offsets
// count tokens, so the scheduler's blocks are 64 / 4 = 16 tokens and the
// sequence's rows are its offsets times 4; the mask sees Nq / 4 positions.
// CHECK-LABEL: func.func @varlen_packed(
// CHECK-SAME:      %[[Q:[^:]+]]: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 4 : i64}, %{{[^:]+}}: tensor<1x?x2x64xbf16>, %{{[^:]+}}: tensor<1x?x2x64xbf16>, %[[CUQ:[^:]+]]: tensor<?xi32>, %[[CUK:[^:]+]]: tensor<?xi32>)
// CHECK:         scf.forall (%{{[^,]*}}, %[[H:[^,]*]], %[[T:[^)]*]]) in (1, 2, %{{.*}})
// CHECK:           %[[S:.*]], %[[QB:.*]] = attn.sequence_tile %[[CUQ]][%[[T]]] block_m = 16 : tensor<?xi32>
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]], %c64
// CHECK:           %[[NEXT:.*]] = arith.addi %[[S]], %c1
// CHECK:           %[[QB32:.*]] = tensor.extract %[[CUQ]][%[[S]]]
// CHECK:           %[[QBT:.*]] = arith.index_cast %[[QB32]]
// CHECK:           %[[QBEGIN:.*]] = arith.muli %[[QBT]], %c4
// CHECK:           %[[QE32:.*]] = tensor.extract %[[CUQ]][%[[NEXT]]]
// CHECK:           %[[QET:.*]] = arith.index_cast %[[QE32]]
// CHECK:           %[[QEND:.*]] = arith.muli %[[QET]], %c4
// CHECK:           %[[NQ:.*]] = arith.subi %[[QEND]], %[[QBEGIN]]
// CHECK:           %[[TOKENS:.*]] = arith.divui %[[NQ]], %c4
// CHECK:           attn.load_varlen_tile %[[Q]][%[[H]], %[[ROW]]] rows %[[QBEGIN]] to %[[QEND]] layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
// CHECK:           scf.for
// CHECK:             attn.mask {{.*}} seq_q %[[TOKENS]] seq_k %{{.*}} kind = causal_bottom_right packed_query_heads = 4
// CHECK:           %[[OUT_ROW:.*]] = arith.addi %[[QBEGIN]], %[[ROW]]
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %[[OUT_ROW]], %[[H]], 0]
func.func @varlen_packed(%q: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 4 : i64},
                         %k: tensor<1x?x2x64xbf16>, %v: tensor<1x?x2x64xbf16>,
                         %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>)
    -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      packed_query_heads = 4 varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>
      -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}

// -----

// Packed query heads (4 per head, token-major): the masks see Nq = rows / 4
// and take each row at query position row / 4 (packed_query_heads); the kv
// range is that of the block's positions, one run from row / 4 to
// min((row + 63) / 4, Nq - 1).
// CHECK-LABEL: func.func @packed_causal(
// CHECK:         %[[ROWS:.*]] = tensor.dim %{{.*}}, %c2
// CHECK:         scf.forall
// CHECK:           %[[ROW:.*]] = arith.muli %{{.*}}, %c64
// CHECK:           %[[NQ:.*]] = arith.divui %[[ROWS]], %c4
// CHECK:           %[[LAST:.*]] = arith.addi %[[ROW]], %c63
// CHECK:           %[[FIRST_POS:.*]] = arith.divui %[[ROW]], %c4
// CHECK:           %[[LAST_POS_ALL:.*]] = arith.divui %[[LAST]], %c4
// CHECK:           %[[LAST_POS:.*]] = arith.minsi %[[LAST_POS_ALL]], %{{.*}}
// CHECK-NOT:       arith.remui
// CHECK:           attn.mask %{{.*}} rows %[[ROW]] cols %{{.*}} seq_q %[[NQ]] seq_k %{{.*}} kind = causal_bottom_right packed_query_heads = 4
func.func @packed_causal(%q: tensor<?x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                         %v: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x2x?x64xbf16>
  return %o : tensor<?x2x?x64xbf16>
}
