// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-generalize-scale \
// RUN:   --attn-tiling-pipeline="block-m=64" --attn-defer-softcap-cap --attn-order-tiles --attn-assign-layouts \
// RUN:   --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-generalize-scale \
// RUN:   --attn-tiling-pipeline="block-m=64" --attn-order-tiles --attn-assign-layouts \
// RUN:   --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --check-prefix=PER-SCORE
// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-generalize-scale \
// RUN:   --attn-tiling-pipeline="block-m=64" --attn-defer-softcap-cap --attn-softcap-fixed-max --attn-order-tiles \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=FIXED

// The kernel applies attn.softcap's cap where the tile IR says: per score
// unless attn-defer-softcap-cap left it to the row max and the exponentials.

// At D = 256 too attn-defer-softcap-cap leaves the cap to the row max: it
// reads the tanh values themselves. Without the pass the cap multiplies
// each tanh before the row max reads it.
// CHECK-LABEL: llvm.func @d256_softcap(
// CHECK:         scf.for
// (The softcap's result is the struct of the thread's 40 scores, block_n 80,
// which the row max unpacks.)
// CHECK:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK-NOT:       arith.mulf %{{.*}}, %[[T0]] : f32
// CHECK:           llvm.insertvalue %[[T0]], %{{.*}}[0]
// CHECK:           %[[SCORES:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[39]
// CHECK-NEXT:      %[[READ0:.*]] = llvm.extractvalue %[[SCORES]][0]
// CHECK:           arith.maxnumf %[[READ0]], %{{.*}} : f32
// PER-SCORE-LABEL: llvm.func @d256_softcap(
// PER-SCORE:         scf.for
// PER-SCORE:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// PER-SCORE:           %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// PER-SCORE-NEXT:      %[[C0:.*]] = arith.mulf %[[CAP]], %[[T0]] : f32
// PER-SCORE:           llvm.insertvalue %[[C0]], %{{.*}}[0]
// PER-SCORE:           %[[SCORES:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[39]
// PER-SCORE-NEXT:      %[[READ0:.*]] = llvm.extractvalue %[[SCORES]][0]
// PER-SCORE:           arith.maxnumf %[[READ0]], %{{.*}} : f32
func.func @d256_softcap(%q: tensor<1x2x?x256xbf16>, %k: tensor<1x2x?x256xbf16>, %v: tensor<1x2x?x256xbf16>) -> tensor<1x2x?x256xbf16> {
  %o = attn.attention %q, %k, %v softcap = 30.0
      : tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16>, tensor<1x2x?x256xbf16> -> tensor<1x2x?x256xbf16>
  return %o : tensor<1x2x?x256xbf16>
}

// -----

// At D = 64 attn-defer-softcap-cap moves the cap past the mask: the tail
// loop's selects read the tanh values themselves (-inf stays -inf under a
// positive cap), and no score is multiplied by the cap. Without the pass
// each tanh value is multiplied before the select reads it.
// PER-SCORE-LABEL: llvm.func @d64_causal_softcap(
// PER-SCORE:         scf.for
// PER-SCORE:         }
// PER-SCORE:         scf.for
// PER-SCORE:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// PER-SCORE:           %[[C0:.*]] = arith.mulf %{{.*}}, %[[T0]] : f32
// PER-SCORE:           llvm.insertvalue %[[C0]], %{{.*}}[0]
// PER-SCORE:           %[[SCORES:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[63]
// PER-SCORE:           %[[READ0:.*]] = llvm.extractvalue %[[SCORES]][0]
// PER-SCORE:           arith.select %{{.*}}, %[[READ0]], %{{.*}} : f32
// PER-SCORE:         llvm.return
// CHECK-LABEL: llvm.func @d64_causal_softcap(
// CHECK:         scf.for
// CHECK:         }
// CHECK:         scf.for
// CHECK:           %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK-NOT:       arith.mulf %{{.*}}, %[[T0]] : f32
// CHECK:           llvm.insertvalue %[[T0]], %{{.*}}[0]
// CHECK:           %[[SCORES:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[63]
// CHECK:           %[[READ0:.*]] = llvm.extractvalue %[[SCORES]][0]
// CHECK:           arith.select %{{.*}}, %[[READ0]], %{{.*}} : f32
// CHECK:         llvm.return
// With a fixed max (attn-softcap-fixed-max) the loops carry each row's
// running sum and O, and no step computes a row max: no max, no shuffle of
// the quad (only attn.finalize's sum reduction after the loops).
// FIXED-LABEL: llvm.func @d64_causal_softcap(
// FIXED:         scf.for {{.*}} -> (f32, f32, !llvm.struct<(
// FIXED-NOT:       arith.maxnumf
// FIXED-NOT:       nvvm.shfl.sync
// FIXED:           llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;"
// FIXED-NOT:       arith.maxnumf
// FIXED-NOT:       nvvm.shfl.sync
// FIXED:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// FIXED-NOT:       arith.maxnumf
// FIXED-NOT:       nvvm.shfl.sync
// FIXED:         scf.yield
// FIXED:         scf.for {{.*}} -> (f32, f32, !llvm.struct<(
// FIXED-NOT:       arith.maxnumf
// FIXED-NOT:       nvvm.shfl.sync
// FIXED:         scf.yield
// FIXED:         nvvm.shfl.sync
// FIXED:         llvm.return
func.func @d64_causal_softcap(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>, %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}
