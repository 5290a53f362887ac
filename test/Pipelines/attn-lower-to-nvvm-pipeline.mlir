// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}' --implicit-check-not=scf. --implicit-check-not=arith. --implicit-check-not=func.func
// RUN: attnc-opt %s --attn-lower-to-ptx-pipeline | FileCheck %s --check-prefix=PTX
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="probs-in-registers=false" | FileCheck %s --check-prefix=NO-RS
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-n=192" | FileCheck %s --check-prefix=NO-ROOM
// RUN: attnc-opt %S/Inputs/pack-gqa-decode.mlir --attn-lower-to-nvvm-pipeline | FileCheck %s --check-prefix=PACKED --implicit-check-not=attn.packed_query_heads
// RUN: attnc-opt %S/Inputs/pack-gqa-decode.mlir --attn-lower-to-nvvm-pipeline="pack-gqa=false" | FileCheck %s --check-prefix=UNPACKED --implicit-check-not=packed_query_heads
// RUN: attnc-opt %S/Inputs/pack-gqa-decode.mlir --attn-lower-to-nvvm-pipeline="pack-gqa=unmasked" | FileCheck %s --check-prefix=PACK-UNMASKED
// RUN: attnc-opt %S/Inputs/pack-gqa-decode.mlir --attn-lower-to-nvvm-pipeline="split-kv=false" | FileCheck %s --check-prefix=NO-SPLIT
// RUN: attnc-opt %S/Inputs/pack-gqa-decode.mlir --attn-lower-to-nvvm-pipeline="programmatic-launch=false" | FileCheck %s --check-prefix=NO-PDL --implicit-check-not=griddepcontrol --implicit-check-not=programmatic_launch

// The whole Hopper chain: the gpu.module holds only LLVM and NVVM ops (ready
// for gpu-module-to-binary), with the default sm_90a tile (D = 128:
// 128 x 128, two consumer warpgroups plus the producer = 384 threads).
// The softmax scale is a kernel parameter (attn-generalize-scale), and so is
// the tiles' scale * log2(e) (the runtime passes the same f32 product), not
// a compiled-in option. Its Nq is dynamic and D > 64, so the runtime
// chooses its kv split count at launch (attn-split-kv's dynamic-rows=auto).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:         llvm.func @prefill(
// CHECK-SAME:      %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[SCALE:[^:]*]]: f32, %[[SL2:[^:]*]]: f32)
// CHECK-SAME:      attn.kernel_abi = #attn.kernel_abi<threads = 384,
// CHECK-SAME:      #attn.grid_dim<["batch", "kv_splits"]>
// CHECK-SAME:      #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"i32", "batch">, #attn.kernel_param<"i32", "kv_splits">, #attn.kernel_param<"f32", "scale">, #attn.kernel_param<"f32", "scale_log2">]
// CHECK-SAME:      options = {block_m = 128 : i64, block_n = 128 : i64,
// CHECK-SAME:      intra_warpgroup_overlap = 1 : i64
// CHECK-NOT:       scale =
// CHECK-SAME:      stages = 3 : i64
// CHECK-SAME:      nvvm.reqntid = array<i32: 384, 1, 1>
// The producer gives registers away, the consumers take them.
// CHECK:         nvvm.setmaxregister decrease 24
// CHECK:         nvvm.setmaxregister increase 240
// The exp2 FMAs read the multiplier from its parameter, as they would read
// a constant (no register holds it across the loop).
// CHECK-NOT:     llvm.fmul %[[SCALE]]
// CHECK:         llvm.intr.fma(%{{.*}}, %[[SL2]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK:         llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK:         llvm.return

