// RUN: attnc-opt %s -canonicalize -split-input-file | FileCheck %s

// With Nq == Nk (both static) the bottom-right and top-left diagonals
// coincide: causal_bottom_right becomes causal.
// CHECK-LABEL: func.func @bottom_right_square
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal :
func.func @bottom_right_square(%q: tensor<1x4x128x32xf32>, %k: tensor<1x4x128x32xf32>,
                               %v: tensor<1x4x128x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// Sequence lengths are logical: in bshd they are the second dimension.
// CHECK-LABEL: func.func @bottom_right_square_bshd
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal layout = bshd :
func.func @bottom_right_square_bshd(%q: tensor<1x96x8x32xf32>, %k: tensor<1x96x2x32xf32>,
                                    %v: tensor<1x96x2x32xf32>) -> tensor<1x96x8x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      : tensor<1x96x8x32xf32>, tensor<1x96x2x32xf32>, tensor<1x96x2x32xf32>
      -> tensor<1x96x8x32xf32>
  return %o : tensor<1x96x8x32xf32>
}

// -----

// In bshd the third dimensions (heads) are equal but the sequence lengths
// differ: the mask stays.
// CHECK-LABEL: func.func @bottom_right_bshd_not_square
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right layout = bshd :
func.func @bottom_right_bshd_not_square(%q: tensor<1x32x8x32xf32>, %k: tensor<1x96x8x32xf32>,
                                        %v: tensor<1x96x8x32xf32>) -> tensor<1x32x8x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      : tensor<1x32x8x32xf32>, tensor<1x96x8x32xf32>, tensor<1x96x8x32xf32>
      -> tensor<1x32x8x32xf32>
  return %o : tensor<1x32x8x32xf32>
}

// -----

