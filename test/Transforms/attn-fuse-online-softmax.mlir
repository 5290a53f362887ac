// RUN: attnc-opt %s -attn-tile="block-m=64 block-n=32" -canonicalize -cse -split-input-file \
// RUN:   | attnc-opt -attn-fuse-online-softmax -split-input-file | FileCheck %s
// RUN: attnc-opt %s -attn-tile="block-m=64 block-n=32" -canonicalize -cse -split-input-file \
// RUN:   | attnc-opt -attn-fuse-online-softmax -split-input-file | FileCheck %s --check-prefix=ONCE

// The input is attn-tile's three-pass form (max, sum, P V loops) after
// cleanup; the pass folds it into one online-softmax loop per query block.

// CHECK-LABEL: func.func @gqa_causal(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>)
// CHECK-DAG:     %[[ZACC:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK-DAG:     %[[ZROWS:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<64xf32>
// CHECK:         scf.forall (%[[B:[a-z0-9_]+]], %[[H:[a-z0-9_]+]], %[[QB:[a-z0-9_]+]])
// CHECK:           %[[KVH:.*]] = arith.divui %[[H]]
// CHECK:           %[[ROW:.*]] = arith.muli %[[QB]]
// CHECK:           %[[QT:.*]] = attn.load_tile %[[Q]][%[[B]], %[[H]], %[[ROW]]]
// CHECK-NOT:       scf.for
// One loop carries the running max, the running sum and the accumulator.
// CHECK:           %[[R:.*]]:3 = scf.for %[[KB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[M:.*]] = %[[NEGINF]], %[[L:.*]] = %[[ZROWS]], %[[ACC:.*]] = %[[ZACC]]) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
// CHECK:             %[[COL:.*]] = arith.muli %[[KB]]
// CHECK:             %[[KT:.*]] = attn.load_tile %[[K]][%[[B]], %[[KVH]], %[[COL]]] : tensor<2x2x?x64xbf16> -> tensor<32x64xbf16>
// CHECK:             %[[S:.*]] = attn.qk %[[QT]], %[[KT]]
// CHECK:             %[[MS:.*]] = attn.mask %[[S]] rows %[[ROW]] cols %[[COL]] seq_q %{{.*}} seq_k %{{.*}} kind = causal
// m' = max(m, rowmax(S)); a = exp2((m - m') * c)
// CHECK:             %[[M1:.*]] = attn.row_max %[[MS]] init %[[M]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK:             %[[F:.*]] = attn.rescale_factor %[[M]], %[[M1]] scale_log2 %{{[^ ]+}} : tensor<64xf32>
// l and acc are rescaled before this block is added (l by its row sum's
// init_scale, no attn.scale_rows of it); the ops come in the order a kernel
// issues them: the row sum right after the exponentials, O's rescale right
// before P V.
// CHECK-NOT:         attn.scale_rows %[[L]]
// P uses the running max m', not a final max.
// CHECK:             %[[P:.*]] = attn.exp_diff %[[MS]], %[[M1]] scale_log2 %{{[^ ]+}}
// CHECK-NEXT:        %[[L1:.*]] = attn.row_sum %[[P]] init %[[L]] scaled %[[F]] : tensor<64x32xf32> -> tensor<64xf32>
// CHECK:             %[[VT:.*]] = attn.load_tile %[[V]][%[[B]], %[[KVH]], %[[COL]]] : tensor<2x2x?x64xbf16> -> tensor<32x64xbf16>
// CHECK-NEXT:        %[[AS:.*]] = attn.scale_rows %[[ACC]], %[[F]] : tensor<64x64xf32>, tensor<64xf32>
// CHECK-NEXT:        %[[A1:.*]] = attn.pv %[[P]], %[[VT]], %[[AS]]
// CHECK:             scf.yield %[[M1]], %[[L1]], %[[A1]] : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
// CHECK:           }
// No second pass over K: the epilogue follows the loop directly.
// CHECK-NOT:       attn.row_max
// CHECK-NOT:       scf.for
// CHECK:           attn.finalize %[[R]]#2, %[[R]]#1, %[[R]]#0 scale %{{[^ ]+}} mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
// CHECK:           scf.forall.in_parallel

// Each K block is read once per iteration.
// ONCE-LABEL:  func.func @gqa_causal(
// ONCE-SAME:     %[[K:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>)
// ONCE:          scf.for
// ONCE:            attn.load_tile %[[K]]
// ONCE-NOT:        attn.load_tile %[[K]]
// ONCE:            attn.qk
// ONCE-NOT:        attn.qk
// ONCE:            attn.mask
// ONCE-NOT:        attn.load_tile %[[K]]
// ONCE-NOT:        attn.qk
// ONCE-NOT:        attn.mask
// ONCE:            scf.yield
// ONCE-NOT:      attn.load_tile %[[K]]
// ONCE:          attn.finalize
func.func @gqa_causal(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x64xbf16>)
    -> (tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
}

// -----

