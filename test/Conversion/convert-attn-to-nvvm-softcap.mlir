// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-generalize-scale \
// RUN:   --attn-tiling-pipeline="block-m=64" --attn-order-tiles --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s

// The two paths of attn.softcap's cap in the kernel (KernelTileOps.cpp).

// Above D = 128 the GEMMs bound the step: the cap multiplies each tanh
// before the row max reads it (a pending factor's register made D = 256
// spill).
// CHECK-LABEL: llvm.func @d256_softcap(
// CHECK:         scf.for
// CHECK:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK:           %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[C0:.*]] = arith.mulf %[[CAP]], %[[T0]] : f32
// CHECK:           arith.maxnumf %[[C0]], %{{.*}} : f32
func.func @d256_softcap(%q: tensor<1x2x?x256xbf16>, %k: tensor<1x2x?x256xbf16>, %v: tensor<1x2x?x256xbf16>) -> tensor<1x2x?x256xbf16> {
  %o = attn.attention %q, %k, %v softcap = 30.0
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16> -> tensor<1x2x?x256xbf16>
  return %o : tensor<1x2x?x256xbf16>
}

// -----

// At D = 64 the cap stays pending through the mask: the tail loop's selects
// read the tanh values themselves (-inf stays -inf under a positive cap),
// and no score is multiplied by the cap.
// CHECK-LABEL: llvm.func @d64_causal_softcap(
// CHECK:         scf.for
// CHECK:         }
// CHECK:         scf.for
// CHECK:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK:           arith.select %{{.*}}, %[[T0]], %{{.*}} : f32
// CHECK-NOT:       arith.mulf %{{.*}}, %[[T0]] : f32
// CHECK:         llvm.return
func.func @d64_causal_softcap(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>, %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}
