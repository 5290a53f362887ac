// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=128 block-n=64" --attn-warp-specialize \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm \
// RUN:   | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}'

// A paged KV cache (pages of 16 tokens, 64-key blocks): the kernel takes
// the block table and the cache lengths as pointers and the table's row
// length (pages_per_seq) instead of seq_k; K's and V's tensor maps describe
// the page pools, one 16-row box a page.
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @paged(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %[[K:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[V:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %{{[^:]*}}: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    %[[BT:[^:]*]]: !llvm.ptr<1>, %[[CL:[^:]*]]: !llvm.ptr<1>, %{{[^:]*}}: i32, %[[PAGES:[^:]*]]: i32)
// CHECK-SAME:    #attn.kernel_param<"tensor_map", "k", box = [64, 16, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 16, 1, 1]>
// CHECK-SAME:    #attn.kernel_param<"pointer", "block_table">, #attn.kernel_param<"pointer", "cache_lengths">, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "pages_per_seq">]
// CHECK-SAME:    page_size = 16 : i64
// The tile's keys: its sequence's cache length, read once per tile.
// CHECK:         %[[B:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK:         %[[B_IDX:.*]] = arith.index_cast %[[B]] : i32 to index
// CHECK:         %[[B64:.*]] = arith.index_cast %[[B_IDX]] : index to i64
// CHECK:         %[[LP:.*]] = llvm.getelementptr %[[CL]][%[[B64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK:         llvm.load %[[LP]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// The producer: a kv block's four pages read from the block table first
// (the slot clamped into the row, -1 for tokens past the cache length),
// then one TMA box per page and atom into the stage, for K and, with the
// same pages, for V.
// CHECK:         %[[LAST:.*]] = arith.subi %[[PAGES]], %{{.*}} : i32
// CHECK-COUNT-4: arith.minui %{{.*}}, %[[LAST]] : i32
// CHECK:         arith.select %{{.*}}, %{{.*}}, %c-1_i32{{.*}} : i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %[[P0:.*]]] :
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]],
// CHECK-NOT:     llvm.getelementptr %[[BT]]
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[V]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %[[P0]]] :
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[V]],
func.func @paged(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x16x4x64xbf16>, %v: tensor<?x16x4x64xbf16>,
                 %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x4x?x64xbf16>, tensor<?x16x4x64xbf16>, tensor<?x16x4x64xbf16> -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// Pages of 256 tokens, 64-key blocks: a block is a quarter of one page, so
// each K and V tile is one box (64 rows) at the block's row in its page,
// token mod 256, and one block-table entry, token / 256.
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:       llvm.func @big_pages(%{{[^:]*}}: !llvm.ptr {{{[^}]*}}}, %[[K:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[V:[^:]*]]: !llvm.ptr {{{[^}]*}}},
// CHECK-SAME:    #attn.kernel_param<"tensor_map", "k", box = [64, 64, 1, 1]>
// CHECK-SAME:    page_size = 256 : i64
// CHECK:         arith.divui %{{.*}}, %c256_i32 : i32
// CHECK-NOT:     arith.divui %{{.*}}, %c256_i32
// CHECK:         %[[ROW:.*]] = arith.remui %{{.*}}, %c256_i32{{.*}} : i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]], %{{.*}}, box[%{{.*}}, %[[ROW]], %{{.*}}, %[[PAGE:.*]]] :
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]],
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[V]], %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %[[PAGE]]] :
func.func @big_pages(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x256x4x64xbf16>, %v: tensor<?x256x4x64xbf16>,
                     %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x4x?x64xbf16>, tensor<?x256x4x64xbf16>, tensor<?x256x4x64xbf16> -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
