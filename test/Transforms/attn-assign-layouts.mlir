// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts | FileCheck %s
// Placing a placed tile again changes nothing.
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-assign-layouts | FileCheck %s
// Without warp specialization the accumulator spans block_m / 64 warpgroups.
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=64 block-n=64" \
// RUN:   --attn-assign-layouts | FileCheck %s --check-prefix=ONE
// A tile that no layout holds keeps plain types (convert-attn-to-nvvm names
// the rule it breaks): block_m = 32 is half a wgmma tile.
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=32 block-n=64" \
// RUN:   --attn-assign-layouts | FileCheck %s --check-prefix=UNPLACED
// Hand-written tiles, placed as they are.
// RUN: attnc-opt %s -split-input-file --attn-assign-layouts | FileCheck %s --check-prefix=DIRECT

// CHECK-DAG:   #[[$ACC:[a-z0-9_]+]] = #attn.wgmma_accumulator<warpgroups = 2>
// CHECK-DAG:   #[[$SHARED:[a-z0-9_]+]] = #attn.swizzled_shared<swizzle = 128>
// CHECK-DAG:   #[[$ROWS:[a-z0-9_]+]] = #attn.accumulator_rows<#[[$ACC]]>
// CHECK-LABEL: func.func @causal
// CHECK:         scf.forall
// The online softmax's initial m, l and O, rebuilt with their layouts.
// CHECK-DAG:       %[[M0:.+]] = arith.constant dense<0xFF800000> : tensor<128xf32, #[[$ROWS]]>
// CHECK-DAG:       %[[L0:.+]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[$ROWS]]>
// CHECK-DAG:       %[[O0:.+]] = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #[[$ACC]]>
// CHECK:           %[[Q:.+]] = attn.load_tile {{.*}} -> tensor<128x64xbf16, #[[$SHARED]]>
// CHECK:           attn.warp_specialize
// CHECK:             %[[K:.+]] = attn.load_tile {{.*}} -> tensor<64x64xbf16, #[[$SHARED]]>
// CHECK:             %[[V:.+]] = attn.load_tile {{.*}} -> tensor<64x64xbf16, #[[$SHARED]]>
// CHECK:             attn.ring_push %[[K]], %[[V]] : tensor<64x64xbf16, #[[$SHARED]]>, tensor<64x64xbf16, #[[$SHARED]]>
// CHECK:           } consumer {
// CHECK:             %[[FULL:.+]]:3 = scf.for {{.*}} iter_args(%[[M:.+]] = %[[M0]], %{{.+}} = %[[L0]], %{{.+}} = %[[O0]])
// CHECK-SAME:          -> (tensor<128xf32, #[[$ROWS]]>, tensor<128xf32, #[[$ROWS]]>, tensor<128x64xf32, #[[$ACC]]>)
// CHECK:               %[[KT:.+]], %{{.+}} = attn.ring_pop : tensor<64x64xbf16, #[[$SHARED]]>, tensor<64x64xbf16, #[[$SHARED]]>
// CHECK:               %[[S:.+]] = attn.qk %[[Q]], %[[KT]] : {{.*}} -> tensor<128x64xf32, #[[$ACC]]>
// CHECK:               %[[MAX:.+]] = attn.row_max %[[S]] init %[[M]] : tensor<128x64xf32, #[[$ACC]]> -> tensor<128xf32, #[[$ROWS]]>
// CHECK:               attn.rescale_factor %[[M]], %[[MAX]] {{.*}} : tensor<128xf32, #[[$ROWS]]>
// CHECK:               attn.exp_diff %[[S]], %[[MAX]] {{.*}} : tensor<128x64xf32, #[[$ACC]]>, tensor<128xf32, #[[$ROWS]]>
// CHECK:               attn.pv {{.*}} : tensor<128x64xf32, #[[$ACC]]>, tensor<64x64xbf16, #[[$SHARED]]>, tensor<128x64xf32, #[[$ACC]]>
// CHECK:             } {attn.kv_range = "full"}
// CHECK:             %[[TAIL:.+]]:3 = scf.for {{.*}} iter_args({{.*}} = %[[FULL]]#0, {{.*}} = %[[FULL]]#1, {{.*}} = %[[FULL]]#2)
// CHECK-SAME:          -> (tensor<128xf32, #[[$ROWS]]>, tensor<128xf32, #[[$ROWS]]>, tensor<128x64xf32, #[[$ACC]]>)
// CHECK:               attn.mask {{.*}} : tensor<128x64xf32, #[[$ACC]]>
// O and the LSE stay in the consumers' registers up to the forall's
// terminator, which stores their valid rows (plain tensors).
// CHECK:             %[[O:.+]], %[[LSE:.+]] = attn.finalize %[[TAIL]]#2, %[[TAIL]]#1, %[[TAIL]]#0 {{.*}} : tensor<128x64xf32, #[[$ACC]]>, tensor<128xf32, #[[$ROWS]]> -> tensor<128x64xbf16, #[[$ACC]]>
// CHECK:             attn.yield %[[O]], %[[LSE]] : tensor<128x64xbf16, #[[$ACC]]>, tensor<128xf32, #[[$ROWS]]>
// CHECK:           } : tensor<128x64xbf16, #[[$ACC]]>, tensor<128xf32, #[[$ROWS]]>
// CHECK:           %[[O_ROWS:.+]] = tensor.extract_slice %{{.+}}#0{{.*}} : tensor<128x64xbf16, #[[$ACC]]> to tensor<?x64xbf16>
// CHECK:           %[[LSE_ROWS:.+]] = tensor.extract_slice %{{.+}}#1{{.*}} : tensor<128xf32, #[[$ROWS]]> to tensor<?xf32>
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[O_ROWS]]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[LSE_ROWS]]

