// RUN: attnc-opt %s -split-input-file --attn-pipeline-kv-loops -verify-diagnostics -o /dev/null

// The software-pipelined kv loops of a consumer tile as attn-warp-specialize
// (intra-warpgroup-overlap), attn-assign-layouts and
// attn-allocate-shared-memory leave them, edited to break one rule each.

// One schedule for all of a tile's kv loops: the tail loop has no stages.
func.func @tail_unstaged(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{attn-pipeline-kv-loops: the kv loops of a tile are software-pipelined (attn.stage) all alike or not at all}}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The same with the full loop unstaged: the first staged loop is named.
func.func @full_unstaged(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{attn-pipeline-kv-loops: the kv loops of a tile are software-pipelined (attn.stage) all alike or not at all}}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Stage 1 is the accumulator update and only it.
func.func @stage_not_update(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        // expected-error @+1 {{a software-pipelined kv loop has stage 1 = the accumulator's update (its attn.scale_rows and attn.pv), and only it: this op must not have attn.stage = 1}}
        %39 = attn.row_sum %38 init %arg11 scaled %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The rotated loops carry the running values from loop to loop.
func.func @not_chained(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{attn-pipeline-kv-loops: a kv loop must carry on the previous kv loop's results, which nothing else reads, and begin where it ends}}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The loops carry the same stage-0 values to stage 1: here the tail loop's O
// is rescaled by a constant, so alpha does not cross.
func.func @different_crossing(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{attn-pipeline-kv-loops: the kv loops of a tile must carry the same values from stage 0 to stage 1}}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %cst_6 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Stage 1 reads the V tile its step pops; one popped before the loops is not
// carried.
func.func @value_outside(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %k0, %v0 = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      // expected-error @+1 {{attn-pipeline-kv-loops: stage 1 of a kv loop must read the step's V tile of attn.ring_pop}}
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %v0, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %v0 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %v0, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %v0 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Stage 1 runs a step later: a stage-0 op cannot read its result.
func.func @stage0_reads_stage1(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        // expected-error @+1 {{attn-pipeline-kv-loops: a stage-0 op reads a result of stage 1, which runs a step later}}
        %extra = attn.row_max %41 init %35 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The rotation carries what a step computes: a loop that yields its carried O
// unchanged has nothing to rotate.
func.func @yields_carried_o(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        // expected-error @+1 {{attn-pipeline-kv-loops: a software-pipelined kv loop yields the values its step computes (the running max, sum and O)}}
        scf.yield %33, %37, %arg12 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %arg12 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// ... and a loop that yields a value from outside for the row sum.
func.func @yields_outer_value(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        // expected-error @+1 {{attn-pipeline-kv-loops: a software-pipelined kv loop yields the values its step computes (the running max, sum and O)}}
        scf.yield %33, %cst_6, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The loops chain: only the next loop reads a loop's results.
func.func @finalize_reads_first_loop(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{attn-pipeline-kv-loops: a kv loop must carry on the previous kv loop's results, which nothing else reads, and begin where it ends}}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %30#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Stage 1's P V reads the P its step computes.
func.func @pv_reads_outer_p(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        // expected-error @+1 {{attn-pipeline-kv-loops: stage 1's attn.pv reads the P of its step (the step's attn.exp_diff, or its attn.truncate), which the rotated loop carries}}
        %41 = attn.pv %cst_7, %value, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %35, %39, %41 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %31#2, %31#1, %31#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Stage 1 releases V after its P V reads it; the rotation would otherwise
// move a release written before the GEMM behind it without a word.
func.func @v_released_before_pv(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
  %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst_5 = arith.constant dense<0xFF800000> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
    %5 = arith.divui %arg5, %c4 : index
    %6 = arith.muli %arg6, %c128 : index
    %7 = attn.load_tile %arg0[%arg4, %arg5, %6] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
    %8 = arith.ceildivsi %dim_4, %c64 : index
    %9 = arith.addi %6, %c128 : index
    %10 = arith.minsi %9, %dim_3 : index
    %11 = arith.addi %10, %c-1 : index
    %12 = arith.addi %dim_4, %c-1 : index
    %13 = arith.minsi %11, %12 : index
    %14 = arith.addi %13, %c1 : index
    %15 = arith.ceildivsi %14, %c64 : index
    %16 = arith.maxsi %15, %c0 : index
    %17 = arith.minsi %16, %8 : index
    %18 = arith.cmpi slt, %13, %c0 : index
    %19 = arith.select %18, %c0, %17 : index
    %20 = arith.minsi %6, %12 : index
    %21 = arith.addi %20, %c1 : index
    %22 = arith.floordivsi %21, %c64 : index
    %23 = arith.maxsi %22, %c0 : index
    %24 = arith.minsi %23, %19 : index
    %25:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %c2_9 = arith.constant 2 : index
      %dim_10 = tensor.dim %arg1, %c2_9 : tensor<?x2x?x64xbf16>
      %c2_11 = arith.constant 2 : index
      %dim_12 = tensor.dim %arg0, %c2_11 : tensor<?x8x?x64xbf16>
      %c0_13 = arith.constant 0 : index
      %c64_14 = arith.constant 64 : index
      %28 = arith.ceildivsi %dim_10, %c64_14 : index
      %c128_15 = arith.constant 128 : index
      %29 = arith.addi %6, %c128_15 : index
      %30 = arith.minsi %29, %dim_12 : index
      %c-1_16 = arith.constant -1 : index
      %31 = arith.addi %30, %c-1_16 : index
      %c-1_17 = arith.constant -1 : index
      %32 = arith.addi %dim_10, %c-1_17 : index
      %33 = arith.minsi %31, %32 : index
      %c64_18 = arith.constant 64 : index
      %c0_19 = arith.constant 0 : index
      %c1_20 = arith.constant 1 : index
      %34 = arith.addi %33, %c1_20 : index
      %c64_21 = arith.constant 64 : index
      %35 = arith.ceildivsi %34, %c64_21 : index
      %36 = arith.maxsi %35, %c0_13 : index
      %37 = arith.minsi %36, %28 : index
      %38 = arith.cmpi slt, %33, %c0_13 : index
      %39 = arith.select %38, %c0_19, %37 : index
      %c-1_22 = arith.constant -1 : index
      %40 = arith.addi %dim_10, %c-1_22 : index
      %41 = arith.minsi %6, %40 : index
      %c64_23 = arith.constant 64 : index
      %c0_24 = arith.constant 0 : index
      %c1_25 = arith.constant 1 : index
      %42 = arith.addi %41, %c1_25 : index
      %c64_26 = arith.constant 64 : index
      %43 = arith.floordivsi %42, %c64_26 : index
      %c1_27 = arith.constant 1 : index
      scf.for %arg9 = %c0_19 to %39 step %c1_27 {
        %c64_28 = arith.constant 64 : index
        %44 = arith.muli %arg9, %c64_28 : index
        %45 = attn.load_tile %arg1[%arg4, %5, %44] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %46 = attn.load_tile %arg2[%arg4, %5, %44] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %45, %46 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      %28:3 = scf.for %arg9 = %c0 to %24 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %30 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %31 = attn.qk %7, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.row_max %31 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %33 = attn.rescale_factor %arg10, %32 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %35 = attn.exp_diff %31, %32 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.row_sum %35 init %arg11 scaled %33 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.scale_rows %arg12, %33 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        // expected-error @+1 {{attn-pipeline-kv-loops: stage 1 must release its V tile after the attn.pv that reads it}}
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %38 = attn.pv %35, %value, %37 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        scf.yield %32, %36, %38 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %29:3 = scf.for %arg9 = %24 to %19 step %c1 iter_args(%arg10 = %28#0, %arg11 = %28#1, %arg12 = %28#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %30 = arith.muli %arg9, %c64 : index
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %31 = attn.qk %7, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.mask %31 rows %6 cols %30 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %29#2, %29#1, %29#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
      attn.yield %output, %lse : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    } : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    %26 = arith.subi %dim_3, %6 : index
    %27 = arith.minsi %26, %c128 : index
    %extracted_slice = tensor.extract_slice %25#0[0, 0] [%27, 64] [1, 1] : tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<?x64xbf16>
    %extracted_slice_8 = tensor.extract_slice %25#1[0] [%27] [1] : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %6, 0] [1, 1, %27, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
      tensor.parallel_insert_slice %extracted_slice_8 into %arg8[%arg4, %arg5, %6] [1, 1, %27] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}
