// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="software-exp2-period=2" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=HALF
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="software-exp2-period=2" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=HALF-LOOPS
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="software-exp2-period=1" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=MUFU --implicit-check-not=0x4B400000
// The whole pipeline passes the option on; the manifest records it.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" --attn-defer-softcap-cap --attn-softcap-fixed-max \
// RUN:   --attn-warp-specialize="software-exp2-period=2" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=FIXED
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" --attn-defer-softcap-cap --attn-softcap-fixed-max \
// RUN:   --attn-warp-specialize="software-exp2-period=2" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits \
// RUN:   | sed 's/3.000000e+01/1.000000e+02/g' | attnc-opt --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=UNBOUNDED
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 software-exp2-period=2" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 software-exp2-period=2" \
// RUN:   | grep -c 'llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"' | FileCheck %s --check-prefix=PIPELINE-EX2
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE-TABLE
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 software-exp2-period=-1" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE-OFF --implicit-check-not=software_exp2_period
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 softcap-fixed-max=false" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE-OFF --implicit-check-not=software_exp2_period

// attn.exp_diff's software_exp2_period = N: of a thread's scores, element
// pair k (elements 2k, 2k + 1) with k % N = 0 computes exp2 with FMA-pipe
// arithmetic (buildSoftwareExp2), the others with MUFU.EX2; the rescale
// factor's two exp2 (one per row) stay MUFU.EX2. Here two consumer
// warpgroups of 64 x 64 scores: 32 per thread, 16 pairs, in each of the
// two kv loops (full, diagonal). Without the attribute a loop has
// 32 + 2 ex2.approx, with N = 2 16 + 2, with N = 1 only the 2 of the
// rescale factor.

// HALF-LABEL: llvm.func @causal_softcap(
// HALF:         scf.for {{.*}} iter_args(
// The software exp2 of element 0 (pair 0): x = s c - m c, then n = round(x)
// through 1.5 * 2^23, f = x - n, the Horner fmas of the degree-3
// polynomial, 2^n as (bits(t) << 23) + bits(1.0), and +0 for x < -126
// (also x = -inf: masked scores).
// HALF:         %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// HALF-NEXT:    %[[T:.*]] = arith.addf %[[X:.*]], %[[MAGIC]] : f32
// HALF-NEXT:    %[[MAGIC2:.*]] = arith.constant 0x4B400000 : f32
// HALF-NEXT:    %[[R:.*]] = arith.subf %[[T]], %[[MAGIC2]] : f32
// HALF-NEXT:    %[[F:.*]] = arith.subf %[[X]], %[[R]] : f32
// HALF-NEXT:    %[[C3:.*]] = arith.constant 0.0551716685 : f32
// HALF-NEXT:    %[[C2:.*]] = arith.constant 0.242611125 : f32
// HALF-NEXT:    %[[P3:.*]] = llvm.intr.fma(%[[C3]], %[[F]], %[[C2]]) : (f32, f32, f32) -> f32
// HALF-NEXT:    %[[C1:.*]] = arith.constant 0.693260967 : f32
// HALF-NEXT:    %[[P2:.*]] = llvm.intr.fma(%[[P3]], %[[F]], %[[C1]]) : (f32, f32, f32) -> f32
// HALF-NEXT:    %[[C0:.*]] = arith.constant 0.999928057 : f32
// HALF-NEXT:    %[[P:.*]] = llvm.intr.fma(%[[P2]], %[[F]], %[[C0]]) : (f32, f32, f32) -> f32
// HALF-NEXT:    %[[C23:.*]] = arith.constant 23 : i32
// HALF-NEXT:    %[[TB:.*]] = arith.bitcast %[[T]] : f32 to i32
// HALF-NEXT:    %[[SH:.*]] = arith.shli %[[TB]], %[[C23]] : i32
// HALF-NEXT:    %[[ONE:.*]] = arith.constant 1065353216 : i32
// HALF-NEXT:    %[[EB:.*]] = arith.addi %[[SH]], %[[ONE]] : i32
// HALF-NEXT:    %[[SCALE:.*]] = arith.bitcast %[[EB]] : i32 to f32
// HALF-NEXT:    %[[Y:.*]] = arith.mulf %[[P]], %[[SCALE]] : f32
// HALF-NEXT:    %[[LIMIT:.*]] = arith.constant -1.260000e+02 : f32
// HALF-NEXT:    %[[UNDER:.*]] = arith.cmpf olt, %[[X]], %[[LIMIT]] : f32
// HALF-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// HALF-NEXT:    arith.select %[[UNDER]], %[[ZERO]], %[[Y]] : f32
// Element 1 too (pair 0), then elements 2 and 3 (pair 1) on MUFU.
// HALF-NEXT:    llvm.intr.fma
// HALF-NEXT:    arith.constant 0x4B400000 : f32
// HALF:         arith.select
// HALF-NEXT:    llvm.intr.fma
// HALF-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// HALF-NEXT:    llvm.intr.fma
// HALF-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// HALF-NEXT:    llvm.intr.fma
// HALF-NEXT:    arith.constant 0x4B400000 : f32
// HALF:         scf.yield
// Per kv loop: 16 + 2 ex2.approx, 16 software exponentials (3 fmas each).
// HALF-LOOPS-LABEL: llvm.func @causal_softcap(
// HALF-LOOPS:         scf.for {{.*}} iter_args(
// HALF-LOOPS-COUNT-18: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// HALF-LOOPS-NOT:     llvm.nvvm.ex2.approx
// HALF-LOOPS:         scf.yield
// HALF-LOOPS:         scf.for {{.*}} iter_args(
// HALF-LOOPS-COUNT-18: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// HALF-LOOPS-NOT:     llvm.nvvm.ex2.approx
// HALF-LOOPS:         scf.yield
// HALF-LOOPS-NOT:     llvm.nvvm.ex2.approx

