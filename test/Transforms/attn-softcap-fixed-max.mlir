// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-defer-softcap-cap --attn-softcap-fixed-max | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-defer-softcap-cap --attn-softcap-fixed-max="max-exponent=90" \
// RUN:   | FileCheck %s --check-prefix=WIDE

// A soft-capped bf16 softmax subtracts the fixed max 0: no attn.row_max,
// no rescale factor, no rescale of O or of the running sum; the loops carry
// the running sum and O only, and attn.finalize reads the fixed max.
// CHECK-LABEL: func.func @causal_softcap(
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK:         %[[FULL:.*]]:2 = scf.for {{.*}} iter_args(%[[L:[^ ]+]] = %[[MAX]], %[[O:[^ ]+]] = %{{[^ ]+}}) -> (tensor<64xf32>, tensor<64x64xf32>)
// CHECK-NOT:       attn.row_max
// CHECK:           %[[T:.*]] = attn.softcap %{{.*}} cap = 3.000000e+01 output_scale = 1.000000e+00
// CHECK-NEXT:      %[[P:.*]] = attn.exp_diff %[[T]], %[[MAX]] scale_log2 %[[LOG2E]] score_scale = 3.000000e+01
// CHECK-NEXT:      %[[L1:.*]] = attn.row_sum %[[P]] init %[[L]] : tensor<64x64xf32> -> tensor<64xf32>
// CHECK-NOT:       attn.scale_rows
// CHECK:           %[[O1:.*]] = attn.pv %[[P]], %{{[^ ]+}}, %[[O]] :
// CHECK-NEXT:      scf.yield %[[L1]], %[[O1]]
// CHECK:         %[[TAIL:.*]]:2 = scf.for {{.*}} iter_args(%{{[^ ]+}} = %[[FULL]]#0, %{{[^ ]+}} = %[[FULL]]#1)
// CHECK-NOT:       attn.row_max
// CHECK:           %[[MT:.*]] = attn.mask
// CHECK-NEXT:      %[[PT:.*]] = attn.exp_diff %[[MT]], %[[MAX]] scale_log2 %[[LOG2E]] score_scale = 3.000000e+01
// CHECK-NEXT:      attn.row_sum %[[PT]] init
// CHECK-NOT:       attn.scale_rows
// CHECK:           attn.pv %[[PT]]
// CHECK-NEXT:      scf.yield
// CHECK:         attn.finalize %[[TAIL]]#1, %[[TAIL]]#0, %[[MAX]] scale
// CHECK-NOT:     attn.rescale_factor
// CHECK:         return
func.func @causal_softcap(%q: tensor<1x2x200x64xbf16>, %k: tensor<1x2x200x64xbf16>,
                          %v: tensor<1x2x200x64xbf16>) -> tensor<1x2x200x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<1x2x200x64xbf16>, tensor<1x2x200x64xbf16>, tensor<1x2x200x64xbf16>
      -> tensor<1x2x200x64xbf16>
  return %o : tensor<1x2x200x64xbf16>
}

// -----

// f32 P (an f32 attention's P V) holds 2^E too.
// CHECK-LABEL: func.func @f32_softcap(
// CHECK-NOT:     attn.row_max
// CHECK:         attn.exp_diff
// CHECK-NOT:     attn.row_max
// CHECK:         return
func.func @f32_softcap(%q: tensor<1x2x200x32xf32>, %k: tensor<1x2x200x32xf32>,
                       %v: tensor<1x2x200x32xf32>) -> tensor<1x2x200x32xf32> {
  %o = attn.attention %q, %k, %v softcap = 50.0
      : tensor<1x2x200x32xf32>, tensor<1x2x200x32xf32>, tensor<1x2x200x32xf32>
      -> tensor<1x2x200x32xf32>
  return %o : tensor<1x2x200x32xf32>
}

// -----

// P V rounds P to f16, whose 65504 cannot hold the probabilities of a
// fixed max: the running max stays.
// CHECK-LABEL: func.func @f16_softcap(
// CHECK:         attn.row_max
// CHECK:         attn.rescale_factor
// CHECK:         attn.scale_rows
func.func @f16_softcap(%q: tensor<1x2x200x32xf16>, %k: tensor<1x2x200x32xf16>,
                       %v: tensor<1x2x200x32xf16>) -> tensor<1x2x200x32xf16> {
  %o = attn.attention %q, %k, %v softcap = 30.0
      : tensor<1x2x200x32xf16>, tensor<1x2x200x32xf16>, tensor<1x2x200x32xf16>
      -> tensor<1x2x200x32xf16>
  return %o : tensor<1x2x200x32xf16>
}

