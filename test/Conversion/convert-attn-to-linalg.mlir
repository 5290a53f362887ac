// RUN: attnc-opt %s -convert-attn-to-linalg -split-input-file | FileCheck %s --implicit-check-not=attn.

// attn.attention becomes the untiled textbook computation; tile ops become
// one linalg.generic each inside the loops that are already there. No attn
// op is left.

// GQA 4:1, causal, with LSE. Query head h reads key/value head h floordiv 4.
// CHECK-DAG:   #[[$QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG:   #[[$KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d3, d4)>
// CHECK-DAG:   #[[$SMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[$VMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 4, d4, d3)>
// CHECK-DAG:   #[[$ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[$ROWS4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gqa_causal(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x?x32xbf16>)
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[NK:.*]] = tensor.dim %[[K]], %{{.*}}
// S = Q K^T in f32, reducing over the head dim d4.
// CHECK:         %[[S0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x8x?x?xf32>)
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [#[[$QMAP]], #[[$KMAP]], #[[$SMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[Q]], %[[K]] : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>) outs(%[[S0]] : tensor<2x8x?x?xf32>)
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// Scale, then -inf where j >= Nk or j > i.
// CHECK:         %[[SM:.*]] = linalg.generic {indexing_maps = [#[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[S]] : tensor<2x8x?x?xf32>)
// CHECK:           %[[SS:.*]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK:           %[[I:.*]] = linalg.index 2 : index
// CHECK:           %[[J:.*]] = linalg.index 3 : index
// CHECK:           %[[INB:.*]] = arith.cmpi slt, %[[J]], %[[NK]] : index
// CHECK:           %[[CAUSAL:.*]] = arith.cmpi sle, %[[J]], %[[I]] : index
// CHECK:           %[[VIS:.*]] = arith.andi %[[INB]], %[[CAUSAL]] : i1
// CHECK:           arith.select %[[VIS]], %[[SS]], %[[NEGINF]] : f32
// Row max, exp, row sum.
// CHECK:         %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[$ID4]], #[[$ROWS4]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[SM]] : tensor<2x8x?x?xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#[[$ROWS4]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[MAX]] : tensor<2x8x?xf32>) outs(%[[SM]] : tensor<2x8x?x?xf32>)
// CHECK:           math.exp
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID4]], #[[$ROWS4]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<2x8x?x?xf32>)
// CHECK:           arith.addf
// acc = P V, reducing over the key index d4.
// CHECK:         %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[$QMAP]], #[[$VMAP]], #[[$SMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[P]], %[[V]] : tensor<2x8x?x?xf32>, tensor<2x2x?x32xbf16>) outs(%{{.*}} : tensor<2x8x?x32xf32>)
// Normalize and round to bf16; rows with sum 0 give 0.
// CHECK:         %[[O:.*]] = linalg.generic {indexing_maps = [#[[$ID4]], #[[$ROWS4]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[ACC]], %[[SUM]] : tensor<2x8x?x32xf32>, tensor<2x8x?xf32>) outs(%{{.*}} : tensor<2x8x?x32xbf16>)
// CHECK:           arith.divf
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// LSE = max + log(sum), -inf for empty rows.
// CHECK:         %[[LSE:.*]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[MAX]], %[[SUM]] : tensor<2x8x?xf32>, tensor<2x8x?xf32>)
// CHECK:           math.log
// CHECK:         return %[[O]], %[[LSE]]
func.func @gqa_causal(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                      %v: tensor<2x2x?x32xbf16>)
    -> (tensor<2x8x?x32xbf16>, tensor<2x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal scale = 0.125
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x32xbf16>
      -> tensor<2x8x?x32xbf16>, tensor<2x8x?xf32>
  return %o, %lse : tensor<2x8x?x32xbf16>, tensor<2x8x?xf32>
}

// -----

