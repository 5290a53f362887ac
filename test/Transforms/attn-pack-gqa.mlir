// RUN: attnc-opt %s -split-input-file --attn-pack-gqa | FileCheck %s --check-prefixes=CHECK,MASKED
// Packing is idempotent: a packed attention has as many query heads as kv
// heads (and records its packing).
// RUN: attnc-opt %s -split-input-file --attn-pack-gqa --attn-pack-gqa | FileCheck %s --check-prefixes=CHECK,MASKED
// Without masked attentions (pack-gqa=unmasked).
// RUN: attnc-opt %s -split-input-file --attn-pack-gqa=masked-row-limit=0 | FileCheck %s --check-prefixes=CHECK,UNMASKED
// Masked ones of at most 16 static packed rows (pack-gqa=auto takes any):
// a decode step is packed, a dynamic Nq is not.
// RUN: attnc-opt %s -split-input-file --attn-pack-gqa=masked-row-limit=16 | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: not attnc-opt %s -split-input-file --attn-pack-gqa=masked-row-limit=-2 2>&1 | FileCheck %s --check-prefix=BAD-LIMIT
// BAD-LIMIT: error: attn-pack-gqa: masked-row-limit must be -1 (any), 0 (no masked attention) or a row count, got -2

// GQA 32:8 without a mask: the 4 query heads of each kv head become one head
// of 4 * Nq rows. Q, O and the LSE change type in the signature and on the
// attention; K and V keep theirs; the Q argument records the group.
// CHECK-LABEL: func.func @gqa_dynamic
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
// CHECK-SAME:     %[[K:[a-z0-9_]+]]: tensor<?x8x?x128xbf16>, %[[V:[a-z0-9_]+]]: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> (tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>)
// CHECK:         %[[O:[a-z0-9_]+]], %[[LSE:[a-z0-9_]+]] = attn.attention %[[Q]], %[[K]], %[[V]] packed_query_heads = {{[0-9]+}} :
// CHECK-SAME:      tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
// CHECK-SAME:      -> tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
// CHECK:         return %[[O]], %[[LSE]] : tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
func.func @gqa_dynamic(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                       %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
}

// -----

// A static decode step (Nq = 1): one row per query head, 4 rows per packed
// head; the batch and the kv length stay as they are.
// CHECK-LABEL: func.func @gqa_decode_static
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<2x8x4x128xbf16> {attn.packed_query_heads = 4 : i64},
// CHECK-SAME:     %[[K:[a-z0-9_]+]]: tensor<2x8x4096x128xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x8x4096x128xbf16>)
// CHECK-SAME:    -> (tensor<2x8x4x128xbf16>, tensor<2x8x4xf32>)
// CHECK:         %[[O:[a-z0-9_]+]], %[[LSE:[a-z0-9_]+]] = attn.attention %[[Q]], %[[K]], %[[V]] scale = 1.250000e-01 packed_query_heads = 4 :
// CHECK-SAME:      -> tensor<2x8x4x128xbf16>, tensor<2x8x4xf32>
// CHECK:         return %[[O]], %[[LSE]] : tensor<2x8x4x128xbf16>, tensor<2x8x4xf32>
func.func @gqa_decode_static(%q: tensor<2x32x1x128xbf16>, %k: tensor<2x8x4096x128xbf16>,
                             %v: tensor<2x8x4096x128xbf16>)
    -> (tensor<2x32x1x128xbf16>, tensor<2x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v scale = 0.125
      : tensor<2x32x1x128xbf16>, tensor<2x8x4096x128xbf16>, tensor<2x8x4096x128xbf16>
      -> tensor<2x32x1x128xbf16>, tensor<2x32x1xf32>
  return %o, %lse : tensor<2x32x1x128xbf16>, tensor<2x32x1xf32>
}

// -----

