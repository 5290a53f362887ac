// RUN: attnc-opt %s -split-input-file --attn-insert-waits --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// Rotated kv loops (attn-pipeline-kv-loops) as the GPU pipeline hands them to
// convert-attn-to-nvvm, edited to break one rule each: the prologue (stage 0
// of the first block), the loops' bounds and steps, the epilogue (stage 1 of
// the last block).

// A rotated loop starts from its prologue's results.
  func.func @loop_without_prologue(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        // expected-error @+1 {{convert-attn-to-nvvm: a rotated kv loop starts from the results of its prologue (the scf.if of attn-pipeline-kv-loops)}}
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue runs where the kv range [begin, end) is not empty.
  func.func @prologue_condition(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi sle, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops runs where the kv range is not empty (arith.cmpi slt, begin, end)}}
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// Each rotated loop starts at max(bound, begin + 1).
  func.func @rotated_bounds(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %36 = arith.maxsi %21, %c1 : index
        // expected-error @+1 {{convert-attn-to-nvvm: a rotated kv loop runs blocks max(lb, begin + 1) to max(ub, begin + 1) of the prologue's range [begin, end)}}
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue is stage 0 of a step.
  func.func @prologue_stage(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.row_sum' here, with the loop's operands and attributes}}
          %46 = attn.row_sum %45 init %cst_6 scaled %43 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The running sum takes its own step's factor: in a rotated loop the
// carried factor (the previous block's, for O's stage-1 rescale) on the row
// sum would scale l by the wrong block's maximum.
  func.func @row_sum_carried_factor(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: attn.row_sum must add to the carried running sum, scaled by the step's attn.rescale_factor (its init and init_scale)}}
          %46 = attn.row_sum %45 init %arg11 scaled %arg14 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }


// -----

