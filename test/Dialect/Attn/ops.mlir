// RUN: attnc-opt %s | attnc-opt | FileCheck %s
// RUN: attnc-opt %s --mlir-print-op-generic | attnc-opt | FileCheck %s

// The tile layouts' aliases (@tile_layouts below).
// CHECK-DAG:   #[[$ACC:[a-z0-9_]+]] = #attn.wgmma_accumulator<warpgroups = 2>
// CHECK-DAG:   #[[$ROWS:[a-z0-9_]+]] = #attn.accumulator_rows<#[[$ACC]]>
// CHECK-DAG:   #[[$SHARED:[a-z0-9_]+]] = #attn.swizzled_shared<swizzle = 128>

// Round trip of every form of attn.attention and of every tile op, through
// the custom assembly format and through the generic form.

//===----------------------------------------------------------------------===//
// attn.attention
//===----------------------------------------------------------------------===//

// No attributes: mask none and layout bhsd are defaults and are not printed
// (the type list follows the operands directly).
// CHECK-LABEL: func.func @attention_default(
// CHECK-SAME:    %[[Q:.*]]: tensor<2x8x128x64xf16>, %[[K:.*]]: tensor<2x8x256x64xf16>, %[[V:.*]]: tensor<2x8x256x64xf16>)
// CHECK:         %[[O:.*]] = attn.attention %[[Q]], %[[K]], %[[V]] :
// CHECK-SAME:      tensor<2x8x128x64xf16>, tensor<2x8x256x64xf16>, tensor<2x8x256x64xf16> -> tensor<2x8x128x64xf16>
// CHECK:         return %[[O]]
func.func @attention_default(%q: tensor<2x8x128x64xf16>, %k: tensor<2x8x256x64xf16>,
                             %v: tensor<2x8x256x64xf16>) -> tensor<2x8x128x64xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x8x128x64xf16>, tensor<2x8x256x64xf16>, tensor<2x8x256x64xf16>
      -> tensor<2x8x128x64xf16>
  return %o : tensor<2x8x128x64xf16>
}

