//===- Passes.td - attnc conversion passes -----------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_CONVERSION_PASSES_TD
#define ATTNC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAttnToLinalgPass : Pass<"convert-attn-to-linalg", "func::FuncOp"> {
  let summary = "Lower attn ops to linalg/tensor/arith/math on tensors (CPU reference)";
  let description = [{
    Lowers both levels of the attn dialect to destination-style
    `linalg.generic` ops on tensors with f32 arithmetic. `attn.attention`
    becomes the textbook untiled computation (S, mask, max, exp, sum, P V,
    normalize); tile ops become one `linalg.generic` each, so tiled and fused
    IR keeps its loop structure. Together with bufferization and the upstream
    LLVM lowering (`convert-attn-to-loops`, `attn-lower-to-cpu-pipeline`) this
    is the CPU backend CI uses to check the numerics of every stage.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertAttnToNVVMPass : Pass<"convert-attn-to-nvvm", "ModuleOp"> {
  let summary = "Lower fused attention tiles to an sm_90a TMA/wgmma kernel";
  let description = [{
    Replaces every function holding a tiled attention `scf.forall` (after
    attn-fuse-online-softmax, best also the mask split; the unfused
    three-pass nest is rejected) by a kernel in `gpu.module @attn_kernels`
    (target sm_90a, +ptx86): an `llvm.func` with `nvvm.kernel`, built from
    NVVM, LLVM, arith and scf ops. block_m / 64 consumer warpgroups share
    each K/V tile; where the tile is an `attn.warp_specialize`
    (attn-warp-specialize, whose `consumers` must be block_m / 64) a
    producer warpgroup (setmaxnreg budgets from the op) streams Q and the
    K/V blocks by TMA into a ring (the op's stages) of 128B-swizzled shared memory
    (full/empty mbarriers); otherwise consumer thread 0 issues the loads.
    Every shared-memory offset, every named barrier id, whether P goes
    through shared memory and the K/V release barriers come from the
    forall's `#attn.shared_memory` (attn-allocate-shared-memory). The function must compute its attention
    and nothing else (outside the forall only constants, scalar index and
    scale arithmetic, tensor.dim, the outputs' tensor.empty/tensor.cast and
    the split-KV merge; it returns the tile's results), and read Q, K, V
    (then a paged cache's block table and cache lengths, or a varlen
    batch's offsets) from its arguments in that order: the kernel is named
    by those roles, so anything else would be dropped or swapped silently.
    `wgmma` SS computes S = Q K^T; the online softmax
    runs on the accumulator registers (quad shuffles, ex2); P is converted to
    bf16/f16 in registers and `wgmma` RS (inline PTX: MLIR 22 has no op for
    it) accumulates O += P V. `attn.wait_turn` / `attn.pass_turn` around
    the kv loops' `attn.qk` make two consumers take turns issuing GEMMs; kv loops whose accumulator update has
    `attn.stage = 1` (a two-stage software pipeline) overlap each one's
    softmax with its previous P V. CTA x computes the query block the
    IR's index arithmetic gives (attn-order-tiles: longest first for
    causal masks).
    O goes through shared memory and
    a TMA store; LSE is stored directly. Tensor maps are `grid_constant`
    by-value parameters; dynamic shared memory is a 1024-aligned extern
    global.

    The kernel runs the kv loops of the tile IR (the consumer region of
    `attn.warp_specialize`, else the forall body; the producer region's loop
    for the producer) in order, with their bounds, the Q row and the K head
    (GQA) cloned from the IR's index arithmetic: the forall's induction
    variables become the block indices of its `#gpu.block` mapping, the
    sequence lengths the kernel's `seq_q` / `seq_k` parameters. Each loop
    applies exactly its own `attn.mask` (kind, window, operands) and
    `attn.softcap` (`tanh.approx.f32`); a loop without `attn.mask` has no
    element mask. Each tile op of a kv loop is lowered by its own function
    onto the thread's fragments, in IR order; an op whose result is unused
    is not in the kernel. (With `attn.stage` the tile's first block is
    peeled off the loops: it applies the modifiers of the first loop that
    has an `attn.mask`.) An `attn.launch_dependents` of the tile becomes
    `griddepcontrol.launch_dependents` where it stands among the tile's kv
    loops and attn.finalize; a split tile that holds one makes its combine
    kernel a programmatic dependent launch. Static sequence lengths are rejected: loops folded for one
    shape would run only that shape (attn-generalize-lengths makes them
    dynamic; attn-lower-to-nvvm-pipeline runs it).

    Each kernel carries its launch interface as `attn.kernel_abi =
    #attn.kernel_abi<...>`: threads, shared memory, grid, the parameters in
    order (the kernel's signature is built from them) and the problem and
    options; the artifact writer writes it out as the runtime manifest
    (docs/Runtime.md).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx86\"",
           "PTX features (+ptx86 or newer: older versions make LLVM abort)">,
  ];
}

#endif // ATTNC_CONVERSION_PASSES_TD