// With a softcap the scores are scaled by attn.softcap (once per block after
// CSE) and the softmax runs with scale 1: scale_log2 = log2(e).
// CHECK-LABEL: func.func @softcap_bshd(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<1x?x4x32xf32>, %[[K:[a-z0-9_]+]]: tensor<1x?x4x32xf32>, %[[V:[a-z0-9_]+]]: tensor<1x?x4x32xf32>)
// CHECK:         %[[R:.*]]:3 = scf.for %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
// CHECK:           attn.load_tile %[[K]]{{.*}} layout = bshd
// CHECK:           %[[SC:.*]] = attn.softcap
// CHECK:           %[[MS:.*]] = attn.mask %[[SC]]
// CHECK:           %[[M1:.*]] = attn.row_max %[[MS]] init %[[M]]
// CHECK:           %[[F:.*]] = attn.rescale_factor %[[M]], %[[M1]] scale_log2 %{{[^ ]+}}
// CHECK:           %[[P:.*]] = attn.exp_diff %[[MS]], %[[M1]] scale_log2 %{{[^ ]+}}
// CHECK:           %[[L1:.*]] = attn.row_sum %[[P]] init %[[L]] scaled %[[F]]
// CHECK:           %[[AS:.*]] = attn.scale_rows %[[ACC]], %[[F]]
// CHECK:           %[[A1:.*]] = attn.pv %[[P]], %{{.*}}, %[[AS]]
// CHECK:           scf.yield %[[M1]], %[[L1]], %[[A1]]
// CHECK:         }
// CHECK-NOT:     attn.row_max
// CHECK:         attn.finalize %[[R]]#2, %[[R]]#1, %[[R]]#0 scale %{{[^ ]+}}

// ONCE-LABEL:  func.func @softcap_bshd(
// ONCE:          scf.for
// ONCE-COUNT-1:    attn.softcap
// ONCE-NOT:        attn.softcap
// ONCE:            scf.yield
func.func @softcap_bshd(%q: tensor<1x?x4x32xf32>, %k: tensor<1x?x4x32xf32>,
                        %v: tensor<1x?x4x32xf32>) -> tensor<1x?x4x32xf32> {
  %o = attn.attention %q, %k, %v softcap = 20.0 layout = bshd
      : tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>
      -> tensor<1x?x4x32xf32>
  return %o : tensor<1x?x4x32xf32>
}

// -----

// Two attention ops in one function: both are fused.
// CHECK-LABEL: func.func @two_ops(
// CHECK:         scf.for {{.*}} -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>)
// CHECK:           scf.yield
// CHECK-NOT:     attn.row_max
// CHECK:         attn.finalize
// CHECK:         scf.for {{.*}} -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>)
// CHECK:           scf.yield
// CHECK-NOT:     attn.row_max
// CHECK:         attn.finalize
func.func @two_ops(%q: tensor<1x2x100x16xf16>, %k: tensor<1x2x100x16xf16>,
                   %v: tensor<1x2x100x16xf16>) -> tensor<1x2x100x16xf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x2x100x16xf16>, tensor<1x2x100x16xf16>, tensor<1x2x100x16xf16>
      -> tensor<1x2x100x16xf16>
  %o2 = attn.attention %o, %k, %v
      : tensor<1x2x100x16xf16>, tensor<1x2x100x16xf16>, tensor<1x2x100x16xf16>
      -> tensor<1x2x100x16xf16>
  return %o2 : tensor<1x2x100x16xf16>
}

// -----

// Loops over different kv ranges are not a softmax triple: left alone.
// CHECK-LABEL: func.func @different_ranges(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N1:[a-z0-9_]+]] {{.*}} -> (tensor<64xf32>)
// CHECK:           attn.row_max
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N2:[a-z0-9_]+]] {{.*}} -> (tensor<64xf32>)
// CHECK:           attn.row_sum
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N1]] {{.*}} -> (tensor<64x16xf32>)
// CHECK:           attn.pv
// CHECK-NOT:     attn.rescale_factor
// CHECK:         attn.finalize
func.func @different_ranges(%q: tensor<64x16xf32>, %kv: tensor<1x1x?x16xf32>,
                            %n1: index, %n2: index) -> tensor<64x16xf32> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %zr = arith.constant dense<0.0> : tensor<64xf32>
  %za = arith.constant dense<0.0> : tensor<64x16xf32>
  %m = scf.for %kb = %c0 to %n1 step %c1 iter_args(%mi = %ninf) -> (tensor<64xf32>) {
    %col = arith.muli %kb, %c32 : index
    %kt = attn.load_tile %kv[%c0, %c0, %col] : tensor<1x1x?x16xf32> -> tensor<32x16xf32>
    %s = attn.qk %q, %kt : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %mo = attn.row_max %s init %mi : tensor<64x32xf32> -> tensor<64xf32>
    scf.yield %mo : tensor<64xf32>
  }
  %l = scf.for %kb = %c0 to %n2 step %c1 iter_args(%li = %zr) -> (tensor<64xf32>) {
    %col = arith.muli %kb, %c32 : index
    %kt = attn.load_tile %kv[%c0, %c0, %col] : tensor<1x1x?x16xf32> -> tensor<32x16xf32>
    %s = attn.qk %q, %kt : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %p = attn.exp_diff %s, %m scale_log2 %scale_cst0 : tensor<64x32xf32>, tensor<64xf32>
    %lo = attn.row_sum %p init %li : tensor<64x32xf32> -> tensor<64xf32>
    scf.yield %lo : tensor<64xf32>
  }
  %acc = scf.for %kb = %c0 to %n1 step %c1 iter_args(%ai = %za) -> (tensor<64x16xf32>) {
    %col = arith.muli %kb, %c32 : index
    %kt = attn.load_tile %kv[%c0, %c0, %col] : tensor<1x1x?x16xf32> -> tensor<32x16xf32>
    %s = attn.qk %q, %kt : tensor<64x16xf32>, tensor<32x16xf32> -> tensor<64x32xf32>
    %p = attn.exp_diff %s, %m scale_log2 %scale_cst0 : tensor<64x32xf32>, tensor<64xf32>
    %ao = attn.pv %p, %kt, %ai : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
    scf.yield %ao : tensor<64x16xf32>
  }
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
      : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xf32>
  return %o : tensor<64x16xf32>
}
