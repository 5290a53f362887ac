// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline | FileCheck %s --implicit-check-not='{{[^#]attn\.[^k]}}' --implicit-check-not=scf. --implicit-check-not=arith. --implicit-check-not=func.func
// RUN: attnc-opt %s --attn-lower-to-ptx-pipeline | FileCheck %s --check-prefix=PTX
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="probs-in-registers=false" | FileCheck %s --check-prefix=NO-RS
// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline="block-n=192" | FileCheck %s --check-prefix=NO-ROOM

// The whole Hopper chain: the gpu.module holds only LLVM and NVVM ops (ready
// for gpu-module-to-binary), with the default sm_90a tile (D = 128:
// 128 x 128, two consumer warpgroups plus the producer = 384 threads).
// The softmax scale is a kernel parameter (attn-generalize-scale), and so is
// the tiles' scale * log2(e) (the runtime passes the same f32 product), not
// a compiled-in option.
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:         llvm.func @prefill(
// CHECK-SAME:      %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[SCALE:[^:]*]]: f32, %[[SL2:[^:]*]]: f32)
// CHECK-SAME:      attn.kernel_abi = #attn.kernel_abi<threads = 384,
// CHECK-SAME:      #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">, #attn.kernel_param<"f32", "scale_log2">]
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
