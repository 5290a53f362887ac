// RUN: attnc-opt %s --attn-lower-to-nvvm-pipeline | FileCheck %s --implicit-check-not=attn. --implicit-check-not=scf. --implicit-check-not=arith. --implicit-check-not=func.func
// RUN: attnc-opt %s --attn-lower-to-ptx-pipeline | FileCheck %s --check-prefix=PTX

// The whole Hopper chain: the gpu.module holds only LLVM and NVVM ops (ready
// for gpu-module-to-binary), with the default sm_90a tile (D = 128:
// 128 x 128, two consumer warpgroups plus the producer = 384 threads).
// CHECK-LABEL: gpu.module @attn_kernels
// CHECK:         llvm.func @prefill(
// CHECK-SAME:      \22block_m\22: 128, \22block_n\22: 128
// CHECK-SAME:      nvvm.reqntid = array<i32: 384, 1, 1>
// The producer gives registers away, the consumers take them.
// CHECK:         nvvm.setmaxregister decrease 24
// CHECK:         nvvm.setmaxregister increase 240
// CHECK:         llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK:         llvm.return

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