// Several static query rows: 4 heads x 3 tokens are 12 rows; without an LSE
// the function has one result. A value head dim other than D follows O.
// CHECK-LABEL: func.func @gqa_static_rows
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<1x2x12x64xf16> {attn.packed_query_heads = 4 : i64},
// CHECK-SAME:     %[[K:[a-z0-9_]+]]: tensor<1x2x?x64xf16>, %[[V:[a-z0-9_]+]]: tensor<1x2x?x32xf16>)
// CHECK-SAME:    -> tensor<1x2x12x32xf16>
// CHECK:         %[[O:[a-z0-9_]+]] = attn.attention %[[Q]], %[[K]], %[[V]] packed_query_heads = {{[0-9]+}} :
// CHECK-SAME:      -> tensor<1x2x12x32xf16>
// CHECK:         return %[[O]] : tensor<1x2x12x32xf16>
func.func @gqa_static_rows(%q: tensor<1x8x3x64xf16>, %k: tensor<1x2x?x64xf16>,
                           %v: tensor<1x2x?x32xf16>) -> tensor<1x8x3x32xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x8x3x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x32xf16>
      -> tensor<1x8x3x32xf16>
  return %o : tensor<1x8x3x32xf16>
}

// -----

// MQA 32:1: all 32 query heads in one head of 32 * Nq rows.
// CHECK-LABEL: func.func @mqa
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<?x1x?x128xbf16> {attn.packed_query_heads = 32 : i64},
// CHECK-SAME:     %[[K:[a-z0-9_]+]]: tensor<?x1x?x128xbf16>, %[[V:[a-z0-9_]+]]: tensor<?x1x?x128xbf16>)
// CHECK-SAME:    -> (tensor<?x1x?x128xbf16>, tensor<?x1x?xf32>)
// CHECK:         %[[O:[a-z0-9_]+]], %[[LSE:[a-z0-9_]+]] = attn.attention %[[Q]], %[[K]], %[[V]] packed_query_heads = {{[0-9]+}} :
// CHECK-SAME:      -> tensor<?x1x?x128xbf16>, tensor<?x1x?xf32>
// CHECK:         return %[[O]], %[[LSE]]
func.func @mqa(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x1x?x128xbf16>,
               %v: tensor<?x1x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x1x?x128xbf16>, tensor<?x1x?x128xbf16>
      -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
}

// -----

// kv_splits is a schedule of the same problem: the split count stays, and
// its argument keeps its type; so does a scale argument.
// CHECK-LABEL: func.func @kv_splits
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
// CHECK-SAME:     %[[K:[a-z0-9_]+]]: tensor<?x8x?x128xbf16>, %[[V:[a-z0-9_]+]]: tensor<?x8x?x128xbf16>,
// CHECK-SAME:     %[[S:[a-z0-9_]+]]: f32 {attn.scale = 1.250000e-01 : f32}, %[[N:[a-z0-9_]+]]: index)
// CHECK-SAME:    -> tensor<?x8x?x128xbf16>
// CHECK:         %[[O:[a-z0-9_]+]] = attn.attention %[[Q]], %[[K]], %[[V]] scale_value(%[[S]]) packed_query_heads = 4 kv_splits(%[[N]]) :
// CHECK-SAME:      -> tensor<?x8x?x128xbf16>
// CHECK:         return %[[O]]
func.func @kv_splits(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                     %v: tensor<?x8x?x128xbf16>, %s: f32 {attn.scale = 0.125 : f32},
                     %n: index) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v scale_value(%s) kv_splits(%n)
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

// -----

// Two attentions of one function, each with a Q of its own, are packed
// each with its group; the returned values may be in any order.
// CHECK-LABEL: func.func @two
// CHECK-SAME:    (%[[Q0:[a-z0-9_]+]]: tensor<?x8x?x64xbf16> {attn.packed_query_heads = 2 : i64},
// CHECK-SAME:     %[[Q1:[a-z0-9_]+]]: tensor<?x2x?x64xbf16> {attn.packed_query_heads = 8 : i64},
// CHECK-SAME:     %[[K0:[a-z0-9_]+]]: tensor<?x8x?x64xbf16>, %[[K1:[a-z0-9_]+]]: tensor<?x2x?x64xbf16>)
// CHECK-SAME:    -> (tensor<?x2x?x64xbf16>, tensor<?x8x?x64xbf16>)
// CHECK:         %[[O0:[a-z0-9_]+]] = attn.attention %[[Q0]], %[[K0]], %[[K0]] packed_query_heads = 2 :
// CHECK:         %[[O1:[a-z0-9_]+]] = attn.attention %[[Q1]], %[[K1]], %[[K1]] packed_query_heads = 8 :
// CHECK:         return %[[O1]], %[[O0]] : tensor<?x2x?x64xbf16>, tensor<?x8x?x64xbf16>
func.func @two(%q0: tensor<?x16x?x64xbf16>, %q1: tensor<?x16x?x64xbf16>,
               %k0: tensor<?x8x?x64xbf16>, %k1: tensor<?x2x?x64xbf16>)
    -> (tensor<?x16x?x64xbf16>, tensor<?x16x?x64xbf16>) {
  %o0 = attn.attention %q0, %k0, %k0
      : tensor<?x16x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>
      -> tensor<?x16x?x64xbf16>
  %o1 = attn.attention %q1, %k1, %k1
      : tensor<?x16x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
      -> tensor<?x16x?x64xbf16>
  return %o1, %o0 : tensor<?x16x?x64xbf16>, tensor<?x16x?x64xbf16>
}

// -----