// bshd: the maps of Q, K, V and O swap the middle dimensions; Hq == Hkv
// needs no floordiv. The softcap is cap * tanh(s / cap) after the scale, and
// a window without a causal mask bounds keys on both sides of i.
// CHECK-DAG:   #[[$QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG:   #[[$KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-DAG:   #[[$VMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d3)>
// CHECK-DAG:   #[[$OMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @bshd_softcap_window(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<1x?x4x32xf32>, %[[K:[a-z0-9_]+]]: tensor<1x?x4x32xf32>, %[[V:[a-z0-9_]+]]: tensor<1x?x4x32xf32>)
// CHECK-DAG:     %[[CAP:.*]] = arith.constant 5.000000e+01 : f32
// CHECK:         linalg.generic {indexing_maps = [#[[$QMAP]], #[[$KMAP]], #{{.*}}]
// CHECK-SAME:        ins(%[[Q]], %[[K]] : tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>) outs(%{{.*}} : tensor<1x4x?x?xf32>)
// CHECK:         linalg.generic
// CHECK:           %[[SS:.*]] = arith.mulf
// CHECK:           %[[D:.*]] = arith.divf %[[SS]], %[[CAP]] : f32
// CHECK:           %[[T:.*]] = math.tanh %[[D]] : f32
// CHECK:           %[[CAPPED:.*]] = arith.mulf %[[T]], %[[CAP]] : f32
// CHECK:           %[[I:.*]] = linalg.index 2 : index
// CHECK:           %[[J:.*]] = linalg.index 3 : index
// CHECK:           arith.cmpi sle, %[[J]], %{{.*}} : index
// CHECK:           arith.cmpi sge, %[[J]], %{{.*}} : index
// CHECK:           arith.select %{{.*}}, %[[CAPPED]], %{{.*}} : f32
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[$VMAP]], #{{.*}}]
// CHECK-SAME:        ins(%{{.*}}, %[[V]] : tensor<1x4x?x?xf32>, tensor<1x?x4x32xf32>)
// CHECK:         %[[O:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$OMAP]]]{{.*}} outs(%{{.*}} : tensor<1x?x4x32xf32>)
// CHECK-NOT:       arith.truncf
// CHECK:         return %[[O]]
func.func @bshd_softcap_window(%q: tensor<1x?x4x32xf32>, %k: tensor<1x?x4x32xf32>,
                               %v: tensor<1x?x4x32xf32>) -> tensor<1x?x4x32xf32> {
  %o = attn.attention %q, %k, %v window = [8, 8] softcap = 50.0 layout = bshd
      : tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>, tensor<1x?x4x32xf32>
      -> tensor<1x?x4x32xf32>
  return %o : tensor<1x?x4x32xf32>
}

// -----