// Writing the defaults explicitly gives the same op.
// CHECK-LABEL: func.func @attention_explicit_defaults(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} : tensor<1x4x64x32xf32>
func.func @attention_explicit_defaults(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                                       %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v mask = none layout = bhsd
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// CHECK-LABEL: func.func @attention_causal(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal : tensor<1x4x64x32xf32>
func.func @attention_causal(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                            %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// CHECK-LABEL: func.func @attention_causal_bottom_right(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right : tensor<1x4x16x32xf32>, tensor<1x4x64x32xf32>
func.func @attention_causal_bottom_right(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x64x32xf32>,
                                         %v: tensor<1x4x64x32xf32>) -> tensor<1x4x16x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<1x4x16x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// A sliding window without a causal mask.
// CHECK-LABEL: func.func @attention_window(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} window = [16, 8] : tensor<1x4x64x32xf32>
func.func @attention_window(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                            %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v window = [16, 8]
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// The scale as a value (a kernel argument on the GPU).
// CHECK-LABEL: func.func @attention_scale_value(
// CHECK-SAME:    %[[S:[a-z0-9_]+]]: f32)
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal scale_value(%[[S]]) softcap = 3.000000e+01 : tensor<1x4x64x32xf32>
func.func @attention_scale_value(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                                 %v: tensor<1x4x64x32xf32>, %s: f32) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v mask = causal scale_value(%s) softcap = 30.0
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// CHECK-LABEL: func.func @attention_scale(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} scale = 1.250000e-01 : tensor<1x4x64x32xf32>
func.func @attention_scale(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                           %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v scale = 0.125
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// CHECK-LABEL: func.func @attention_softcap(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} softcap = 5.000000e+01 : tensor<1x4x64x32xf32>
func.func @attention_softcap(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                             %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v softcap = 50.0
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// bshd: [B, N, H, D] operands; the heads are the third dimension.
// CHECK-LABEL: func.func @attention_bshd(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} layout = bshd : tensor<2x100x8x64xbf16>, tensor<2x300x2x64xbf16>, tensor<2x300x2x64xbf16> -> tensor<2x100x8x64xbf16>
func.func @attention_bshd(%q: tensor<2x100x8x64xbf16>, %k: tensor<2x300x2x64xbf16>,
                          %v: tensor<2x300x2x64xbf16>) -> tensor<2x100x8x64xbf16> {
  %o = attn.attention %q, %k, %v layout = bshd
      : tensor<2x100x8x64xbf16>, tensor<2x300x2x64xbf16>, tensor<2x300x2x64xbf16>
      -> tensor<2x100x8x64xbf16>
  return %o : tensor<2x100x8x64xbf16>
}

// CHECK-LABEL: func.func @attention_tile_sizes(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} tile_sizes = [128, 64] : tensor<1x4x64x32xf32>
func.func @attention_tile_sizes(%q: tensor<1x4x64x32xf32>, %k: tensor<1x4x64x32xf32>,
                                %v: tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32> {
  %o = attn.attention %q, %k, %v tile_sizes = [128, 64]
      : tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>
      -> tensor<1x4x64x32xf32>
  return %o : tensor<1x4x64x32xf32>
}

// Every optional attribute at once, printed in the assembly format's order
// whatever order the attr-dict of the generic form had.
// CHECK-LABEL: func.func @attention_all_attrs(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right window = [32, 0] scale = 2.500000e-01 softcap = 3.000000e+01 layout = bshd tile_sizes = [64, 32] :
// CHECK-SAME:      tensor<1x16x4x16xf32>, tensor<1x48x2x16xf32>, tensor<1x48x2x16xf32> -> tensor<1x16x4x16xf32>, tensor<1x4x16xf32>
func.func @attention_all_attrs(%q: tensor<1x16x4x16xf32>, %k: tensor<1x48x2x16xf32>,
                               %v: tensor<1x48x2x16xf32>)
    -> (tensor<1x16x4x16xf32>, tensor<1x4x16xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right window = [32, 0]
      scale = 0.25 softcap = 30.0 layout = bshd tile_sizes = [64, 32]
      : tensor<1x16x4x16xf32>, tensor<1x48x2x16xf32>, tensor<1x48x2x16xf32>
      -> tensor<1x16x4x16xf32>, tensor<1x4x16xf32>
  return %o, %lse : tensor<1x16x4x16xf32>, tensor<1x4x16xf32>
}

// The optional LSE result: [B, Hq, Nq] in f32.
// CHECK-LABEL: func.func @attention_lse(
// CHECK:         %[[O:.*]], %[[LSE:.*]] = attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal :
// CHECK-SAME:      -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
// CHECK:         return %[[O]], %[[LSE]]
func.func @attention_lse(%q: tensor<2x8x128x64xbf16>, %k: tensor<2x8x128x64xbf16>,
                         %v: tensor<2x8x128x64xbf16>)
    -> (tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>, tensor<2x8x128x64xbf16>
      -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  return %o, %lse : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
}

// Dynamic batch and sequence lengths, with and without LSE.
// CHECK-LABEL: func.func @attention_dynamic(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal_bottom_right :
// CHECK-SAME:      tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16> -> tensor<?x8x?x64xf16>, tensor<?x8x?xf32>
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} :
// CHECK-SAME:      tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16> -> tensor<?x8x?x64xf16>{{$}}
func.func @attention_dynamic(%q: tensor<?x8x?x64xf16>, %k: tensor<?x8x?x64xf16>,
                             %v: tensor<?x8x?x64xf16>)
    -> (tensor<?x8x?x64xf16>, tensor<?x8x?xf32>, tensor<?x8x?x64xf16>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right
      : tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>
      -> tensor<?x8x?x64xf16>, tensor<?x8x?xf32>
  %o2 = attn.attention %q, %k, %v
      : tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>, tensor<?x8x?x64xf16>
      -> tensor<?x8x?x64xf16>
  return %o, %lse, %o2 : tensor<?x8x?x64xf16>, tensor<?x8x?xf32>, tensor<?x8x?x64xf16>
}

// GQA: 32 query heads share 8 key/value heads; the value head dim may
// differ from the query/key head dim.
// CHECK-LABEL: func.func @attention_gqa(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} mask = causal scale = 1.250000e-01 :
// CHECK-SAME:      tensor<2x32x?x128xbf16>, tensor<2x8x?x128xbf16>, tensor<2x8x?x64xbf16> -> tensor<2x32x?x64xbf16>, tensor<2x32x?xf32>
func.func @attention_gqa(%q: tensor<2x32x?x128xbf16>, %k: tensor<2x8x?x128xbf16>,
                         %v: tensor<2x8x?x64xbf16>)
    -> (tensor<2x32x?x64xbf16>, tensor<2x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal scale = 0.125
      : tensor<2x32x?x128xbf16>, tensor<2x8x?x128xbf16>, tensor<2x8x?x64xbf16>
      -> tensor<2x32x?x64xbf16>, tensor<2x32x?xf32>
  return %o, %lse : tensor<2x32x?x64xbf16>, tensor<2x32x?xf32>
}

// MQA: a single key/value head.
// CHECK-LABEL: func.func @attention_mqa(
// CHECK:         attn.attention %{{[^ ]+}}, %{{[^ ]+}}, %{{[^ ]+}} :
// CHECK-SAME:      tensor<1x16x1x128xf16>, tensor<1x1x4096x128xf16>, tensor<1x1x4096x128xf16> -> tensor<1x16x1x128xf16>
func.func @attention_mqa(%q: tensor<1x16x1x128xf16>, %k: tensor<1x1x4096x128xf16>,
                         %v: tensor<1x1x4096x128xf16>) -> tensor<1x16x1x128xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x16x1x128xf16>, tensor<1x1x4096x128xf16>, tensor<1x1x4096x128xf16>
      -> tensor<1x16x1x128xf16>
  return %o : tensor<1x16x1x128xf16>
}

//===----------------------------------------------------------------------===//
// Tile ops
//===----------------------------------------------------------------------===//

// The building blocks of one online-softmax kv step.
// CHECK-LABEL: func.func @tile_ops(
// CHECK-SAME:    %[[Q:[^:]*]]: tensor<2x8x?x64xbf16>, %[[K:[^:]*]]: tensor<2x?x2x64xbf16>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %[[R:[^:]*]]: index, %[[C:[^:]*]]: index, %[[NQ:[^:]*]]: index, %[[NK:[^:]*]]: index, %[[M:[^:]*]]: tensor<128xf32>, %[[L:[^:]*]]: tensor<128xf32>, %[[ACC:[^:]*]]: tensor<128x64xf32>)
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[SL2:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         %[[QT:.*]] = attn.load_tile %[[Q]][%[[B]], %[[H]], %[[R]]] : tensor<2x8x?x64xbf16> -> tensor<128x64xbf16>
// CHECK:         %[[KT:.*]] = attn.load_tile %[[K]][%[[B]], %[[H]], %[[C]]] layout = bshd : tensor<2x?x2x64xbf16> -> tensor<64x64xbf16>
// CHECK:         %[[S:.*]] = attn.qk %[[QT]], %[[KT]] : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
// CHECK:         %[[SC:.*]] = attn.softcap %[[S]] scale %[[SCALE]] cap = 3.000000e+01 : tensor<128x64xf32>
// CHECK:         %[[MS:.*]] = attn.mask %[[SC]] rows %[[R]] cols %[[C]] seq_q %[[NQ]] seq_k %[[NK]] kind = causal : tensor<128x64xf32>
// CHECK:         %[[MW:.*]] = attn.mask %[[MS]] rows %[[R]] cols %[[C]] seq_q %[[NQ]] seq_k %[[NK]] kind = causal_bottom_right window = [64, 0] : tensor<128x64xf32>
// CHECK:         %[[MN:.*]] = attn.mask %[[MW]] rows %[[R]] cols %[[C]] seq_q %[[NQ]] seq_k %[[NK]] : tensor<128x64xf32>
// CHECK:         %[[MWO:.*]] = attn.mask %[[MN]] rows %[[R]] cols %[[C]] seq_q %[[NQ]] seq_k %[[NK]] window = [8, 8] : tensor<128x64xf32>
// CHECK:         %[[M0:.*]] = attn.row_max %[[MWO]] : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:         %[[M1:.*]] = attn.row_max %[[MWO]] init %[[M]] : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:         %[[F:.*]] = attn.rescale_factor %[[M]], %[[M1]] scale_log2 %[[SL2]] : tensor<128xf32>
// CHECK:         %[[P:.*]] = attn.exp_diff %[[MWO]], %[[M1]] scale_log2 %[[SL2]] : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         %[[L0:.*]] = attn.row_sum %[[P]] : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:         %[[L1:.*]] = attn.row_sum %[[P]] init %[[L]] scaled %[[F]] : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:         %[[AS:.*]] = attn.scale_rows %[[ACC]], %[[F]] : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         %[[CS:.*]] = attn.scale_rows %[[ACC]], %[[F]] conditional : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         %[[A1:.*]] = attn.pv %[[P]], %[[KT]], %[[AS]] : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
// CHECK:         %[[OT:.*]], %[[LT:.*]] = attn.finalize %[[A1]], %[[L1]], %[[M1]] scale %[[SCALE]] : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
// CHECK:         return %[[OT]], %[[LT]], %[[M0]], %[[L0]]
func.func @tile_ops(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x?x2x64xbf16>,
                    %b: index, %h: index, %row: index, %col: index,
                    %nq: index, %nk: index, %m: tensor<128xf32>,
                    %l: tensor<128xf32>, %acc: tensor<128x64xf32>)
    -> (tensor<128x64xbf16>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %scale_cst0 = arith.constant 0.125 : f32
  %scale_cst1 = arith.constant 0.5 : f32
  %qt = attn.load_tile %q[%b, %h, %row] : tensor<2x8x?x64xbf16> -> tensor<128x64xbf16>
  %kt = attn.load_tile %k[%b, %h, %col] layout = bshd
      : tensor<2x?x2x64xbf16> -> tensor<64x64xbf16>
  %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
  %sc = attn.softcap %s scale %scale_cst0 cap = 30.0 : tensor<128x64xf32>
  %ms = attn.mask %sc rows %row cols %col seq_q %nq seq_k %nk kind = causal
      : tensor<128x64xf32>
  %mw = attn.mask %ms rows %row cols %col seq_q %nq seq_k %nk
      kind = causal_bottom_right window = [64, 0] : tensor<128x64xf32>
  %mn = attn.mask %mw rows %row cols %col seq_q %nq seq_k %nk kind = none
      : tensor<128x64xf32>
  %mwo = attn.mask %mn rows %row cols %col seq_q %nq seq_k %nk window = [8, 8]
      : tensor<128x64xf32>
  %m0 = attn.row_max %mwo : tensor<128x64xf32> -> tensor<128xf32>
  %m1 = attn.row_max %mwo init %m : tensor<128x64xf32> -> tensor<128xf32>
  %f = attn.rescale_factor %m, %m1 scale_log2 %scale_cst1 : tensor<128xf32>
  %p = attn.exp_diff %mwo, %m1 scale_log2 %scale_cst1
      : tensor<128x64xf32>, tensor<128xf32>
  %l0 = attn.row_sum %p : tensor<128x64xf32> -> tensor<128xf32>
  %l1 = attn.row_sum %p init %l scaled %f : tensor<128x64xf32> -> tensor<128xf32>
  %as = attn.scale_rows %acc, %f : tensor<128x64xf32>, tensor<128xf32>
  %cs = attn.scale_rows %acc, %f conditional : tensor<128x64xf32>, tensor<128xf32>
  %a1 = attn.pv %p, %kt, %as : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
  %ot, %lt = attn.finalize %a1, %l1, %m1 scale %scale_cst0
      : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
  return %ot, %lt, %m0, %l0
      : tensor<128x64xbf16>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}

// P rounded to V's element type in its own op (attn-pipeline-kv-loops), in
// the accumulator layout, and a P V that takes it as it is.
// CHECK-LABEL: func.func @truncate_then_pv(
// CHECK:         %[[PT:.*]] = attn.truncate %{{.*}} : tensor<128x64xf32, #acc> to tensor<128x64xbf16, #acc>
// CHECK:         attn.pv %[[PT]], %{{.*}}, %{{.*}} : tensor<128x64xbf16, #acc>, tensor<64x64xbf16>, tensor<128x64xf32, #acc>
func.func @truncate_then_pv(%p: tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>,
                            %v: tensor<64x64xbf16>,
                            %acc: tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>)
    -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> {
  %pt = attn.truncate %p : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      to tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
  %o = attn.pv %pt, %v, %acc : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>,
      tensor<64x64xbf16>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
  return %o : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
}

// A soft-cap's cap left to its users: the softcap multiplies its tanh
// values by output_scale, the row max and the exponentials scale the scores
// by score_scale.
// CHECK-LABEL: func.func @deferred_cap(
// CHECK-SAME:      %[[S:[^:]*]]: tensor<128x64xf32>, %[[M:[^:]*]]: tensor<128xf32>, %[[SCALE:[^:]*]]: f32, %[[C:[^:]*]]: f32)
// CHECK:         %[[T:.*]] = attn.softcap %[[S]] scale %[[SCALE]] cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x64xf32>
// CHECK:         %[[MAX:.*]] = attn.row_max %[[T]] init %[[M]] score_scale = 3.000000e+01 : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:         attn.exp_diff %[[T]], %[[MAX]] scale_log2 %[[C]] score_scale = 3.000000e+01 {software_exp2_period = 2 : i64} : tensor<128x64xf32>, tensor<128xf32>
func.func @deferred_cap(%s: tensor<128x64xf32>, %m: tensor<128xf32>, %scale: f32,
                        %c: f32) -> tensor<128x64xf32> {
  %t = attn.softcap %s scale %scale cap = 30.0 output_scale = 1.0 : tensor<128x64xf32>
  %max = attn.row_max %t init %m score_scale = 30.0 : tensor<128x64xf32> -> tensor<128xf32>
  %p = attn.exp_diff %t, %max scale_log2 %c score_scale = 30.0 {software_exp2_period = 2 : i64}
      : tensor<128x64xf32>, tensor<128xf32>
  return %p : tensor<128x64xf32>
}

// Which exponentials the GPU lowering computes in software (one element
// pair in N) is an attribute of attn.exp_diff.
// CHECK-LABEL: func.func @exp_diff_software_exp2(
// CHECK:         attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 2 : i64} : tensor<128x64xf32>, tensor<128xf32>
// CHECK:         attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %{{.*}} {software_exp2_period = 1 : i64} : tensor<128x64xf32>, tensor<128xf32>
func.func @exp_diff_software_exp2(%s: tensor<128x64xf32>, %m: tensor<128xf32>,
                                  %c: f32) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %p = attn.exp_diff %s, %m scale_log2 %c {software_exp2_period = 2 : i64}
      : tensor<128x64xf32>, tensor<128xf32>
  %p1 = attn.exp_diff %s, %m scale_log2 %c {software_exp2_period = 1 : i64}
      : tensor<128x64xf32>, tensor<128xf32>
  return %p, %p1 : tensor<128x64xf32>, tensor<128x64xf32>
}

// Tile ops on f16 and f32 tiles.
// CHECK-LABEL: func.func @tile_ops_f16_f32(
// CHECK:         attn.load_tile %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<?x4x?x32xf16> -> tensor<64x32xf16>
// CHECK:         attn.qk %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x32xf16> -> tensor<64x32xf32>
// CHECK:         attn.load_tile %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x4x?x16xf32> -> tensor<32x16xf32>
// CHECK:         attn.pv %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
// CHECK:         attn.finalize %{{.*}}, %{{.*}}, %{{.*}} scale %{{[^ ]+}} : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xf32>
func.func @tile_ops_f16_f32(%q: tensor<?x4x?x32xf16>, %v: tensor<1x4x?x16xf32>,
                            %i: index, %acc: tensor<64x16xf32>, %l: tensor<64xf32>,
                            %m: tensor<64xf32>) -> tensor<64x16xf32> {
  %scale_cst0 = arith.constant 1.0 : f32
  %qt = attn.load_tile %q[%i, %i, %i] : tensor<?x4x?x32xf16> -> tensor<64x32xf16>
  %kt = attn.load_tile %q[%i, %i, %i] : tensor<?x4x?x32xf16> -> tensor<32x32xf16>
  %s = attn.qk %qt, %kt : tensor<64x32xf16>, tensor<32x32xf16> -> tensor<64x32xf32>
  %vt = attn.load_tile %v[%i, %i, %i] : tensor<1x4x?x16xf32> -> tensor<32x16xf32>
  %a = attn.pv %s, %vt, %acc : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
  %o, %lse = attn.finalize %a, %l, %m scale %scale_cst0
      : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xf32>
  // The tile's mask, recorded for lowerings that re-derive the kv range.
  // CHECK: attn.finalize %{{.*}} scale %{{[^ ]+}} mask = causal_bottom_right window = [32, 0] :
  %o2, %lse2 = attn.finalize %a, %l, %m scale %scale_cst0 mask = causal_bottom_right window = [32, 0]
      : tensor<64x16xf32>, tensor<64xf32> -> tensor<64x16xf32>
  return %o : tensor<64x16xf32>
}

// A split kv range (kv_splits) and the merge of its partials.
// CHECK-LABEL: func.func @kv_splits
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} mask = causal kv_splits(%{{.*}}) :
// CHECK:         attn.combine_splits %{{.*}}, %{{.*}} layout = bshd : tensor<?x1x2x?x64xf32>, tensor<?x1x2x?xf32> -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
func.func @kv_splits(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                     %v: tensor<1x2x?x64xbf16>, %n: index,
                     %po: tensor<?x1x2x?x64xf32>, %pl: tensor<?x1x2x?xf32>)
    -> (tensor<1x2x?x64xbf16>, tensor<1x?x2x64xbf16>) {
  %o = attn.attention %q, %k, %v mask = causal kv_splits(%n)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>
  %c, %lse = attn.combine_splits %po, %pl layout = bshd
      : tensor<?x1x2x?x64xf32>, tensor<?x1x2x?xf32> -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
  return %o, %c : tensor<1x2x?x64xbf16>, tensor<1x?x2x64xbf16>
}

// The producer/consumer partition of one query tile (attn-warp-specialize).
// CHECK-LABEL: func.func @warp_specialize(
// CHECK:         %[[R:.*]]:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
// CHECK:           scf.for
// CHECK:             attn.ring_push %{{.*}}, %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>
// CHECK:           attn.yield
// CHECK:         } consumer {
// CHECK-NEXT:      attn.pass_turn warpgroup(1)
// CHECK-NEXT:      attn.wait_turn{{$}}
// CHECK-NEXT:      %[[K:.*]], %[[V:.*]] = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
// CHECK-NEXT:      attn.pass_turn{{$}}
// CHECK-NEXT:      attn.ring_release %[[K]] : tensor<64x64xbf16>
// CHECK-NEXT:      attn.ring_release %[[V]] after(%[[L:.*]] : tensor<128xf32>) : tensor<64x64xbf16>
// CHECK:           attn.finalize
// CHECK-NEXT:      attn.wait_turn warpgroup(0)
// CHECK-NEXT:      attn.yield %{{.*}}, %{{.*}} : tensor<128x64xbf16>, tensor<128xf32>
// CHECK:         } : tensor<128x64xbf16>, tensor<128xf32>
// CHECK:         attn.warp_specialize consumers(3) stages(3) registers(32, 160) producer {
// CHECK:         } consumer {
// CHECK:           attn.ring_pop
// CHECK-NEXT:      attn.launch_dependents
// CHECK-NEXT:      attn.finalize
func.func @warp_specialize(%k: tensor<?x4x?x64xbf16>, %i: index, %n: index,
                           %acc: tensor<128x64xf32>, %l: tensor<128xf32>,
                           %m: tensor<128xf32>, %acc3: tensor<192x64xf32>,
                           %l3: tensor<192xf32>) -> tensor<128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    scf.for %kb = %c0 to %n step %c1 {
      %kt = attn.load_tile %k[%i, %i, %kb] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
      attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    }
    attn.yield
  } consumer {
    // Ping-pong turns between the two consumer warpgroups: warpgroup 1
    // passes the first one, warpgroup 0 consumes the last pass.
    attn.pass_turn warpgroup(1)
    attn.wait_turn
    %kt, %vt = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.pass_turn
    attn.ring_release %kt : tensor<64x64xbf16>
    attn.ring_release %vt after(%l : tensor<128xf32>) : tensor<64x64xbf16>
    %out, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.wait_turn warpgroup(0)
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  %o3:2 = attn.warp_specialize consumers(3) stages(3) registers(32, 160) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %kt, %vt = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
    // The tile lets its dependents launch (attn-signal-dependents).
    attn.launch_dependents
    %out, %lse = attn.finalize %acc3, %l3, %l3 scale %scale_cst0
        : tensor<192x64xf32>, tensor<192xf32> -> tensor<192x64xbf16>
    attn.yield %out, %lse : tensor<192x64xbf16>, tensor<192xf32>
  } : tensor<192x64xbf16>, tensor<192xf32>
  return %o#0 : tensor<128x64xbf16>
}

// A software-pipeline stage on the tile ops of a kv loop (attn-warp-specialize).
// CHECK-LABEL: func.func @pipeline_stage
// CHECK:         attn.scale_rows %{{.*}}, %{{.*}} {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
func.func @pipeline_stage(%acc: tensor<64x64xf32>, %a: tensor<64xf32>,
                          %n: index) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<64x64xf32>) {
    %s = attn.scale_rows %o, %a {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
    scf.yield %s : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// Tile values with their layouts (attn-assign-layouts), printed through the
// dialect's aliases (checked at the top of the file, where they print).
// CHECK-LABEL: func.func @tile_layouts
// CHECK:         attn.qk %{{.*}}, %{{.*}} : tensor<128x64xbf16, #[[$SHARED]]>, tensor<64x64xbf16, #[[$SHARED]]> -> tensor<128x64xf32, #[[$ACC]]>
// CHECK:         attn.row_max %{{.*}} : tensor<128x64xf32, #[[$ACC]]> -> tensor<128xf32, #[[$ROWS]]>
func.func @tile_layouts(%q: tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>,
                        %k: tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>)
    -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> {
  %s = attn.qk %q, %k : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>,
      tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
  %m = attn.row_max %s : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
  return %m : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
}

// The shared-memory layout of a GPU tile (attn-allocate-shared-memory).
// CHECK-LABEL: func.func @shared_memory
// CHECK-SAME:    attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>
func.func @shared_memory() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// With P through shared memory, its buffer and the layout P is written in.
// CHECK-LABEL: func.func @shared_memory_with_probs
// CHECK-SAME:    probs = 40960, probs_bytes = 8192,
// CHECK-SAME:    probs_layout = #[[$SHARED]], query_full = 49152,
func.func @shared_memory_with_probs() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs = 40960, probs_bytes = 8192, probs_layout = #attn.swizzled_shared<swizzle = 128>, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// The kernel ABI of convert-attn-to-nvvm round-trips.
// CHECK-LABEL: func.func private @kernel_abi()
// CHECK-SAME:    attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>],
// CHECK-SAME:    params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>,
// CHECK-SAME:    #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">],
// CHECK-SAME:    problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"},
// CHECK-SAME:    options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>
func.func private @kernel_abi() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// A kernel that packs query heads (attn-pack-gqa): problem.packed_query_heads
// in the ABI, Q's and O's boxes over (d, g, s, h, b), attn.packed_query_heads
// on the Q argument.
// CHECK-LABEL: func.func private @kernel_abi_packed()
// CHECK-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 4, 32, 1, 1]>
// CHECK-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 4 : i64},
// CHECK-SAME:    options = {block_m = 128 : i64, heads_kv = 8 : i64, heads_q = 32 : i64}>
func.func private @kernel_abi_packed() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 4, 32, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 4, 16, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 4 : i64}, options = {block_m = 128 : i64, heads_kv = 8 : i64, heads_q = 32 : i64}>}
// CHECK-LABEL: func.func private @packed_query(
// CHECK-SAME:    tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64}
func.func private @packed_query(tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64})

