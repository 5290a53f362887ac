// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths | FileCheck %s

// Batch and sequence dimensions become dynamic in the signature; O and LSE
// follow Q.
// CHECK-LABEL: func.func @static
// CHECK-SAME:    (%[[Q:.*]]: tensor<?x8x?x64xbf16>, %[[K:.*]]: tensor<?x2x?x64xbf16>, %[[V:.*]]: tensor<?x2x?x64xbf16>)
// CHECK-SAME:    -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>)
// CHECK:         %[[O:.*]], %[[LSE:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] mask = causal
// CHECK-SAME:      -> tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
// CHECK:         return %[[O]], %[[LSE]]
func.func @static(%q: tensor<2x8x1024x64xbf16>, %k: tensor<2x2x4096x64xbf16>,
                  %v: tensor<2x2x4096x64xbf16>)
    -> (tensor<2x8x1024x64xbf16>, tensor<2x8x1024xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x1024x64xbf16>, tensor<2x2x4096x64xbf16>, tensor<2x2x4096x64xbf16>
      -> tensor<2x8x1024x64xbf16>, tensor<2x8x1024xf32>
  return %o, %lse : tensor<2x8x1024x64xbf16>, tensor<2x8x1024xf32>
}

// -----

// BSHD: the sequence dimension is the second one.
// CHECK-LABEL: func.func @bshd
// CHECK-SAME:    (%{{.*}}: tensor<?x?x4x128xf16>, %{{.*}}: tensor<?x?x4x128xf16>, %{{.*}}: tensor<?x?x4x128xf16>)
// CHECK-SAME:    -> tensor<?x?x4x128xf16>
func.func @bshd(%q: tensor<1x100x4x128xf16>, %k: tensor<1x300x4x128xf16>,
                %v: tensor<1x300x4x128xf16>) -> tensor<1x100x4x128xf16> {
  %o = attn.attention %q, %k, %v layout = bshd
      : tensor<1x100x4x128xf16>, tensor<1x300x4x128xf16>, tensor<1x300x4x128xf16>
      -> tensor<1x100x4x128xf16>
  return %o : tensor<1x100x4x128xf16>
}

// -----

// An argument with another user keeps its type; a result with another user
// is cast back to the static type for it.
// CHECK-LABEL: func.func @other_users
// CHECK-SAME:    (%[[Q:.*]]: tensor<?x4x?x64xbf16>, %[[K:.*]]: tensor<1x4x32x64xbf16>, %[[V:.*]]: tensor<?x4x?x64xbf16>)
// CHECK:         %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]]
// CHECK-SAME:      -> tensor<?x4x?x64xbf16>
// CHECK:         %[[CAST:.*]] = tensor.cast %[[O]] : tensor<?x4x?x64xbf16> to tensor<1x4x16x64xbf16>
// CHECK:         tensor.insert_slice %[[CAST]]
// CHECK:         return %[[O]], %{{.*}} : tensor<?x4x?x64xbf16>, tensor<1x4x32x64xbf16>
func.func @other_users(%q: tensor<1x4x16x64xbf16>, %k: tensor<1x4x32x64xbf16>,
                       %v: tensor<1x4x32x64xbf16>)
    -> (tensor<1x4x16x64xbf16>, tensor<1x4x32x64xbf16>) {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x16x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x4x32x64xbf16>
      -> tensor<1x4x16x64xbf16>
  %r = tensor.insert_slice %o into %k[0, 0, 0, 0] [1, 4, 16, 64] [1, 1, 1, 1]
      : tensor<1x4x16x64xbf16> into tensor<1x4x32x64xbf16>
  return %o, %r : tensor<1x4x16x64xbf16>, tensor<1x4x32x64xbf16>
}

// Static sizes no launch can take are errors, not kernels.
// RUN: not attnc-opt %S/Inputs/huge-lengths.mlir --attn-generalize-lengths 2>&1 | FileCheck %s --check-prefix=LENGTH
// LENGTH: error: attn-generalize-lengths: argument #0 has sequence length 1099511627776; the kernel's lengths are 32-bit (at most 2147483647)
// RUN: not attnc-opt %S/Inputs/huge-batch.mlir --attn-generalize-lengths 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: attn-generalize-lengths: argument #0 has batch 70000; a kernel launches at most 65535 batches (grid z)

// -----

// A varlen batch: the packed sequence dimension of Q, K, V and O becomes
// dynamic, the batch of 1 stays (it packs the sequences); the LSE's total
// follows Q's, and the offsets keep their static count.
// CHECK-LABEL: func.func @varlen
// CHECK-SAME:    %{{[^:]*}}: tensor<1x?x8x64xbf16>, %{{[^:]*}}: tensor<1x?x2x64xbf16>, %{{[^:]*}}: tensor<1x?x2x64xbf16>, %{{[^:]*}}: tensor<5xi32>, %{{[^:]*}}: tensor<5xi32>)
// CHECK-SAME:    -> (tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>)
// CHECK:         attn.attention {{.*}} -> tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
func.func @varlen(%q: tensor<1x300x8x64xbf16>, %k: tensor<1x500x2x64xbf16>, %v: tensor<1x500x2x64xbf16>,
                  %cu_q: tensor<5xi32>, %cu_k: tensor<5xi32>) -> (tensor<1x300x8x64xbf16>, tensor<1x8x300xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<5xi32>, tensor<5xi32>)
      : tensor<1x300x8x64xbf16>, tensor<1x500x2x64xbf16>, tensor<1x500x2x64xbf16>
      -> tensor<1x300x8x64xbf16>, tensor<1x8x300xf32>
  return %o, %lse : tensor<1x300x8x64xbf16>, tensor<1x8x300xf32>
}