// Nq != Nk: the diagonals differ, the mask stays.
// CHECK-LABEL: func.func @bottom_right_not_square
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right :
func.func @bottom_right_not_square(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x128x32xf32>,
                                   %v: tensor<1x4x128x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x4x16x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// Both lengths dynamic: they may differ at run time, the mask stays.
// CHECK-LABEL: func.func @bottom_right_dynamic
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right :
func.func @bottom_right_dynamic(%q: tensor<1x4x?x32xf32>, %k: tensor<1x4x?x32xf32>,
                                %v: tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>
      -> tensor<1x4x?x32xf32>
  return %o : tensor<1x4x?x32xf32>
}

// -----

// Only one length dynamic: the mask stays.
// CHECK-LABEL: func.func @bottom_right_key_dynamic
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right :
func.func @bottom_right_key_dynamic(%q: tensor<1x4x128x32xf32>, %k: tensor<1x4x?x32xf32>,
                                    %v: tensor<1x4x?x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x4x128x32xf32>, tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>
      -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// A causal mask already hides every key right of the diagonal: the right
// half of the window is dropped.
// CHECK-LABEL: func.func @causal_window_right
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal window = [16, 0] :
func.func @causal_window_right(%q: tensor<1x4x128x32xf32>, %k: tensor<1x4x128x32xf32>,
                               %v: tensor<1x4x128x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal window = [16, 8]
      : tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// The same under a bottom-right causal mask that is not square: the window
// is trimmed, the mask kind stays.
// CHECK-LABEL: func.func @bottom_right_window_right
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right window = [32, 0] :
func.func @bottom_right_window_right(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x128x32xf32>,
                                     %v: tensor<1x4x128x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [32, 4]
      : tensor<1x4x64x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// -----

// Both patterns apply to one op.
// CHECK-LABEL: func.func @bottom_right_square_window
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal window = [32, 0] :
func.func @bottom_right_square_window(%q: tensor<1x4x128x32xf32>, %k: tensor<1x4x128x32xf32>,
                                      %v: tensor<1x4x128x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [32, 4]
      : tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// Without a causal mask the right half of the window is what bounds the
// visible keys: it stays.
// CHECK-LABEL: func.func @window_no_mask
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} window = [16, 8] :
func.func @window_no_mask(%q: tensor<1x4x128x32xf32>, %k: tensor<1x4x128x32xf32>,
                          %v: tensor<1x4x128x32xf32>) -> tensor<1x4x128x32xf32> {
  %o = attn.attention %q, %k, %v window = [16, 8]
      : tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>, tensor<1x4x128x32xf32>
      -> tensor<1x4x128x32xf32>
  return %o : tensor<1x4x128x32xf32>
}

// -----

// One kv split is the unsplit attention: the operand goes (and the GPU
// lowering takes the op); two stay.
// CHECK-LABEL: func.func @one_kv_split
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} :
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} kv_splits(%{{.*}}) :
func.func @one_kv_split(%q: tensor<1x4x?x32xbf16>, %k: tensor<1x4x?x32xbf16>,
                        %v: tensor<1x4x?x32xbf16>) -> (tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>) {
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  %o = attn.attention %q, %k, %v kv_splits(%one)
      : tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>
      -> tensor<1x4x?x32xbf16>
  %p = attn.attention %q, %k, %v kv_splits(%two)
      : tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>
      -> tensor<1x4x?x32xbf16>
  return %o, %p : tensor<1x4x?x32xbf16>, tensor<1x4x?x32xbf16>
}

// -----

// A max that does not move: the rescale factor of a finite splat max with
// itself is 1, a rescale by 1 goes, and so does a running sum's init_scale
// of 1.
// CHECK-LABEL: func.func @unmoved_max(
// CHECK-SAME:      %[[S:[^:]*]]: tensor<64x64xf32>, %[[ACC:[^:]*]]: tensor<64x32xf32>, %[[L:[^:]*]]: tensor<64xf32>, %[[C:[^:]*]]: f32)
// CHECK-NOT:     attn.rescale_factor
// CHECK-NOT:     attn.scale_rows
// CHECK:         %[[SUM:.*]] = attn.row_sum %[[S]] init %[[L]] : tensor<64x64xf32> -> tensor<64xf32>
// CHECK:         return %[[ACC]], %[[SUM]]
func.func @unmoved_max(%s: tensor<64x64xf32>, %acc: tensor<64x32xf32>,
                       %l: tensor<64xf32>, %c: f32) -> (tensor<64x32xf32>, tensor<64xf32>) {
  %m = arith.constant dense<0.0> : tensor<64xf32>
  %a = attn.rescale_factor %m, %m scale_log2 %c : tensor<64xf32>
  %o = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
  %sum = attn.row_sum %s init %l scaled %a : tensor<64x64xf32> -> tensor<64xf32>
  return %o, %sum : tensor<64x32xf32>, tensor<64xf32>
}

// -----

// The factor of a -inf old max is 0 (nothing accumulated yet), and of two
// different maxima unknown: neither folds.
// CHECK-LABEL: func.func @moving_max(
// CHECK:         %[[A:.*]] = attn.rescale_factor %{{.*}}, %{{.*}} scale_log2
// CHECK:         %[[B:.*]] = attn.rescale_factor %{{.*}}, %{{.*}} scale_log2
// CHECK:         attn.scale_rows %{{.*}}, %[[A]]
// CHECK:         attn.row_sum %{{.*}} init %{{.*}} scaled %[[B]]
func.func @moving_max(%s: tensor<64x64xf32>, %acc: tensor<64x32xf32>,
                      %l: tensor<64xf32>, %m1: tensor<64xf32>, %c: f32)
    -> (tensor<64x32xf32>, tensor<64xf32>) {
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %a = attn.rescale_factor %ninf, %ninf scale_log2 %c : tensor<64xf32>
  %b = attn.rescale_factor %m1, %ninf scale_log2 %c : tensor<64xf32>
  %o = attn.scale_rows %acc, %a : tensor<64x32xf32>, tensor<64xf32>
  %sum = attn.row_sum %s init %l scaled %b : tensor<64x64xf32> -> tensor<64xf32>
  return %o, %sum : tensor<64x32xf32>, tensor<64xf32>
}