// A fused kv loop written with tile ops: the scf.for stays, each tile op
// becomes one linalg.generic on tiles.
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW2:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$A_IK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$B_JK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$B_KJ:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$C_IJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @tiled(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<1x2x?x16xbf16>, %[[K:[a-z0-9_]+]]: tensor<1x?x2x16xbf16>, %[[V:[a-z0-9_]+]]: tensor<1x?x2x16xbf16>, %[[H:[a-z0-9_]+]]: index, %[[ROW:[a-z0-9_]+]]: index, %[[NQ:[a-z0-9_]+]]: index, %[[NK:[a-z0-9_]+]]: index, %[[N:[a-z0-9_]+]]: index)
// load_tile: zero-filled past the sequence end.
// CHECK:         %[[QT:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<64x16xbf16>)
// CHECK:           %[[R:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK:           %[[INB:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[INB]], %[[R]], %{{.*}} : index
// CHECK:           tensor.extract %[[Q]][%{{.*}}, %[[H]], %[[SAFE]], %{{.*}}] : tensor<1x2x?x16xbf16>
// CHECK:         %[[LOOP:.*]]:3 = scf.for %[[KB:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
// bshd: the row index is the second one.
// CHECK:           %[[KT:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]]{{.*}} outs(%{{.*}} : tensor<32x16xbf16>)
// CHECK:             tensor.extract %[[K]][%{{.*}}, %{{.*}}, %[[H]], %{{.*}}] : tensor<1x?x2x16xbf16>
// CHECK:           %[[S:.*]] = linalg.generic {indexing_maps = [#[[$A_IK]], #[[$B_JK]], #[[$C_IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[QT]], %[[KT]] : tensor<64x16xbf16>, tensor<32x16xbf16>) outs(%{{.*}} : tensor<64x32xf32>)
// CHECK:           %[[SC:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<64x32xf32>)
// CHECK:             math.tanh
// CHECK:           %[[MS:.*]] = linalg.generic {{.*}} ins(%[[SC]] : tensor<64x32xf32>)
// CHECK:             linalg.index 0
// CHECK:             linalg.index 1
// CHECK:             arith.cmpi slt, %{{.*}}, %[[NK]] : index
// CHECK:             arith.subi %[[NK]], %[[NQ]] : index
// CHECK:           %[[M1:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]]], iterator_types = ["parallel", "reduction"]} ins(%[[MS]] : tensor<64x32xf32>) outs(%[[M]] : tensor<64xf32>)
// CHECK:             arith.maximumf
// CHECK:           %[[F:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[M]], %[[M1]] : tensor<64xf32>, tensor<64xf32>)
// CHECK:             math.exp2
// CHECK:           %[[AS:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[ACC]], %[[F]] : tensor<64x16xf32>, tensor<64xf32>)
// CHECK:             arith.mulf
// CHECK:           %[[P:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[MS]], %[[M1]] : tensor<64x32xf32>, tensor<64xf32>)
// CHECK:             math.exp2
// CHECK:           %[[VT:.*]] = linalg.generic {indexing_maps = [#[[$ID2]]]{{.*}} outs(%{{.*}} : tensor<32x16xbf16>)
// CHECK:             tensor.extract %[[V]]
// P is rounded to V's element type before the product.
// CHECK:           %[[A1:.*]] = linalg.generic {indexing_maps = [#[[$A_IK]], #[[$B_KJ]], #[[$C_IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]], %[[VT]] : tensor<64x32xf32>, tensor<32x16xbf16>) outs(%[[AS]] : tensor<64x16xf32>)
// CHECK:             arith.truncf %{{.*}} : f32 to bf16
// The row sum's init_scale: l * a, then the row sums added onto it.
// CHECK:           %[[LS:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[L]], %[[F]] : tensor<64xf32>, tensor<64xf32>)
// CHECK:             arith.mulf
// CHECK:           %[[L1:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]]], iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<64x32xf32>) outs(%[[LS]] : tensor<64xf32>)
// CHECK:             arith.addf
// CHECK:           scf.yield %[[M1]], %[[L1]], %[[A1]]
// CHECK:         }
// finalize: one generic for O, one for LSE.
// CHECK:         %[[O:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW2]], #[[$ID2]]]{{.*}} ins(%[[LOOP]]#2, %[[LOOP]]#1 : tensor<64x16xf32>, tensor<64xf32>) outs(%{{.*}} : tensor<64x16xbf16>)
// CHECK:           arith.divf
// CHECK:         %[[LSE:.*]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]]{{.*}} ins(%[[LOOP]]#0, %[[LOOP]]#1 : tensor<64xf32>, tensor<64xf32>)
// CHECK:           math.log
// CHECK:         return %[[O]], %[[LSE]]
func.func @tiled(%q: tensor<1x2x?x16xbf16>, %k: tensor<1x?x2x16xbf16>, %v: tensor<1x?x2x16xbf16>,
                 %h: index, %row: index, %nq: index, %nk: index, %n: index)
    -> (tensor<64x16xbf16>, tensor<64xf32>) {
  %scale_cst0 = arith.constant 0.25 : f32
  %scale_cst1 = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %zr = arith.constant dense<0.0> : tensor<64xf32>
  %za = arith.constant dense<0.0> : tensor<64x16xf32>
  %qt = attn.load_tile %q[%c0, %h, %row] : tensor<1x2x?x16xbf16> -> tensor<64x16xbf16>
  %r:3 = scf.for %kb = %c0 to %n step %c1 iter_args(%m = %ninf, %l = %zr, %acc = %za)
      -> (tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>) {
    %col = arith.muli %kb, %c32 : index
    %kt = attn.load_tile %k[%c0, %h, %col] layout = bshd
        : tensor<1x?x2x16xbf16> -> tensor<32x16xbf16>
    %s = attn.qk %qt, %kt : tensor<64x16xbf16>, tensor<32x16xbf16> -> tensor<64x32xf32>
    %sc = attn.softcap %s scale %scale_cst0 cap = 10.0 : tensor<64x32xf32>
    %ms = attn.mask %sc rows %row cols %col seq_q %nq seq_k %nk
        kind = causal_bottom_right window = [16, 0] : tensor<64x32xf32>
    %m1 = attn.row_max %ms init %m : tensor<64x32xf32> -> tensor<64xf32>
    %f = attn.rescale_factor %m, %m1 scale_log2 %scale_cst1 : tensor<64xf32>
    %as = attn.scale_rows %acc, %f : tensor<64x16xf32>, tensor<64xf32>
    %p = attn.exp_diff %ms, %m1 scale_log2 %scale_cst1 : tensor<64x32xf32>, tensor<64xf32>
    %vt = attn.load_tile %v[%c0, %h, %col] layout = bshd
        : tensor<1x?x2x16xbf16> -> tensor<32x16xbf16>
    %a1 = attn.pv %p, %vt, %as : tensor<64x32xf32>, tensor<32x16xbf16>, tensor<64x16xf32>
    %l1 = attn.row_sum %p init %l scaled %f : tensor<64x32xf32> -> tensor<64xf32>
    scf.yield %m1, %l1, %a1 : tensor<64xf32>, tensor<64xf32>, tensor<64x16xf32>
  }
  %o, %lse = attn.finalize %r#2, %r#1, %r#0 scale %scale_cst0
      : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xbf16>
  return %o, %lse : tensor<64x16xbf16>, tensor<64xf32>
}

