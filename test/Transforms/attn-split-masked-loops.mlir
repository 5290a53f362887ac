// RUN: attnc-opt %s -split-input-file -attn-tile="block-m=64 block-n=32" -canonicalize -cse \
// RUN:     -attn-fuse-online-softmax -canonicalize -cse \
// RUN:   | attnc-opt -split-input-file -attn-split-masked-loops | FileCheck %s

// The input is the fused online-softmax loop. The pass splits it so that
// only the kv blocks at the edges of the visible range apply attn.mask.

// Causal: the blocks left of the query block's diagonal are fully visible
// ("full", no mask); the diagonal and the ragged key tail stay masked
// ("tail"). The tail continues from the full loop's results.
// CHECK-LABEL: func.func @causal(
// CHECK-DAG:     %[[ZACC:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
// CHECK-DAG:     %[[ZROWS:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK:         %[[FULL:.*]]:3 = scf.for %{{.*}} = %[[LO:[a-z0-9_]+]] to %[[FE:[a-z0-9_]+]] step %{{.*}} iter_args(%[[M:.*]] = %[[NEGINF]], %{{.*}} = %[[ZROWS]], %{{.*}} = %[[ZACC]])
// CHECK-NOT:       attn.mask
// CHECK:           %[[S:.*]] = attn.qk
// CHECK-NOT:       attn.mask
// CHECK:           attn.row_max %[[S]] init %[[M]]
// CHECK-NOT:       attn.mask
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "full"}
// CHECK:         %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[FE]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2)
// CHECK:           %[[S2:.*]] = attn.qk
// CHECK:           %[[MS2:.*]] = attn.mask %[[S2]] {{.*}} kind = causal
// CHECK:           attn.row_max %[[MS2]]
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "tail"}
// CHECK-NOT:     scf.for
// CHECK:         attn.finalize %[[TAIL]]#2, %[[TAIL]]#1, %[[TAIL]]#0
func.func @causal(%q: tensor<1x4x?x32xf32>, %k: tensor<1x4x?x32xf32>,
                  %v: tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>
      -> tensor<1x4x?x32xf32>
  return %o : tensor<1x4x?x32xf32>
}

// -----

// A sliding window also hides keys left of the range: a masked "lead" loop
// comes first, then "full" and "tail", each starting where the last ended.
// CHECK-LABEL: func.func @causal_window(
// CHECK:         %[[LEAD:.*]]:3 = scf.for %{{.*}} = %[[LO:[a-z0-9_]+]] to %[[FB:[a-z0-9_]+]] step
// CHECK:           attn.mask {{.*}} kind = causal window = [100, 0]
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "lead"}
// CHECK:         %[[FULL:.*]]:3 = scf.for %{{.*}} = %[[FB]] to %[[FE:[a-z0-9_]+]] step %{{.*}} iter_args(%{{.*}} = %[[LEAD]]#0, %{{.*}} = %[[LEAD]]#1, %{{.*}} = %[[LEAD]]#2)
// CHECK-NOT:       attn.mask
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "full"}
// CHECK:         %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[FE]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2)
// CHECK:           attn.mask {{.*}} kind = causal window = [100, 0]
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "tail"}
// CHECK:         attn.finalize %[[TAIL]]#2, %[[TAIL]]#1, %[[TAIL]]#0
func.func @causal_window(%q: tensor<1x4x?x32xf32>, %k: tensor<1x4x?x32xf32>,
                         %v: tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal window = [100, 0]
      : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>
      -> tensor<1x4x?x32xf32>
  return %o : tensor<1x4x?x32xf32>
}

// -----

// No mask, 200 keys in blocks of 32: blocks [0, 6) are full, block 6 holds
// the ragged tail (keys 192..199) and keeps the bounds mask.
// CHECK-LABEL: func.func @no_mask_ragged(
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[FULL:.*]]:3 = scf.for %{{.*}} = %[[C0]] to %[[FE:[a-z0-9_]+]] step
// CHECK-NOT:       attn.mask
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "full"}
// CHECK:         scf.for %{{.*}} = %[[FE]] to %[[C7]] step %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2)
// CHECK:           attn.mask %{{.*}} : tensor<64x32xf32>
// CHECK:           scf.yield
// CHECK-NEXT:    } {attn.kv_range = "tail"}
func.func @no_mask_ragged(%q: tensor<1x4x100x32xf32>, %k: tensor<1x4x200x32xf32>,
                          %v: tensor<1x4x200x32xf32>) -> tensor<1x4x100x32xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x100x32xf32>, tensor<1x4x200x32xf32>, tensor<1x4x200x32xf32>
      -> tensor<1x4x100x32xf32>
  return %o : tensor<1x4x100x32xf32>
}
