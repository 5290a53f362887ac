// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-signal-dependents --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}'
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-signal-dependents="at=start" --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=START
// RUN: not attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=128" --attn-signal-dependents="at=start" \
// RUN:   --attn-warp-specialize --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BESIDE
// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=128" --attn-warp-specialize \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=ORDINARY --implicit-check-not=griddepcontrol --implicit-check-not=programmatic_launch

// A split-KV attention (kv_splits) becomes two kernels. The combine kernel,
// lowered from attn.combine_splits: four warps, at least four CTAs an SM
// where every pass over a row's columns is whole (Dv = 64 here; so that
// ptxas gives each warp the registers of its loads); the O box of one
// row unswizzled, then the LSE and the workspace's partial O and LSE, Nq,
// the split count and the rows a CTA (the runtime's choice from the count).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @split_combine(%[[O:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME:    %[[LSE:[^:]*]]: !llvm.ptr<1>, %[[PO:[^:]*]]: !llvm.ptr<1>, %[[PL:[^:]*]]: !llvm.ptr<1>, %[[NQ:[^:]*]]: i32, %[[S:[^:]*]]: i32, %[[ROWS_PARAM:[^:]*]]: i32)
// CHECK-SAME:    attributes {nvvm.kernel, nvvm.minctasm = 4 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
// A programmatic dependent launch: the kernel may start while the attention
// kernel runs, so no partial is read before its wait for that grid.
// CHECK-NOT:     llvm.load
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NOT:     llvm.load
// CHECK:         %[[WARP:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK-NOT:     llvm.load
// CHECK:         %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NOT:     llvm.load
// CHECK:         %[[H:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NOT:     llvm.load
// CHECK:         %[[B:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NOT:     llvm.load
// The CTA's rows start at row rows-a-CTA x; each takes four / rows-a-CTA
// warps (all four share a row's splits, or a warp takes a row), selected
// between the two constants so that the divisions by them fold to shifts.
// CHECK:         %[[SHARED_ROW:.*]] = arith.cmpi eq, %[[ROWS_PARAM]], %c1_i32 : i32
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ROWS_PER_CTA:.*]] = arith.select %[[SHARED_ROW]], %[[ONE]], %[[FOUR]] : i32
// CHECK-NEXT:    %[[ONE_AGAIN:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[FOUR_AGAIN:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[WARPS_PER_ROW:.*]] = arith.select %[[SHARED_ROW]], %[[FOUR_AGAIN]], %[[ONE_AGAIN]] : i32
// CHECK-NOT:     llvm.load
// Every CTA holds rows (its grid is ceil(Nq / rows a CTA)): no branch
// around them. A warp's row past Nq reads row Nq - 1.
// CHECK:         %[[FIRST_ROW:.*]] = arith.muli %[[CTA]], %[[ROWS_PER_CTA]] : i32
// CHECK-NOT:       scf.if
// CHECK-NOT:       llvm.load
// CHECK:           %[[ROW_IN_CTA:.*]] = arith.divui %[[WARP]], %[[WARPS_PER_ROW]] : i32
// CHECK-NOT:       llvm.load
// CHECK:           %[[WARP_IN_ROW:.*]] = arith.remui %[[WARP]], %[[WARPS_PER_ROW]] : i32
// CHECK-NOT:       llvm.load
// CHECK:           %[[LAST_ROW:.*]] = arith.subi %[[NQ]], %c1_i32{{.*}} : i32
// CHECK:           %[[UNCLAMPED:.*]] = arith.addi %[[FIRST_ROW]], %[[ROW_IN_CTA]] : i32
// CHECK:           arith.minui %[[UNCLAMPED]], %[[LAST_ROW]] : i32
// CHECK-NOT:       llvm.load
// CHECK:           nvvm.griddepcontrol wait
// M, in every warp: each lane's maximum over splits lane, lane + 32, ... of
// the partial LSE, then a butterfly over the warp.
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK:             llvm.getelementptr %[[PL]]
// CHECK:             arith.maximumf
// CHECK-COUNT-5:   nvvm.shfl.sync  bfly
// The warp weighs splits 16 i + g, ..., + 15 (i its place among its row's
// warps; g steps by 16 warps a row): all sixteen splits' loads first (their
// LSE and two columns a lane), then exp2((LSE_s - M) log2 e) and the FMAs;
// one past the count reads the last split (min) and weighs 0 (select).
// CHECK:           %[[COUNT:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK:           %[[LAST:.*]] = arith.subi %[[COUNT]], %c1
// CHECK:           %[[FIRST:.*]] = arith.muli %[[WARP_IN_ROW]], %[[SIXTEEN:[^ ]*]] : i32
// CHECK:           %[[FIRST_IDX:.*]] = arith.index_cast %[[FIRST]] : i32 to index
// CHECK:           %[[STEP:.*]] = arith.muli %[[WARPS_PER_ROW]], %{{.*}} : i32
// CHECK:           %[[STEP_IDX:.*]] = arith.index_cast %[[STEP]] : i32 to index
// CHECK:           %[[SUMS:.*]]:2 = scf.for %[[G:.*]] = %[[FIRST_IDX]] to %[[COUNT]] step %[[STEP_IDX]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, vector<2xf32>)
// CHECK:             %[[S0:.*]] = arith.addi %[[G]], %{{.*}} : index
// CHECK:             %[[EXISTS:.*]] = arith.cmpi ult, %[[S0]], %[[COUNT]] : index
// CHECK:             %[[SPLIT:.*]] = arith.minui %[[S0]], %[[LAST]] : index
// CHECK:             llvm.getelementptr %[[PL]]
// CHECK:             llvm.getelementptr %[[PO]]
// CHECK-COUNT-16:    llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK:             %[[WEIGHT:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:             arith.select %[[EXISTS]], %[[WEIGHT]], %{{.*}} : f32
// CHECK:             llvm.intr.fma(%{{.*}}) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-COUNT-15:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NOT:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:             scf.yield
// Each warp's columns, sum of weights and M into shared memory (after the
// four staged rows of O, 128 bytes each here), then a barrier.
// CHECK:           %[[SMEM:.*]] = llvm.mlir.addressof @attn_smem : !llvm.ptr<3>
// CHECK:           llvm.store %[[SUMS]]#1, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK:           llvm.store %[[SUMS]]#0, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:           llvm.store %{{[^,]*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK:           nvvm.barrier0
// A column pair of a row a thread: its warps' sums and columns added
// (selects of the four warps'), times 1 / sum, in bf16 into the row's
// staged copy; the LSE M + ln(sum) stored directly where the row is below
// Nq.
// CHECK:           scf.if
// CHECK-COUNT-4:     llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK:             llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK:             llvm.store %{{.*}} : vector<2xbf16>, !llvm.ptr<3>
// CHECK:             %[[LSE_ROW:.*]] = arith.addi %[[FIRST_ROW]], %{{.*}} : i32
// CHECK:             arith.cmpi ult, %[[LSE_ROW]], %[[NQ]] : i32
// The row's M from the first of its warps (warpsPerRow r).
// CHECK:             arith.muli %{{.*}}, %[[WARPS_PER_ROW]] : i32
// CHECK:             llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// CHECK:             llvm.getelementptr %[[LSE]]
// CHECK:             llvm.store %{{.*}} : f32, !llvm.ptr<1>
// Then thread r stores the CTA's row r, one TMA store of one row.
// CHECK:           nvvm.fence.proxy
// CHECK:           nvvm.barrier0
// CHECK:           %[[STORED_ROW:.*]] = arith.addi %[[FIRST_ROW]], %[[TID]] : i32
// CHECK:           %[[OWN_ROW:.*]] = arith.cmpi ult, %[[TID]], %[[ROWS_PER_CTA]] : i32
// CHECK:           %[[BELOW_NQ:.*]] = arith.cmpi ult, %[[STORED_ROW]], %[[NQ]] : i32
// CHECK:           %[[STORES:.*]] = arith.andi %[[OWN_ROW]], %[[BELOW_NQ]] : i1
// CHECK:           scf.if %[[STORES]] {
// CHECK:             %[[SOURCE:.*]] = arith.muli %[[TID]], %c128_i32{{.*}} : i32
// CHECK:             %[[SOURCE_PTR:.*]] = llvm.getelementptr %[[SMEM]][%[[SOURCE]]]
// CHECK:             nvvm.cp.async.bulk.tensor.global.shared.cta %[[O]], %[[SOURCE_PTR]], box[%{{.*}}, %[[STORED_ROW]], %[[H]], %[[B]]]
// The attention kernel: the workspace pointers, and for a launch of one
// split (the count is chosen at launch) the O tensor map and the LSE
// pointer; the batch size and the split count (the function's index
// argument) are parameters. Its ABI names the combine kernel.
// CHECK:       llvm.func @split(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %[[APO:[^:]*]]: !llvm.ptr<1>, %[[APL:[^:]*]]: !llvm.ptr<1>, %[[AO:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[ALSE:[^:]*]]: !llvm.ptr<1>,
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[BATCH:[^:]*]]: i32, %[[SPLITS:[^:]*]]: i32)
// CHECK-SAME:    grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch", "kv_splits"]>]
// CHECK-SAME:    #attn.kernel_param<"pointer", "o_partial">, #attn.kernel_param<"pointer", "lse_partial">,
// CHECK-SAME:    #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"pointer", "lse">,
// CHECK-SAME:    #attn.kernel_param<"i32", "batch">, #attn.kernel_param<"i32", "kv_splits">]
// CHECK-SAME:    split_kv = <splits = 0, kv_block = 128, entry = "split_combine", threads = 128, shared_memory = 1568,
// CHECK-SAME:      grid = [#attn.grid_dim<["combine_ctas"]>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>],
// CHECK-SAME:      params = [#attn.kernel_param<"tensor_map", "o", box = [64, 1, 1, 1], swizzle = 0>, #attn.kernel_param<"pointer", "lse">,
// CHECK-SAME:        #attn.kernel_param<"i32", "kv_splits">, #attn.kernel_param<"i32", "combine_rows">],
// CHECK-SAME:      programmatic_launch = true>
// The split count the IR's kv range divides by (max with 1) is the
// parameter; grid z is batch x split, batches fastest.
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ONE_SPLIT:.*]] = arith.cmpi eq, %[[SPLITS]], %[[ONE]] : i32
// CHECK:         %[[SPLITS_IDX:.*]] = arith.index_cast %[[SPLITS]] : i32 to index
// CHECK:         %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK:         arith.remui %[[Z]], %[[BATCH]] : i32
// CHECK:         %[[SPLIT:.*]] = arith.divui %[[Z]], %[[BATCH]] : i32
// Each role computes the kv range's start (the split's first block: split
// x ceil(blocks / max(splits, 1))), from which its ring iterations count,
// after its setmaxnreg: nothing before the role branch divides the blocks.
// CHECK-NOT:     arith.ceildivsi
// CHECK:         nvvm.setmaxregister  decrease 24
// CHECK:         arith.ceildivsi
// CHECK:         arith.maxsi %[[SPLITS_IDX]], %{{.*}} : index
// CHECK:         scf.for
// CHECK:         nvvm.setmaxregister  increase 240
// CHECK-NOT:     scf.for
// CHECK:         arith.maxsi %[[SPLITS_IDX]], %{{.*}} : index
// The consumers' epilogue first lets the combine kernel launch (the tile's
// attn.launch_dependents). At one split O goes out as without a split
// (the Q buffer, one TMA store a warpgroup), and the LSE to its buffer;
// else the split's rows of O (normalized, f32) and its LSE go to the
// workspace directly: an 8-byte store per column pair, no TMA store.
// CHECK-NOT:     griddepcontrol
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK:         scf.if %[[ONE_SPLIT]] {
// CHECK-NOT:       llvm.getelementptr %[[APO]]
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta %[[AO]]
// CHECK:         } else {
// CHECK-NOT:       cp.async.bulk.tensor.global.shared.cta
// CHECK:           llvm.getelementptr %[[APO]]
// CHECK:           llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT:     cp.async.bulk.tensor.global.shared.cta
// CHECK:         %[[LSE_PTR:.*]] = arith.select %[[ONE_SPLIT]], %[[ALSE]], %[[APL]] : !llvm.ptr<1>
// CHECK:         llvm.getelementptr %[[LSE_PTR]]
// CHECK:         llvm.store %{{.*}} : f32, !llvm.ptr<1>
// attn.launch_dependents before the first kv loop: the consumers signal
// before they wait for Q, and only there.
// START-LABEL: llvm.func @split(
// START-SAME:    programmatic_launch = true>
// START:         nvvm.griddepcontrol launch_dependents
// START-NOT:     scf.for
// START:         nvvm.mbarrier.try_wait.parity
// START:         scf.for
// START-NOT:     griddepcontrol
// START:         llvm.return
// attn-signal-dependents run before attn-warp-specialize leaves the op
// before the kv loops, in the forall's body beside the attn.warp_specialize,
// where no role would run it: rejected, not dropped.
// BESIDE: error: convert-attn-to-nvvm: attn.launch_dependents must sit in the consumer region of the tile's attn.warp_specialize
// A tile without attn.launch_dependents (no attn-signal-dependents): the
// combine is an ordinary launch after the attention kernel: neither kernel
// has a griddepcontrol, and the ABI does not say programmatic_launch (the
// RUN line's implicit-check-nots).
// ORDINARY-LABEL: gpu.module @attn_kernels
// ORDINARY:       llvm.func @split_combine
// ORDINARY:       llvm.func @split(
// ORDINARY-SAME:  split_kv = <splits = 0
// ORDINARY-LABEL: gpu.module @attn_kernels
func.func @split(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                 %v: tensor<?x4x?x64xbf16>, %splits: index)
    -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

// -----

// A compiled-in split count: the kernel takes no kv_splits parameter (its
// ABI records the count for the runtime), and a combine kernel without an
// LSE to write takes no LSE pointer.
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @fixed_combine(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// CHECK:       llvm.func @fixed(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32)
// CHECK-SAME:    split_kv = <splits = 3, kv_block = 128, entry = "fixed_combine"
// CHECK-SAME:      params = [#attn.kernel_param<"tensor_map", "o", box = [64, 1, 1, 1], swizzle = 0>, #attn.kernel_param<"pointer", "o_partial">,
func.func @fixed(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                 %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %splits = arith.constant 3 : index
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// Without an LSE the one-split kernel takes O's map and no LSE pointer; at
// one split it stores no LSE at all (the partial LSE's stores are guarded
// by kv_splits != 1).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @split_no_lse(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %{{[^:]*}}: !llvm.ptr<1>, %[[NL_APL:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[NL_SPLITS:[^:]*]]: i32)
// CHECK-SAME:    #attn.kernel_param<"pointer", "lse_partial">, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">
// CHECK:         %[[NL_ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[NL_ONE_SPLIT:.*]] = arith.cmpi eq, %[[NL_SPLITS]], %[[NL_ONE]] : i32
// CHECK:         %[[NL_SPLIT_LSE:.*]] = arith.xori %[[NL_ONE_SPLIT]], %{{.*}} : i1
// CHECK:         %[[NL_ROW_OK:.*]] = arith.andi %{{.*}}, %[[NL_SPLIT_LSE]] : i1
// CHECK:         scf.if %[[NL_ROW_OK]] {
// CHECK:           llvm.getelementptr %[[NL_APL]]
func.func @split_no_lse(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                        %v: tensor<?x4x?x64xbf16>, %splits: index) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// Dv = 80: a warp's second pass over the row covers 16 of its 64 columns,
// and the combine asks for three CTAs an SM (at four, 128 registers, the
// columns' predicates spilled).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @split_d80_combine(
// CHECK-SAME:    attributes {nvvm.kernel, nvvm.minctasm = 3 : i32, nvvm.reqntid = array<i32: 128, 1, 1>}
func.func @split_d80(%q: tensor<?x4x?x80xbf16>, %k: tensor<?x4x?x80xbf16>,
                     %v: tensor<?x4x?x80xbf16>, %splits: index) -> tensor<?x4x?x80xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16>
      -> tensor<?x4x?x80xbf16>
  return %o : tensor<?x4x?x80xbf16>
}