// -----

// A scale given as a value multiplies the scores as it is.
// CHECK-LABEL: func.func @scale_value(
// CHECK-SAME:    %[[S:[a-z0-9_]+]]: f32)
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.*}}, %[[S]] : f32
func.func @scale_value(%q: tensor<1x2x?x16xf32>, %k: tensor<1x2x?x16xf32>,
                       %v: tensor<1x2x?x16xf32>, %s: f32) -> tensor<1x2x?x16xf32> {
  %o = attn.attention %q, %k, %v scale_value(%s)
      : tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32>, tensor<1x2x?x16xf32>
      -> tensor<1x2x?x16xf32>
  return %o : tensor<1x2x?x16xf32>
}

// -----

// software_exp2_period is a choice of the GPU lowering: the CPU lowering
// computes every exponential with math.exp2 and drops the attribute.
// CHECK-LABEL: func.func @software_exp2(
// CHECK:         linalg.generic
// CHECK:           math.exp2
// CHECK-NOT:     software_exp2_period
func.func @software_exp2(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %c: f32)
    -> tensor<64x32xf32> {
  %p = attn.exp_diff %s, %m scale_log2 %c {software_exp2_period = 2 : i64}
      : tensor<64x32xf32>, tensor<64xf32>
  return %p : tensor<64x32xf32>
}

// -----

// A cap left to the softcap's users: the softcap's tanh values are its
// result (output_scale = 1, whose multiply folds), and the row max and the
// exponentials multiply each score by the cap first.
// CHECK-LABEL: func.func @deferred_cap(
// CHECK-SAME:      %[[S:[a-z0-9_]+]]: tensor<64x32xf32>, %[[M:[a-z0-9_]+]]: tensor<64xf32>, %[[SCALE:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32)
// CHECK:         %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK:         %[[INNER:.*]] = arith.divf %[[SCALE]], %[[CAP]] : f32
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<64x32xf32>)
// CHECK:           %[[X:.*]] = arith.mulf %{{.*}}, %[[INNER]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[TANH]] : f32
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<64x32xf32>) outs(%[[M]] : tensor<64xf32>)
// CHECK-NEXT:    ^bb0(%[[TS:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[TS_CAP:.*]] = arith.mulf %[[TS]], %[[CAP]] : f32
// CHECK-NEXT:      arith.maximumf %[[TS_CAP]], %[[ACC]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[T]], %[[MAX]] : tensor<64x32xf32>, tensor<64xf32>)
// CHECK-NEXT:    ^bb0(%[[PS:.*]]: f32, %[[ROW:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[PS_CAP:.*]] = arith.mulf %[[PS]], %[[CAP]] : f32
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[PS_CAP]], %[[ROW]] : f32
// CHECK-NEXT:      arith.mulf %[[D]], %[[C]] : f32
func.func @deferred_cap(%s: tensor<64x32xf32>, %m: tensor<64xf32>, %scale: f32,
                        %c: f32) -> tensor<64x32xf32> {
  %t = attn.softcap %s scale %scale cap = 30.0 output_scale = 1.0 : tensor<64x32xf32>
  %max = attn.row_max %t init %m score_scale = 30.0 : tensor<64x32xf32> -> tensor<64xf32>
  %p = attn.exp_diff %t, %max scale_log2 %c score_scale = 30.0
      : tensor<64x32xf32>, tensor<64xf32>
  return %p : tensor<64x32xf32>
}

