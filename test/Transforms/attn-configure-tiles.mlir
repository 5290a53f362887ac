// RUN: attnc-opt %s -split-input-file --attn-configure-tiles | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-configure-tiles="block-m=128" | FileCheck %s --check-prefix=OPTION
// RUN: attnc-opt %s -split-input-file --attn-configure-tiles="target=generic" | FileCheck %s --check-prefix=GENERIC
// RUN: not attnc-opt %s -split-input-file --attn-configure-tiles="block-n=-8" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not attnc-opt %s -split-input-file --attn-configure-tiles="block-n=100000" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not attnc-opt %s -split-input-file --attn-configure-tiles="target=sm_80" 2>&1 | FileCheck %s --check-prefix=TARGET

// BAD: error: attn-configure-tiles: block-n must be 0 (the target's table) or a tile size of at most 1024, got -8
// A tile's f32 score tile is at most 1024 x 1024 (the tile_sizes rule).
// HUGE: error: attn-configure-tiles: block-n must be 0 (the target's table) or a tile size of at most 1024, got 100000
// A target without a tile table is refused, not given the generic one.
// TARGET: error: attn-configure-tiles: target must be one of sm_90a, sm_90a-fa3, generic (the tile tables; every kernel is sm_90a code), got 'sm_80'

// A decode step (4 packed query rows per kv head, attn-pack-gqa): its rows
// fill one 64-row warpgroup, so the sm_90a table's 128-row tile shrinks to
// 64, and at D = 128 such a tile streams 64-key blocks. At D = 64 the kv
// tile stays the table's 128, and so does a D = 128 tile of two
// warpgroups (68 packed rows) and one of block-m=128 (an explicit block-m
// wins over the table, and its block_n is the table's for that block_m).
// CHECK-LABEL: func.func @decode(
// CHECK:         attn.attention {{.*}} tile_sizes = [64, 64]
// CHECK:         attn.attention {{.*}} tile_sizes = [64, 128]
// CHECK:         attn.attention {{.*}} tile_sizes = [128, 128]
// OPTION-LABEL: func.func @decode(
// OPTION:         tile_sizes = [128, 128]
// OPTION:         tile_sizes = [128, 128]
// OPTION:         tile_sizes = [128, 128]
// OPTION-LABEL: func.func @paged_decode(
// GENERIC-LABEL: func.func @decode(
// GENERIC-COUNT-3: tile_sizes = [64, 64]
// GENERIC-LABEL: func.func @paged_decode(
func.func @decode(%q: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64},
                  %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>,
                  %q64: tensor<?x8x4x64xbf16> {attn.packed_query_heads = 4 : i64},
                  %k64: tensor<?x8x?x64xbf16>, %v64: tensor<?x8x?x64xbf16>,
                  %q68: tensor<?x8x68x128xbf16> {attn.packed_query_heads = 4 : i64})
    -> (tensor<?x8x4x128xbf16>, tensor<?x8x4x64xbf16>, tensor<?x8x68x128xbf16>) {
  %o = attn.attention %q, %k, %v packed_query_heads = 4
      : tensor<?x8x4x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x8x4x128xbf16>
  %o64 = attn.attention %q64, %k64, %v64 packed_query_heads = 4
      : tensor<?x8x4x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x8x4x64xbf16>
  %o68 = attn.attention %q68, %k, %v packed_query_heads = 4
      : tensor<?x8x68x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x8x68x128xbf16>
  return %o, %o64, %o68 : tensor<?x8x4x128xbf16>, tensor<?x8x4x64xbf16>, tensor<?x8x68x128xbf16>
}

// -----

// A paged decode step's one-warpgroup tile keeps the table's 128-key blocks
// (its blocks are page parts; 64-key blocks were measured on dense caches).
// CHECK-LABEL: func.func @paged_decode(
// CHECK:         attn.attention {{.*}} tile_sizes = [64, 128]
func.func @paged_decode(%q: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64},
                        %k: tensor<?x16x8x128xbf16>, %v: tensor<?x16x8x128xbf16>,
                        %table: tensor<?x?xi32>, %lengths: tensor<?xi32>) -> tensor<?x8x4x128xbf16> {
  %o = attn.attention %q, %k, %v packed_query_heads = 4
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x4x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16> -> tensor<?x8x4x128xbf16>
  return %o : tensor<?x8x4x128xbf16>
}

// -----

// Dynamic query rows (a prefill, or a kernel for any length): the table's
// tile, 128 x 128 at D = 128 and 192 x 128 at D = 64; static rows at
// least the table's block_m change nothing either.
// CHECK-LABEL: func.func @prefill(
// CHECK:         attn.attention {{.*}} tile_sizes = [128, 128]
// CHECK:         attn.attention {{.*}} tile_sizes = [192, 128]
// CHECK:         attn.attention {{.*}} tile_sizes = [128, 128]
func.func @prefill(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>,
                   %q64: tensor<?x8x?x64xbf16>, %k64: tensor<?x8x?x64xbf16>, %v64: tensor<?x8x?x64xbf16>,
                   %qs: tensor<2x8x1000x128xbf16>, %ks: tensor<2x8x1000x128xbf16>, %vs: tensor<2x8x1000x128xbf16>)
    -> (tensor<?x8x?x128xbf16>, tensor<?x8x?x64xbf16>, tensor<2x8x1000x128xbf16>) {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x8x?x128xbf16>
  %o64 = attn.attention %q64, %k64, %v64
      : tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x8x?x64xbf16>
  %os = attn.attention %qs, %ks, %vs
      : tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16>, tensor<2x8x1000x128xbf16> -> tensor<2x8x1000x128xbf16>
  return %o, %o64, %os : tensor<?x8x?x128xbf16>, tensor<?x8x?x64xbf16>, tensor<2x8x1000x128xbf16>
}

// -----

// Static rows between warpgroups round up to whole ones: 100 rows at D = 64
// take two (128, not the table's 192); one BSHD token at D = 256 takes one
// (64 x 80). Tile sizes the op already has are kept.
// CHECK-LABEL: func.func @rows(
// CHECK:         attn.attention {{.*}} tile_sizes = [128, 128]
// CHECK:         attn.attention {{.*}} layout = bshd {{.*}}tile_sizes = [64, 80]
// CHECK:         attn.attention {{.*}} tile_sizes = [192, 64]
// CHECK-NOT:     tile_sizes
func.func @rows(%q: tensor<1x8x100x64xf16>, %k: tensor<1x8x?x64xf16>, %v: tensor<1x8x?x64xf16>,
                %qt: tensor<?x1x8x256xbf16>, %kt: tensor<?x?x8x256xbf16>, %vt: tensor<?x?x8x256xbf16>)
    -> (tensor<1x8x100x64xf16>, tensor<?x1x8x256xbf16>, tensor<1x8x100x64xf16>) {
  %o = attn.attention %q, %k, %v
      : tensor<1x8x100x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16> -> tensor<1x8x100x64xf16>
  %ot = attn.attention %qt, %kt, %vt layout = bshd
      : tensor<?x1x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x1x8x256xbf16>
  %ok = attn.attention %q, %k, %v tile_sizes = [192, 64]
      : tensor<1x8x100x64xf16>, tensor<1x8x?x64xf16>, tensor<1x8x?x64xf16> -> tensor<1x8x100x64xf16>
  return %o, %ot, %ok : tensor<1x8x100x64xf16>, tensor<?x1x8x256xbf16>, tensor<1x8x100x64xf16>
}