// -----

// Scores without a soft-cap are unbounded.
// CHECK-LABEL: func.func @no_softcap(
// CHECK:         attn.row_max
// CHECK:         attn.rescale_factor
func.func @no_softcap(%q: tensor<1x2x200x32xbf16>, %k: tensor<1x2x200x32xbf16>,
                      %v: tensor<1x2x200x32xbf16>) -> tensor<1x2x200x32xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x2x200x32xbf16>, tensor<1x2x200x32xbf16>, tensor<1x2x200x32xbf16>
      -> tensor<1x2x200x32xbf16>
  return %o : tensor<1x2x200x32xbf16>
}

// -----

// A cap of 60 bounds the exponents by 60 log2 e = 86.6: above the default
// max-exponent (80) the running max stays; max-exponent=90 fixes it.
// CHECK-LABEL: func.func @wide_cap(
// CHECK:         attn.row_max
// WIDE-LABEL: func.func @wide_cap(
// WIDE-NOT:      attn.row_max
// WIDE:          attn.exp_diff
// WIDE-NOT:      attn.row_max
// WIDE:          return
func.func @wide_cap(%q: tensor<1x2x200x32xbf16>, %k: tensor<1x2x200x32xbf16>,
                    %v: tensor<1x2x200x32xbf16>) -> tensor<1x2x200x32xbf16> {
  %o = attn.attention %q, %k, %v softcap = 60.0
      : tensor<1x2x200x32xbf16>, tensor<1x2x200x32xbf16>, tensor<1x2x200x32xbf16>
      -> tensor<1x2x200x32xbf16>
  return %o : tensor<1x2x200x32xbf16>
}

// -----

// A loop like attn-tiling-pipeline's, written by hand (a constant
// scale_log2, l and O from 0): fixed.
// CHECK-LABEL: func.func @hand_written(
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[L:[^ ]+]] = %[[ZERO]], %[[ACC:[^ ]+]] = %{{[^ ]+}}) -> (tensor<64xf32>, tensor<64x32xf32>)
// CHECK:           %[[P:.*]] = attn.exp_diff %{{.*}}, %[[ZERO]] scale_log2
// CHECK-NEXT:      attn.row_sum %[[P]] init %[[L]] :
// CHECK-NEXT:      attn.pv %[[P]], %{{.*}}, %[[ACC]] :
func.func @hand_written(%q: tensor<64x32xbf16>, %k: tensor<64x32xbf16>,
                    %v: tensor<64x32xbf16>, %scale: f32, %n: index)
    -> (tensor<64x32xbf16>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = arith.constant 1.44269502 : f32
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %one = arith.constant 1.0 : f32
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
    %s = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
    %m1 = attn.row_max %t init %m : tensor<64x64xf32> -> tensor<64xf32>
    %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<64xf32>
    %p = attn.exp_diff %t, %m1 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
    %l1 = attn.row_sum %p init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
    %acc1 = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
    %acc2 = attn.pv %p, %v, %acc1 : tensor<64x64xf32>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %m1, %l1, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %out, %lse = attn.finalize %r#2, %r#1, %r#0 scale %one
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  return %out, %lse : tensor<64x32xbf16>, tensor<64xf32>
}
// -----

// A running max that something else reads (here the function returns it)
// is left alone.
// CHECK-LABEL: func.func @max_read(
// CHECK:         attn.row_max
// CHECK:         attn.rescale_factor
// CHECK:         attn.scale_rows
func.func @max_read(%q: tensor<64x32xbf16>, %k: tensor<64x32xbf16>,
                    %v: tensor<64x32xbf16>, %scale: f32, %n: index)
    -> (tensor<64x32xbf16>, tensor<64xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = arith.constant 1.44269502 : f32
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %one = arith.constant 1.0 : f32
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
    %s = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
    %m1 = attn.row_max %t init %m : tensor<64x64xf32> -> tensor<64xf32>
    %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<64xf32>
    %p = attn.exp_diff %t, %m1 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
    %l1 = attn.row_sum %p init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
    %acc1 = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
    %acc2 = attn.pv %p, %v, %acc1 : tensor<64x64xf32>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %m1, %l1, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %out, %lse = attn.finalize %r#2, %r#1, %r#0 scale %one
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  return %out, %lse, %r#0 : tensor<64x32xbf16>, tensor<64xf32>, tensor<64xf32>
}
// -----