// -----

// attn.truncate rounds each element (arith.truncf); a P V of such P widens
// it without rounding again.
// CHECK-LABEL: func.func @truncate_then_pv(
// CHECK-SAME:      %[[P:[a-z0-9_]+]]: tensor<64x32xf32>, %[[V:[a-z0-9_]+]]: tensor<32x16xbf16>, %[[ACC:[a-z0-9_]+]]: tensor<64x16xf32>)
// CHECK:         %[[PT:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<64x32xf32>) outs(%{{.*}} : tensor<64x32xbf16>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[R]] : bf16
// CHECK:         linalg.generic {{.*}} ins(%[[PT]], %[[V]] : tensor<64x32xbf16>, tensor<32x16xbf16>) outs(%[[ACC]] : tensor<64x16xf32>)
// CHECK-NEXT:    ^bb0(%[[PB:.*]]: bf16, %[[VB:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:      arith.extf %[[PB]] : bf16 to f32
// CHECK-NOT:       arith.truncf
// CHECK:           linalg.yield
func.func @truncate_then_pv(%p: tensor<64x32xf32>, %v: tensor<32x16xbf16>,
                            %acc: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %pt = attn.truncate %p : tensor<64x32xf32> to tensor<64x32xbf16>
  %o = attn.pv %pt, %v, %acc : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
  return %o : tensor<64x16xf32>
}

// -----

// attn.combine_splits: M = max_s LSE_s, w_s = exp(LSE_s - M) (0 when
// M = -inf), O = sum_s w_s O_s / sum_s w_s (0 for an empty row), LSE =
// M + log(sum_s w_s) (-inf for an empty row), O written in its layout.
// CHECK-LABEL: func.func @combine_splits(
// CHECK-SAME:    %[[PO:[a-z0-9_]+]]: tensor<?x1x2x?x64xf32>, %[[PL:[a-z0-9_]+]]: tensor<?x1x2x?xf32>)
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%[[PL]] : tensor<?x1x2x?xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PL]], %[[MAX]] : tensor<?x1x2x?xf32>, tensor<1x2x?xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:           arith.select
// CHECK:           arith.addf
// CHECK:         %[[ACC:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%[[PO]], %[[PL]], %[[MAX]] :
// CHECK:           math.exp
// CHECK:         %[[O:.*]] = linalg.generic {{.*}} ins(%[[ACC]], %[[SUM]] : tensor<1x2x?x64xf32>, tensor<1x2x?xf32>) outs(%{{.*}} : tensor<1x?x2x64xbf16>)
// CHECK:           arith.divf
// CHECK:           arith.truncf
// CHECK:         %[[LSE:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[SUM]] : tensor<1x2x?xf32>, tensor<1x2x?xf32>)
// CHECK:           math.log
// CHECK:         return %[[O]], %[[LSE]]
func.func @combine_splits(%po: tensor<?x1x2x?x64xf32>, %pl: tensor<?x1x2x?xf32>)
    -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.combine_splits %po, %pl layout = bshd
      : tensor<?x1x2x?x64xf32>, tensor<?x1x2x?xf32> -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}

// -----

