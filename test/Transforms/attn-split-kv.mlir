// RUN: attnc-opt %s -split-input-file --attn-split-kv | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-split-kv="max-rows=-1" | FileCheck %s --check-prefix=ANY
// RUN: attnc-opt %s -split-input-file --attn-split-kv="dynamic-rows=true" | FileCheck %s --check-prefix=DYN
// RUN: attnc-opt %s -split-input-file --attn-split-kv="dynamic-rows=off" | FileCheck %s --check-prefix=OFF
// RUN: attnc-opt %s -split-input-file --attn-split-kv="target=generic" | FileCheck %s --check-prefix=OFF
// RUN: not attnc-opt %s -split-input-file --attn-split-kv="target=sm_80" 2>&1 | FileCheck %s --check-prefix=BAD-TARGET
// BAD-TARGET: error: attn-split-kv: target must be one of sm_90a, sm_90a-fa3, generic (the tile tables; every kernel is sm_90a code), got 'sm_80'
// RUN: not attnc-opt %s -split-input-file --attn-split-kv="max-rows=-5" 2>&1 | FileCheck %s --check-prefix=BAD-ROWS
// BAD-ROWS: error: attn-split-kv: max-rows must be -1 (any static count) or a row count, got -5

// A decode step (static Nq = 1): the function gets an index argument, the
// attention's kv_splits, which the kernel takes at launch.
// CHECK-LABEL: func.func @decode(
// CHECK-SAME:    %{{[^:]*}}: tensor<?x32x1x128xbf16>, %{{[^:]*}}: tensor<?x8x?x128xbf16>, %{{[^:]*}}: tensor<?x8x?x128xbf16>, %[[SPLITS:[^:]*]]: index)
// CHECK:         attn.attention %{{.*}} mask = causal_bottom_right kv_splits(%[[SPLITS]])
// OFF-LABEL:   func.func @decode(
// OFF-SAME:      %[[SPLITS:[^:]*]]: index)
// OFF:           kv_splits(%[[SPLITS]])
func.func @decode(%q: tensor<?x32x1x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>)
    -> tensor<?x32x1x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x32x1x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x32x1x128xbf16>
  return %o : tensor<?x32x1x128xbf16>
}

// -----

// Packed query heads (attn-pack-gqa ran first): 4 static rows per kv head.
// CHECK-LABEL: func.func @packed(
// CHECK-SAME:    %[[SPLITS:[^:]*]]: index)
// CHECK:         kv_splits(%[[SPLITS]])
// OFF-LABEL:   func.func @packed(
// OFF-SAME:      %[[SPLITS:[^:]*]]: index)
// OFF:           kv_splits(%[[SPLITS]])
func.func @packed(%q: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64},
                  %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>) -> tensor<?x8x4x128xbf16> {
  %o = attn.attention %q, %k, %v packed_query_heads = 4
      : tensor<?x8x4x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x8x4x128xbf16>
  return %o : tensor<?x8x4x128xbf16>
}

// -----

// A dynamic Nq (a prefill, or a kernel for any step) is split as
// dynamic-rows says: auto (the default) above D = 64 on the sm_90a table,
// never on the generic one; 256 static rows only with max-rows=-1; a split
// count already given is kept.
// CHECK-LABEL: func.func @prefill(
// CHECK-SAME:    %[[SPLITS:[^:]*]]: index)
// CHECK:         attn.attention %{{.*}} mask = causal kv_splits(%[[SPLITS]])
// ANY-LABEL:   func.func @prefill(
// ANY-SAME:      %[[SPLITS:[^:]*]]: index)
// DYN-LABEL:   func.func @prefill(
// DYN-SAME:      %[[SPLITS:[^:]*]]: index)
// DYN:           attn.attention %{{.*}} mask = causal kv_splits(%[[SPLITS]])
// OFF-LABEL:   func.func @prefill(
// OFF-SAME:      %{{[^:]*}}: tensor<?x8x?x128xbf16>) -> tensor
// OFF-NOT:       kv_splits
func.func @prefill(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>)
    -> tensor<?x8x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

// CHECK-LABEL: func.func @prefill_d64(
// CHECK-SAME:    %{{[^:]*}}: tensor<?x8x?x64xbf16>) -> tensor
// CHECK-NOT:     kv_splits
// ANY-LABEL:   func.func @prefill_d64(
// ANY-NOT:       kv_splits
// DYN-LABEL:   func.func @prefill_d64(
// DYN-SAME:      %[[SPLITS:[^:]*]]: index)
// DYN:           attn.attention %{{.*}} mask = causal kv_splits(%[[SPLITS]])
// OFF-LABEL:   func.func @prefill_d64(
// OFF-NOT:       kv_splits
func.func @prefill_d64(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x8x?x64xbf16>, %v: tensor<?x8x?x64xbf16>)
    -> tensor<?x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x8x?x64xbf16>
  return %o : tensor<?x8x?x64xbf16>
}

