// RUN: attnc-opt %s -split-input-file --attn-assign-layouts --attn-allocate-shared-memory \
// RUN:   --attn-pipeline-kv-loops --attn-insert-waits --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// Tile IR the kernel lowering does not take: a diagnostic that names the
// rule, never a kernel that runs something else. Each case edits the
// mask-split IR of an attention (attnc-opt --attn-tiling-pipeline=
// "block-m=64 block-n=64", as in convert-attn-to-nvvm-tile-ir.mlir): a
// causal one, or the paged and varlen inputs of
// convert-attn-to-nvvm-paged-kv.mlir and convert-attn-to-nvvm-varlen.mlir.

// An op the GPU lowering does not know inside a kv loop.
func.func @op_without_lowering(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: no GPU lowering for 'tensor.empty' in a kv loop}}
      %junk = tensor.empty() : tensor<64x64xf32>
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

// A kv loop that skips blocks.
func.func @step_two(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: a kv loop must step by one kv block}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c2 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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

// Loops that do not partition one range.
func.func @gap_between_loops(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: the kv loops must partition one range: this loop must begin where the previous one ends}}
    %23:3 = scf.for %arg7 = %c0 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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

// A mask whose columns are not the block the loop is at.
func.func @mask_columns(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the mask's column offset must be the kv loop's induction variable times block_n}}
      %29 = attn.mask %28 rows %3 cols %3 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
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

// A grid mapping with one dimension twice.
func.func @mapping_twice(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: the forall's mapping must hold #gpu.block<x>, <y> and <z> once each}}
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
  } {mapping = [#gpu.block<z>, #gpu.block<z>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// A mask row offset the kernel cannot compute (a tile's size is no kernel value).
func.func @rows_from_tile(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %rows = tensor.dim %4, %c0 : tensor<64x64xbf16>
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
      // expected-error @+1 {{convert-attn-to-nvvm: cannot lower a tensor.dim that is not the sequence length of Q, K or V (the kernel's length parameters)}}
      %29 = attn.mask %28 rows %rows cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
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

// K rows that are not the block the loop is at.
func.func @key_rows(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the K tile's row must be its kv loop's induction variable times block_n}}
      %27 = attn.load_tile %arg1[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// Two row maxima in one step.
func.func @second_row_max(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: a kv loop holds one 'attn.row_max' per step of the online softmax, found a second}}
      %dup = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
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

// Exponentials of the scores before their mask.
func.func @exp_before_mask(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the row max and the exponentials must read the scores after their modifiers (attn.mask, attn.softcap), each applied once in a chain}}
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %28, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
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

// P V of the raw scores instead of the probabilities.
func.func @pv_of_scores(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.pv and attn.row_sum must read the attn.exp_diff of the same step}}
      %35 = attn.pv %28, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
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

// A score scale the kernel's manifest cannot describe: no attn.softcap
// left the scores a cap to apply.
func.func @score_scale_without_softcap(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the scores' score_scale (2.000000e+00) must be what the step's attn.softcap leaves to its users, cap / output_scale (1.000000e+00; 1 without a softcap)}}
      %29 = attn.row_max %28 init %arg8 score_scale = 2.0 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 score_scale = 2.0 : tensor<64x64xf32>, tensor<64xf32>
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

// The row max and the exponentials must see the same scores.
func.func @score_scales_differ(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the row max and the exponentials must scale the scores alike (score_scale 1.000000e+00 vs 2.000000e+00)}}
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 score_scale = 2.0 : tensor<64x64xf32>, tensor<64xf32>
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

// P V of the rounded raw scores: attn.truncate must round the step's
// exponentials.
func.func @pv_of_scores_rounded(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.truncate rounds the step's attn.exp_diff for its attn.pv, and only for it}}
      %31 = attn.truncate %28 : tensor<64x64xf32> to tensor<64x64xbf16>
      %35 = attn.pv %31, %34, %32 : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
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

// A layout given in the IR whose Q buffer is too small for the tile.
func.func @small_layout(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory is too small for the tile: it needs 8192 bytes of Q, 8192 of O, 8192 per K stage and 8192 per V stage}}
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 4096, output = 0, output_bytes = 4096, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// A layout given in the IR whose Q buffer holds Q but whose O staging
// buffer (after the barriers) is too small for O.
func.func @small_output(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory is too small for the tile: it needs 8192 bytes of Q, 8192 of O, 8192 per K stage and 8192 per V stage}}
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 50176, output_bytes = 4096, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 54272, warpgroup_barriers = [1, 2]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The kernel takes one scale parameter.
func.func @two_scale_arguments(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %s: f32, %t: f32) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: the function has 2 f32 arguments; a kernel takes one (the softmax scale)}}
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
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %s mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
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

// The kernel computes one exp2 multiplier per tile.
func.func @two_multipliers(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: every attn.exp_diff and attn.rescale_factor of a tile must take the same scale_log2 value (the kernel computes it once)}}
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
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

// The scale values are arith on constants and the scale argument.
func.func @scale_from_math(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %root = math.sqrt %scale_cst1 : f32
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
    // expected-error @+1 {{convert-attn-to-nvvm: cannot lower an operand computed by 'math.sqrt' (only arith on the tiling forall's induction variables, the sequence lengths and the scale argument reaches the kernel)}}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %root mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
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

// The Q tile must be an attn.load_tile: without it there is no tiled
// attention for the kernel to load.
func.func @query_not_loaded(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: expected a tiled attention (attn-tile) in the scf.forall}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = tensor.empty() : tensor<64x64xbf16>
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

// The tiling forall is (batch, query head, query block): one without the
// batch dimension is not the grid the kernel launches.
func.func @forall_rank_two(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: expected the (batch, query head, query block) forall of attn-tile (and the kv split with kv_splits), got a forall of rank 2}}
  %2 = scf.forall (%arg4, %arg5) in (2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%c0, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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
      %27 = attn.load_tile %arg1[%c0, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%c0, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%c0, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%c0, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%c0, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall's #gpu.block mapping is the kernel's grid: a forall without one
// has none.
func.func @forall_without_mapping(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: expected the forall's mapping to #gpu.block<x>, <y>, <z> (attn-tile sets it): the kernel's grid}}
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
  }
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall writes O, then at most the LSE: a second copy of O is no
// output the kernel has.
func.func @output_written_twice(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>) {
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
  // expected-error @+1 {{convert-attn-to-nvvm: the tile must write O and at most the LSE of its attn.finalize}}
  %2:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1, %arg11 = %1) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>) {
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
      tensor.parallel_insert_slice %extracted_slice into %arg11[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2#0, %2#1 : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>
}

// -----

// A kv loop bound from an index argument of the function: the kernel has no
// such parameter.
func.func @kv_bound_from_argument(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %n: index) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: cannot lower an operand that is a block argument other than the tiling forall's induction variables and the function's scale argument}}
    %22:3 = scf.for %arg7 = %c0 to %n step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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
    %23:3 = scf.for %arg7 = %n to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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

// The row max must be carried across kv blocks (attn.row_max with init).
func.func @row_max_not_carried(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.row_max carried across blocks}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 : tensor<64x64xf32> -> tensor<64xf32>
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

// A step of the online softmax rescales the running sums by
// attn.rescale_factor.
func.func @no_rescale_factor(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.rescale_factor}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.scale_rows %arg10, %29 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %29 : tensor<64x64xf32> -> tensor<64xf32>
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