// A mask sees a packed row at its query position (packed_query_heads on
// the attention): causal, bottom-right causal decode and a window are
// packed, unless masked-row-limit says otherwise.
// CHECK-LABEL: func.func @causal
// MASKED-SAME:     (%[[Q:[a-z0-9_]+]]: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64}
// MASKED:          attn.attention %[[Q]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask = causal packed_query_heads = 4 :
// MASKED-SAME:       -> tensor<?x8x?x128xbf16>
// UNMASKED-SAME:   (%[[Q:[a-z0-9_]+]]: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// UNMASKED-NOT:    packed_query_heads
// UNMASKED:        attn.attention %[[Q]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask = causal :
// UNMASKED-SAME:     -> tensor<?x32x?x128xbf16>
// AUTO-SAME:   (%[[Q:[a-z0-9_]+]]: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// AUTO-NOT:    packed_query_heads
// AUTO:        attn.attention %[[Q]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask = causal :
// AUTO-SAME:     -> tensor<?x32x?x128xbf16>
func.func @causal(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                  %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

// -----

// CHECK-LABEL: func.func @causal_bottom_right_decode
// MASKED-SAME:     (%{{[a-z0-9_]+}}: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64}
// MASKED:          attn.attention {{.*}} mask = causal_bottom_right packed_query_heads = 4 :
// UNMASKED-SAME:   (%{{[a-z0-9_]+}}: tensor<?x32x1x128xbf16>,
// UNMASKED-NOT:    packed_query_heads
// AUTO-SAME:     (%{{[a-z0-9_]+}}: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64}
// AUTO:          attn.attention {{.*}} mask = causal_bottom_right packed_query_heads = 4 :
func.func @causal_bottom_right_decode(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                                      %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x1x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x1x128xbf16>
  return %o : tensor<?x32x1x128xbf16>
}

// -----

// CHECK-LABEL: func.func @window
// MASKED-SAME:     (%{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64}
// MASKED:          attn.attention {{.*}} window = [16, 16] packed_query_heads = 4 :
// UNMASKED-SAME:   (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>,
// UNMASKED-NOT:    packed_query_heads
// UNMASKED:        attn.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} window = [16, 16] :
// AUTO-SAME:   (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>,
// AUTO-NOT:    packed_query_heads
// AUTO:        attn.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} window = [16, 16] :
func.func @window(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                  %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v window = [16, 16]
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

// A BSHD decode step of static Nq = 1 (vLLM's [B, 1, Hq, D]): each kv head's
// query heads are one run of rows, [B, 4, 8, 128]; the LSE is [B, 8, 4].
// CHECK-LABEL: func.func @bshd_decode
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x4x8x128xbf16> {attn.packed_query_heads = 4 : i64}
// CHECK-SAME:    -> (tensor<?x4x8x128xbf16>, tensor<?x8x4xf32>)
// CHECK:         attn.attention {{.*}} layout = bshd packed_query_heads = 4 :
func.func @bshd_decode(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                       %v: tensor<?x?x8x128xbf16>) -> (tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v layout = bshd
      : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
}

// -----

// A BSHD Q of any Nq packs too: its packed rows are a token-major view.
// CHECK-LABEL: func.func @bshd
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x?x8x128xbf16> {attn.packed_query_heads = 4 : i64}
// CHECK-SAME:    -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>)
// CHECK:         attn.attention {{.*}} layout = bshd packed_query_heads = 4 :
func.func @bshd(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v layout = bshd
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// GQA 12:2 (g = 6) of one token: packed, [B, 2, 6, 128].
// CHECK-LABEL: func.func @group_of_six_decode
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x2x6x128xbf16> {attn.packed_query_heads = 6 : i64}
func.func @group_of_six_decode(%q: tensor<?x12x1x128xbf16>, %k: tensor<?x2x?x128xbf16>,
                               %v: tensor<?x2x?x128xbf16>) -> tensor<?x12x1x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x12x1x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>
      -> tensor<?x12x1x128xbf16>
  return %o : tensor<?x12x1x128xbf16>
}

// -----

// A varlen batch (chunked prefill's bottom-right causal mask, BSHD with its
// LSE): [1, total * 4, 8, 128] packed rows, the offsets still in tokens.
// CHECK-LABEL: func.func @varlen
// MASKED-SAME:     (%[[Q:[a-z0-9_]+]]: tensor<1x?x8x128xbf16> {attn.packed_query_heads = 4 : i64}
// MASKED-SAME:     %[[CQ:[a-z0-9_]+]]: tensor<?xi32>, %[[CK:[a-z0-9_]+]]: tensor<?xi32>)
// MASKED-SAME:     -> (tensor<1x?x8x128xbf16>, tensor<1x8x?xf32>)
// MASKED:          attn.attention %[[Q]], {{.*}} packed_query_heads = 4 varlen(%[[CQ]], %[[CK]] :
// UNMASKED-SAME:   (%{{[a-z0-9_]+}}: tensor<1x?x32x128xbf16>,
// UNMASKED-NOT:    packed_query_heads
// AUTO-SAME:       (%{{[a-z0-9_]+}}: tensor<1x?x32x128xbf16>,
// AUTO-NOT:        packed_query_heads
func.func @varlen(%q: tensor<1x?x32x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                  %v: tensor<1x?x8x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>)
    -> (tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x32x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
  return %o, %lse : tensor<1x?x32x128xbf16>, tensor<1x32x?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Attentions left as they are
//===----------------------------------------------------------------------===//

// g = 6 does not divide a warpgroup's 64 rows, whose TMA box of O holds
// whole tokens: a dynamic Nq is left alone (one token is packed: above).
// CHECK-LABEL: func.func @group_of_six
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x12x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x2x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x2x?x128xbf16>)
// CHECK-NOT:     attn.packed_query_heads
func.func @group_of_six(%q: tensor<?x12x?x128xbf16>, %k: tensor<?x2x?x128xbf16>,
                        %v: tensor<?x2x?x128xbf16>) -> tensor<?x12x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x12x?x128xbf16>, tensor<?x2x?x128xbf16>, tensor<?x2x?x128xbf16>
      -> tensor<?x12x?x128xbf16>
  return %o : tensor<?x12x?x128xbf16>
}

// -----

// A varlen Q of one token in all is still a batch of sequences, whose tiles
// hold whole tokens: g = 6 is left alone.
// CHECK-LABEL: func.func @varlen_group_of_six
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<1x12x1x128xbf16>,
// CHECK-NOT:     attn.packed_query_heads
func.func @varlen_group_of_six(%q: tensor<1x12x1x128xbf16>, %k: tensor<1x2x?x128xbf16>,
                               %v: tensor<1x2x?x128xbf16>, %cq: tensor<?xi32>,
                               %ck: tensor<?xi32>) -> tensor<1x12x1x128xbf16> {
  %o = attn.attention %q, %k, %v varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x12x1x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
      -> tensor<1x12x1x128xbf16>
  return %o : tensor<1x12x1x128xbf16>
}

// -----

// MHA (Hq == Hkv): nothing to pack.
// CHECK-LABEL: func.func @mha
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> tensor<?x8x?x128xbf16>
// CHECK-NOT:     attn.packed_query_heads
func.func @mha(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
               %v: tensor<?x8x?x128xbf16>) -> tensor<?x8x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

// Q computed in the function is not a view of the caller's tensor.
// CHECK-LABEL: func.func @q_not_argument
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<1x32x4x128xbf16>, %{{[a-z0-9_]+}}: tensor<1x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<1x8x?x128xbf16>)
// CHECK-SAME:    -> tensor<1x32x4x128xbf16>
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         %[[Q:[a-z0-9_]+]] = tensor.extract_slice
// CHECK:         attn.attention %[[Q]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} :
// CHECK-SAME:      tensor<1x32x1x128xbf16>
// CHECK-SAME:      -> tensor<1x32x1x128xbf16>
func.func @q_not_argument(%x: tensor<1x32x4x128xbf16>, %k: tensor<1x8x?x128xbf16>,
                          %v: tensor<1x8x?x128xbf16>) -> tensor<1x32x4x128xbf16> {
  %q = tensor.extract_slice %x[0, 0, 3, 0] [1, 32, 1, 128] [1, 1, 1, 1]
      : tensor<1x32x4x128xbf16> to tensor<1x32x1x128xbf16>
  %o = attn.attention %q, %k, %v
      : tensor<1x32x1x128xbf16>, tensor<1x8x?x128xbf16>, tensor<1x8x?x128xbf16>
      -> tensor<1x32x1x128xbf16>
  %r = tensor.insert_slice %o into %x[0, 0, 3, 0] [1, 32, 1, 128] [1, 1, 1, 1]
      : tensor<1x32x1x128xbf16> into tensor<1x32x4x128xbf16>
  return %r : tensor<1x32x4x128xbf16>
}