// Exponentials of other, unbounded scores that subtract the running max:
// left alone.
// CHECK-LABEL: func.func @other_exponentials(
// CHECK:         attn.row_max
// CHECK:         attn.exp_diff %{{.*}}, %{{.*}}#0
func.func @other_exponentials(%q: tensor<64x32xbf16>, %k: tensor<64x32xbf16>,
                    %v: tensor<64x32xbf16>, %scale: f32, %n: index)
    -> (tensor<64x32xbf16>, tensor<64xf32>, tensor<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = arith.constant 1.44269502 : f32
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %one = arith.constant 1.0 : f32
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
    %s = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
    %m1 = attn.row_max %t init %m : tensor<64x64xf32> -> tensor<64xf32>
    %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<64xf32>
    %p = attn.exp_diff %t, %m1 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
    %l1 = attn.row_sum %p init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
    %acc1 = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
    %acc2 = attn.pv %p, %v, %acc1 : tensor<64x64xf32>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %m1, %l1, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %out, %lse = attn.finalize %r#2, %r#1, %r#0 scale %one
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  %s2 = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
  %p2 = attn.exp_diff %s2, %r#0 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
  return %out, %lse, %p2 : tensor<64x32xbf16>, tensor<64xf32>, tensor<64x64xf32>
}
// -----

// Two attn.finalize of one running max (their LSEs scale it differently):
// left alone.
// CHECK-LABEL: func.func @two_finalizes(
// CHECK:         attn.row_max
// CHECK-COUNT-2: attn.finalize
func.func @two_finalizes(%q: tensor<64x32xbf16>, %k: tensor<64x32xbf16>,
                    %v: tensor<64x32xbf16>, %scale: f32, %n: index)
    -> (tensor<64x32xbf16>, tensor<64xf32>, tensor<64x32xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = arith.constant 1.44269502 : f32
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %one = arith.constant 1.0 : f32
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
    %s = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
    %m1 = attn.row_max %t init %m : tensor<64x64xf32> -> tensor<64xf32>
    %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<64xf32>
    %p = attn.exp_diff %t, %m1 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
    %l1 = attn.row_sum %p init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
    %acc1 = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
    %acc2 = attn.pv %p, %v, %acc1 : tensor<64x64xf32>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %m1, %l1, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %out, %lse = attn.finalize %r#2, %r#1, %r#0 scale %one
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  %out2, %lse2 = attn.finalize %r#2, %r#1, %r#0 scale %c
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  return %out, %lse, %out2 : tensor<64x32xbf16>, tensor<64xf32>, tensor<64x32xbf16>
}
// -----

// A running sum that does not start at 0: the first step's factor (0, the
// old max being -inf) discards it, which a fixed max would not. Left alone.
// CHECK-LABEL: func.func @sum_from_one(
// CHECK:         attn.row_max
// CHECK:         attn.rescale_factor
func.func @sum_from_one(%q: tensor<64x32xbf16>, %k: tensor<64x32xbf16>,
                    %v: tensor<64x32xbf16>, %scale: f32, %n: index)
    -> (tensor<64x32xbf16>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = arith.constant 1.44269502 : f32
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %ones = arith.constant dense<1.0> : tensor<64xf32>
  %o0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %one = arith.constant 1.0 : f32
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %m0, %l = %ones, %acc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) {
    %s = attn.qk %q, %k : tensor<64x32xbf16>, tensor<64x32xbf16> -> tensor<64x64xf32>
    %t = attn.softcap %s scale %scale cap = 30.0 : tensor<64x64xf32>
    %m1 = attn.row_max %t init %m : tensor<64x64xf32> -> tensor<64xf32>
    %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<64xf32>
    %p = attn.exp_diff %t, %m1 scale_log2 %c : tensor<64x64xf32>, tensor<64xf32>
    %l1 = attn.row_sum %p init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
    %acc1 = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
    %acc2 = attn.pv %p, %v, %acc1 : tensor<64x64xf32>, tensor<64x32xbf16>, tensor<64x32xf32>
    scf.yield %m1, %l1, %acc2 : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %out, %lse = attn.finalize %r#2, %r#1, %r#0 scale %one
      : tensor<64x32xf32>, tensor<64xf32> -> tensor<64x32xbf16>
  return %out, %lse : tensor<64x32xbf16>, tensor<64xf32>
}