// ALL-LABEL: llvm.func @causal_softcap(
// ALL:         scf.for {{.*}} iter_args(
// ALL-COUNT-2:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// ALL-NOT:       llvm.nvvm.ex2.approx
// ALL-COUNT-32:  arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// ALL-NOT:       llvm.nvvm.ex2.approx
// ALL:         scf.yield
// ALL:         scf.for {{.*}} iter_args(
// ALL-COUNT-2:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// ALL-NOT:       llvm.nvvm.ex2.approx
// ALL:         scf.yield

// MUFU-LABEL: llvm.func @causal_softcap(
// MUFU:         scf.for {{.*}} iter_args(
// MUFU-COUNT-34: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// MUFU-NOT:     llvm.nvvm.ex2.approx
// MUFU:         scf.yield
// MUFU:         scf.for {{.*}} iter_args(
// MUFU-COUNT-34: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// MUFU-NOT:     llvm.nvvm.ex2.approx
// MUFU:         scf.yield

// With the fixed max (attn-softcap-fixed-max) the full loop's scores are
// soft-capped and unmasked: x = s c is bounded by 30 log2(e), never -inf,
// so its software exp2 (buildBoundedSoftwareExp2) rounds x in the fma that
// computes it and selects nothing; the diagonal loop's masked scores keep
// the select of x < -126.
// FIXED-LABEL: llvm.func @causal_softcap(
// FIXED:         scf.for {{.*}} iter_args(
// FIXED:         %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// FIXED-NEXT:    %[[T:.*]] = llvm.intr.fma(%[[S:.*]], %[[C:.*]], %[[MAGIC]]) : (f32, f32, f32) -> f32
// FIXED-NEXT:    %[[MAGIC2:.*]] = arith.constant 0x4B400000 : f32
// FIXED-NEXT:    %[[NEG_N:.*]] = arith.subf %[[MAGIC2]], %[[T]] : f32
// FIXED-NEXT:    %[[F:.*]] = llvm.intr.fma(%[[S]], %[[C]], %[[NEG_N]]) : (f32, f32, f32) -> f32
// FIXED:         %[[TB:.*]] = arith.bitcast %[[T]] : f32 to i32
// FIXED:         arith.mulf
// FIXED-NEXT:    arith.constant 0x4B400000 : f32
// FIXED-NEXT:    llvm.intr.fma
// FIXED-NOT:     arith.cmpf olt
// FIXED:         scf.yield
// FIXED:         scf.for {{.*}} iter_args(
// FIXED-COUNT-16: arith.cmpf olt
// FIXED-NOT:     arith.cmpf olt
// FIXED:         scf.yield

// The same tile IR with a cap of 100 (the softcap's and the exponentials'
// score scale): |x| reaches 100 log2(e) > 126, outside the bounded form's
// domain, so the full loop's software exponentials keep their selects.
// UNBOUNDED-LABEL: llvm.func @causal_softcap(
// UNBOUNDED:         scf.for {{.*}} iter_args(
// UNBOUNDED-COUNT-16: arith.cmpf olt
// UNBOUNDED-NOT:     arith.cmpf olt
// UNBOUNDED:         scf.yield
// UNBOUNDED:         scf.for {{.*}} iter_args(
// UNBOUNDED-COUNT-16: arith.cmpf olt
// UNBOUNDED:         scf.yield

// PIPELINE: options = {{{.*}}softcap = 3.000000e+01 : f32, software_exp2_period = 2 : i64,
// Two loops of 16 (the pipeline fixes the soft-capped softmax's max:
// no rescale factor).
// PIPELINE-EX2: {{^}}32{{$}}
// The table's period 4 for a soft-capped softmax with a fixed max at
// D <= 128; none with -1, or with the running max (softcap-fixed-max=false).
// PIPELINE-TABLE: options = {{{.*}}softcap = 3.000000e+01 : f32, software_exp2_period = 4 : i64,
// PIPELINE-OFF: options = {{{.*}}softcap = 3.000000e+01 : f32, stages =
func.func @causal_softcap(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                          %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