// A paged KV cache: K and V page pools, the block table and the lengths.
// CHECK-LABEL: func.func @attention_paged(
// CHECK-SAME:      %[[Q:[^:]+]]: tensor<?x8x1x64xbf16>, %[[K:[^:]+]]: tensor<?x16x2x64xbf16>, %[[V:[^:]+]]: tensor<?x16x2x64xbf16>, %[[TABLE:[^:]+]]: tensor<?x?xi32>, %[[LENGTHS:[^:]+]]: tensor<?xi32>)
// CHECK:         attn.attention %[[Q]], %[[K]], %[[V]] mask = causal_bottom_right pages(%[[TABLE]], %[[LENGTHS]] : tensor<?x?xi32>, tensor<?xi32>)
// CHECK-SAME:        : tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<?x8x1x64xbf16>
func.func @attention_paged(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                           %v: tensor<?x16x2x64xbf16>, %table: tensor<?x?xi32>,
                           %lengths: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right
      pages(%table, %lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// CHECK-LABEL: func.func @load_paged_tile(
// CHECK:         attn.load_paged_tile %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] pages %{{.*}} length %{{.*}} : tensor<?x16x2x64xbf16>, tensor<?x?xi32> -> tensor<32x64xbf16>
func.func @load_paged_tile(%k: tensor<?x16x2x64xbf16>, %table: tensor<?x?xi32>,
                           %i: index, %n: index) -> tensor<32x64xbf16> {
  %t = attn.load_paged_tile %k[%i, %i, %i] pages %table length %n
      : tensor<?x16x2x64xbf16>, tensor<?x?xi32> -> tensor<32x64xbf16>
  return %t : tensor<32x64xbf16>
}

// A variable-length batch: the sequences packed in batch 1, delimited by
// the cumulative offsets.
// CHECK-LABEL: func.func @attention_varlen(
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} mask = causal_bottom_right layout = bshd varlen(%{{.*}}, %{{.*}} : tensor<?xi32>, tensor<?xi32>)
// CHECK-SAME:        : tensor<1x?x8x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16> -> tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
func.func @attention_varlen(%q: tensor<1x?x8x64xbf16>, %k: tensor<1x?x2x64xbf16>,
                            %v: tensor<1x?x2x64xbf16>, %cu_q: tensor<?xi32>,
                            %cu_k: tensor<?xi32>)
    -> (tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x8x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>
      -> tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
  return %o, %lse : tensor<1x?x8x64xbf16>, tensor<1x8x?xf32>
}

// CHECK-LABEL: func.func @load_varlen_tile(
// CHECK:         attn.load_varlen_tile %{{.*}}[%{{.*}}, %{{.*}}] rows %{{.*}} to %{{.*}} layout = bshd : tensor<1x?x2x64xbf16> -> tensor<32x64xbf16>
func.func @load_varlen_tile(%k: tensor<1x?x2x64xbf16>, %i: index, %begin: index,
                            %end: index) -> tensor<32x64xbf16> {
  %t = attn.load_varlen_tile %k[%i, %i] rows %begin to %end layout = bshd
      : tensor<1x?x2x64xbf16> -> tensor<32x64xbf16>
  return %t : tensor<32x64xbf16>
}

// CHECK-LABEL: func.func @sequence_tile(
// CHECK:         %{{.*}}, %{{.*}} = attn.sequence_tile %{{.*}}[%{{.*}}] block_m = 128 : tensor<?xi32>
func.func @sequence_tile(%cu: tensor<?xi32>, %t: index) -> (index, index) {
  %seq, %qb = attn.sequence_tile %cu[%t] block_m = 128 : tensor<?xi32>
  return %seq, %qb : index, index
}

// Packed query heads: the attention and its tile masks.
// CHECK-LABEL: func.func @attention_packed(
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} mask = causal_bottom_right packed_query_heads = 4 :
func.func @attention_packed(%q: tensor<?x8x?x64xbf16>, %k: tensor<?x8x?x64xbf16>,
                            %v: tensor<?x8x?x64xbf16>) -> tensor<?x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      : tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>
      -> tensor<?x8x?x64xbf16>
  return %o : tensor<?x8x?x64xbf16>
}

// A varlen batch packs query heads too: its offsets count tokens.
// CHECK-LABEL: func.func @attention_packed_varlen(
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} mask = causal_bottom_right packed_query_heads = 4 varlen(
func.func @attention_packed_varlen(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x8x?x64xbf16>,
                                   %v: tensor<1x8x?x64xbf16>, %cq: tensor<?xi32>,
                                   %ck: tensor<?xi32>) -> tensor<1x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16> -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// CHECK-LABEL: func.func @mask_packed_rows(
// CHECK:         attn.mask %{{.*}} rows %{{.*}} cols %{{.*}} seq_q %{{.*}} seq_k %{{.*}} kind = causal packed_query_heads = 4 : tensor<64x32xf32>
func.func @mask_packed_rows(%s: tensor<64x32xf32>, %i: index) -> tensor<64x32xf32> {
  %m = attn.mask %s rows %i cols %i seq_q %i seq_k %i kind = causal packed_query_heads = 4
      : tensor<64x32xf32>
  return %m : tensor<64x32xf32>
}
