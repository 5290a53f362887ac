// RUN: attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=128" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s

// Static lengths: without attn-generalize-lengths, canonicalization would
// fold the zero- and single-trip kv loops of this shape (Nk = 513 would
// leave one full loop and an inlined tail block). Generalized, the tiled IR
// keeps an unmasked loop and a masked tail loop whose bounds the kernel
// computes from the launch-time lengths, so the ragged block 512..639 is
// masked (keys past Nk are -inf, not 0).
// CHECK-LABEL: llvm.func @ragged_static
// The unmasked loop: scores go straight to the row max.
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.mma_async
// CHECK-NOT:       arith.cmpi slt
// CHECK:           arith.maxnumf
// CHECK:         }
// The masked tail: with keys_left = seq_k - (this thread's first column),
// the thread's key c is visible iff keys_left > c; hidden scores are -inf.
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.mma_async
// CHECK:           %[[VIS:.*]] = arith.cmpi sgt, %[[LEFT:.*]], %{{.*}} : index
// CHECK-NEXT:      %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %[[VIS]], %{{.*}}, %[[NEG_INF]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      arith.cmpi sgt, %[[LEFT]], %[[ONE]] : index
// CHECK:         }
func.func @ragged_static(%q: tensor<1x2x100x64xbf16>, %k: tensor<1x2x513x64xbf16>,
                         %v: tensor<1x2x513x64xbf16>) -> tensor<1x2x100x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x100x64xbf16>, tensor<1x2x513x64xbf16>, tensor<1x2x513x64xbf16>
      -> tensor<1x2x100x64xbf16>
  return %o : tensor<1x2x100x64xbf16>
}

// Static decode with a window: generalized, the loops keep their attn.mask
// for other lengths; the manifest takes the mask from attn.finalize, not
// "none".
// RUN: attnc-opt %s --attn-generalize-lengths --attn-tiling-pipeline="block-m=64 block-n=128" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --check-prefix=DECODE
// DECODE-LABEL: llvm.func @decode_window
// DECODE-SAME:    mask = "causal_bottom_right"
// DECODE-SAME:    window_left = 127 : i64, window_right = 0 : i64
func.func @decode_window(%q: tensor<1x2x1x64xbf16>, %k: tensor<1x2x256x64xbf16>,
                         %v: tensor<1x2x256x64xbf16>) -> tensor<1x2x1x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right window = [127, 0]
      : tensor<1x2x1x64xbf16>, tensor<1x2x256x64xbf16>, tensor<1x2x256x64xbf16>
      -> tensor<1x2x1x64xbf16>
  return %o : tensor<1x2x1x64xbf16>
}

// One head, one query, one batch, all static: every forall dimension has
// extent 1, and its #gpu.block mapping keeps them (without it
// canonicalization inlined the body and no kernel was built). Empty static
// sizes (B = 0, Nq = 0) compile the same way: the lengths are generalized.
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline | FileCheck %s --check-prefix=TINY
// TINY-DAG: llvm.func @one_query({{.*}}nvvm.kernel
// TINY-DAG: llvm.func @empty_batch({{.*}}nvvm.kernel
// A static varlen batch: its packed totals are generalized (its batch of 1
// and offset count stay), and the kernel takes them at launch.
// TINY-DAG: llvm.func @static_varlen({{.*}}grid = [#attn.grid_dim<["seq_q"], ceil_div = {{[0-9]+}}, plus = ["batch"]>{{.*}}varlen = true{{.*}}nvvm.kernel
func.func @one_query(%q: tensor<1x1x1x64xbf16>, %k: tensor<1x1x4096x64xbf16>,
                     %v: tensor<1x1x4096x64xbf16>) -> tensor<1x1x1x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x1x64xbf16>, tensor<1x1x4096x64xbf16>, tensor<1x1x4096x64xbf16>
      -> tensor<1x1x1x64xbf16>
  return %o : tensor<1x1x1x64xbf16>
}

func.func @empty_batch(%q: tensor<0x1x0x64xbf16>, %k: tensor<0x1x0x64xbf16>,
                       %v: tensor<0x1x0x64xbf16>) -> tensor<0x1x0x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<0x1x0x64xbf16>, tensor<0x1x0x64xbf16>, tensor<0x1x0x64xbf16>
      -> tensor<0x1x0x64xbf16>
  return %o : tensor<0x1x0x64xbf16>
}

func.func @static_varlen(%q: tensor<1x300x8x64xbf16>, %k: tensor<1x500x2x64xbf16>,
                         %v: tensor<1x500x2x64xbf16>, %cu_q: tensor<5xi32>,
                         %cu_k: tensor<5xi32>) -> tensor<1x300x8x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<5xi32>, tensor<5xi32>)
      : tensor<1x300x8x64xbf16>, tensor<1x500x2x64xbf16>, tensor<1x500x2x64xbf16>
      -> tensor<1x300x8x64xbf16>
  return %o : tensor<1x300x8x64xbf16>
}