// Results whose sizes the partials know (here Nq = 128) but the op's types
// leave dynamic, and the reverse, take the op's types.
// CHECK-LABEL: func.func @combine_splits_types(
// CHECK:         %[[O:.*]] = tensor.cast %{{.*}} : tensor<1x4x128x64xf16> to tensor<1x4x?x64xf16>
// CHECK:         %[[LSE:.*]] = tensor.cast %{{.*}} : tensor<1x4x128xf32> to tensor<?x4x128xf32>
// CHECK:         return %[[O]], %[[LSE]]
func.func @combine_splits_types(%po: tensor<3x1x4x128x64xf32>, %pl: tensor<3x1x4x128xf32>)
    -> (tensor<1x4x?x64xf16>, tensor<?x4x128xf32>) {
  %o, %lse = attn.combine_splits %po, %pl
      : tensor<3x1x4x128x64xf32>, tensor<3x1x4x128xf32> -> tensor<1x4x?x64xf16>, tensor<?x4x128xf32>
  return %o, %lse : tensor<1x4x?x64xf16>, tensor<?x4x128xf32>
}

// -----

// attn.load_paged_tile: key t = row + r of the sequence is row t % 16 of
// page table[b, t / 16]; keys past the length read column 0 of the table
// and page 0, and give 0.
// CHECK-LABEL: func.func @load_paged_tile(
// CHECK-SAME:    %[[POOL:[a-z0-9_]+]]: tensor<?x16x2x64xbf16>, %[[TABLE:[a-z0-9_]+]]: tensor<?x?xi32>, %[[B:[a-z0-9_]+]]: index, %[[H:[a-z0-9_]+]]: index, %[[ROW:[a-z0-9_]+]]: index, %[[LEN:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<32x64xbf16>)
// CHECK:           %[[R:.*]] = linalg.index 0 : index
// CHECK:           %[[D:.*]] = linalg.index 1 : index
// CHECK:           %[[T:.*]] = arith.addi %[[ROW]], %[[R]] : index
// CHECK:           %[[INB:.*]] = arith.cmpi slt, %[[T]], %[[LEN]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[INB]], %[[T]], %[[C0]] : index
// CHECK:           %[[COL:.*]] = arith.divui %[[SAFE]], %[[C16]] : index
// CHECK:           %[[ENTRY:.*]] = tensor.extract %[[TABLE]][%[[B]], %[[COL]]] : tensor<?x?xi32>
// CHECK:           %[[PAGE32:.*]] = arith.index_cast %[[ENTRY]] : i32 to index
// CHECK:           %[[PAGE:.*]] = arith.select %[[INB]], %[[PAGE32]], %[[C0]] : index
// CHECK:           %[[SLOT:.*]] = arith.remui %[[SAFE]], %[[C16]] : index
// CHECK:           %[[X:.*]] = tensor.extract %[[POOL]][%[[PAGE]], %[[SLOT]], %[[H]], %[[D]]] : tensor<?x16x2x64xbf16>
// CHECK:           %[[Y:.*]] = arith.select %[[INB]], %[[X]], %[[ZERO]] : bf16
// CHECK:           linalg.yield %[[Y]] : bf16
func.func @load_paged_tile(%k: tensor<?x16x2x64xbf16>, %table: tensor<?x?xi32>,
                           %b: index, %h: index, %row: index, %len: index)
    -> tensor<32x64xbf16> {
  %t = attn.load_paged_tile %k[%b, %h, %row] pages %table length %len
      : tensor<?x16x2x64xbf16>, tensor<?x?xi32> -> tensor<32x64xbf16>
  return %t : tensor<32x64xbf16>
}

// -----

// A paged attn.attention: K and V gathered from their pools into dense
// [B, Hkv, max_pages * 16, D] tensors; the mask takes each sequence's length
// as Nk.
// CHECK-LABEL: func.func @paged(
// CHECK-SAME:    %[[Q:[a-z0-9_]+]]: tensor<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<?x16x2x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<?x16x2x64xbf16>, %[[TABLE:[a-z0-9_]+]]: tensor<2x?xi32>, %[[LENGTHS:[a-z0-9_]+]]: tensor<2xi32>)
// CHECK:         %[[PAGES:.*]] = tensor.dim %[[TABLE]], %{{.*}} : tensor<2x?xi32>
// CHECK:         %[[KEYS:.*]] = arith.muli %[[PAGES]], %{{.*}} : index
// CHECK:         %[[KE:.*]] = tensor.empty(%[[KEYS]]) : tensor<2x2x?x64xbf16>
// CHECK:         %[[KD:.*]] = linalg.generic {{.*}} outs(%[[KE]] : tensor<2x2x?x64xbf16>)
// CHECK:           tensor.extract %[[LENGTHS]]
// CHECK:           tensor.extract %[[TABLE]]
// CHECK:           tensor.extract %[[K]]
// CHECK:         %[[VD:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x?x64xbf16>)
// CHECK:           tensor.extract %[[V]]
// CHECK:         linalg.generic {{.*}} ins(%[[Q]], %[[KD]] :
// CHECK:         linalg.generic
// CHECK:           %[[SEQ:.*]] = linalg.index 0 : index
// CHECK:           %[[LEN32:.*]] = tensor.extract %[[LENGTHS]][%[[SEQ]]] : tensor<2xi32>
// CHECK:           %[[LEN:.*]] = arith.index_cast %[[LEN32]] : i32 to index
// CHECK:           arith.cmpi slt, %{{.*}}, %[[LEN]] : index
// CHECK:         ins(%{{.*}}, %[[VD]] :
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

