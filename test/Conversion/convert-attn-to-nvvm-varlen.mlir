// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" --attn-warp-specialize \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}'

// A varlen batch (causal per sequence, BSHD): the kernel takes O as a
// pointer and the offsets as pointers, and the totals and the sequence
// count as i32; its grid x bounds the sequences' tiles.
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @varlen(%[[Q:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[K:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[V:[^:]*]]: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %[[O:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[CUQ:[^:]*]]: !llvm.ptr<1>, %[[CUK:[^:]*]]: !llvm.ptr<1>, %[[TOTAL_Q:[^:]*]]: i32, %{{[^:]*}}: i32, %[[SEQS:[^:]*]]: i32)
// CHECK-SAME:    grid = [#attn.grid_dim<["seq_q"], ceil_div = 128, plus = ["batch"]>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["one"]>]
// CHECK-SAME:    #attn.kernel_param<"pointer", "o">, #attn.kernel_param<"pointer", "lse">, #attn.kernel_param<"pointer", "cu_seqlens_q">, #attn.kernel_param<"pointer", "cu_seqlens_k">, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"i32", "batch">]
// CHECK-SAME:    varlen = true
// The tile scheduler (attn.sequence_tile), once per CTA: 32 sequences at a
// time, each lane's block count ceil(rows / 128) from cu_seqlens_q, a
// shuffle prefix sum, and the first lane past the tile by ballot.
// CHECK:         %[[TILE:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         %[[LAST_SEQ:.*]] = arith.subi %[[SEQS]], %{{.*}} : i32
// CHECK:         %[[WALK:.*]]:4 = scf.while
// CHECK:           llvm.getelementptr %[[CUQ]]
// CHECK:           llvm.getelementptr %[[CUQ]]
// CHECK:           %[[BLOCKS:.*]] = arith.divui %{{.*}}, %c128_i32{{.*}} : i32
// CHECK-COUNT-5:   nvvm.shfl.sync up
// CHECK:           nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %c31_i32
// CHECK:           scf.condition
// CHECK:         %[[BALLOT:.*]] = nvvm.vote.sync ballot
// CHECK:         "llvm.intr.cttz"(%[[BALLOT]])
// CHECK:         %[[BEFORE:.*]] = nvvm.shfl.sync idx
// CHECK:         %[[SEQ:.*]] = arith.addi %[[WALK]]#0, %{{.*}} : i32
// CHECK:         %[[SEQ_BLOCKS:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WALK]]#2
// CHECK:         %[[LOCAL_BLOCK:.*]] = arith.subi %{{.*}}, %[[BEFORE]] : i32
// CHECK:         arith.minui %[[LOCAL_BLOCK]], %[[SEQ_BLOCKS]] : i32
// The tile's sequence's rows, read from the offsets: Q's load at its first
// row plus the tile's (before the tile's ops), K and V at its first key
// (in the kv loop).
// CHECK:         %[[SEQ_IDX:.*]] = arith.index_cast %[[SEQ]] : i32 to index
// CHECK:         llvm.getelementptr %[[CUQ]]
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[Q]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:         scf.for
// CHECK:           llvm.getelementptr %[[CUK]]
// CHECK:           %[[K_BEGIN:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i32
// CHECK:           %[[K_BEGIN_IDX:.*]] = arith.index_cast %[[K_BEGIN]] : i32 to index
// CHECK:           %[[K_OFFSET:.*]] = arith.index_cast %[[K_BEGIN_IDX]] : index to i32
// CHECK:           %[[K_ROW:.*]] = arith.addi %[[K_OFFSET]], %{{.*}} : i32
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]], %{{.*}}, box[%{{.*}}, %[[K_ROW]], %{{.*}}, %{{.*}}]
// CHECK:           llvm.getelementptr %[[CUK]]
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[V]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// The epilogue: O through the Q buffer, 16 bytes a thread per store, only
// rows below the sequence's; no TMA store.
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
func.func @varlen(%q: tensor<1x?x4x64xbf16>, %k: tensor<1x?x2x64xbf16>, %v: tensor<1x?x2x64xbf16>,
                  %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x4x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16> -> tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
  return %o, %lse : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// A varlen batch of packed query heads (g = 2, as attn-pack-gqa writes it):
// the tile scheduler counts blocks of 128 / 2 = 64 tokens from
// cu_seqlens_q, the tile's rows are its sequence's offsets times 2, Q's
// box is 2 heads of 64 tokens at token row / 2 of the (d, g, s, h, b) map,
// and each 16-byte store of O goes to packed row r's token r / 2 and query
// head 2 h + r % 2 of the caller's [1, total, Hq = 4, 64].
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @varlen_packed(%[[Q:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %[[O:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[CUQ:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>,
// CHECK-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 2, 64, 1, 1]>
// CHECK-SAME:    packed_query_heads = 2 : i64, varlen = true
// CHECK:         scf.while
// CHECK:           llvm.getelementptr %[[CUQ]]
// CHECK:           %[[TOKENS:.*]] = arith.addi %{{.*}}, %c63_i32 : i32
// CHECK:           arith.divui %[[TOKENS]], %c64_i32{{.*}} : i32
// CHECK:         llvm.getelementptr %[[CUQ]]
// CHECK:         %[[FIRST_TOKEN:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:         %[[FIRST_ROW:.*]] = arith.muli %[[FIRST_TOKEN]], %[[TWO:c2[_0-9]*]] : index
// CHECK:         llvm.getelementptr %[[CUQ]]
// CHECK:         %[[LAST_TOKEN:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:         arith.muli %[[LAST_TOKEN]], %[[TWO]] : index
// CHECK:         nvvm.setmaxregister decrease
// CHECK:           %[[ROW:.*]] = arith.addi
// CHECK:           %[[Q_TOKEN:.*]] = arith.divui %[[ROW]], %c2_i32{{.*}} : i32
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[Q]], %{{.*}}, box[%{{.*}}, %{{.*}}, %[[Q_TOKEN]], %{{.*}}, %{{.*}}]
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         %[[O_TOKEN:.*]] = arith.divui %[[O_ROW:.*]], %c2_i32{{.*}} : i32
// CHECK:         %[[J:.*]] = arith.remui %[[O_ROW]], %c2_i32{{.*}} : i32
// CHECK:         %[[J64:.*]] = arith.extui %[[J]] : i32 to i64
// CHECK:         %[[KV_HEAD_ROW:.*]] = arith.muli %{{.*}}, %c2_i64 : i64
// CHECK:         %[[QUERY_HEAD:.*]] = arith.addi %[[KV_HEAD_ROW]], %[[J64]] : i64
// CHECK:         %[[TOKEN64:.*]] = arith.extui %[[O_TOKEN]] : i32 to i64
// CHECK:         %[[TOKEN_ROW:.*]] = arith.muli %[[TOKEN64]], %c4_i64 : i64
// CHECK:         arith.addi %[[TOKEN_ROW]], %[[QUERY_HEAD]] : i64
// CHECK:         llvm.getelementptr %[[O]]
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
func.func @varlen_packed(%q: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 2 : i64}, %k: tensor<1x?x2x64xbf16>,
                         %v: tensor<1x?x2x64xbf16>, %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>)
    -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal layout = bshd packed_query_heads = 2
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16> -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}

// -----

// The same in BHSD, with bottom-right causal masks: O's packed row r of kv
// head h is row (2 h + r % 2) * total + r / 2 of the caller's [1, Hq = 4,
// total, 64] (total = seq_q / 2), and the LSE's the same of [1, 4, total].
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @varlen_packed_bhsd(
// CHECK-SAME:    %[[O:[^:]*]]: !llvm.ptr<1>, %[[LSE:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[ROWS:[^:]*]]: i32,
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:         %[[O_TOKEN:.*]] = arith.divui %[[O_ROW:.*]], %c2_i32{{.*}} : i32
// CHECK:         %[[O_J:.*]] = arith.remui %[[O_ROW]], %c2_i32{{.*}} : i32
// CHECK:         %[[O_J64:.*]] = arith.extui %[[O_J]] : i32 to i64
// CHECK:         %[[O_HEADS:.*]] = arith.muli %{{.*}}, %c2_i64 : i64
// CHECK:         %[[O_HEAD:.*]] = arith.addi %[[O_HEADS]], %[[O_J64]] : i64
// CHECK:         %[[O_TOKEN64:.*]] = arith.extui %[[O_TOKEN]] : i32 to i64
// CHECK:         %[[O_TOTAL:.*]] = arith.divui %[[ROWS]], %c2_i32{{.*}} : i32
// CHECK:         %[[O_TOTAL64:.*]] = arith.extui %[[O_TOTAL]] : i32 to i64
// CHECK:         %[[O_HEAD_ROW:.*]] = arith.muli %[[O_HEAD]], %[[O_TOTAL64]] : i64
// CHECK:         arith.addi %[[O_HEAD_ROW]], %[[O_TOKEN64]] : i64
// CHECK:         llvm.getelementptr %[[O]]
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK:         %[[TOTAL:.*]] = arith.divui %[[ROWS]], %c2_i32{{.*}} : i32
// CHECK:         %[[TOKEN:.*]] = arith.divui %[[ROW:.*]], %c2_i32{{.*}} : i32
// CHECK:         %[[J:.*]] = arith.remui %[[ROW]], %c2_i32{{.*}} : i32
// CHECK:         %[[J64:.*]] = arith.extui %[[J]] : i32 to i64
// CHECK:         %[[HEADS:.*]] = arith.muli %{{.*}}, %c2_i64{{.*}} : i64
// CHECK:         %[[HEAD:.*]] = arith.addi %[[HEADS]], %[[J64]] : i64
// CHECK:         %[[TOKEN64:.*]] = arith.extui %[[TOKEN]] : i32 to i64
// CHECK:         %[[TOTAL64:.*]] = arith.extui %[[TOTAL]] : i32 to i64
// CHECK:         %[[HEAD_ROW:.*]] = arith.muli %[[HEAD]], %[[TOTAL64]] : i64
// CHECK:         %[[INDEX:.*]] = arith.addi %[[HEAD_ROW]], %[[TOKEN64]] : i64
// CHECK:         llvm.getelementptr %[[LSE]][%[[INDEX]]]
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
func.func @varlen_packed_bhsd(%q: tensor<1x2x?x64xbf16> {attn.packed_query_heads = 2 : i64}, %k: tensor<1x2x?x64xbf16>,
                              %v: tensor<1x2x?x64xbf16>, %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>)
    -> (tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 2
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
}

// -----

// A varlen batch of packed query heads split over the keys (kv_splits, as
// attn-split-kv gives it): the attention grid's z is one x kv_splits. A
// split stores its f32 partial rows below its sequence's end (2 x
// cu_seqlens_q[b + 1]) at workspace batch split + 0, a batch of 1 (no
// stride of the sequence count); at one split the tile writes O itself
// through the o pointer with 16-byte stores, as an unsplit varlen tile
// does. The combine kernel's grid z is one: it reads cu_seqlens_q[0] and
// cu_seqlens_q[batch] and stores neither O nor the LSE before 2 x the first
// or at or past 2 x the second (rows no tile wrote partials for).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @varlen_split_combine(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[C_ROWS:[^:]*]]: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[C_CUQ:[^:]*]]: !llvm.ptr<1>, %[[C_SEQS:[^:]*]]: i32)
// CHECK:         %[[C_ZERO:.*]] = arith.extui %c0_i32 : i32 to i64
// CHECK:         %[[C_FIRST_PTR:.*]] = llvm.getelementptr %[[C_CUQ]][%[[C_ZERO]]]
// CHECK:         %[[C_FIRST:.*]] = llvm.load %[[C_FIRST_PTR]]
// CHECK:         %[[C_BEGIN:.*]] = arith.muli %[[C_FIRST]], %c2_i32 : i32
// CHECK:         %[[C_SEQS64:.*]] = arith.extui %[[C_SEQS]] : i32 to i64
// CHECK:         %[[C_LAST_PTR:.*]] = llvm.getelementptr %[[C_CUQ]][%[[C_SEQS64]]]
// CHECK:         %[[C_LAST:.*]] = llvm.load %[[C_LAST_PTR]]
// CHECK:         %[[C_LAST_ROW:.*]] = arith.muli %[[C_LAST]], %{{c2_i32[_0-9]*}} : i32
// CHECK:         %[[C_END:.*]] = arith.minui %[[C_LAST_ROW]], %[[C_ROWS]] : i32
// CHECK:         arith.cmpi ult, %[[C_LSE_ROW:.*]], %[[C_END]] : i32
// CHECK:         arith.cmpi uge, %[[C_LSE_ROW]], %[[C_BEGIN]] : i32
// CHECK:         arith.cmpi ult, %[[C_O_ROW:.*]], %[[C_END]] : i32
// CHECK:         arith.cmpi uge, %[[C_O_ROW]], %[[C_BEGIN]] : i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:       llvm.func @varlen_split(
// CHECK-SAME:    %[[PARTIAL_O:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[O:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %[[CUQ:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[SPLITS:[^:]*]]: i32)
// CHECK-SAME:    #attn.grid_dim<["one", "kv_splits"]>
// CHECK-SAME:    #attn.kernel_param<"pointer", "o_partial">, #attn.kernel_param<"pointer", "lse_partial">, #attn.kernel_param<"pointer", "o">
// CHECK-SAME:    split_kv = <splits = 0, {{.*}} grid = [#attn.grid_dim<["combine_ctas"]>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["one"]>]
// CHECK-SAME:    #attn.kernel_param<"pointer", "cu_seqlens_q">, #attn.kernel_param<"i32", "batch">]>
// CHECK:         %[[ONE_SPLIT:.*]] = arith.cmpi eq, %[[SPLITS]], %c1_i32 : i32
// CHECK:         scf.if %[[ONE_SPLIT]] {
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK:         } else {
// CHECK:           %[[NEXT_SEQ:.*]] = arith.addi %{{.*}}, %{{c1[_0-9]*}} : index
// CHECK:           %[[NEXT_SEQ64:.*]] = arith.index_cast %[[NEXT_SEQ]] : index to i64
// CHECK:           %[[NEXT_PTR:.*]] = llvm.getelementptr %[[CUQ]][%[[NEXT_SEQ64]]]
// CHECK:           %[[NEXT:.*]] = llvm.load %[[NEXT_PTR]]
// CHECK:           %[[NEXT_IDX:.*]] = arith.index_cast %[[NEXT]] : i32 to index
// CHECK:           %[[END_ROW:.*]] = arith.muli %[[NEXT_IDX]], %{{c2[_0-9]*}} : index
// CHECK:           %[[END:.*]] = arith.index_cast %[[END_ROW]] : index to i32
// CHECK:           %[[IN_SEQUENCE:.*]] = arith.cmpi slt, %{{.*}}, %[[END]] : i32
// CHECK:           scf.if %[[IN_SEQUENCE]] {
// CHECK:             %[[BATCH64:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK:             %[[SPLIT64:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK:             %[[SPLIT_ROW:.*]] = arith.addi %[[SPLIT64]], %[[BATCH64]] : i64
// CHECK:             arith.muli %[[SPLIT_ROW]], %c2_i64 : i64
// CHECK:             llvm.getelementptr %[[PARTIAL_O]]
// CHECK:             llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
func.func @varlen_split(%q: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 2 : i64}, %k: tensor<1x?x2x64xbf16>,
                        %v: tensor<1x?x2x64xbf16>, %cu_q: tensor<?xi32>, %cu_k: tensor<?xi32>, %splits: index)
    -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd packed_query_heads = 2
      kv_splits(%splits) varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16>, tensor<1x?x2x64xbf16> -> tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}