// ONE-DAG:   #[[$ACC:[a-z0-9_]+]] = #attn.wgmma_accumulator<warpgroups = 1>
// ONE-DAG:   #[[$ROWS:[a-z0-9_]+]] = #attn.accumulator_rows<#[[$ACC]]>
// ONE-LABEL: func.func @causal
// ONE:         attn.qk {{.*}} -> tensor<64x64xf32, #[[$ACC]]>
// ONE:         attn.row_max {{.*}} -> tensor<64xf32, #[[$ROWS]]>

// UNPLACED-LABEL: func.func @causal
// UNPLACED-NOT:     {{#acc|#rows|#shared|#attn\.}}
// UNPLACED:         attn.qk {{.*}} -> tensor<32x64xf32>{{$}}
// UNPLACED-NOT:     {{#acc|#rows|#shared|#attn\.}}
// UNPLACED:         attn.finalize {{.*}} : tensor<32x64xf32>, tensor<32xf32> -> tensor<32x64xbf16>
func.func @causal(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                  %v: tensor<?x4x?x64xbf16>) -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

// -----

// One kv block: canonicalization folds the loop away, and the row max reads
// the initial max directly; it too is rebuilt with its layout.
// CHECK-LABEL: func.func @one_block
// CHECK:         %[[M0:.+]] = arith.constant dense<0xFF800000> : tensor<128xf32, #{{.+}}>
// CHECK:         %[[WS:.+]]:2 = attn.warp_specialize
// CHECK:         attn.qk
// CHECK:         attn.row_max %{{.+}} init %[[M0]] : tensor<128x64xf32, #[[$ACC]]> -> tensor<128xf32, #[[$ROWS]]>
// A whole static tile is stored as it is.
// CHECK:         tensor.parallel_insert_slice %[[WS]]#0 {{.*}} : tensor<128x64xbf16, #[[$ACC]]> into tensor<1x4x128x64xbf16>
func.func @one_block(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x64x64xbf16>,
                     %v: tensor<1x4x64x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x128x64xbf16>, tensor<1x4x64x64xbf16>, tensor<1x4x64x64xbf16>
      -> tensor<1x4x128x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}

// -----

// f32 tiles have no GPU lowering (wgmma takes bf16/f16): left alone.
// CHECK-LABEL: func.func @f32
// CHECK-NOT:     {{#acc|#rows|#shared|#attn\.}}
// CHECK:         attn.qk {{.*}} -> tensor<128x64xf32>{{$}}
func.func @f32(%q: tensor<?x4x?x64xf32>, %k: tensor<?x4x?x64xf32>,
               %v: tensor<?x4x?x64xf32>) -> tensor<?x4x?x64xf32> {
  %o = attn.attention %q, %k, %v
      : tensor<?x4x?x64xf32>, tensor<?x4x?x64xf32>, tensor<?x4x?x64xf32>
      -> tensor<?x4x?x64xf32>
  return %o : tensor<?x4x?x64xf32>
}

// -----

// A tile value read by an op that would not take it in its layout (here an
// elementwise arith op on S) leaves the tile unplaced, not the IR invalid.
// DIRECT-LABEL: func.func @foreign_user
// DIRECT:         attn.qk {{.*}} -> tensor<64x64xf32>{{$}}
// DIRECT:         arith.negf %{{.*}} : tensor<64x64xf32>{{$}}
func.func @foreign_user(%q: tensor<1x1x?x64xbf16>, %k: tensor<1x1x?x64xbf16>) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (1) {
    %qt = attn.load_tile %q[%c0, %c0, %c0] : tensor<1x1x?x64xbf16> -> tensor<64x64xbf16>
    %kt = attn.load_tile %k[%c0, %c0, %c0] : tensor<1x1x?x64xbf16> -> tensor<64x64xbf16>
    %s = attn.qk %qt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %n = arith.negf %s : tensor<64x64xf32>
  }
  return
}