// The prologue's ops read its own values and the values the loops start from.
  func.func @prologue_operand(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %other = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.row_sum' here, with the loop's operands and attributes}}
          %46 = attn.row_sum %45 init %other scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue's mask is that of block `begin`.
  func.func @prologue_mask_column(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'arith.muli' here, with the loop's operands and attributes}}
          %39 = arith.muli %c1, %c64 : index
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue is one block: one pop, one S GEMM.
  func.func @prologue_two_pops(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.wait_turn' here, with the loop's operands and attributes}}
          %key2, %value2 = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The next step's stage 1 reads the prologue's V: it is not released.
  func.func @prologue_releases_value(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.mask' here, with the loop's operands and attributes}}
          attn.ring_release %value : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The first block's O is stage 1's, computed in the next step.
  func.func @prologue_computes_o(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        // expected-error @+1 {{convert-attn-to-nvvm: the prologue leaves O as the loops start it (its stage 1 runs in the next step)}}
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
          scf.yield %42, %46, %45, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue yields what a rotated step yields, in order.
  func.func @prologue_yields(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        // expected-error @+1 {{convert-attn-to-nvvm: the prologue must yield the step values the rotated loop yields, in order (result 5)}}
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
          scf.yield %42, %46, %cst_7, %45, %43, %key : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// Without blocks stage 1 must leave O as it is: alpha = 1.
  func.func @no_blocks_alpha(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        // expected-error @+1 {{convert-attn-to-nvvm: without kv blocks the prologue yields P = 0, alpha = 1 and a ub.poison V tile (stage 1 then leaves O as it is)}}
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
          %cst_11 = arith.constant dense<2.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// attn.finalize reads O after the last block's stage 1.
  func.func @finalize_skips_epilogue(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        // expected-error @+1 {{convert-attn-to-nvvm: attn.finalize of rotated kv loops reads O from their epilogue (an scf.if on the prologue's condition that yields the last loop's O without blocks)}}
        %output, %lse = attn.finalize %37#2, %37#1, %37#0 scale %arg3 mask = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x64xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
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

// The epilogue is stage 1 of the last block.
  func.func @epilogue_stage(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: the epilogue of rotated kv loops must be stage 1 of the last kv loop's step, on its results; expected the loop's 'attn.scale_rows' here, with the loop's operands and attributes}}
          %39 = attn.scale_rows %37#2, %37#4 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The epilogue reads the last loop's results.
  func.func @epilogue_operand(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: the epilogue of rotated kv loops must be stage 1 of the last kv loop's step, on its results; expected the loop's 'attn.scale_rows' here, with the loop's operands and attributes}}
          %39 = attn.scale_rows %37#2, %35#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The epilogue yields the last block's O += P V.
  func.func @epilogue_yield(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        // expected-error @+1 {{convert-attn-to-nvvm: the epilogue of rotated kv loops yields the last block's attn.pv}}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.ring_release %37#5 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %39 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A rotated step issues the previous block's O update right after its S GEMM.
  func.func @step_order(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          // expected-error @+1 {{convert-attn-to-nvvm: a rotated kv step issues the previous block's attn.scale_rows and attn.pv right after its attn.qk}}
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue hands its K back as the loops' steps do.
  func.func @prologue_without_release(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn

          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.ring_release' here, with the loop's operands and attributes}}
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue takes its ping-pong turn as the loops' steps do.
  func.func @prologue_without_turn(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>

          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.wait_turn' here, with the loop's operands and attributes}}
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue's exponentials read the masked scores, as the loop's do.
  func.func @prologue_unmasked_exponentials(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.exp_diff' here, with the loop's operands and attributes}}
          %45 = attn.exp_diff %40, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The prologue's S GEMM reads the popped K.
  func.func @prologue_qk_reads_value(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; expected the loop's 'attn.qk' here, with the loop's operands and attributes}}
          %40 = attn.qk %9, %value : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// The epilogue rescales O by alpha before its P V, as the loop's stage 1 does.
  func.func @epilogue_unscaled(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
          // expected-error @+1 {{convert-attn-to-nvvm: the epilogue of rotated kv loops must be stage 1 of the last kv loop's step, on its results; expected the loop's 'attn.pv' here, with the loop's operands and attributes}}
          %40 = attn.pv %37#3, %37#5, %37#2 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A rotated loop keeps attn.stage on the previous block's ops.
  func.func @rotated_unstaged(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        // expected-error @+1 {{convert-attn-to-nvvm: a rotated kv loop keeps attn.stage = 1 on its stage-1 ops (the previous block's attn.scale_rows of O, attn.pv and V release)}}
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %32#0, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          %39 = attn.scale_rows %37#2, %37#4 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.ring_release %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A release outside every kv step would run in no step.
  func.func @release_outside_step(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        // expected-error @+1 {{convert-attn-to-nvvm: 'attn.ring_release' belongs in a kv step: a consumer kv loop, or the prologue or epilogue of rotated kv loops}}
        attn.ring_release %32#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A prologue that holds its waits already (attn-insert-waits leaves it
// alone) releases its K once, as the loops' steps do.
  func.func @prologue_extra_op(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(0)
          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: the prologue of rotated kv loops must be stage 0 of the first masked kv loop's step at block `begin`; the loop's step has no op here}}
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A rotated step of a fixed max (attn-softcap-fixed-max) has no
// attn.scale_rows: its attn.pv of the previous block comes right after the
// attn.qk.
func.func @fixed_max_pv_before_qk(%arg0: tensor<?x8x?x128xbf16>, %arg1: tensor<?x8x?x128xbf16>, %arg2: tensor<?x8x?x128xbf16>, %arg3: f32 {attn.scale = 0.0883883461 : f32}) -> tensor<?x8x?x128xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %c1 = arith.constant 1 : index
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant 1.44269502 : f32
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x128xbf16>
  %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x128xbf16>
  %dim_4 = tensor.dim %arg1, %c2 : tensor<?x8x?x128xbf16>
  %0 = arith.ceildivsi %dim_3, %c128 : index
  %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x128xbf16>
  %2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1) -> (tensor<?x8x?x128xbf16>) {
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
    %3 = arith.muli %arg6, %c128 : index
    %4 = attn.load_tile %arg0[%arg4, %arg5, %3] : tensor<?x8x?x128xbf16> -> tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
    %5 = arith.ceildivsi %dim_4, %c128 : index
    %6 = arith.floordivsi %dim_4, %c128 : index
    %7 = arith.maxsi %6, %c0 : index
    %8 = arith.minsi %7, %5 : index
    %9:2 = attn.warp_specialize consumers(2) stages(3) registers(24, 240) producer {
      scf.for %arg8 = %c0 to %5 step %c1 {
        %12 = arith.muli %arg8, %c128 : index
        %13 = attn.load_tile %arg1[%arg4, %arg5, %12] : tensor<?x8x?x128xbf16> -> tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        %14 = attn.load_tile %arg2[%arg4, %arg5, %12] : tensor<?x8x?x128xbf16> -> tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.ring_push %13, %14 : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      attn.yield
    } consumer {
      attn.pass_turn warpgroup(1)
      %12 = arith.cmpi slt, %c0, %5 : index
      %c1_7 = arith.constant 1 : index
      %13 = arith.addi %c0, %c1_7 : index
      %14:4 = scf.if %12 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>) {
        %21 = arith.muli %c0, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %22 = attn.qk %4, %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        %23 = attn.softcap %22 scale %arg3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %24 = attn.mask %23 rows %3 cols %21 seq_q %dim_3 seq_k %dim_4 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %25 = attn.exp_diff %24, %cst_5 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %26 = attn.row_sum %25 init %cst_5 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %27 = attn.truncate %25 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        scf.yield %26, %cst_6, %27, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
      } else {
        %cst_8 = arith.constant dense<0.000000e+00> : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        %21 = ub.poison : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %cst_5, %cst_6, %cst_8, %21 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
      }
      %15 = arith.maxsi %c0, %13 : index
      %16 = arith.maxsi %8, %13 : index
      %17:4 = scf.for %arg8 = %15 to %16 step %c1 iter_args(%arg9 = %14#0, %arg10 = %14#1, %arg11 = %14#2, %arg12 = %14#3) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>) {
        %key, %value = attn.ring_pop : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        // expected-error @+1 {{convert-attn-to-nvvm: a rotated kv step issues the previous block's attn.pv right after its attn.qk}}
        %22 = attn.pv %arg11, %arg12, %arg10 {attn.stage = 1 : i64} : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %21 = attn.qk %4, %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        %23 = attn.softcap %21 scale %arg3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %24 = attn.exp_diff %23, %cst_5 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %25 = attn.row_sum %24 init %arg9 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %26 = attn.truncate %24 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %arg12 {attn.stage = 1 : i64} : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %25, %22, %26, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
      } {attn.kv_range = "full"}
      %18 = arith.maxsi %5, %13 : index
      %19:4 = scf.for %arg8 = %16 to %18 step %c1 iter_args(%arg9 = %17#0, %arg10 = %17#1, %arg11 = %17#2, %arg12 = %17#3) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>) {
        %21 = arith.muli %arg8, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %22 = attn.qk %4, %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %23 = attn.pv %arg11, %arg12, %arg10 {attn.stage = 1 : i64} : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        %24 = attn.softcap %22 scale %arg3 cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %25 = attn.mask %24 rows %3 cols %21 seq_q %dim_3 seq_k %dim_4 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %26 = attn.exp_diff %25, %cst_5 scale_log2 %cst_2 score_scale = 3.000000e+01 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %27 = attn.row_sum %26 init %arg9 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %28 = attn.truncate %26 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.ring_release %arg12 {attn.stage = 1 : i64} : tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
        scf.yield %27, %23, %28, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>
      } {attn.kv_range = "tail"}
      %20 = scf.if %12 -> (tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
        %21 = attn.pv %19#2, %19#3, %19#1 {attn.stage = 1 : i64} : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x128xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        scf.yield %21 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      } else {
        scf.yield %19#1 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
      }
      %output, %lse = attn.finalize %20, %19#0, %cst_5 scale %cst_1 : tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>> -> tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>
      attn.wait_turn warpgroup(0)
      attn.yield %output, %lse : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    } : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    %10 = arith.subi %dim_3, %3 : index
    %11 = arith.minsi %10, %c128 : index
    %extracted_slice = tensor.extract_slice %9#0[0, 0] [%11, 128] [1, 1] : tensor<128x128xbf16, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<?x128xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %3, 0] [1, 1, %11, 128] [1, 1, 1, 1] : tensor<?x128xbf16> into tensor<?x8x?x128xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 32768, output = 0, output_bytes = 32768, keys = 32768, values = 131072, stages = 3, key_stage_bytes = 32768, value_stage_bytes = 32768, query_full = 229376, key_full = 229384, value_full = 229408, key_empty = 229456, value_empty = 229456, size = 229480, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x8x?x128xbf16>
}