// attn.load_varlen_tile: rows begin + row + r of the packed batch 0, zero
// at and past the sequence's end (the next sequence's rows are not read).
// CHECK-LABEL: func.func @load_varlen_tile(
// CHECK-SAME:    %[[SRC:[a-z0-9_]+]]: tensor<1x?x2x64xbf16>, %[[H:[a-z0-9_]+]]: index, %[[ROW:[a-z0-9_]+]]: index, %[[BEGIN:[a-z0-9_]+]]: index, %[[END:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[START:.*]] = arith.addi %[[BEGIN]], %[[ROW]] : index
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<32x64xbf16>)
// CHECK:           %[[R:.*]] = linalg.index 0 : index
// CHECK:           %[[D:.*]] = linalg.index 1 : index
// CHECK:           %[[T:.*]] = arith.addi %[[START]], %[[R]] : index
// CHECK:           %[[INB:.*]] = arith.cmpi slt, %[[T]], %[[END]] : index
// CHECK:           %[[SAFE:.*]] = arith.select %[[INB]], %[[T]], %[[C0]] : index
// CHECK:           %[[X:.*]] = tensor.extract %[[SRC]][%[[C0]], %[[SAFE]], %[[H]], %[[D]]] : tensor<1x?x2x64xbf16>
// CHECK:           arith.select %[[INB]], %[[X]], %[[ZERO]] : bf16
func.func @load_varlen_tile(%k: tensor<1x?x2x64xbf16>, %h: index, %row: index,
                            %begin: index, %end: index) -> tensor<32x64xbf16> {
  %t = attn.load_varlen_tile %k[%h, %row] rows %begin to %end layout = bshd
      : tensor<1x?x2x64xbf16> -> tensor<32x64xbf16>
  return %t : tensor<32x64xbf16>
}

// -----

// attn.sequence_tile: a walk over sequences 0 .. B - 2 (the last takes
// every tile past the others' blocks); the current sequence moves on while
// the tile is at or past its end, ceil(rows / block_m) blocks on from its
// first tile.
// CHECK-LABEL: func.func @sequence_tile(
// CHECK-SAME:    %[[CU:[a-z0-9_]+]]: tensor<?xi32>, %[[T:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[BM:.*]] = arith.constant 128 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[CU]], %[[C0]]
// CHECK:         %[[LAST:.*]] = arith.subi %[[N]], %[[C2]]
// CHECK:         %[[WALK:.*]]:2 = scf.for %[[B:.*]] = %[[C0]] to %[[LAST]] step %[[C1]] iter_args(%[[CUR:.*]] = %[[C0]], %[[FIRST:.*]] = %[[C0]])
// CHECK:           %[[NEXT:.*]] = arith.addi %[[B]], %[[C1]]
// CHECK:           %[[ROWS:.*]] = arith.subi
// CHECK:           %[[BLOCKS:.*]] = arith.ceildivsi %[[ROWS]], %[[BM]]
// CHECK:           %[[END:.*]] = arith.addi %[[FIRST]], %[[BLOCKS]]
// CHECK-DAG:       %[[IS_CUR:.*]] = arith.cmpi eq, %[[CUR]], %[[B]]
// CHECK-DAG:       %[[PAST:.*]] = arith.cmpi sge, %[[T]], %[[END]]
// CHECK:           %[[MOVES:.*]] = arith.andi %[[IS_CUR]], %[[PAST]]
// CHECK:           %[[SEQ:.*]] = arith.select %[[MOVES]], %[[NEXT]], %[[CUR]]
// CHECK:           %[[START:.*]] = arith.select %[[MOVES]], %[[END]], %[[FIRST]]
// CHECK:           scf.yield %[[SEQ]], %[[START]]
// The last sequence takes a tile past every block at its block one past
// its rows.
// CHECK:         %[[LOCAL:.*]] = arith.subi %[[T]], %[[WALK]]#1
// CHECK:         %[[LAST_BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %[[BM]]
// CHECK:         %[[QB:.*]] = arith.minsi %[[LOCAL]], %[[LAST_BLOCKS]]
// CHECK:         return %[[WALK]]#0, %[[QB]]
func.func @sequence_tile(%cu: tensor<?xi32>, %t: index) -> (index, index) {
  %seq, %qb = attn.sequence_tile %cu[%t] block_m = 128 : tensor<?xi32>
  return %seq, %qb : index, index
}