// The table's schedule at D = 128 (3 stages, the overlap) assumes P in
// registers, room for a third stage and registers for the carried P: with P
// through shared memory it is 2 stages without overlap; so it is with kv
// tiles too wide for both (192: O, S and P(j-1) would take 208 registers).
// NO-RS:    options = {block_m = 128 : i64, block_n = 128 : i64
// NO-RS-SAME: intra_warpgroup_overlap = 0 : i64
// NO-RS-SAME: probs_in_registers = 0 : i64, stages = 2 : i64
// NO-ROOM:  options = {block_m = 128 : i64, block_n = 192 : i64
// NO-ROOM-SAME: intra_warpgroup_overlap = 0 : i64
// NO-ROOM-SAME: stages = 2 : i64

// attn-pack-gqa (Inputs/pack-gqa-decode.mlir, decode steps): an unmasked
// GQA or MQA kernel computes the packed problem, so its grid's seq_q and
// heads_q are the packed view's (g * Nq rows, Hkv heads), which the runtime
// makes of the caller's tensors; the problem records g, and gqa and
// options.heads_q stay the caller's, which the runtime checks the launch
// against. The kernel takes no attn.packed_query_heads argument attribute
// (its parameters are tensor maps). The masked decode step is packed too
// (pack-gqa=auto: its graph has g * Nq = 4 static rows): its mask sees a
// packed row at its query position, the row / 4 (token-major rows), taken
// in 32 bits.
// (Kernels are listed last first.) g = 6 does not divide 64: attn-pack-gqa
// packs its one token only, so the kernel records seq_q = 1 and its Q box
// is 64 query heads of that token.
// PACKED-LABEL: llvm.func @decode_g6(
// PACKED-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 64, 1, 1, 1]>
// PACKED-SAME:    packed_query_heads = 6 : i64}
// PACKED-SAME:    seq_q = 1 : i64
// A BSHD decode step is packed too, and so would be more tokens: its
// packed rows are a token-major view of the caller's Q, whose maps are over
// (d, g, s, h, b), a box of 16 whole tokens of 4 heads (O: a warpgroup's).
// A causal attention of dynamic Nq (a prefill) is packed too: its tiles
// hold 32 whole tokens of 4 heads, so its kv ranges are those tokens'.
// PACKED-LABEL: llvm.func @decode_bshd(
// PACKED-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 4, 16, 1, 1]>
// PACKED-SAME:    layout = "bshd", mask = "causal_bottom_right", packed_query_heads = 4 : i64}
// PACKED-NOT:     seq_q = 1
// PACKED-LABEL: llvm.func @prefill_causal(
// PACKED-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 4, 32, 1, 1]>
// PACKED-SAME:    layout = "bhsd", mask = "causal", packed_query_heads = 4 : i64}
// PACKED-NOT:     seq_q = 1
// PACKED-LABEL: llvm.func @decode_causal(
// PACKED-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal_bottom_right", packed_query_heads = 4 : i64}
// PACKED-SAME:    heads_kv = 8 : i64, heads_q = 32 : i64
// The kv ranges take the tile's positions and Nq as the packed rows over
// the group (index division by 4), each role after its setmaxnreg: the
// producer for its loop's bounds, the consumers for theirs; the mask takes
// each row's position as the row / 4 in 32 bits.
// PACKED:         %[[G:.*]] = llvm.mlir.constant(4 : index) : i64
// PACKED:         %[[G32:.*]] = llvm.mlir.constant(4 : i32) : i32
// PACKED-NOT:     llvm.udiv %{{.*}}, %[[G]] : i64
// PACKED:         nvvm.setmaxregister decrease
// PACKED:         llvm.udiv %{{.*}}, %[[G]] : i64
// PACKED:         nvvm.setmaxregister increase
// PACKED:         llvm.udiv %{{.*}}, %[[G]] : i64
// PACKED:         llvm.udiv %{{.*}}, %[[G32]] : i32
// A decode step of static Nq is also split at launch (attn-split-kv): grid
// z is batch x kv_splits, the runtime's choice, and the ABI names the
// combine kernel, which writes O and the LSE. Its 4 or 32 packed rows take
// one 64-row warpgroup (attn-configure-tiles): grid x is ceil(rows / 64),
// the Q box 64 rows; at D = 128 the split counts 64-key blocks.
// PACKED-LABEL: llvm.func @decode_mqa(
// PACKED-SAME:    grid = [#attn.grid_dim<["seq_q"], ceil_div = 64>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch", "kv_splits"]>]
// PACKED-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 32 : i64}
// PACKED-SAME:    heads_kv = 1 : i64, heads_q = 32 : i64
// PACKED-LABEL: llvm.func @decode_gqa(
// PACKED-SAME:    grid = [#attn.grid_dim<["seq_q"], ceil_div = 64>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch", "kv_splits"]>]
// PACKED-SAME:    #attn.kernel_param<"tensor_map", "q", box = [64, 4, 16, 1, 1]>
// PACKED-SAME:    #attn.kernel_param<"i32", "kv_splits">
// PACKED-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = true, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 4 : i64}
// PACKED-SAME:    heads_kv = 8 : i64, heads_q = 32 : i64
// PACKED-SAME:    split_kv = <splits = 0, kv_block = 64, entry = "decode_gqa_combine"
// PACKED-SAME:      #attn.kernel_param<"tensor_map", "o", box = [128, 1, 1, 1, 1], swizzle = 0>
// PACKED-SAME:      #attn.kernel_param<"pointer", "lse">
// PACKED-SAME:      programmatic_launch = true>
// PACKED:         nvvm.griddepcontrol launch_dependents
// With programmatic-launch=false the pipeline runs no attn-signal-dependents:
// split kernels without griddepcontrol, combines launched after them (the
// RUN line's implicit-check-nots).
// NO-PDL-LABEL: llvm.func @decode_gqa(
// NO-PDL-SAME:    split_kv = <splits = 0
// With split-kv=false the decode step is one kernel writing O and the LSE.
// NO-SPLIT-LABEL: llvm.func @decode_gqa(
// NO-SPLIT-SAME:    grid = [#attn.grid_dim<["seq_q"], ceil_div = 64>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>]
// NO-SPLIT-SAME:    #attn.kernel_param<"tensor_map", "o", box = [64, 4, 16, 1, 1]>, #attn.kernel_param<"pointer", "lse">
// NO-SPLIT-NOT:     split_kv
// With pack-gqa=unmasked the masked ones are not packed.
// PACK-UNMASKED-LABEL: llvm.func @decode_causal(
// PACK-UNMASKED-SAME:    mask = "causal_bottom_right"}
// PACK-UNMASKED-LABEL: llvm.func @decode_mqa(
// PACK-UNMASKED-SAME:    packed_query_heads = 32 : i64}
// With pack-gqa=false no kernel packs: the problems have no
// packed_query_heads, and the options are the same heads.
// UNPACKED-LABEL: llvm.func @decode_causal(
// UNPACKED-SAME:    mask = "causal_bottom_right"}
// UNPACKED-LABEL: llvm.func @decode_mqa(
// UNPACKED-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none"}
// UNPACKED-SAME:    heads_kv = 1 : i64, heads_q = 32 : i64
// UNPACKED-LABEL: llvm.func @decode_gqa(
// UNPACKED-SAME:    problem = {dtype = "bf16", gqa = true, has_lse = true, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none"}
// UNPACKED-SAME:    heads_kv = 8 : i64, heads_q = 32 : i64

// The PTX pipeline ends in a gpu.binary holding sm_90a PTX.
// PTX: gpu.binary @attn_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, {{.*}}assembly = "
// PTX-SAME: .target sm_90a
// PTX-SAME: .extern .shared .align 1024 .b8 attn_smem[];
// PTX-SAME: .entry prefill(
func.func @prefill(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>,
                   %v: tensor<?x16x?x128xbf16>) -> tensor<?x16x?x128xbf16> {
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>
      -> tensor<?x16x?x128xbf16>
  return %o : tensor<?x16x?x128xbf16>
}
