// RUN: attnc-opt %s -split-input-file --attn-generalize-scale | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-generalize-scale --attn-tile | FileCheck %s --check-prefix=TILED

// The scale attribute becomes the function's last argument, which records
// the compiled-in value; the attention takes it as scale_value.
// CHECK-LABEL: func.func @explicit_scale
// CHECK-SAME:    (%[[Q:[a-z0-9_]+]]: tensor<2x8x?x64xbf16>, %[[K:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>, %[[V:[a-z0-9_]+]]: tensor<2x2x?x64xbf16>,
// CHECK-SAME:     %[[S:[a-z0-9_]+]]: f32 {attn.scale = 1.000000e-01 : f32})
// CHECK:         attn.attention %[[Q]], %[[K]], %[[V]] mask = causal scale_value(%[[S]]) :
// CHECK-NOT:     scale =
// Tiling computes the tiles' values from the argument: the scale for the
// LSE and scale * log2(e) for the exponentials.
// TILED-LABEL: func.func @explicit_scale
// TILED-SAME:    %[[S:[a-z0-9_]+]]: f32 {attn.scale = 1.000000e-01 : f32})
// TILED:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// TILED:         %[[SL2:.*]] = arith.mulf %[[S]], %[[LOG2E]] : f32
// TILED:         scf.forall
// TILED:           attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %[[SL2]]
// TILED:           attn.finalize %{{.*}}, %{{.*}}, %{{.*}} scale %[[S]]
func.func @explicit_scale(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                          %v: tensor<2x2x?x64xbf16>) -> tensor<2x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal scale = 0.1
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>
  return %o : tensor<2x8x?x64xbf16>
}

// -----

// Without a scale attribute the argument records the default 1/sqrt(D); with
// a softcap the softcap takes the scale and the softmax runs with scale 1.
// CHECK-LABEL: func.func @default_scale_softcap
// CHECK-SAME:    %[[S:[a-z0-9_]+]]: f32 {attn.scale = 1.250000e-01 : f32})
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} scale_value(%[[S]]) softcap = 3.000000e+01
// TILED-LABEL: func.func @default_scale_softcap
// TILED-SAME:    %[[S:[a-z0-9_]+]]: f32 {attn.scale = 1.250000e-01 : f32})
// TILED:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// TILED:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// TILED:           attn.softcap %{{.*}} scale %[[S]] cap = 3.000000e+01
// TILED:           attn.exp_diff %{{.*}}, %{{.*}} scale_log2 %[[LOG2E]]
// TILED:           attn.finalize %{{.*}}, %{{.*}}, %{{.*}} scale %[[ONE]]
func.func @default_scale_softcap(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>,
                                 %v: tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16> {
  %o = attn.attention %q, %k, %v softcap = 30.0
      : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>
      -> tensor<1x4x?x64xf16>
  return %o : tensor<1x4x?x64xf16>
}

// -----

// A scale that already is a value stays; a called function keeps its
// signature (its callers would break).
// CHECK-LABEL: func.func @given
// CHECK-SAME:    (%{{.*}}: tensor<1x4x?x64xf16>, %{{.*}}: tensor<1x4x?x64xf16>, %{{.*}}: tensor<1x4x?x64xf16>, %[[S:[a-z0-9_]+]]: f32)
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} scale_value(%[[S]]) :
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%{{.*}}: tensor<1x4x?x64xf16>, %{{.*}}: tensor<1x4x?x64xf16>, %{{.*}}: tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16>
// CHECK:         attn.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 5.000000e-01 :
func.func @given(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>,
                 %v: tensor<1x4x?x64xf16>, %s: f32) -> tensor<1x4x?x64xf16> {
  %o = attn.attention %q, %k, %v scale_value(%s)
      : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>
      -> tensor<1x4x?x64xf16>
  %r = func.call @callee(%q, %k, %o) : (tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16>
  return %r : tensor<1x4x?x64xf16>
}
func.func private @callee(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>,
                          %v: tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16> {
  %o = attn.attention %q, %k, %v scale = 0.5
      : tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>
      -> tensor<1x4x?x64xf16>
  return %o : tensor<1x4x?x64xf16>
}