// -----

// A varlen attn.attention untiled: packed row i and key j meet only in one
// sequence (each found by counting the sequences that end before it), at
// their positions in it.
// CHECK-LABEL: func.func @varlen(
// CHECK-SAME:    %{{[a-z0-9_]+}}: tensor<1x8x?x64xbf16>, %{{[a-z0-9_]+}}: tensor<1x2x?x64xbf16>, %{{[a-z0-9_]+}}: tensor<1x2x?x64xbf16>, %[[CUQ:[a-z0-9_]+]]: tensor<?xi32>, %[[CUK:[a-z0-9_]+]]: tensor<?xi32>)
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 2 : index
// CHECK:           %[[J:.*]] = linalg.index 3 : index
// CHECK:           %[[SQ:.*]] = scf.for {{.*}} iter_args
// CHECK:             tensor.extract %[[CUQ]]
// CHECK:             arith.cmpi sle, %{{.*}}, %[[I]] : index
// CHECK:           %[[SK:.*]] = scf.for {{.*}} iter_args
// CHECK:             tensor.extract %[[CUK]]
// CHECK:             arith.cmpi sle, %{{.*}}, %[[J]] : index
// CHECK:           arith.cmpi eq, %[[SQ]], %[[SK]] : index
func.func @varlen(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                  %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>)
    -> tensor<1x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

// attn.mask with packed query heads (token-major): row r of the tile is
// query position (rows + r) / 4.
// CHECK-LABEL: func.func @mask_packed_rows(
// CHECK-SAME:    %{{[a-z0-9_]+}}: tensor<64x32xf32>, %[[ROW0:[a-z0-9_]+]]: index, %[[COL0:[a-z0-9_]+]]: index, %[[NQ:[a-z0-9_]+]]: index, %[[NK:[a-z0-9_]+]]: index)
// CHECK:         linalg.generic
// CHECK:           %[[R:.*]] = linalg.index 0 : index
// CHECK:           %[[ROW:.*]] = arith.addi %[[ROW0]], %[[R]] : index
// CHECK:           %[[POS:.*]] = arith.divui %[[ROW]], %[[C4:.*]] : index
// CHECK:           arith.subi %[[NK]], %[[NQ]] : index
func.func @mask_packed_rows(%s: tensor<64x32xf32>, %row: index, %col: index,
                            %nq: index, %nk: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %row cols %col seq_q %nq seq_k %nk kind = causal_bottom_right packed_query_heads = 4
      : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}

// The CPU reference runs the stages before attn-warp-specialize; a
// partitioned tile is named, not its first ring op.
// RUN: not attnc-opt %S/../../examples/gqa_causal_bf16.mlir --attn-tiling-pipeline --attn-warp-specialize \
// RUN:   --convert-attn-to-linalg 2>&1 >/dev/null | FileCheck %s --check-prefix=PARTITIONED
// PARTITIONED: error: 'attn.warp_specialize' op was not lowered to linalg: the CPU reference runs the tile IR of the stages before attn-warp-specialize (the partition is the GPU kernel's)