// -----

// CHECK-LABEL: func.func @chunk(
// CHECK-SAME:    %{{[^:]*}}: tensor<1x8x?x64xbf16>) -> tensor
// CHECK-NOT:     kv_splits
// DYN-LABEL:   func.func @chunk(
// DYN-SAME:      %{{[^:]*}}: tensor<1x8x?x64xbf16>) -> tensor
// DYN-NOT:       kv_splits
// OFF-LABEL:   func.func @chunk(
// OFF-NOT:       kv_splits
// ANY-LABEL:   func.func @chunk(
// ANY-SAME:      %[[SPLITS:[^:]*]]: index)
// ANY:           kv_splits(%[[SPLITS]])
func.func @chunk(%q: tensor<1x8x256x64xbf16>, %k: tensor<1x8x?x64xbf16>, %v: tensor<1x8x?x64xbf16>)
    -> tensor<1x8x256x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x8x256x64xbf16>, tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16> -> tensor<1x8x256x64xbf16>
  return %o : tensor<1x8x256x64xbf16>
}

// -----

// CHECK-LABEL: func.func @given(
// CHECK-SAME:    %[[N:[^:]*]]: index) -> tensor
// CHECK:         kv_splits(%[[N]])
// OFF-LABEL:   func.func @given(
// OFF-SAME:      %[[N:[^:]*]]: index) -> tensor
// OFF:           kv_splits(%[[N]])
// DYN-LABEL:   func.func @given(
// DYN-SAME:      %[[N:[^:]*]]: index) -> tensor
// DYN:           kv_splits(%[[N]])
func.func @given(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x8x?x64xbf16>, %v: tensor<?x8x?x64xbf16>, %n: index)
    -> tensor<?x8x1x64xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%n)
      : tensor<?x8x1x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

// A varlen batch's rows per sequence are known only at launch, whatever its
// static total: it is split as dynamic-rows says (auto: above D = 64), with
// one count for every sequence.
// CHECK-LABEL: func.func @varlen(
// CHECK-SAME:    %[[SPLITS:[^:]*]]: index)
// CHECK:         attn.attention %{{.*}} mask = causal_bottom_right kv_splits(%[[SPLITS]]) varlen(
// ANY-LABEL:   func.func @varlen(
// ANY-SAME:      %[[SPLITS:[^:]*]]: index)
// DYN-LABEL:   func.func @varlen(
// DYN-SAME:      %[[SPLITS:[^:]*]]: index)
// OFF-LABEL:   func.func @varlen(
// OFF-SAME:      %{{[^:]*}}: tensor<?xi32>) -> tensor
// OFF-NOT:       kv_splits
func.func @varlen(%q: tensor<1x8x4x128xbf16>, %k: tensor<1x2x?x128xbf16>,
                  %v: tensor<1x2x?x128xbf16>, %cu_q: tensor<?xi32>,
                  %cu_k: tensor<?xi32>) -> tensor<1x8x4x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x4x128xbf16>, tensor<1x2x?x128xbf16>, tensor<1x2x?x128xbf16>
      -> tensor<1x8x4x128xbf16>
  return %o : tensor<1x8x4x128xbf16>
}

// -----

// CHECK-LABEL: func.func @varlen_d64(
// CHECK-SAME:    %{{[^:]*}}: tensor<?xi32>) -> tensor
// CHECK-NOT:     kv_splits
// DYN-LABEL:   func.func @varlen_d64(
// DYN-SAME:      %[[SPLITS:[^:]*]]: index)
// DYN:           kv_splits(%[[SPLITS]]) varlen(
func.func @varlen_d64(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                      %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>,
                      %cu_k: tensor<?xi32>) -> tensor<1x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

// A called function keeps its signature.
// CHECK-LABEL: func.func @callee(
// CHECK-SAME:    tensor<?x8x?x64xbf16>) -> tensor
// CHECK-NOT:     kv_splits
func.func @callee(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x8x?x64xbf16>, %v: tensor<?x8x?x64xbf16>)
    -> tensor<?x8x1x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x8x1x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}
func.func @caller(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x8x?x64xbf16>, %v: tensor<?x8x?x64xbf16>)
    -> tensor<?x8x1x64xbf16> {
  %o = func.call @callee(%q, %k, %v)
      : (tensor<?x8x1x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>) -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}
