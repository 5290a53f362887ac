// RUN: attnc-opt %s -split-input-file --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// A GQA causal tile as attn-insert-waits leaves it (warp-specialized, not
// rotated), edited so that the producer region and the consumers' kv loops
// disagree, or an S GEMM reads another Q: the kernel would hang or compute
// another attention, so each is a diagnostic.

// The producer pushes one block fewer than the consumers pop (from block 1):
// the consumers would wait for the last block forever.
func.func @producer_skips_first(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      // expected-error @+1 {{convert-attn-to-nvvm: the producer's kv loop pushes the blocks the consumers' kv loops pop, one a step: its bounds are their first loop's lower bound and their last loop's upper bound (the same values)}}
      scf.for %arg9 = %c1 to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The producer's lower bound is a constant 0 of its own, equal to the
// consumers' first bound but another value: the rule is identity
// (attn-warp-specialize gives the producer the consumers' values), not an
// equivalence proof.
func.func @producer_bounds_recomputed(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %zero = arith.constant 0 : index
      // expected-error @+1 {{convert-attn-to-nvvm: the producer's kv loop pushes the blocks the consumers' kv loops pop, one a step: its bounds are their first loop's lower bound and their last loop's upper bound (the same values)}}
      scf.for %arg9 = %zero to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The producer pushes every other block.
func.func @producer_steps_two(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      // expected-error @+1 {{convert-attn-to-nvvm: the producer's kv loop pushes the blocks the consumers' kv loops pop, one a step: its bounds are their first loop's lower bound and their last loop's upper bound (the same values)}}
      scf.for %arg9 = %c0 to %21 step %c2 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The consumers' tail loop runs to ceil(Nk / block_n), past the causal
// diagonal where the producer stops.
func.func @consumers_pop_more(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      // expected-error @+1 {{convert-attn-to-nvvm: the producer's kv loop pushes the blocks the consumers' kv loops pop, one a step: its bounds are their first loop's lower bound and their last loop's upper bound (the same values)}}
      scf.for %arg9 = %c0 to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %10 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Two producer loops push every block twice.
func.func @two_producer_loops(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg9 = %c0 to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      // expected-error @+1 {{convert-attn-to-nvvm: the producer region holds one kv loop (attn.ring_push once a step), at its top level}}
      scf.for %arg9 = %c0 to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// The producer loop under an scf.if (here never taken): the kernel would
// stream the blocks anyway.
func.func @producer_under_if(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      %never = arith.cmpi slt, %21, %c0 : index
      scf.if %never {
        // expected-error @+1 {{convert-attn-to-nvvm: the producer region holds one kv loop (attn.ring_push once a step), at its top level}}
        scf.for %arg9 = %c0 to %21 step %c1 {
          %30 = arith.muli %arg9, %c128 : index
          %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
      }
      attn.yield
    } consumer {
      attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// An S GEMM of V Kᵀ: the kernel loads Q once and every attn.qk reads it.
func.func @scores_of_v(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
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
    %10 = arith.ceildivsi %dim_4, %c128 : index
    %11 = arith.addi %8, %c128 : index
    %12 = arith.minsi %11, %dim_3 : index
    %13 = arith.addi %12, %c-1 : index
    %14 = arith.addi %dim_4, %c-1 : index
    %15 = arith.minsi %13, %14 : index
    %16 = arith.addi %15, %c1 : index
    %17 = arith.ceildivsi %16, %c128 : index
    %18 = arith.maxsi %17, %c0 : index
    %19 = arith.minsi %18, %10 : index
    %20 = arith.cmpi slt, %15, %c0 : index
    %21 = arith.select %20, %c0, %19 : index
    %22 = arith.minsi %8, %14 : index
    %23 = arith.addi %22, %c1 : index
    %24 = arith.floordivsi %23, %c128 : index
    %25 = arith.maxsi %24, %c0 : index
    %26 = arith.minsi %25, %21 : index
    %27:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
      scf.for %arg9 = %c0 to %21 step %c1 {
        %30 = arith.muli %arg9, %c128 : index
        %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %31, %32 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      %30:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        // expected-error @+1 {{convert-attn-to-nvvm: every attn.qk of a tile reads the same Q tile (the tile's load of Q)}}
        %32 = attn.qk %value, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.row_max %32 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %34 = attn.rescale_factor %arg10, %33 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.exp_diff %32, %33 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %37 = attn.row_sum %36 init %arg11 scaled %34 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.scale_rows %arg12, %34 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.pv %36, %value, %38 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %33, %37, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } {attn.kv_range = "full"}
      %31:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %30#0, %arg11 = %30#1, %arg12 = %30#2) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %32 = arith.muli %arg9, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        attn.wait_tile %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %34 = attn.mask %33 rows %8 cols %32 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %35 = attn.row_max %34 init %arg10 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %38 = attn.exp_diff %34, %35 scale_log2 %3 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %41 = attn.pv %38, %value, %40 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 49152, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 81920, key_full = 81928, value_full = 81944, key_empty = 81960, value_empty = 81976, size = 81992, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}