// The running sum is rescaled by the step's factor too: a row sum that adds
// to the carried sum as it is (no init_scale) is not the online softmax.
func.func @row_sum_not_rescaled(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.row_sum must add to the carried running sum, scaled by the step's attn.rescale_factor (its init and init_scale)}}
      %36 = attn.row_sum %33 init %arg9 : tensor<64x64xf32> -> tensor<64xf32>
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

// The running sum's rescale is its row sum's init_scale: a step that
// rescales it with an attn.scale_rows of its own is refused, not lowered as
// a second accumulator update.
func.func @row_sum_rescaled_apart(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: a kv loop rescales only the accumulator with attn.scale_rows (the running sum by its attn.row_sum's init_scale), found 2}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %31 = attn.scale_rows %arg9, %30 : tensor<64xf32>, tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %31 : tensor<64x64xf32> -> tensor<64xf32>
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

// P is attn.exp_diff of the scores: a loop that feeds the raw scores to
// attn.pv and attn.row_sum is not the online softmax.
func.func @no_exp_diff(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.exp_diff}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %28, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %28 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
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

// The row sum must be carried across kv blocks (attn.row_sum with init).
func.func @row_sum_not_carried(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.row_sum carried across blocks}}
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
      %36 = attn.row_sum %33 : tensor<64x64xf32> -> tensor<64xf32>
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

// A kv loop that never accumulates P V.
func.func @no_pv(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.pv}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %32 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
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

// The kernel runs the kv loops of the tile: one kv block computed outside
// any scf.for is no loop it can run.
func.func @no_kv_loop(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: expected a kv loop (an scf.for holding attn.qk)}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %27 = attn.load_tile %arg1[%arg3, %arg4, %c0] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
    %29 = attn.row_max %28 init %cst_1 : tensor<64x64xf32> -> tensor<64xf32>
    %30 = attn.rescale_factor %cst_1, %29 scale_log2 %scale_cst0 : tensor<64xf32>
    %32 = attn.scale_rows %cst, %30 : tensor<64x64xf32>, tensor<64xf32>
    %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
    %34 = attn.load_tile %arg2[%arg3, %arg4, %c0] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
    %36 = attn.row_sum %33 init %cst_0 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
    %output, %lse = attn.finalize %35, %36, %29 scale %scale_cst1 : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
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

// K is TMA-loaded by the kernel: a K tile that is not an attn.load_tile
// (here a function argument) has no load to lower.
func.func @key_not_loaded(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %key: tensor<64x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: K tiles must come from attn.load_tile, attn.load_paged_tile or attn.load_varlen_tile (directly or through the producer's attn.ring_push)}}
      %28 = attn.qk %4, %key : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
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

// The kernel starts m, l and O in registers from the first kv loop's
// initial values, which must be splat constants: a running sum that starts
// from a tensor.empty (undefined) has no value to put there.
func.func @first_loop_from_empty(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = tensor.empty() : tensor<64xf32>
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
    // expected-error @+1 {{convert-attn-to-nvvm: the first kv loop must start its carried values from splat constants (the online softmax's m = -inf, l = 0, O = 0)}}
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

// A constant that is not a splat (here row 0's max starts at 0, the others
// at -inf) is not one value per register either: every thread would need
// the elements of its own rows.
func.func @first_loop_from_non_splat(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<[0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]> : tensor<64xf32>
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
    // expected-error @+1 {{convert-attn-to-nvvm: the first kv loop must start its carried values from splat constants (the online softmax's m = -inf, l = 0, O = 0)}}
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

// The kernel carries m, l and O from one kv loop to the next in the same
// registers: a tail loop that starts its max from the full loop's sum (and
// its sum from the max) is not that.
func.func @loops_carry_out_of_order(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: a kv loop must carry on the previous kv loop's results, in order}}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#1, %arg9 = %22#0, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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

// Nor is a tail loop that starts over from the initial constants, dropping
// the full loop's blocks.
func.func @loop_restarts_from_constants(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: a kv loop must carry on the previous kv loop's results, in order}}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
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

// attn.finalize takes O, l and m from the registers the last kv loop leaves
// them in: a row sum from the full loop (missing the tail's blocks) is not
// there.
func.func @finalize_reads_first_loop(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: attn.finalize must read the last kv loop's results}}
    %output, %lse = attn.finalize %23#2, %22#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
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

// The kernel reads seq_k from its parameters: K with a static sequence
// length (128) would run that length only.
func.func @static_key_length(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x128x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x128x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: the kernel takes the sequence lengths at launch time, but K or V has the static type 'tensor<?x2x128x64xbf16>'; run attn-generalize-lengths before attn-tile (attn-lower-to-nvvm-pipeline does)}}
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
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x128x64xbf16> -> tensor<64x64xbf16>
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
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x128x64xbf16> -> tensor<64x64xbf16>
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

// The same for seq_q: Q with a static sequence length.
func.func @static_query_length(%arg0: tensor<?x2x128x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x128x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x128x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: the kernel takes the sequence lengths at launch time, but Q has the static type 'tensor<?x2x128x64xbf16>'; run attn-generalize-lengths before attn-tile (attn-lower-to-nvvm-pipeline does)}}
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x128x64xbf16> -> tensor<64x64xbf16>
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

// Every attn op must end up in a kernel: an attn.load_tile outside the
// tiling forall (its result unused) is an error, not an op left behind in
// the host code.
func.func @load_outside_the_tile(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: 'attn.load_tile' is not part of a tiled attention (run attn-tile, attn-fuse-online-softmax and attn-split-masked-loops first, or attn-lower-to-nvvm-pipeline)}}
  %stray = attn.load_tile %arg0[%c0, %c0, %c0] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// Kernel names are PTX identifiers (every other character becomes '_'):
// @"a-b" and @a_b would both be kernel a_b.
func.func @"a-b"(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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

// expected-error @+1 {{convert-attn-to-nvvm: the kernel of @a_b is named a_b, as the kernel of @a-b is; rename one of the functions}}
func.func @a_b(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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

// The row max starts each block from -inf instead of the carried max: the
// online softmax would forget the blocks before.
func.func @row_max_from_constant(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: a tile operand of a kv loop's op must be computed in the loop or carried by it (operand 1)}}
      %29 = attn.row_max %28 init %cst_1 : tensor<64x64xf32> -> tensor<64xf32>
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

// The exponentials under the carried max instead of this block's: scores
// above it would overflow.
func.func @exp_diff_of_old_max(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.exp_diff must subtract the step's attn.row_max}}
      %33 = attn.exp_diff %28, %arg8 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
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

// The rescale factor of a constant max: O and l are not rescaled by what
// the max moved.
func.func @rescale_from_constant(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: a tile operand of a kv loop's op must be computed in the loop or carried by it (operand 0)}}
      %30 = attn.rescale_factor %cst_1, %29 scale_log2 %scale_cst0 : tensor<64xf32>
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

// The row max starts from the carried row sum: a carried value, but not
// the running max.
func.func @row_max_from_sum(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the step's attn.row_max must start from the running max (its init) and be carried to the next block}}
      %29 = attn.row_max %28 init %arg9 : tensor<64x64xf32> -> tensor<64xf32>
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

// alpha of the running max against itself is 1: O and l would never be
// rescaled.
func.func @rescale_same_max(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.rescale_factor must compare the carried running max with the step's attn.row_max}}
      %30 = attn.rescale_factor %arg8, %arg8 scale_log2 %scale_cst0 : tensor<64xf32>
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

// Each thread holds a partial running sum that attn.finalize adds up over
// its quad: a start of 1 would count four times.
func.func @row_sum_from_one(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 0.180336878 : f32
  %scale_cst1 = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<1.000000e+00> : tensor<64xf32>
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
    // expected-error @+1 {{convert-attn-to-nvvm: the running sum must start from +0 (each thread holds a partial sum)}}
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

// attn.stage orders the iterations of a kv loop; on the Q load outside the
// loops the kernel would ignore it.
func.func @stage_on_query_load(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    // expected-error @+1 {{convert-attn-to-nvvm: attn.stage belongs on the ops of a consumer kv loop}}
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] {attn.stage = 1 : i64} : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// O += P V onto the carried O without its rescale: the sum would mix two
// maxima (and the overlapped schedule carries only P and the factor).
func.func @pv_on_unscaled_acc(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: attn.pv's accumulator must be the carried O, scaled by the step's attn.rescale_factor}}
      %35 = attn.pv %33, %34, %arg10 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
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

// A step without O's rescale (attn.scale_rows of the accumulator) is not the
// online softmax.
func.func @no_acc_rescale(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: this kv loop is not one step of the fused online softmax (run attn-fuse-online-softmax first): it has no attn.scale_rows of the accumulator}}
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst0 : tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %arg10 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
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

// Ping-pong turns (attn.wait_turn / attn.pass_turn) around the S GEMM of
// every consumer kv loop, or none.
func.func @turn_without_pass(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_7 = arith.constant 2 : index
      %dim_8 = tensor.dim %arg1, %c2_7 : tensor<?x2x?x64xbf16>
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg0, %c2_9 : tensor<?x8x?x64xbf16>
      %c0_11 = arith.constant 0 : index
      %c64_12 = arith.constant 64 : index
      %27 = arith.ceildivsi %dim_8, %c64_12 : index
      %c128_13 = arith.constant 128 : index
      %28 = arith.addi %5, %c128_13 : index
      %29 = arith.minsi %28, %dim_10 : index
      %c-1_14 = arith.constant -1 : index
      %30 = arith.addi %29, %c-1_14 : index
      %c-1_15 = arith.constant -1 : index
      %31 = arith.addi %dim_8, %c-1_15 : index
      %32 = arith.minsi %30, %31 : index
      %c64_16 = arith.constant 64 : index
      %c0_17 = arith.constant 0 : index
      %c1_18 = arith.constant 1 : index
      %33 = arith.addi %32, %c1_18 : index
      %c64_19 = arith.constant 64 : index
      %34 = arith.ceildivsi %33, %c64_19 : index
      %35 = arith.maxsi %34, %c0_11 : index
      %36 = arith.minsi %35, %27 : index
      %37 = arith.cmpi slt, %32, %c0_11 : index
      %38 = arith.select %37, %c0_17, %36 : index
      %c-1_20 = arith.constant -1 : index
      %39 = arith.addi %dim_8, %c-1_20 : index
      %40 = arith.minsi %5, %39 : index
      %c64_21 = arith.constant 64 : index
      %c0_22 = arith.constant 0 : index
      %c1_23 = arith.constant 1 : index
      %41 = arith.addi %40, %c1_23 : index
      %c64_24 = arith.constant 64 : index
      %42 = arith.floordivsi %41, %c64_24 : index
      %c1_25 = arith.constant 1 : index
      scf.for %arg8 = %c0_17 to %38 step %c1_25 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        // expected-error @+1 {{convert-attn-to-nvvm: a ping-pong turn is attn.wait_turn right before the step's attn.qk and attn.pass_turn right after its last GEMM (the attn.qk, or the attn.pv of a rotated loop)}}
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

func.func @turns_in_one_loop(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_7 = arith.constant 2 : index
      %dim_8 = tensor.dim %arg1, %c2_7 : tensor<?x2x?x64xbf16>
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg0, %c2_9 : tensor<?x8x?x64xbf16>
      %c0_11 = arith.constant 0 : index
      %c64_12 = arith.constant 64 : index
      %27 = arith.ceildivsi %dim_8, %c64_12 : index
      %c128_13 = arith.constant 128 : index
      %28 = arith.addi %5, %c128_13 : index
      %29 = arith.minsi %28, %dim_10 : index
      %c-1_14 = arith.constant -1 : index
      %30 = arith.addi %29, %c-1_14 : index
      %c-1_15 = arith.constant -1 : index
      %31 = arith.addi %dim_8, %c-1_15 : index
      %32 = arith.minsi %30, %31 : index
      %c64_16 = arith.constant 64 : index
      %c0_17 = arith.constant 0 : index
      %c1_18 = arith.constant 1 : index
      %33 = arith.addi %32, %c1_18 : index
      %c64_19 = arith.constant 64 : index
      %34 = arith.ceildivsi %33, %c64_19 : index
      %35 = arith.maxsi %34, %c0_11 : index
      %36 = arith.minsi %35, %27 : index
      %37 = arith.cmpi slt, %32, %c0_11 : index
      %38 = arith.select %37, %c0_17, %36 : index
      %c-1_20 = arith.constant -1 : index
      %39 = arith.addi %dim_8, %c-1_20 : index
      %40 = arith.minsi %5, %39 : index
      %c64_21 = arith.constant 64 : index
      %c0_22 = arith.constant 0 : index
      %c1_23 = arith.constant 1 : index
      %41 = arith.addi %40, %c1_23 : index
      %c64_24 = arith.constant 64 : index
      %42 = arith.floordivsi %41, %c64_24 : index
      %c1_25 = arith.constant 1 : index
      scf.for %arg8 = %c0_17 to %38 step %c1_25 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{convert-attn-to-nvvm: the kv loops of a tile take ping-pong turns (attn.wait_turn, attn.pass_turn) all alike or not at all}}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

func.func @stray_turn(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_7 = arith.constant 2 : index
      %dim_8 = tensor.dim %arg1, %c2_7 : tensor<?x2x?x64xbf16>
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg0, %c2_9 : tensor<?x8x?x64xbf16>
      %c0_11 = arith.constant 0 : index
      %c64_12 = arith.constant 64 : index
      %27 = arith.ceildivsi %dim_8, %c64_12 : index
      %c128_13 = arith.constant 128 : index
      %28 = arith.addi %5, %c128_13 : index
      %29 = arith.minsi %28, %dim_10 : index
      %c-1_14 = arith.constant -1 : index
      %30 = arith.addi %29, %c-1_14 : index
      %c-1_15 = arith.constant -1 : index
      %31 = arith.addi %dim_8, %c-1_15 : index
      %32 = arith.minsi %30, %31 : index
      %c64_16 = arith.constant 64 : index
      %c0_17 = arith.constant 0 : index
      %c1_18 = arith.constant 1 : index
      %33 = arith.addi %32, %c1_18 : index
      %c64_19 = arith.constant 64 : index
      %34 = arith.ceildivsi %33, %c64_19 : index
      %35 = arith.maxsi %34, %c0_11 : index
      %36 = arith.minsi %35, %27 : index
      %37 = arith.cmpi slt, %32, %c0_11 : index
      %38 = arith.select %37, %c0_17, %36 : index
      %c-1_20 = arith.constant -1 : index
      %39 = arith.addi %dim_8, %c-1_20 : index
      %40 = arith.minsi %5, %39 : index
      %c64_21 = arith.constant 64 : index
      %c0_22 = arith.constant 0 : index
      %c1_23 = arith.constant 1 : index
      %41 = arith.addi %40, %c1_23 : index
      %c64_24 = arith.constant 64 : index
      %42 = arith.floordivsi %41, %c64_24 : index
      %c1_25 = arith.constant 1 : index
      scf.for %arg8 = %c0_17 to %38 step %c1_25 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
        // expected-error @+1 {{convert-attn-to-nvvm: a ping-pong turn belongs around the attn.qk of a consumer kv loop}}
        attn.wait_turn
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// wgmma multiplies tiles of one element type.
func.func @value_element_type(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_7 = arith.constant 2 : index
      %dim_8 = tensor.dim %arg1, %c2_7 : tensor<?x2x?x64xbf16>
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg0, %c2_9 : tensor<?x8x?x64xbf16>
      %c0_11 = arith.constant 0 : index
      %c64_12 = arith.constant 64 : index
      %27 = arith.ceildivsi %dim_8, %c64_12 : index
      %c128_13 = arith.constant 128 : index
      %28 = arith.addi %5, %c128_13 : index
      %29 = arith.minsi %28, %dim_10 : index
      %c-1_14 = arith.constant -1 : index
      %30 = arith.addi %29, %c-1_14 : index
      %c-1_15 = arith.constant -1 : index
      %31 = arith.addi %dim_8, %c-1_15 : index
      %32 = arith.minsi %30, %31 : index
      %c64_16 = arith.constant 64 : index
      %c0_17 = arith.constant 0 : index
      %c1_18 = arith.constant 1 : index
      %33 = arith.addi %32, %c1_18 : index
      %c64_19 = arith.constant 64 : index
      %34 = arith.ceildivsi %33, %c64_19 : index
      %35 = arith.maxsi %34, %c0_11 : index
      %36 = arith.minsi %35, %27 : index
      %37 = arith.cmpi slt, %32, %c0_11 : index
      %38 = arith.select %37, %c0_17, %36 : index
      %c-1_20 = arith.constant -1 : index
      %39 = arith.addi %dim_8, %c-1_20 : index
      %40 = arith.minsi %5, %39 : index
      %c64_21 = arith.constant 64 : index
      %c0_22 = arith.constant 0 : index
      %c1_23 = arith.constant 1 : index
      %41 = arith.addi %40, %c1_23 : index
      %c64_24 = arith.constant 64 : index
      %42 = arith.floordivsi %41, %c64_24 : index
      %c1_25 = arith.constant 1 : index
      scf.for %arg8 = %c0_17 to %38 step %c1_25 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        // expected-error @+1 {{convert-attn-to-nvvm: K and V tiles must have Q's element type 'bf16', got 'f16'}}
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xf16> -> tensor<64x64xf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xf16>
      }
      attn.yield
    } consumer {
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Without its V release the producer would wait for the stage forever.
func.func @no_value_release(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_7 = arith.constant 2 : index
      %dim_8 = tensor.dim %arg1, %c2_7 : tensor<?x2x?x64xbf16>
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg0, %c2_9 : tensor<?x8x?x64xbf16>
      %c0_11 = arith.constant 0 : index
      %c64_12 = arith.constant 64 : index
      %27 = arith.ceildivsi %dim_8, %c64_12 : index
      %c128_13 = arith.constant 128 : index
      %28 = arith.addi %5, %c128_13 : index
      %29 = arith.minsi %28, %dim_10 : index
      %c-1_14 = arith.constant -1 : index
      %30 = arith.addi %29, %c-1_14 : index
      %c-1_15 = arith.constant -1 : index
      %31 = arith.addi %dim_8, %c-1_15 : index
      %32 = arith.minsi %30, %31 : index
      %c64_16 = arith.constant 64 : index
      %c0_17 = arith.constant 0 : index
      %c1_18 = arith.constant 1 : index
      %33 = arith.addi %32, %c1_18 : index
      %c64_19 = arith.constant 64 : index
      %34 = arith.ceildivsi %33, %c64_19 : index
      %35 = arith.maxsi %34, %c0_11 : index
      %36 = arith.minsi %35, %27 : index
      %37 = arith.cmpi slt, %32, %c0_11 : index
      %38 = arith.select %37, %c0_17, %36 : index
      %c-1_20 = arith.constant -1 : index
      %39 = arith.addi %dim_8, %c-1_20 : index
      %40 = arith.minsi %5, %39 : index
      %c64_21 = arith.constant 64 : index
      %c0_22 = arith.constant 0 : index
      %c1_23 = arith.constant 1 : index
      %41 = arith.addi %40, %c1_23 : index
      %c64_24 = arith.constant 64 : index
      %42 = arith.floordivsi %41, %c64_24 : index
      %c1_25 = arith.constant 1 : index
      scf.for %arg8 = %c0_17 to %38 step %c1_25 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        // expected-error @+1 {{convert-attn-to-nvvm: a kv step releases its popped K and its V (a rotated step: the previous step's), V last, each once (attn.ring_release)}}
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// A tile signals its dependents once.
func.func @launch_dependents_twice(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    attn.launch_dependents
    // expected-error @+1 {{convert-attn-to-nvvm: a tile signals its dependents once; this is its second attn.launch_dependents}}
    attn.launch_dependents
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

// The intra-warpgroup overlap (kv loops whose accumulator update is
// attn.stage 1) keeps P of block j-1 in registers while block j's softmax
// runs: a layout with a P buffer (probs) does not.
func.func @overlap_with_probs_buffer(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: the intra-warpgroup overlap (attn.stage = 1) needs P in registers, but #attn.shared_memory has a P buffer}}
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs = 40960, probs_bytes = 8192, probs_layout = #attn.swizzled_shared<swizzle = 128>, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// P's shared-memory buffer is written and read by wgmma in the one swizzle
// the kernel lowers. (This tile also overlaps, as the one above; the layout
// check runs first.)
func.func @probs_buffer_not_128_byte_swizzled(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  // expected-error @+1 {{convert-attn-to-nvvm: #attn.shared_memory's probs_layout is 64-byte swizzled; the kernel lowers 128-byte swizzled shared tiles (#attn.swizzled_shared<swizzle = 128>)}}
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs = 40960, probs_bytes = 8192, probs_layout = #attn.swizzled_shared<swizzle = 64>, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// Q of a paged tile is the query batch's, not a page pool's: the kernel
// loads it with one TMA box at the tile's row.
func.func @query_from_pages(%arg0: tensor<?x4x?x64xbf16>, %arg1: tensor<?x16x4x64xbf16>, %arg2: tensor<?x16x4x64xbf16>, %arg3: tensor<?x?xi32>, %arg4: tensor<?xi32>) -> tensor<?x4x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x4x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x4x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x4x?x64xbf16>
  %2 = scf.forall (%arg5, %arg6, %arg7) in (%dim, 4, %0) shared_outs(%arg8 = %1) -> (tensor<?x4x?x64xbf16>) {
    %3 = arith.muli %arg7, %c64 : index
    %extracted = tensor.extract %arg4[%arg5] : tensor<?xi32>
    %4 = arith.index_cast %extracted : i32 to index
    // expected-error @+1 {{convert-attn-to-nvvm: Q must come from attn.load_tile or attn.load_varlen_tile, not from a page pool}}
    %5 = attn.load_paged_tile %arg1[%arg5, %arg6, %3] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
    %6 = arith.ceildivsi %4, %c64 : index
    %7 = arith.floordivsi %4, %c64 : index
    %8 = arith.maxsi %7, %c0 : index
    %9 = arith.minsi %8, %6 : index
    %10:3 = scf.for %arg9 = %c0 to %9 step %c1 iter_args(%arg10 = %cst_1, %arg11 = %cst_0, %arg12 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %14 = arith.muli %arg9, %c64 : index
      %15 = attn.load_paged_tile %arg1[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %16 = attn.qk %5, %15 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %17 = attn.row_max %16 init %arg10 : tensor<64x64xf32> -> tensor<64xf32>
      %18 = attn.rescale_factor %arg10, %17 scale_log2 %cst_2 : tensor<64xf32>
      %20 = attn.exp_diff %16, %17 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %21 = attn.row_sum %20 init %arg11 scaled %18 : tensor<64x64xf32> -> tensor<64xf32>
      %22 = attn.load_paged_tile %arg2[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %23 = attn.scale_rows %arg12, %18 : tensor<64x64xf32>, tensor<64xf32>
      %24 = attn.pv %20, %22, %23 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %17, %21, %24 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %11:3 = scf.for %arg9 = %9 to %6 step %c1 iter_args(%arg10 = %10#0, %arg11 = %10#1, %arg12 = %10#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %14 = arith.muli %arg9, %c64 : index
      %15 = attn.load_paged_tile %arg1[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %16 = attn.qk %5, %15 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %17 = attn.mask %16 rows %3 cols %14 seq_q %dim_4 seq_k %4 : tensor<64x64xf32>
      %18 = attn.row_max %17 init %arg10 : tensor<64x64xf32> -> tensor<64xf32>
      %19 = attn.rescale_factor %arg10, %18 scale_log2 %cst_2 : tensor<64xf32>
      %21 = attn.exp_diff %17, %18 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %22 = attn.row_sum %21 init %arg11 scaled %19 : tensor<64x64xf32> -> tensor<64xf32>
      %23 = attn.load_paged_tile %arg2[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %24 = attn.scale_rows %arg12, %19 : tensor<64x64xf32>, tensor<64xf32>
      %25 = attn.pv %21, %23, %24 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %18, %22, %25 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %11#2, %11#1, %11#0 scale %cst_3 : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %12 = arith.subi %dim_4, %3 : index
    %13 = arith.minsi %12, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%13, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[%arg5, %arg6, %3, 0] [1, 1, %13, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x4x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x4x?x64xbf16>
}

// -----

// K and V of a paged tile are read through one block table and one
// length: the kernel reads a block's page numbers once for both.
func.func @value_length(%arg0: tensor<?x4x?x64xbf16>, %arg1: tensor<?x16x4x64xbf16>, %arg2: tensor<?x16x4x64xbf16>, %arg3: tensor<?x?xi32>, %arg4: tensor<?xi32>) -> tensor<?x4x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x4x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x4x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x4x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: K and V must both be read from page pools (attn.load_paged_tile) through one block table and length}}
  %2 = scf.forall (%arg5, %arg6, %arg7) in (%dim, 4, %0) shared_outs(%arg8 = %1) -> (tensor<?x4x?x64xbf16>) {
    %3 = arith.muli %arg7, %c64 : index
    %extracted = tensor.extract %arg4[%arg5] : tensor<?xi32>
    %4 = arith.index_cast %extracted : i32 to index
    %5 = attn.load_tile %arg0[%arg5, %arg6, %3] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    %6 = arith.ceildivsi %4, %c64 : index
    %7 = arith.floordivsi %4, %c64 : index
    %8 = arith.maxsi %7, %c0 : index
    %9 = arith.minsi %8, %6 : index
    %10:3 = scf.for %arg9 = %c0 to %9 step %c1 iter_args(%arg10 = %cst_1, %arg11 = %cst_0, %arg12 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %14 = arith.muli %arg9, %c64 : index
      %15 = attn.load_paged_tile %arg1[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %16 = attn.qk %5, %15 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %17 = attn.row_max %16 init %arg10 : tensor<64x64xf32> -> tensor<64xf32>
      %18 = attn.rescale_factor %arg10, %17 scale_log2 %cst_2 : tensor<64xf32>
      %20 = attn.exp_diff %16, %17 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %21 = attn.row_sum %20 init %arg11 scaled %18 : tensor<64x64xf32> -> tensor<64xf32>
      %22 = attn.load_paged_tile %arg2[%arg5, %arg6, %14] pages %arg3 length %dim_4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %23 = attn.scale_rows %arg12, %18 : tensor<64x64xf32>, tensor<64xf32>
      %24 = attn.pv %20, %22, %23 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %17, %21, %24 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %11:3 = scf.for %arg9 = %9 to %6 step %c1 iter_args(%arg10 = %10#0, %arg11 = %10#1, %arg12 = %10#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %14 = arith.muli %arg9, %c64 : index
      %15 = attn.load_paged_tile %arg1[%arg5, %arg6, %14] pages %arg3 length %4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %16 = attn.qk %5, %15 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %17 = attn.mask %16 rows %3 cols %14 seq_q %dim_4 seq_k %4 : tensor<64x64xf32>
      %18 = attn.row_max %17 init %arg10 : tensor<64x64xf32> -> tensor<64xf32>
      %19 = attn.rescale_factor %arg10, %18 scale_log2 %cst_2 : tensor<64xf32>
      %21 = attn.exp_diff %17, %18 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %22 = attn.row_sum %21 init %arg11 scaled %19 : tensor<64x64xf32> -> tensor<64xf32>
      %23 = attn.load_paged_tile %arg2[%arg5, %arg6, %14] pages %arg3 length %dim_4 : tensor<?x16x4x64xbf16>, tensor<?x?xi32> -> tensor<64x64xbf16>
      %24 = attn.scale_rows %arg12, %19 : tensor<64x64xf32>, tensor<64xf32>
      %25 = attn.pv %21, %23, %24 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %18, %22, %25 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %11#2, %11#1, %11#0 scale %cst_3 : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %12 = arith.subi %dim_4, %3 : index
    %13 = arith.minsi %12, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%13, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[%arg5, %arg6, %3, 0] [1, 1, %13, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x4x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x4x?x64xbf16>
}

// -----

// K and V of a varlen tile are one sequence's rows of the packed batch.
func.func @value_rows(%arg0: tensor<1x?x4x64xbf16>, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x4x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x4x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x4x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 4, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.divui %arg6, %c2 : index
    %7 = arith.muli %query_block, %c64 : index
    %8 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %9 = arith.index_cast %extracted : i32 to index
    %extracted_5 = tensor.extract %arg3[%8] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %11 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%8] : tensor<?xi32>
    %12 = arith.index_cast %extracted_7 : i32 to index
    %13 = arith.subi %10, %9 : index
    %14 = arith.subi %12, %11 : index
    %15 = attn.load_varlen_tile %arg0[%arg6, %7] rows %9 to %10 layout = bshd : tensor<1x?x4x64xbf16> -> tensor<64x64xbf16>
    %16 = arith.cmpi slt, %7, %13 : index
    %17 = arith.select %16, %14, %c0 : index
    %18 = arith.ceildivsi %17, %c64 : index
    %19 = arith.addi %7, %c64 : index
    %20 = arith.minsi %19, %13 : index
    %21 = arith.addi %20, %c-1 : index
    %22 = arith.addi %17, %c-1 : index
    %23 = arith.minsi %21, %22 : index
    %24 = arith.addi %23, %c1 : index
    %25 = arith.ceildivsi %24, %c64 : index
    %26 = arith.maxsi %25, %c0 : index
    %27 = arith.minsi %26, %18 : index
    %28 = arith.cmpi slt, %23, %c0 : index
    %29 = arith.select %28, %c0, %27 : index
    %30 = arith.addi %14, %c-1 : index
    %31 = arith.minsi %7, %30 : index
    %32 = arith.addi %31, %c1 : index
    %33 = arith.floordivsi %32, %c64 : index
    %34 = arith.maxsi %33, %c0 : index
    %35 = arith.minsi %34, %29 : index
    %36:3 = scf.for %arg10 = %c0 to %35 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.row_max %44 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %46 = attn.rescale_factor %arg11, %45 scale_log2 %cst_2 : tensor<64xf32>
      %48 = attn.exp_diff %44, %45 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %49 = attn.row_sum %48 init %arg12 scaled %46 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.load_varlen_tile %arg2[%6, %42] rows %9 to %10 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %51 = attn.scale_rows %arg13, %46 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.pv %48, %50, %51 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %45, %49, %52 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %37:3 = scf.for %arg10 = %35 to %29 step %c1 iter_args(%arg11 = %36#0, %arg12 = %36#1, %arg13 = %36#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      // expected-error @+1 {{convert-attn-to-nvvm: K and V must be read from the same rows of the packed batch}}
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.mask %44 rows %7 cols %42 seq_q %13 seq_k %14 kind = causal : tensor<64x64xf32>
      %46 = attn.row_max %45 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %47 = attn.rescale_factor %arg11, %46 scale_log2 %cst_2 : tensor<64xf32>
      %49 = attn.exp_diff %45, %46 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %50 = attn.row_sum %49 init %arg12 scaled %47 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.load_varlen_tile %arg2[%6, %42] rows %9 to %10 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %52 = attn.scale_rows %arg13, %47 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.pv %49, %51, %52 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %46, %50, %53 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %38 = arith.subi %13, %7 : index
    %39 = arith.minsi %38, %c64 : index
    %40 = arith.maxsi %39, %c0 : index
    %41 = arith.addi %9, %7 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%40, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%40] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %41, %arg6, 0] [1, %40, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x4x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %41] [1, 1, %40] [1, 1, 1] : tensor<?xf32> into tensor<1x4x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// A varlen tile's O stored as a whole tile, past its sequence's end.
func.func @varlen_whole_tile_stored(%arg0: tensor<1x?x4x64xbf16>, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x4x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x4x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x4x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 4, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.divui %arg6, %c2 : index
    %7 = arith.muli %query_block, %c64 : index
    %8 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %9 = arith.index_cast %extracted : i32 to index
    %extracted_5 = tensor.extract %arg3[%8] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %11 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%8] : tensor<?xi32>
    %12 = arith.index_cast %extracted_7 : i32 to index
    %13 = arith.subi %10, %9 : index
    %14 = arith.subi %12, %11 : index
    %15 = attn.load_varlen_tile %arg0[%arg6, %7] rows %9 to %10 layout = bshd : tensor<1x?x4x64xbf16> -> tensor<64x64xbf16>
    %16 = arith.cmpi slt, %7, %13 : index
    %17 = arith.select %16, %14, %c0 : index
    %18 = arith.ceildivsi %17, %c64 : index
    %19 = arith.addi %7, %c64 : index
    %20 = arith.minsi %19, %13 : index
    %21 = arith.addi %20, %c-1 : index
    %22 = arith.addi %17, %c-1 : index
    %23 = arith.minsi %21, %22 : index
    %24 = arith.addi %23, %c1 : index
    %25 = arith.ceildivsi %24, %c64 : index
    %26 = arith.maxsi %25, %c0 : index
    %27 = arith.minsi %26, %18 : index
    %28 = arith.cmpi slt, %23, %c0 : index
    %29 = arith.select %28, %c0, %27 : index
    %30 = arith.addi %14, %c-1 : index
    %31 = arith.minsi %7, %30 : index
    %32 = arith.addi %31, %c1 : index
    %33 = arith.floordivsi %32, %c64 : index
    %34 = arith.maxsi %33, %c0 : index
    %35 = arith.minsi %34, %29 : index
    %36:3 = scf.for %arg10 = %c0 to %35 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.row_max %44 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %46 = attn.rescale_factor %arg11, %45 scale_log2 %cst_2 : tensor<64xf32>
      %48 = attn.exp_diff %44, %45 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %49 = attn.row_sum %48 init %arg12 scaled %46 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %51 = attn.scale_rows %arg13, %46 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.pv %48, %50, %51 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %45, %49, %52 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %37:3 = scf.for %arg10 = %35 to %29 step %c1 iter_args(%arg11 = %36#0, %arg12 = %36#1, %arg13 = %36#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.mask %44 rows %7 cols %42 seq_q %13 seq_k %14 kind = causal : tensor<64x64xf32>
      %46 = attn.row_max %45 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %47 = attn.rescale_factor %arg11, %46 scale_log2 %cst_2 : tensor<64xf32>
      %49 = attn.exp_diff %45, %46 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %50 = attn.row_sum %49 init %arg12 scaled %47 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %52 = attn.scale_rows %arg13, %47 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.pv %49, %51, %52 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %46, %50, %53 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %38 = arith.subi %13, %7 : index
    %39 = arith.minsi %38, %c64 : index
    %40 = arith.maxsi %39, %c0 : index
    %41 = arith.addi %9, %7 : index
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%40] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write a tensor.extract_slice of the tile's rows below its sequence's length}}
      tensor.parallel_insert_slice %output into %arg8[0, %41, %arg6, 0] [1, 64, 1, 64] [1, 1, 1, 1] : tensor<64x64xbf16> into tensor<1x?x4x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %41] [1, 1, %40] [1, 1, 1] : tensor<?xf32> into tensor<1x4x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// A varlen tile's rows are elements of the offsets arguments, which the
// kernel takes as pointers: a first row computed otherwise is not.
func.func @query_rows_computed(%arg0: tensor<1x?x4x64xbf16>, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x4x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x4x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x4x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 4, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.divui %arg6, %c2 : index
    %7 = arith.muli %query_block, %c64 : index
    %8 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %9 = arith.index_cast %extracted : i32 to index
    %extracted_5 = tensor.extract %arg3[%8] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %11 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%8] : tensor<?xi32>
    %12 = arith.index_cast %extracted_7 : i32 to index
    %13 = arith.subi %10, %9 : index
    %14 = arith.subi %12, %11 : index
    // expected-error @+1 {{convert-attn-to-nvvm: a varlen tile's rows must be elements of i32 arguments of the function (the kernel's cu_seqlens_q and cu_seqlens_k pointers), as attn-tile reads them}}
    %15 = attn.load_varlen_tile %arg0[%arg6, %7] rows %c0 to %10 layout = bshd : tensor<1x?x4x64xbf16> -> tensor<64x64xbf16>
    %16 = arith.cmpi slt, %7, %13 : index
    %17 = arith.select %16, %14, %c0 : index
    %18 = arith.ceildivsi %17, %c64 : index
    %19 = arith.addi %7, %c64 : index
    %20 = arith.minsi %19, %13 : index
    %21 = arith.addi %20, %c-1 : index
    %22 = arith.addi %17, %c-1 : index
    %23 = arith.minsi %21, %22 : index
    %24 = arith.addi %23, %c1 : index
    %25 = arith.ceildivsi %24, %c64 : index
    %26 = arith.maxsi %25, %c0 : index
    %27 = arith.minsi %26, %18 : index
    %28 = arith.cmpi slt, %23, %c0 : index
    %29 = arith.select %28, %c0, %27 : index
    %30 = arith.addi %14, %c-1 : index
    %31 = arith.minsi %7, %30 : index
    %32 = arith.addi %31, %c1 : index
    %33 = arith.floordivsi %32, %c64 : index
    %34 = arith.maxsi %33, %c0 : index
    %35 = arith.minsi %34, %29 : index
    %36:3 = scf.for %arg10 = %c0 to %35 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.row_max %44 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %46 = attn.rescale_factor %arg11, %45 scale_log2 %cst_2 : tensor<64xf32>
      %48 = attn.exp_diff %44, %45 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %49 = attn.row_sum %48 init %arg12 scaled %46 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %51 = attn.scale_rows %arg13, %46 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.pv %48, %50, %51 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %45, %49, %52 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %37:3 = scf.for %arg10 = %35 to %29 step %c1 iter_args(%arg11 = %36#0, %arg12 = %36#1, %arg13 = %36#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.mask %44 rows %7 cols %42 seq_q %13 seq_k %14 kind = causal : tensor<64x64xf32>
      %46 = attn.row_max %45 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %47 = attn.rescale_factor %arg11, %46 scale_log2 %cst_2 : tensor<64xf32>
      %49 = attn.exp_diff %45, %46 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %50 = attn.row_sum %49 init %arg12 scaled %47 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %52 = attn.scale_rows %arg13, %47 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.pv %49, %51, %52 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %46, %50, %53 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %38 = arith.subi %13, %7 : index
    %39 = arith.minsi %38, %c64 : index
    %40 = arith.maxsi %39, %c0 : index
    %41 = arith.addi %9, %7 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%40, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%40] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %41, %arg6, 0] [1, %40, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x4x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %41] [1, 1, %40] [1, 1, 1] : tensor<?xf32> into tensor<1x4x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// The tile scheduler walks the query tiles of cu_seqlens_q, not the keys'.
func.func @tiles_of_keys(%arg0: tensor<1x?x4x64xbf16>, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x4x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x4x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x4x?xf32>
  // expected-error @+1 {{convert-attn-to-nvvm: a varlen tile is one attn.sequence_tile of cu_seqlens_q in the tiling forall (attn-tile's tile scheduler)}}
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 4, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg4[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.divui %arg6, %c2 : index
    %7 = arith.muli %query_block, %c64 : index
    %8 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %9 = arith.index_cast %extracted : i32 to index
    %extracted_5 = tensor.extract %arg3[%8] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %11 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%8] : tensor<?xi32>
    %12 = arith.index_cast %extracted_7 : i32 to index
    %13 = arith.subi %10, %9 : index
    %14 = arith.subi %12, %11 : index
    %15 = attn.load_varlen_tile %arg0[%arg6, %7] rows %9 to %10 layout = bshd : tensor<1x?x4x64xbf16> -> tensor<64x64xbf16>
    %16 = arith.cmpi slt, %7, %13 : index
    %17 = arith.select %16, %14, %c0 : index
    %18 = arith.ceildivsi %17, %c64 : index
    %19 = arith.addi %7, %c64 : index
    %20 = arith.minsi %19, %13 : index
    %21 = arith.addi %20, %c-1 : index
    %22 = arith.addi %17, %c-1 : index
    %23 = arith.minsi %21, %22 : index
    %24 = arith.addi %23, %c1 : index
    %25 = arith.ceildivsi %24, %c64 : index
    %26 = arith.maxsi %25, %c0 : index
    %27 = arith.minsi %26, %18 : index
    %28 = arith.cmpi slt, %23, %c0 : index
    %29 = arith.select %28, %c0, %27 : index
    %30 = arith.addi %14, %c-1 : index
    %31 = arith.minsi %7, %30 : index
    %32 = arith.addi %31, %c1 : index
    %33 = arith.floordivsi %32, %c64 : index
    %34 = arith.maxsi %33, %c0 : index
    %35 = arith.minsi %34, %29 : index
    %36:3 = scf.for %arg10 = %c0 to %35 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.row_max %44 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %46 = attn.rescale_factor %arg11, %45 scale_log2 %cst_2 : tensor<64xf32>
      %48 = attn.exp_diff %44, %45 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %49 = attn.row_sum %48 init %arg12 scaled %46 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %51 = attn.scale_rows %arg13, %46 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.pv %48, %50, %51 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %45, %49, %52 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %37:3 = scf.for %arg10 = %35 to %29 step %c1 iter_args(%arg11 = %36#0, %arg12 = %36#1, %arg13 = %36#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.mask %44 rows %7 cols %42 seq_q %13 seq_k %14 kind = causal : tensor<64x64xf32>
      %46 = attn.row_max %45 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %47 = attn.rescale_factor %arg11, %46 scale_log2 %cst_2 : tensor<64xf32>
      %49 = attn.exp_diff %45, %46 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %50 = attn.row_sum %49 init %arg12 scaled %47 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %52 = attn.scale_rows %arg13, %47 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.pv %49, %51, %52 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %46, %50, %53 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %38 = arith.subi %13, %7 : index
    %39 = arith.minsi %38, %c64 : index
    %40 = arith.maxsi %39, %c0 : index
    %41 = arith.addi %9, %7 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%40, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%40] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %41, %arg6, 0] [1, %40, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x4x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %41] [1, 1, %40] [1, 1, 1] : tensor<?xf32> into tensor<1x4x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// The tile scheduler's query blocks are the Q tile's rows.
func.func @scheduler_block_m(%arg0: tensor<1x?x4x64xbf16>, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x4x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x4x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x4x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 4, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>) {
    // expected-error @+1 {{convert-attn-to-nvvm: attn.sequence_tile's block_m must be the Q tile's tokens, 64}}
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 128 : tensor<?xi32>
    %6 = arith.divui %arg6, %c2 : index
    %7 = arith.muli %query_block, %c64 : index
    %8 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %9 = arith.index_cast %extracted : i32 to index
    %extracted_5 = tensor.extract %arg3[%8] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %11 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%8] : tensor<?xi32>
    %12 = arith.index_cast %extracted_7 : i32 to index
    %13 = arith.subi %10, %9 : index
    %14 = arith.subi %12, %11 : index
    %15 = attn.load_varlen_tile %arg0[%arg6, %7] rows %9 to %10 layout = bshd : tensor<1x?x4x64xbf16> -> tensor<64x64xbf16>
    %16 = arith.cmpi slt, %7, %13 : index
    %17 = arith.select %16, %14, %c0 : index
    %18 = arith.ceildivsi %17, %c64 : index
    %19 = arith.addi %7, %c64 : index
    %20 = arith.minsi %19, %13 : index
    %21 = arith.addi %20, %c-1 : index
    %22 = arith.addi %17, %c-1 : index
    %23 = arith.minsi %21, %22 : index
    %24 = arith.addi %23, %c1 : index
    %25 = arith.ceildivsi %24, %c64 : index
    %26 = arith.maxsi %25, %c0 : index
    %27 = arith.minsi %26, %18 : index
    %28 = arith.cmpi slt, %23, %c0 : index
    %29 = arith.select %28, %c0, %27 : index
    %30 = arith.addi %14, %c-1 : index
    %31 = arith.minsi %7, %30 : index
    %32 = arith.addi %31, %c1 : index
    %33 = arith.floordivsi %32, %c64 : index
    %34 = arith.maxsi %33, %c0 : index
    %35 = arith.minsi %34, %29 : index
    %36:3 = scf.for %arg10 = %c0 to %35 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.row_max %44 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %46 = attn.rescale_factor %arg11, %45 scale_log2 %cst_2 : tensor<64xf32>
      %48 = attn.exp_diff %44, %45 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %49 = attn.row_sum %48 init %arg12 scaled %46 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %51 = attn.scale_rows %arg13, %46 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.pv %48, %50, %51 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %45, %49, %52 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %37:3 = scf.for %arg10 = %35 to %29 step %c1 iter_args(%arg11 = %36#0, %arg12 = %36#1, %arg13 = %36#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %42 = arith.muli %arg10, %c64 : index
      %43 = attn.load_varlen_tile %arg1[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %44 = attn.qk %15, %43 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %45 = attn.mask %44 rows %7 cols %42 seq_q %13 seq_k %14 kind = causal : tensor<64x64xf32>
      %46 = attn.row_max %45 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %47 = attn.rescale_factor %arg11, %46 scale_log2 %cst_2 : tensor<64xf32>
      %49 = attn.exp_diff %45, %46 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %50 = attn.row_sum %49 init %arg12 scaled %47 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.load_varlen_tile %arg2[%6, %42] rows %11 to %12 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %52 = attn.scale_rows %arg13, %47 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.pv %49, %51, %52 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %46, %50, %53 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %38 = arith.subi %13, %7 : index
    %39 = arith.minsi %38, %c64 : index
    %40 = arith.maxsi %39, %c0 : index
    %41 = arith.addi %9, %7 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%40, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%40] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %41, %arg6, 0] [1, %40, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x4x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %41] [1, 1, %40] [1, 1, 1] : tensor<?xf32> into tensor<1x4x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x4x64xbf16>, tensor<1x4x?xf32>
}

// -----

// The kernel loads every kv loop's K with the first loop's tensor map and
// head: a tail loop that reads K at another head is rejected, not run at
// the full loop's head (or the full loop at the tail's).
func.func @kv_loops_read_other_heads(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-note @+1 {{the first load}}
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
      // expected-error @+1 {{convert-attn-to-nvvm: every kv loop must load this tile as the first loads it (the same tensor, batch and head, page table and length, or sequence rows; tile type and layout), at its own block}}
      %27 = attn.load_tile %arg1[%arg3, %c1, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// An op with a region at the tile's top level, which is neither a kv loop
// nor the rotation's prologue or epilogue, would be missing from the kernel.
func.func @region_at_tile_top_level(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %flag = arith.cmpi slt, %3, %c64 : index
    // expected-error @+1 {{convert-attn-to-nvvm: 'scf.if' at the top level of a tile has no GPU lowering: there the kernel lowers the Q load and its wait, attn.warp_specialize, the kv loops (and their prologue and epilogue), attn.launch_dependents and attn.finalize, and computes ops without effects or regions where they are read}}
    scf.if %flag {
      %unused = tensor.empty() : tensor<64x64xbf16>
    }
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

// V at head 1 while K is at the tile's head: the kernel loads V at K's.
func.func @values_at_other_head(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      %34 = attn.load_tile %arg2[%arg3, %c1, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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
      // expected-error @+1 {{convert-attn-to-nvvm: V must be loaded at K's batch and head (the kernel loads both at those of K's load)}}
      %35 = attn.load_tile %arg2[%arg3, %c1, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// An op with effects at the tile's top level (a call) would be missing from
// the kernel.
func.func private @log_tile()

func.func @call_at_tile_top_level(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    // expected-error @+1 {{convert-attn-to-nvvm: 'func.call' at the top level of a tile has no GPU lowering: there the kernel lowers the Q load and its wait, attn.warp_specialize, the kv loops (and their prologue and epilogue), attn.launch_dependents and attn.finalize, and computes ops without effects or regions where they are read}}
    func.call @log_tile() : () -> ()
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

// Q's load inside the consumer region: the kernel issues it from thread 0
// before the roles split.
func.func @query_load_in_consumer_region(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg8 = %c0 to %18 step %c1 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      // expected-error @+1 {{convert-attn-to-nvvm: Q's load must be in the body of the tile's scf.forall, before its attn.warp_specialize (thread 0 issues it before the roles split)}}
      %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Ping-pong turns in the kv loops without the first turn's pass: warpgroup
// 0 would wait for a turn that nobody passes.
func.func @turns_without_first_pass(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg8 = %c0 to %18 step %c1 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      // expected-error @+1 {{convert-attn-to-nvvm: the kv loops take ping-pong turns, so the consumer region holds one 'attn.pass_turn warpgroup(1)' before the kv ops (warpgroup 0 has the first turn) and one 'attn.wait_turn warpgroup(0)' after attn.finalize (its pending arrival consumed), and no other turn at its top level}}
      attn.wait_turn warpgroup(0)
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The last wait of one warpgroup inside a kv loop, as a second turn of its
// step.
func.func @turn_of_one_warpgroup_in_loop(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg8 = %c0 to %18 step %c1 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      attn.pass_turn warpgroup(1)
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        attn.wait_turn
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        // expected-error @+1 {{convert-attn-to-nvvm: a kv loop holds one 'attn.wait_turn' per step of the online softmax, found a second}}
        attn.wait_turn warpgroup(0)
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The first pass and the last wait without turns in the kv loops.
func.func @turns_of_one_warpgroup_only(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
  %dim_4 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
  %dim_5 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c128 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x8x?x64xbf16>
  %2 = tensor.empty(%dim, %dim_4) : tensor<?x8x?xf32>
  %3:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 8, %0) shared_outs(%arg6 = %1, %arg7 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %4 = arith.divui %arg4, %c4 : index
    %5 = arith.muli %arg5, %c128 : index
    %6 = attn.load_tile %arg0[%arg3, %arg4, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
    %7 = arith.ceildivsi %dim_5, %c64 : index
    %8 = arith.addi %5, %c128 : index
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg8 = %c0 to %18 step %c1 {
        %c64_26 = arith.constant 64 : index
        %43 = arith.muli %arg8, %c64_26 : index
        %44 = attn.load_tile %arg1[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        %45 = attn.load_tile %arg2[%arg3, %4, %43] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
        attn.ring_push %44, %45 : tensor<64x64xbf16>, tensor<64x64xbf16>
      }
      attn.yield
    } consumer {
      // expected-error @+1 {{convert-attn-to-nvvm: a turn of one warpgroup without ping-pong turns in the kv loops}}
      attn.pass_turn warpgroup(1)
      %27:3 = scf.for %arg8 = %c0 to %23 step %c1 iter_args(%arg9 = %cst_1, %arg10 = %cst_0, %arg11 = %cst) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %31, %35, %37 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg8 = %23 to %18 step %c1 iter_args(%arg9 = %27#0, %arg10 = %27#1, %arg11 = %27#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %29 = arith.muli %arg8, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.mask %30 rows %5 cols %29 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<128x64xf32>
        %32 = attn.row_max %31 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %33 = attn.rescale_factor %arg9, %32 scale_log2 %cst_2 : tensor<128xf32>
        %35 = attn.exp_diff %31, %32 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %36 = attn.row_sum %35 init %arg10 scaled %33 : tensor<128x64xf32> -> tensor<128xf32>
        %37 = attn.scale_rows %arg11, %33 : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value : tensor<64x64xbf16>
        scf.yield %32, %36, %38 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %cst_3 mask = causal : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
      attn.wait_turn warpgroup(0)
      attn.yield %output, %lse : tensor<128x64xbf16>, tensor<128xf32>
    } : tensor<128x64xbf16>, tensor<128xf32>
    %25 = arith.subi %dim_4, %5 : index
    %26 = arith.minsi %25, %c128 : index
    %extracted_slice = tensor.extract_slice %24#0[0, 0] [%26, 64] [1, 1] : tensor<128x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_6 = tensor.extract_slice %24#1[0] [%26] [1] : tensor<128xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %5, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %arg4, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The forall stores rows of the tile other than its first ones (here from
// row 1): the kernel writes a tile's leading rows at its coordinates.
func.func @store_past_leading_rows(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %c63 = arith.constant 63 : index
    %26 = arith.minsi %25, %c63 : index
    %extracted_slice = tensor.extract_slice %output[1, 0] [%26, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write the leading rows of attn.finalize's results (a tensor.extract_slice at offset 0 with unit strides)}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall stores at row 1 as many rows as lie below Nq from Q's first row.
func.func @store_rows_of_another_row(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write the tile's rows below Nq (attn-tile's min(Nq - row, block_m) at row), which the kernel stores}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %c1, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall stores a static slice of 64 rows: not the rows below Nq, which
// the kernel computes (attn-tile's min(Nq - row, block_m)).
func.func @store_static_rows(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %extracted_slice = tensor.extract_slice %output[0, 0] [64, 64] [1, 1] : tensor<64x64xbf16> to tensor<64x64xbf16>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write the tile's rows below Nq (attn-tile's min(Nq - row, block_m) at row), which the kernel stores}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, 64, 64] [1, 1, 1, 1] : tensor<64x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall stores the tile's rows along the heads (a rank-reducing insert).
func.func @store_rows_along_heads(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write the tile's rows along Nq (dim 2), one of every other dim but O's columns}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %c0, %3, 0] [1, %25, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// Q loaded at a head the kernel cannot compute (the batch size is no kernel value).
func.func @query_head_not_computable(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    // expected-error @+1 {{convert-attn-to-nvvm: cannot lower a tensor.dim that is not the sequence length of Q, K or V (the kernel's length parameters)}}
    %4 = attn.load_tile %arg0[%arg3, %dim, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
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

// The forall stores half of O's columns.
func.func @store_half_columns(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 32] [1, 1] : tensor<64x64xbf16> to tensor<?x32xbf16>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write all 64 columns of O}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 32] [1, 1, 1, 1] : tensor<?x32xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall stores O from its second column on.
func.func @store_from_second_column(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 32] [1, 1] : tensor<64x64xbf16> to tensor<?x32xbf16>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write O from its first column}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, %c1] [1, 1, %25, 32] [1, 1, 1, 1] : tensor<?x32xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// An f32 O in a tile that is not split (only a split's partial O is f32).
func.func @f32_output(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xf32> {
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
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xf32>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xf32>) {
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
    // expected-error @+1 {{convert-attn-to-nvvm: attn.finalize's output must be 'bf16' (Q's element type), got 'f32'}}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xf32> to tensor<?x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xf32> into tensor<?x2x?x64xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xf32>
}

// -----

// The forall stores fewer rows of O than the tile holds below Nq, all of
// which the kernel stores.
func.func @store_fewer_rows(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %c32 = arith.constant 32 : index
    %26 = arith.minsi %25, %c32 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%26, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write the tile's rows below Nq (attn-tile's min(Nq - row, block_m) at row), which the kernel stores}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %26, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The forall stores O into a 3-D tensor: O is [B, H, Nq, Dv] in its layout.
func.func @store_into_3d(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x?x64xbf16> {
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
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x?x64xbf16>) {
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
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's store must write O into a 4-D tensor, got 3-D}}
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %3, 0] [1, %25, 64] [1, 1, 1] : tensor<?x64xbf16> into tensor<?x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x?x64xbf16>
}

// -----

// A fixed max (attn-softcap-fixed-max: the exponentials subtract a constant,
// no step has a row max) rescales nothing: the running sum is added to as
// it is ...
func.func @fixed_max_sum_rescaled(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant 1.44269502 : f32
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
    %22:2 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_0, %arg9 = %cst) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.exp_diff %29, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      // expected-error @+1 {{convert-attn-to-nvvm: attn.row_sum of a fixed max must add to the carried running sum as it is (its init, no init_scale)}}
      %31 = attn.row_sum %30 init %arg8 scaled %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %33 = attn.pv %30, %32, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %31, %33 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:2 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.mask %29 rows %3 cols %26 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      %31 = attn.exp_diff %30, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %32 = attn.row_sum %31 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %34 = attn.pv %31, %33, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %32, %34 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#1, %23#0, %cst_0 scale %cst_1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_4, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// ... and so is O (here P is the accumulator).
func.func @fixed_max_acc_not_carried(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant 1.44269502 : f32
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
    %22:2 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_0, %arg9 = %cst) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.exp_diff %29, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %31 = attn.row_sum %30 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      // expected-error @+1 {{convert-attn-to-nvvm: attn.pv's accumulator must be the carried O (a fixed max rescales nothing)}}
      %33 = attn.pv %30, %32, %30 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %31, %33 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:2 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.mask %29 rows %3 cols %26 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      %31 = attn.exp_diff %30, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %32 = attn.row_sum %31 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %34 = attn.pv %31, %33, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %32, %34 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#1, %23#0, %cst_0 scale %cst_1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_4, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.finalize reads the sum of the last loop, whatever its max.
func.func @fixed_max_finalize_other(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant 1.44269502 : f32
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
    %22:2 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_0, %arg9 = %cst) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.exp_diff %29, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %31 = attn.row_sum %30 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %33 = attn.pv %30, %32, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %31, %33 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:2 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.mask %29 rows %3 cols %26 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      %31 = attn.exp_diff %30, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %32 = attn.row_sum %31 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %34 = attn.pv %31, %33, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %32, %34 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    // expected-error @+1 {{convert-attn-to-nvvm: attn.finalize must read the last kv loop's results (or a fixed max)}}
    %output, %lse = attn.finalize %23#1, %22#0, %cst_0 scale %cst_1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_4, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The LSE adds the fixed max the exponentials subtracted: one constant for
// every attn.exp_diff and attn.finalize.
func.func @fixed_max_two_constants(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %other_max = arith.constant dense<1.000000e+00> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant 1.44269502 : f32
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
    %22:2 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_0, %arg9 = %cst) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.exp_diff %29, %cst_0 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %31 = attn.row_sum %30 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %32 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %33 = attn.pv %30, %32, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %31, %33 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:2 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1) -> (tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.softcap %28 scale %cst_3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %30 = attn.mask %29 rows %3 cols %26 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      // expected-error @+1 {{convert-attn-to-nvvm: every attn.exp_diff of a tile with a fixed max subtracts the one attn.finalize reads}}
      %31 = attn.exp_diff %30, %other_max scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %32 = attn.row_sum %31 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %34 = attn.pv %31, %33, %arg9 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %32, %34 : tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#1, %23#0, %cst_0 scale %cst_1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_4, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// A varlen tile of packed query heads (g = 2) reads Q's rows at its
// sequence's offsets times g (g rows a token): the offsets as rows would
// read and store another sequence's rows.
func.func @packed_varlen_unscaled_rows(%arg0: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 2 : i64}, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c63 = arith.constant 63 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x2x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x2x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x2x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 2, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 32 : tensor<?xi32>
    %6 = arith.muli %query_block, %c64 : index
    %7 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %8 = arith.index_cast %extracted : i32 to index
    %9 = arith.muli %8, %c2 : index
    %extracted_5 = tensor.extract %arg3[%7] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %11 = arith.muli %10, %c2 : index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %12 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%7] : tensor<?xi32>
    %13 = arith.index_cast %extracted_7 : i32 to index
    %14 = arith.subi %11, %9 : index
    %15 = arith.subi %13, %12 : index
    %16 = arith.divui %14, %c2 : index
    // expected-error @+1 {{convert-attn-to-nvvm: a varlen tile's rows must be elements of i32 arguments of the function (the kernel's cu_seqlens_q and cu_seqlens_k pointers), as attn-tile reads them, Q's times packed_query_heads = 2}}
    %17 = attn.load_varlen_tile %arg0[%arg6, %6] rows %8 to %11 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
    %18 = arith.cmpi slt, %6, %14 : index
    %19 = arith.select %18, %15, %c0 : index
    %20 = arith.ceildivsi %19, %c64 : index
    %21 = arith.addi %6, %c63 : index
    %22 = arith.addi %16, %c-1 : index
    %23 = arith.divui %21, %c2 : index
    %24 = arith.minsi %23, %22 : index
    %25 = arith.addi %19, %c-1 : index
    %26 = arith.minsi %24, %25 : index
    %27 = arith.addi %26, %c1 : index
    %28 = arith.ceildivsi %27, %c64 : index
    %29 = arith.maxsi %28, %c0 : index
    %30 = arith.minsi %29, %20 : index
    %31 = arith.cmpi slt, %26, %c0 : index
    %32 = arith.select %31, %c0, %30 : index
    %33 = arith.divui %6, %c2 : index
    %34 = arith.addi %15, %c-1 : index
    %35 = arith.minsi %33, %34 : index
    %36 = arith.addi %35, %c1 : index
    %37 = arith.floordivsi %36, %c64 : index
    %38 = arith.maxsi %37, %c0 : index
    %39 = arith.minsi %38, %32 : index
    %40:3 = scf.for %arg10 = %c0 to %39 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %49 = attn.row_max %48 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.rescale_factor %arg11, %49 scale_log2 %cst_2 : tensor<64xf32>
      %51 = attn.exp_diff %48, %49 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.row_sum %51 init %arg12 scaled %50 : tensor<64x64xf32> -> tensor<64xf32>
      %53 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %54 = attn.scale_rows %arg13, %50 : tensor<64x64xf32>, tensor<64xf32>
      %55 = attn.pv %51, %53, %54 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %49, %52, %55 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %41:3 = scf.for %arg10 = %39 to %32 step %c1 iter_args(%arg11 = %40#0, %arg12 = %40#1, %arg13 = %40#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %49 = attn.mask %48 rows %6 cols %46 seq_q %16 seq_k %15 kind = causal packed_query_heads = 2 : tensor<64x64xf32>
      %50 = attn.row_max %49 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.rescale_factor %arg11, %50 scale_log2 %cst_2 : tensor<64xf32>
      %52 = attn.exp_diff %49, %50 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.row_sum %52 init %arg12 scaled %51 : tensor<64x64xf32> -> tensor<64xf32>
      %54 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %55 = attn.scale_rows %arg13, %51 : tensor<64x64xf32>, tensor<64xf32>
      %56 = attn.pv %52, %54, %55 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %50, %53, %56 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %41#2, %41#1, %41#0 scale %cst_3 mask = causal packed_query_heads = 2 : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %42 = arith.subi %14, %6 : index
    %43 = arith.minsi %42, %c64 : index
    %44 = arith.maxsi %43, %c0 : index
    %45 = arith.addi %9, %6 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%44, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%44] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %45, %arg6, 0] [1, %44, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x2x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %45] [1, 1, %44] [1, 1, 1] : tensor<?xf32> into tensor<1x2x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}

// -----

// ... and its scheduler counts blocks of the tile's tokens (64 rows, 32
// tokens): blocks of 64 tokens would leave half of a long sequence's rows
// without a tile.
func.func @packed_varlen_scheduler_block_m(%arg0: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 2 : i64}, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %c63 = arith.constant 63 : index
  %c2 = arith.constant 2 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x2x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c64 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x2x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x2x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 2, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
    // expected-error @+1 {{convert-attn-to-nvvm: attn.sequence_tile's block_m must be the Q tile's tokens, 32}}
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.muli %query_block, %c64 : index
    %7 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %8 = arith.index_cast %extracted : i32 to index
    %9 = arith.muli %8, %c2 : index
    %extracted_5 = tensor.extract %arg3[%7] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %11 = arith.muli %10, %c2 : index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %12 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%7] : tensor<?xi32>
    %13 = arith.index_cast %extracted_7 : i32 to index
    %14 = arith.subi %11, %9 : index
    %15 = arith.subi %13, %12 : index
    %16 = arith.divui %14, %c2 : index
    %17 = attn.load_varlen_tile %arg0[%arg6, %6] rows %9 to %11 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
    %18 = arith.cmpi slt, %6, %14 : index
    %19 = arith.select %18, %15, %c0 : index
    %20 = arith.ceildivsi %19, %c64 : index
    %21 = arith.addi %6, %c63 : index
    %22 = arith.addi %16, %c-1 : index
    %23 = arith.divui %21, %c2 : index
    %24 = arith.minsi %23, %22 : index
    %25 = arith.addi %19, %c-1 : index
    %26 = arith.minsi %24, %25 : index
    %27 = arith.addi %26, %c1 : index
    %28 = arith.ceildivsi %27, %c64 : index
    %29 = arith.maxsi %28, %c0 : index
    %30 = arith.minsi %29, %20 : index
    %31 = arith.cmpi slt, %26, %c0 : index
    %32 = arith.select %31, %c0, %30 : index
    %33 = arith.divui %6, %c2 : index
    %34 = arith.addi %15, %c-1 : index
    %35 = arith.minsi %33, %34 : index
    %36 = arith.addi %35, %c1 : index
    %37 = arith.floordivsi %36, %c64 : index
    %38 = arith.maxsi %37, %c0 : index
    %39 = arith.minsi %38, %32 : index
    %40:3 = scf.for %arg10 = %c0 to %39 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %49 = attn.row_max %48 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %50 = attn.rescale_factor %arg11, %49 scale_log2 %cst_2 : tensor<64xf32>
      %51 = attn.exp_diff %48, %49 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %52 = attn.row_sum %51 init %arg12 scaled %50 : tensor<64x64xf32> -> tensor<64xf32>
      %53 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %54 = attn.scale_rows %arg13, %50 : tensor<64x64xf32>, tensor<64xf32>
      %55 = attn.pv %51, %53, %54 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %49, %52, %55 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %41:3 = scf.for %arg10 = %39 to %32 step %c1 iter_args(%arg11 = %40#0, %arg12 = %40#1, %arg13 = %40#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %49 = attn.mask %48 rows %6 cols %46 seq_q %16 seq_k %15 kind = causal packed_query_heads = 2 : tensor<64x64xf32>
      %50 = attn.row_max %49 init %arg11 : tensor<64x64xf32> -> tensor<64xf32>
      %51 = attn.rescale_factor %arg11, %50 scale_log2 %cst_2 : tensor<64xf32>
      %52 = attn.exp_diff %49, %50 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %53 = attn.row_sum %52 init %arg12 scaled %51 : tensor<64x64xf32> -> tensor<64xf32>
      %54 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %55 = attn.scale_rows %arg13, %51 : tensor<64x64xf32>, tensor<64xf32>
      %56 = attn.pv %52, %54, %55 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %50, %53, %56 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %41#2, %41#1, %41#0 scale %cst_3 mask = causal packed_query_heads = 2 : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %42 = arith.subi %14, %6 : index
    %43 = arith.minsi %42, %c64 : index
    %44 = arith.maxsi %43, %c0 : index
    %45 = arith.addi %9, %6 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%44, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%44] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %45, %arg6, 0] [1, %44, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x2x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %45] [1, 1, %44] [1, 1, 1] : tensor<?xf32> into tensor<1x2x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}

// -----

// ... and g divides 64 (a warpgroup's rows of O are whole tokens; a g = 3
// tile of 192 rows, as attn-tile makes it of a hand-written attention).
func.func @packed_varlen_g3(%arg0: tensor<1x?x2x64xbf16> {attn.packed_query_heads = 3 : i64}, %arg1: tensor<1x?x2x64xbf16>, %arg2: tensor<1x?x2x64xbf16>, %arg3: tensor<?xi32>, %arg4: tensor<?xi32>) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<192x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<192xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<192xf32>
  %c-1 = arith.constant -1 : index
  %c191 = arith.constant 191 : index
  %c64 = arith.constant 64 : index
  %c3 = arith.constant 3 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c192 = arith.constant 192 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg3, %c0 : tensor<?xi32>
  %0 = arith.subi %dim, %c1 : index
  %dim_4 = tensor.dim %arg0, %c1 : tensor<1x?x2x64xbf16>
  %1 = arith.ceildivsi %dim_4, %c192 : index
  %2 = arith.addi %1, %0 : index
  %3 = tensor.empty(%dim_4) : tensor<1x?x2x64xbf16>
  %4 = tensor.empty(%dim_4) : tensor<1x2x?xf32>
  %5:2 = scf.forall (%arg5, %arg6, %arg7) in (1, 2, %2) shared_outs(%arg8 = %3, %arg9 = %4) -> (tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>) {
    %sequence, %query_block = attn.sequence_tile %arg3[%arg7] block_m = 64 : tensor<?xi32>
    %6 = arith.muli %query_block, %c192 : index
    %7 = arith.addi %sequence, %c1 : index
    %extracted = tensor.extract %arg3[%sequence] : tensor<?xi32>
    %8 = arith.index_cast %extracted : i32 to index
    %9 = arith.muli %8, %c3 : index
    %extracted_5 = tensor.extract %arg3[%7] : tensor<?xi32>
    %10 = arith.index_cast %extracted_5 : i32 to index
    %11 = arith.muli %10, %c3 : index
    %extracted_6 = tensor.extract %arg4[%sequence] : tensor<?xi32>
    %12 = arith.index_cast %extracted_6 : i32 to index
    %extracted_7 = tensor.extract %arg4[%7] : tensor<?xi32>
    %13 = arith.index_cast %extracted_7 : i32 to index
    %14 = arith.subi %11, %9 : index
    %15 = arith.subi %13, %12 : index
    %16 = arith.divui %14, %c3 : index
    // expected-error @+1 {{convert-attn-to-nvvm: a varlen tile packs query heads only where packed_query_heads divides 64, got 3}}
    %17 = attn.load_varlen_tile %arg0[%arg6, %6] rows %9 to %11 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<192x64xbf16>
    %18 = arith.cmpi slt, %6, %14 : index
    %19 = arith.select %18, %15, %c0 : index
    %20 = arith.ceildivsi %19, %c64 : index
    %21 = arith.addi %6, %c191 : index
    %22 = arith.addi %16, %c-1 : index
    %23 = arith.divui %21, %c3 : index
    %24 = arith.minsi %23, %22 : index
    %25 = arith.addi %19, %c-1 : index
    %26 = arith.minsi %24, %25 : index
    %27 = arith.addi %26, %c1 : index
    %28 = arith.ceildivsi %27, %c64 : index
    %29 = arith.maxsi %28, %c0 : index
    %30 = arith.minsi %29, %20 : index
    %31 = arith.cmpi slt, %26, %c0 : index
    %32 = arith.select %31, %c0, %30 : index
    %33 = arith.divui %6, %c3 : index
    %34 = arith.addi %15, %c-1 : index
    %35 = arith.minsi %33, %34 : index
    %36 = arith.addi %35, %c1 : index
    %37 = arith.floordivsi %36, %c64 : index
    %38 = arith.maxsi %37, %c0 : index
    %39 = arith.minsi %38, %32 : index
    %40:3 = scf.for %arg10 = %c0 to %39 step %c1 iter_args(%arg11 = %cst_1, %arg12 = %cst_0, %arg13 = %cst) -> (tensor<192xf32>, tensor<192xf32>, tensor<192x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<192x64xbf16>, tensor<64x64xbf16> -> tensor<192x64xf32>
      %49 = attn.row_max %48 init %arg11 : tensor<192x64xf32> -> tensor<192xf32>
      %50 = attn.rescale_factor %arg11, %49 scale_log2 %cst_2 : tensor<192xf32>
      %51 = attn.exp_diff %48, %49 scale_log2 %cst_2 : tensor<192x64xf32>, tensor<192xf32>
      %52 = attn.row_sum %51 init %arg12 scaled %50 : tensor<192x64xf32> -> tensor<192xf32>
      %53 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %54 = attn.scale_rows %arg13, %50 : tensor<192x64xf32>, tensor<192xf32>
      %55 = attn.pv %51, %53, %54 : tensor<192x64xf32>, tensor<64x64xbf16>, tensor<192x64xf32>
      scf.yield %49, %52, %55 : tensor<192xf32>, tensor<192xf32>, tensor<192x64xf32>
    } {attn.kv_range = "full"}
    %41:3 = scf.for %arg10 = %39 to %32 step %c1 iter_args(%arg11 = %40#0, %arg12 = %40#1, %arg13 = %40#2) -> (tensor<192xf32>, tensor<192xf32>, tensor<192x64xf32>) {
      %46 = arith.muli %arg10, %c64 : index
      %47 = attn.load_varlen_tile %arg1[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %48 = attn.qk %17, %47 : tensor<192x64xbf16>, tensor<64x64xbf16> -> tensor<192x64xf32>
      %49 = attn.mask %48 rows %6 cols %46 seq_q %16 seq_k %15 kind = causal packed_query_heads = 3 : tensor<192x64xf32>
      %50 = attn.row_max %49 init %arg11 : tensor<192x64xf32> -> tensor<192xf32>
      %51 = attn.rescale_factor %arg11, %50 scale_log2 %cst_2 : tensor<192xf32>
      %52 = attn.exp_diff %49, %50 scale_log2 %cst_2 : tensor<192x64xf32>, tensor<192xf32>
      %53 = attn.row_sum %52 init %arg12 scaled %51 : tensor<192x64xf32> -> tensor<192xf32>
      %54 = attn.load_varlen_tile %arg2[%arg6, %46] rows %12 to %13 layout = bshd : tensor<1x?x2x64xbf16> -> tensor<64x64xbf16>
      %55 = attn.scale_rows %arg13, %51 : tensor<192x64xf32>, tensor<192xf32>
      %56 = attn.pv %52, %54, %55 : tensor<192x64xf32>, tensor<64x64xbf16>, tensor<192x64xf32>
      scf.yield %50, %53, %56 : tensor<192xf32>, tensor<192xf32>, tensor<192x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %41#2, %41#1, %41#0 scale %cst_3 mask = causal packed_query_heads = 3 : tensor<192x64xf32>, tensor<192xf32> -> tensor<192x64xbf16>
    %42 = arith.subi %14, %6 : index
    %43 = arith.minsi %42, %c192 : index
    %44 = arith.maxsi %43, %c0 : index
    %45 = arith.addi %9, %6 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%44, 64] [1, 1] : tensor<192x64xbf16> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %lse[0] [%44] [1] : tensor<192xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[0, %45, %arg6, 0] [1, %44, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<1x?x2x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg9[0, %arg6, %45] [1, 1, %44] [1, 1, 1] : tensor<?xf32> into tensor<1x2x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %5#0, %5#1 : tensor<1x?x2x64xbf16>, tensor<1x2x?xf32>
}