// -----

// A Q argument with another use (here: returned as well) keeps its type.
// CHECK-LABEL: func.func @q_other_use
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?x128xbf16>)
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         %[[O:[a-z0-9_]+]] = attn.attention %[[Q]]
// CHECK-SAME:      -> tensor<?x32x?x128xbf16>
// CHECK:         return %[[O]], %[[Q]]
func.func @q_other_use(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                       %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?x128xbf16>) {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o, %q : tensor<?x32x?x128xbf16>, tensor<?x32x?x128xbf16>
}

// -----

// Two attentions reading one Q: neither is packed (Q has two uses).
// CHECK-LABEL: func.func @q_shared
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>,
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         attn.attention {{.*}} -> tensor<?x32x?x128xbf16>
// CHECK:         attn.attention {{.*}} -> tensor<?x32x?x128xbf16>
func.func @q_shared(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                    %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?x128xbf16>) {
  %o0 = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  %o1 = attn.attention %q, %k, %v scale = 0.5
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o0, %o1 : tensor<?x32x?x128xbf16>, tensor<?x32x?x128xbf16>
}

// -----

// A result with a user other than the return (the LSE here) would need
// the caller's layout: the attention is left alone, O included.
// CHECK-LABEL: func.func @result_other_user
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>)
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         %[[O:[a-z0-9_]+]], %[[LSE:[a-z0-9_]+]] = attn.attention
// CHECK-SAME:      -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
// CHECK:         %[[EXP:[a-z0-9_]+]] = math.exp %[[LSE]] : tensor<?x32x?xf32>
// CHECK:         return %[[O]], %[[EXP]]
func.func @result_other_user(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                             %v: tensor<?x8x?x128xbf16>)
    -> (tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
  %e = math.exp %lse : tensor<?x32x?xf32>
  return %o, %e : tensor<?x32x?x128xbf16>, tensor<?x32x?xf32>
}

// -----

// A called function keeps its signature (its callers would break), and its
// caller's attention is packed only if the caller's Q is its own argument.
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> tensor<?x32x?x128xbf16>
// CHECK:         call @callee
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>)
// CHECK-SAME:    -> tensor<?x32x?x128xbf16>
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         attn.attention {{.*}} -> tensor<?x32x?x128xbf16>
func.func @caller(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                  %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = func.call @callee(%q, %k, %v)
      : (tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>)
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}
func.func private @callee(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                          %v: tensor<?x8x?x128xbf16>) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

// -----

// A function of several blocks: another return would keep the caller's
// result type, so the attention is left alone.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME:    (%{{[a-z0-9_]+}}: tensor<?x32x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>, %{{[a-z0-9_]+}}: tensor<?x8x?x128xbf16>,
// CHECK-SAME:    -> tensor<?x32x?x128xbf16>
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         attn.attention {{.*}} -> tensor<?x32x?x128xbf16>
func.func @blocks(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                  %v: tensor<?x8x?x128xbf16>, %other: tensor<?x32x?x128xbf16>,
                  %c: i1) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x32x?x128xbf16>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %o : tensor<?x32x?x128xbf16>
^bb2:
  return %other : tensor<?x32x?x128xbf16>
}

// -----

// A paged KV cache packs as a dense one: its kv heads are the pools' dim 2.
// CHECK-LABEL: func.func @paged(
// CHECK-SAME:      %{{[^:]+}}: tensor<?x8x4x64xbf16> {attn.packed_query_heads = 4 : i64}
// CHECK-SAME:      -> tensor<?x8x4x64xbf16>
func.func @paged(%q: tensor<?x32x1x64xbf16>, %k: tensor<?x16x8x64xbf16>,
                 %v: tensor<?x16x8x64xbf16>, %table: tensor<?x?xi32>,
                 %lengths: tensor<?xi32>) -> tensor<?x32x1x64xbf16> {
  %o = attn.attention %q, %k, %v
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x32x1x64xbf16>, tensor<?x16x8x64xbf16>, tensor<?x16x8x64xbf16>
      -> tensor<?x32x1x64xbf16>
  return %o : tensor<?x32x1x64xbf16>
}

// -----

// 2^30 static queries of 4 heads a kv head would pack into 2^32 rows, past
// the kernels' i32 lengths (and 2^62 into an int64 overflow): such an
// attention stays unpacked, and the length checks see the caller's Nq.
// CHECK-LABEL: func.func @rows_past_i32(
// CHECK-SAME:      %{{[^:]+}}: tensor<1x8x1073741824x64xbf16>,
// CHECK-NOT:     attn.packed_query_heads
// CHECK:         attn.attention %{{.*}} : tensor<1x8x1073741824x64xbf16>,
func.func @rows_past_i32(%q: tensor<1x8x1073741824x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                         %v: tensor<1x2x?x64xbf16>) -> tensor<1x8x1073741824x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x8x1073741824x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x8x1073741824x64xbf16>
  return %o : tensor<1x8x1073741824x64xbf16>
}
