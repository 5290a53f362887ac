// RUN: attnc-opt %s -split-input-file --attn-assign-layouts --attn-insert-waits --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// The schedule the lowering reads off attn.warp_specialize, the kv loops'
// stages and #attn.shared_memory, where they disagree with each other or
// with the tile: verifyTiledAttention's diagnostic names the rule. No attn-allocate-shared-memory
// here: each case carries the layout it is checked against (the one
// attn-allocate-shared-memory gives, edited). The warp-specialized cases
// edit the IR of a causal attention after attnc-opt --attn-generalize-lengths
// --attn-tiling-pipeline="block-m=64 block-n=64" --attn-warp-specialize
// --cse --attn-allocate-shared-memory; the others edit the tile IR of
// convert-attn-to-nvvm-tile-ir-invalid.mlir.

// Without attn-allocate-shared-memory the tile has no layout to build the
// kernel's shared memory from.
func.func @no_shared_memory(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: the tile has no #attn.shared_memory (run attn-allocate-shared-memory; attn-lower-to-nvvm-pipeline does)}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_3, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_2 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_3, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// A layout of more bytes than a CTA may use on sm_90a (232448).
func.func @shared_memory_over_limit(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory has 232456 bytes, more than the 232448 a CTA may use on sm_90a}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_3, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_2 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_3, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 232456, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// One consumer warpgroup (64 rows), two warpgroup barriers.
func.func @warpgroup_barriers_count(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory's warpgroup_barriers must hold one id per consumer warpgroup (1), consecutive}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_3, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_2 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_3, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1, 2]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// Turn barriers for kv loops that take no ping-pong turns.
func.func @turn_barriers_without_turns(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory has turn_barriers but the kv loops take no ping-pong turns}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_3, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_2 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_3, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1], turn_barriers = [2]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// Each consumer warpgroup computes 64 query rows: two consumers for a
// 64-row tile. (The op verifier checks this against its first result when
// that is O; here the LSE is yielded first, so the lowering must check it.)
func.func @consumers_not_block_m_over_64(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    // expected-error @+1 {{convert-attn-to-nvvm: consumers(2) must be block_m / 64 = 1: each consumer warpgroup computes 64 query rows (one wgmma m64 tile)}}
    %22:2 = attn.warp_specialize consumers(2) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %lse, %output : tensor<64xf32>, tensor<64x64xbf16>
    } : tensor<64xf32>, tensor<64x64xbf16>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#1[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The producer pushes the K/V blocks in a loop the kernel runs: a single
// push outside any scf.for is not one.
func.func @producer_without_kv_loop(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    // expected-error @+1 {{convert-attn-to-nvvm: the producer region has no kv loop (an scf.for holding attn.ring_push)}}
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      %26 = attn.load_tile %arg1[%arg3, %arg4, %c0] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %27 = attn.load_tile %arg2[%arg3, %arg4, %c0] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The K/V ring of the layout and of the partition must have one depth.
func.func @stages_mismatch(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory has 2 K/V stages but attn.warp_specialize has 3}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(3) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// A two-stage pipeline defers the whole accumulator update: P V in stage 1
// with O's rescale in stage 0 is not a schedule the kernel has.
func.func @stage_pv_only(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        // expected-error @+1 {{a software-pipelined kv loop has stage 1 = the accumulator's update (its attn.scale_rows and attn.pv), and only it: this op needs attn.stage = 1}}
        %31 = attn.scale_rows %arg10, %29 : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The running sum is read by the next block's stage 0: it cannot be
// deferred with the accumulator.
func.func @stage_row_sum(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        // expected-error @+1 {{a software-pipelined kv loop has stage 1 = the accumulator's update (its attn.scale_rows and attn.pv), and only it: this op must not have attn.stage = 1}}
        %34 = attn.row_sum %32 init %arg9 scaled %29 {attn.stage = 1 : i64} : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The kernel runs one schedule across a tile's kv loops: the tail loop
// without stages next to a pipelined full loop is rejected.
func.func @stage_one_loop(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{convert-attn-to-nvvm: the kv loops of a tile are software-pipelined (attn.stage) and rotated all alike or not at all}}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The overlapped schedule waits for V of block j-1 while K of block j
// streams in: without a producer warpgroup nobody issues those loads.
func.func @stage_without_producer(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c64 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c64 : index
    %9 = arith.minsi %8, %dim_4 : index
    %10 = arith.addi %9, %c-1 : index
    %11 = arith.addi %dim_5, %c-1 : index
    %12 = arith.minsi %10, %11 : index
    %13 = arith.addi %12, %c1 : index
    %14 = arith.ceildivsi %13, %c64 : index
    %15 = arith.maxsi %14, %c0 : index
    %16 = arith.minsi %15, %7 : index
    %17 = arith.cmpi slt, %12, %c0 : index
    %18 = arith.select %17, %c0, %16 : index
    %19 = arith.minsi %5, %11 : index
    %20 = arith.addi %19, %c1 : index
    %21 = arith.floordivsi %20, %c64 : index
    %22 = arith.maxsi %21, %c0 : index
    %23 = arith.minsi %22, %18 : index
    // expected-error @+1 {{convert-attn-to-nvvm: a software-pipelined kv loop (attn.stage) needs the producer warpgroup of attn.warp_specialize}}
    %24:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %28 = arith.muli %arg8, %c64 : index
      %29 = attn.load_tile %arg1[%arg3, %4, %28] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %30 = attn.qk %6, %29 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %31 = attn.row_max %30 init %arg9 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<64xf32>
      %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<64x64xf32> -> tensor<64xf32>
      %36 = attn.load_tile %arg2[%arg3, %4, %28] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %37 = attn.scale_rows %arg11, %32 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
      %38 = attn.pv %34, %36, %37 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %31, %35, %38 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %25:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %24#0, %arg10 = %24#1, %arg11 = %24#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %28 = arith.muli %arg8, %c64 : index
      %29 = attn.load_tile %arg1[%arg3, %4, %28] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %30 = attn.qk %6, %29 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %31 = attn.mask %30 rows %5 cols %28 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      %32 = attn.row_max %31 init %arg9 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<64xf32>
      %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<64x64xf32> -> tensor<64xf32>
      %37 = attn.load_tile %arg2[%arg3, %4, %28] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %38 = attn.scale_rows %arg11, %33 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
      %39 = attn.pv %35, %37, %38 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %32, %36, %39 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %25#2, %25#1, %25#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %26 = arith.subi %dim_4, %5 : index
    %27 = arith.minsi %26, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%27, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %lse[0] [%27] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %27, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %27] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The producer's step is lowered op by op: it pushes one K and one V tile
// it loads; V pushed as K too would leave the consumers' K unloaded.
func.func @producer_pushes_value_twice(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        // expected-error @+1 {{convert-attn-to-nvvm: the producer's kv loop pushes one K and one V tile, each loaded in the loop, once per step}}
        attn.ring_push %27, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// An op the producer's lowering does not know.
func.func @producer_extra_op(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %5 = arith.ceildivsi %dim_5, %c64 : index
    %6 = arith.addi %3, %c64 : index
    %7 = arith.minsi %6, %dim_4 : index
    %8 = arith.addi %7, %c-1 : index
    %9 = arith.addi %dim_5, %c-1 : index
    %10 = arith.minsi %8, %9 : index
    %11 = arith.addi %10, %c1 : index
    %12 = arith.ceildivsi %11, %c64 : index
    %13 = arith.maxsi %12, %c0 : index
    %14 = arith.minsi %13, %5 : index
    %15 = arith.cmpi slt, %10, %c0 : index
    %16 = arith.select %15, %c0, %14 : index
    %17 = arith.minsi %3, %9 : index
    %18 = arith.addi %17, %c1 : index
    %19 = arith.floordivsi %18, %c64 : index
    %20 = arith.maxsi %19, %c0 : index
    %21 = arith.minsi %20, %16 : index
    %22:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg7 = %c0 to %16 step %c1 {
        %25 = arith.muli %arg7, %c64 : index
        %26 = attn.load_tile %arg1[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %27 = attn.load_tile %arg2[%arg3, %arg4, %25] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        // expected-error @+1 {{convert-attn-to-nvvm: no GPU lowering for 'tensor.empty' in the producer's kv loop}}
        %junk = tensor.empty() : tensor<64x64xf32>
        attn.ring_push %26, %27 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %25:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %27 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %28 = attn.row_max %27 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %29 = attn.rescale_factor %arg8, %28 scale_log2 %cst_2 : tensor<64xf32>
        %31 = attn.scale_rows %arg10, %29 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %32 = attn.exp_diff %27, %28 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %33 = attn.pv %32, %value, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %34 = attn.row_sum %32 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %28, %34, %33 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "full"}
      %26:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %25#0, %arg9 = %25#1, %arg10 = %25#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
        %27 = arith.muli %arg7, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %29 = attn.mask %28 rows %3 cols %27 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
        %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
        %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
        %33 = attn.scale_rows %arg10, %31 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
        %34 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
        %35 = attn.pv %34, %value, %33 {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
        %36 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
        scf.yield %30, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %26#2, %26#1, %26#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      attn.yield %output, %lse : tensor<64x64xbf16>, tensor<64xf32>
    } : tensor<64x64xbf16>, tensor<64xf32>
    %23 = arith.subi %dim_4, %3 : index
    %24 = arith.minsi %23, %c64 : index
    %extracted_slice = tensor.extract_slice %22#0[0, 0] [%24, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %24, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The kernel indexes the named barriers by consumer warpgroup: ids 1 and 3
// are not consecutive.
  func.func @warpgroup_barriers_gap(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c128 = arith.constant 128 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c128 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory's warpgroup_barriers must hold one id per consumer warpgroup (2), consecutive}}
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      %5 = arith.subi %0, %c1 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c128 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c128 : index
      %12 = arith.minsi %11, %dim_3 : index
      %13 = arith.addi %12, %c-1 : index
      %14 = arith.addi %dim_4, %c-1 : index
      %15 = arith.minsi %13, %14 : index
      %16 = arith.addi %15, %c1 : index
      %17 = arith.ceildivsi %16, %c64 : index
      %18 = arith.maxsi %17, %c0 : index
      %19 = arith.minsi %18, %10 : index
      %20 = arith.cmpi slt, %15, %c0 : index
      %21 = arith.select %20, %c0, %19 : index
      %22 = arith.minsi %8, %14 : index
      %23 = arith.addi %22, %c1 : index
      %24 = arith.floordivsi %23, %c64 : index
      %25 = arith.maxsi %24, %c0 : index
      %26 = arith.minsi %25, %21 : index
      %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
        scf.for %arg9 = %c0 to %21 step %c1 {
          %30 = arith.muli %arg9, %c64 : index
          %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_push %31, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
        attn.yield
      } consumer {
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          scf.yield %42, %46, %cst_7, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } else {
          %cst_10 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %cst_11 = arith.constant dense<1.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %39 = ub.poison : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %cst_5, %cst_6, %cst_7, %cst_10, %cst_11, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
        %33 = arith.maxsi %c0, %31 : index
        %34 = arith.maxsi %26, %31 : index
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %32#0, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.ring_release %37#5 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %40 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        } else {
          scf.yield %37#2 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        }
        %output, %lse = attn.finalize %38, %37#1, %37#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.yield %output, %lse : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      } : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %28 = arith.subi %dim_3, %8 : index
      %29 = arith.minsi %28, %c128 : index
      %extracted_slice = tensor.extract_slice %27#0[0, 0] [%29, 64] [1, 1] : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<?x64xbf16>
      %extracted_slice_8 = tensor.extract_slice %27#1[0] [%29] [1] : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %29, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_8 into %arg8[%arg4, %arg5, %8] [1, 1, %29] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 3], turn_barriers = [4, 5]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// ... and so are the turn barriers.
  func.func @turn_barriers_gap(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c128 = arith.constant 128 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c128 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory's turn_barriers must hold one id per consumer warpgroup (2), consecutive}}
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      %5 = arith.subi %0, %c1 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c128 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c128 : index
      %12 = arith.minsi %11, %dim_3 : index
      %13 = arith.addi %12, %c-1 : index
      %14 = arith.addi %dim_4, %c-1 : index
      %15 = arith.minsi %13, %14 : index
      %16 = arith.addi %15, %c1 : index
      %17 = arith.ceildivsi %16, %c64 : index
      %18 = arith.maxsi %17, %c0 : index
      %19 = arith.minsi %18, %10 : index
      %20 = arith.cmpi slt, %15, %c0 : index
      %21 = arith.select %20, %c0, %19 : index
      %22 = arith.minsi %8, %14 : index
      %23 = arith.addi %22, %c1 : index
      %24 = arith.floordivsi %23, %c64 : index
      %25 = arith.maxsi %24, %c0 : index
      %26 = arith.minsi %25, %21 : index
      %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
        scf.for %arg9 = %c0 to %21 step %c1 {
          %30 = arith.muli %arg9, %c64 : index
          %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_push %31, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
        attn.yield
      } consumer {
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          scf.yield %42, %46, %cst_7, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } else {
          %cst_10 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %cst_11 = arith.constant dense<1.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %39 = ub.poison : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %cst_5, %cst_6, %cst_7, %cst_10, %cst_11, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
        %33 = arith.maxsi %c0, %31 : index
        %34 = arith.maxsi %26, %31 : index
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %32#0, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.ring_release %37#5 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %40 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        } else {
          scf.yield %37#2 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        }
        %output, %lse = attn.finalize %38, %37#1, %37#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.yield %output, %lse : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      } : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
      %28 = arith.subi %dim_3, %8 : index
      %29 = arith.minsi %28, %c128 : index
      %extracted_slice = tensor.extract_slice %27#0[0, 0] [%29, 64] [1, 1] : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<?x64xbf16>
      %extracted_slice_8 = tensor.extract_slice %27#1[0] [%29] [1] : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %29, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_8 into %arg8[%arg4, %arg5, %8] [1, 1, %29] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 5]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }
