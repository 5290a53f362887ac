// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" --attn-order-tiles \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}'

// A causal, bf16, D = 64 attention with LSE becomes one kernel in
// gpu.module @attn_kernels; the host function is gone.
// CHECK-LABEL: gpu.module @attn_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
// CHECK:         llvm.mlir.global external @attn_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// Tensor maps of Q, K, V, O by value (grid_constant), then LSE, seq_q, seq_k.
// CHECK:         llvm.func @causal(%[[TQ:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:      %[[TK:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[TV:[^:]*]]: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:      %[[TO:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{[^:]*}}: !llvm.ptr<1>, %[[NQ:[^:]*]]: i32, %[[NK:[^:]*]]: i32)
// CHECK-SAME:      attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = {{[0-9]+}},
// CHECK-SAME:      grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>]
// CHECK-SAME:      nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>
// Causal query blocks launch longest first: CTA x computes query block
// ceil(Nq / 128) - 1 - x, the index arithmetic attn-order-tiles put in the
// IR; the forall's bound ceil(Nq / 128) is the grid's x size.
// CHECK:         %[[NCTA:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK:         %[[BLOCKS:.*]] = arith.index_cast %[[NCTA]] : i32 to index
// CHECK:         %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         %[[QB:.*]] = arith.index_cast %[[CTA]] : i32 to index
// CHECK:         %[[LAST:.*]] = arith.subi %[[BLOCKS]], %{{.*}} : index
// CHECK:         arith.subi %[[LAST]], %[[QB]] : index
// Barriers initialized by thread 0, which also prefetches the four tensor
// maps' descriptors, then the prologue TMA loads of Q.
// CHECK:         nvvm.mbarrier.init
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.prefetch tensormap in_param_space, %[[TQ]] : !llvm.ptr
// CHECK-NEXT:    nvvm.prefetch tensormap in_param_space, %[[TK]] : !llvm.ptr
// CHECK-NEXT:    nvvm.prefetch tensormap in_param_space, %[[TV]] : !llvm.ptr
// CHECK-NEXT:    nvvm.prefetch tensormap in_param_space, %[[TO]] : !llvm.ptr
// CHECK:         nvvm.mbarrier.arrive.expect_tx
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TQ]], %{{.*}}, box[
// The kv loops: S by wgmma SS, the softmax on registers, O by wgmma RS.
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvvm.shfl.sync  bfly
// CHECK:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:           llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}p, 1, 1, 1;
// The consumers hand each stage's K back to the producer warpgroup once S
// completed, its V after P V.
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           nvvm.mbarrier.arrive
// CHECK:         } {{.*}}
// Epilogue: O through shared memory, fenced for the async proxy, one TMA
// store per warpgroup (it clips rows past Nq).
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %[[TO]], %{{.*}}, box[
// CHECK:         nvvm.cp.async.bulk.commit.group
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:         llvm.return
func.func @causal(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                  %v: tensor<?x4x?x64xbf16>) -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}


// With the overlap, a block's K is released in its own step (the first
// block's in the prologue) and its V in the next step, after its P V. With
// two stages K and V are released separately: 5 arrivals in the IR (K and V
// in each of the two kv loops, the first block's K); with three, one per
// stage: 2 (the two kv loops). The epilogue releases nothing: no later load
// waits for the last block's stage.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on" --attn-assign-layouts --attn-allocate-shared-memory --attn-pipeline-kv-loops --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | grep -c "nvvm.mbarrier.arrive %" | FileCheck %s --check-prefix=OVERLAP-ARRIVALS
// OVERLAP-ARRIVALS: {{^}}5{{$}}
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=on stages=3" --attn-assign-layouts --attn-allocate-shared-memory --attn-pipeline-kv-loops --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | grep -c "nvvm.mbarrier.arrive %" | FileCheck %s --check-prefix=OVERLAP-ARRIVALS-3
// OVERLAP-ARRIVALS-3: {{^}}2{{$}}

// Two stages: the producer waits for a stage's K to be free (empty barriers
// of K at 49192 = 49152 + 8 x 5, after Q and the K and V full ones) before
// loading K, and for its V (at 49208) before loading V; the consumers arrive
// on the first once S completed and on the second after P V.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --check-prefix=EARLY-KEYS
// EARLY-KEYS-LABEL: llvm.func @causal(
// EARLY-KEYS-SAME:    %[[TQ:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[TK:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[TV:[^:]*]]: !llvm.ptr
// EARLY-KEYS:         nvvm.setmaxregister  decrease 24
// EARLY-KEYS:         scf.for
// EARLY-KEYS:           arith.constant 49192 : i32
// EARLY-KEYS:           nvvm.mbarrier.try_wait.parity
// EARLY-KEYS:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TK]],
// EARLY-KEYS:           arith.constant 49208 : i32
// EARLY-KEYS:           nvvm.mbarrier.try_wait.parity
// EARLY-KEYS:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TV]],
// EARLY-KEYS:         nvvm.setmaxregister  increase 240
// EARLY-KEYS:         scf.for
// EARLY-KEYS:           nvvm.wgmma.wait.group.sync.aligned 0
// EARLY-KEYS:           arith.constant 49192 : i32
// EARLY-KEYS:           nvvm.mbarrier.arrive
// EARLY-KEYS:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// EARLY-KEYS:           llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async
// EARLY-KEYS:           nvvm.wgmma.wait.group.sync.aligned 0
// EARLY-KEYS:           arith.constant 49208 : i32
// EARLY-KEYS:           nvvm.mbarrier.arrive
// EARLY-KEYS:         } {{.*}}

// Three stages: one empty barrier per stage, one arrival per stage and
// kv loop (after P V), as the producer is far enough ahead; the producer
// waits once per block: 6 try-waits in the kernel (producer 1, consumers' Q
// 1, K and V in each of the two kv loops) where two stages have 7.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="stages=3" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | grep -c "nvvm.mbarrier.arrive %" | FileCheck %s --check-prefix=SHARED-RELEASE
// SHARED-RELEASE: {{^}}2{{$}}
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="stages=3" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | grep -c "nvvm.mbarrier.try_wait.parity" | FileCheck %s --check-prefix=SHARED-WAITS
// SHARED-WAITS: {{^}}6{{$}}
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | grep -c "nvvm.mbarrier.try_wait.parity" | FileCheck %s --check-prefix=EARLY-KEYS-WAITS
// EARLY-KEYS-WAITS: {{^}}7{{$}}

// With intra_warpgroup_overlap, block j's S wgmma and block j-1's P V wgmma are
// committed as two groups; the softmax runs after waiting for the first only.
// Per step: S(j), then O *= a(j-1) while S runs, then P(j-1) V(j-1) from
// the carried bf16 P (no conversion before it), the softmax of block j, and
// its P rounded to bf16 (attn.truncate) before the full wait, after which
// the P V's A registers are kept live (an empty asm reading them).
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize="intra-warpgroup-overlap=true" --attn-assign-layouts --attn-allocate-shared-memory --attn-pipeline-kv-loops --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=OVERLAP
// OVERLAP:     nvvm.setmaxregister decrease 24
// OVERLAP:     nvvm.setmaxregister increase 240
// The producer's loop, then the consumer's first kv loop (the full one).
// OVERLAP:     scf.for
// OVERLAP:       scf.for
// OVERLAP-NOT:   llvm.fptrunc
// OVERLAP:       nvvm.mbarrier.try_wait.parity
// OVERLAP-NOT:   llvm.fptrunc
// OVERLAP:       nvvm.wgmma.mma_async
// OVERLAP:       nvvm.wgmma.commit.group.sync.aligned
// OVERLAP-NEXT:  llvm.extractvalue
// OVERLAP:       arith.mulf
// OVERLAP:       %[[A0:.+]] = llvm.extractvalue %[[P:arg[0-9]+]][0] : !llvm.struct<(i32,
// OVERLAP-NEXT:  %[[A1:.+]] = llvm.extractvalue %[[P]][1] :
// OVERLAP:       nvvm.wgmma.fence.aligned
// OVERLAP-NOT:   arith.mulf
// OVERLAP-NOT:   llvm.fptrunc
// OVERLAP-COUNT-3: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP:       %[[NEW_O:.+]] = llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16
// OVERLAP-NEXT:  nvvm.wgmma.commit.group.sync.aligned
// With ping-pong, this warpgroup's turn ends after both issues.
// OVERLAP:       nvvm.barrier.arrive id
// OVERLAP-NEXT:  nvvm.wgmma.wait.group.sync.aligned 1
// The softmax (fma, ex2) runs before the full wait; nothing after the P V
// issue rescales O (the step yields the P V's result as it is), and the
// stage's release waits for the row sums.
// OVERLAP:       llvm.intr.fma
// OVERLAP:       llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// OVERLAP:       llvm.fptrunc {{.*}} : vector<2xf32> to vector<2xbf16>
// OVERLAP-NOT:   arith.mulf
// The full wait keeps the carried P's registers (the P V's A operand) live
// up to it.
// OVERLAP:       %[[LIVE0:.+]] = llvm.extractvalue %[[P]][0] : !llvm.struct<(i32,
// OVERLAP-NEXT:  %[[LIVE1:.+]] = llvm.extractvalue %[[P]][1] :
// OVERLAP:       nvvm.wgmma.wait.group.sync.aligned 0
// OVERLAP-NEXT:  llvm.inline_asm has_side_effects asm_dialect = att "", "r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r" %[[LIVE0]], %[[LIVE1]],
// OVERLAP-NOT:   llvm.fptrunc
// OVERLAP:       arith.cmpf uge
// OVERLAP:       nvvm.mbarrier.arrive
// OVERLAP:       scf.yield %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NEW_O]],


// Without attn-order-tiles's reversal CTA x computes query block x: its
// first Q row is 128 x, and the manifest says in order.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=IN-ORDER
// IN-ORDER-LABEL: llvm.func @causal(
// IN-ORDER-SAME:    longest_first = 0 : i64
// IN-ORDER:         %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// IN-ORDER:         %[[QB:.*]] = arith.index_cast %[[CTA]] : i32 to index
// IN-ORDER-NOT:     arith.subi %{{.*}}, %[[QB]] : index
// IN-ORDER:         arith.muli %[[QB]], %{{.*}} : index
// IN-ORDER:         llvm.return

// Ping-pong (two consumer warpgroups): each waits on its own named barrier
// before its S wgmma and then arrives on the other's; warpgroup 1's
// pre-arrival is consumed by warpgroup 0 after attn.finalize (where the
// consumer region waits for it, before the forall stores O), so no arrival
// is pending at exit and the loop body has no branch.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s --check-prefix=PINGPONG
// PINGPONG-LABEL: llvm.func @causal(
// PINGPONG:         scf.if
// PINGPONG:           nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// PINGPONG:         scf.for
// PINGPONG:           nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PINGPONG:           nvvm.wgmma.mma_async
// PINGPONG:           nvvm.wgmma.commit.group.sync.aligned
// PINGPONG-NOT:       scf.if
// PINGPONG:           nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// PINGPONG-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// PINGPONG:         llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// PINGPONG:         scf.if
// PINGPONG:           nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PINGPONG:         nvvm.cp.async.bulk.wait_group 0 {read}

// Without P in registers (the FA3 "no RS" ablation): P goes to shared memory
// (fenced for the async proxy, one warpgroup barrier) and O += P V is wgmma
// SS with V transposed (MN-major, B layout row); no inline-asm wgmma is left.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory="probs-in-registers=false" --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=PROBS-SMEM --implicit-check-not=llvm.inline_asm
// PROBS-SMEM-LABEL: llvm.func @causal(
// PROBS-SMEM:         scf.for
// PROBS-SMEM:           nvvm.wgmma.mma_async {{.*}}B[<bf16>, <one>, <col>]
// PROBS-SMEM:           llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// PROBS-SMEM:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// PROBS-SMEM:           nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PROBS-SMEM:           nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// PROBS-SMEM:           nvvm.wgmma.commit.group.sync.aligned

// Conditional rescale (an attn.scale_rows marked `conditional` by
// attn-conditional-rescale; off by default, since it measured no faster):
// alpha is exactly 1 where a row max did not move, and O *= alpha runs only
// in warps where some row max moved (a warp vote keeps the branch uniform).
// Without the attribute every block multiplies.
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-conditional-rescale --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=RESCALE
// RESCALE-LABEL: llvm.func @causal(
// RESCALE-SAME:    conditional_rescale = 1 : i64
// RESCALE:         scf.for
// RESCALE:           %[[SAME0:.*]] = arith.cmpf oeq, %[[MOLD0:.*]], %{{.*}} : f32
// RESCALE-NEXT:      %[[E0:.*]] = llvm.intr.fma(%[[MOLD0]], %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// RESCALE-NEXT:      %[[A0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[E0]])
// RESCALE-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// RESCALE-NEXT:      %[[ALPHA0:.*]] = arith.select %[[SAME0]], %[[ONE]], %[[A0]] : f32
// The vote reads the selects' conditions: a row moved where m_old != m.
// RESCALE:           %[[MOVED0:.*]] = arith.xori %[[SAME0]], %{{.*}} : i1
// RESCALE:           %[[MOVED:.*]] = arith.ori %[[MOVED0]], %{{.*}} : i1
// RESCALE:           %[[ANY:.*]] = nvvm.vote.sync  any %{{.*}}, %[[MOVED]] -> i1
// RESCALE-NEXT:      %{{.*}} = scf.if %[[ANY]] -> (!llvm.struct<(f32,
// RESCALE:             arith.mulf %{{.*}}, %[[ALPHA0]] : f32
// RESCALE:           } else {
// RESCALE-NEXT:        scf.yield %{{.*}} : !llvm.struct<(f32,
// RESCALE:           llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async
// RUN: attnc-opt %s --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=ALWAYS --implicit-check-not=nvvm.vote.sync
// The pipelines run the pass with conditional-rescale=true; with the
// intra-warpgroup overlap the rotated steps rescale by the carried alpha,
// which the pass leaves unmarked: no vote, and the manifest says so.
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 conditional-rescale=true intra-warpgroup-overlap=off" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE-RESCALE
// PIPELINE-RESCALE-LABEL: llvm.func @causal(
// PIPELINE-RESCALE-SAME:    conditional_rescale = 1 : i64
// PIPELINE-RESCALE:         nvvm.vote.sync  any
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-m=128 block-n=64 conditional-rescale=true intra-warpgroup-overlap=on" \
// RUN:   | FileCheck %s --check-prefix=PIPELINE-ROTATED --implicit-check-not=nvvm.vote.sync
// PIPELINE-ROTATED-LABEL: llvm.func @causal(
// PIPELINE-ROTATED-SAME:    conditional_rescale = 0 : i64
// ALWAYS-LABEL: llvm.func @causal(
// ALWAYS-SAME:    conditional_rescale = 0 : i64
// ALWAYS:         llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async
