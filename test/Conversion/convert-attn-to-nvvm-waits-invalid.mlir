// RUN: attnc-opt %s -split-input-file --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// The waits of each kv step (attn-insert-waits) as the GPU pipeline hands
// them to convert-attn-to-nvvm, which lowers them where they stand, edited
// to break one rule each (verifyStepWaits; the tile's wait for Q,
// verifyTiledAttention).

// The S GEMM reads K once it landed.
  func.func @qk_before_key_wait(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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

          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          // expected-error @+1 {{convert-attn-to-nvvm: this GEMM reads its K tile before an attn.wait_tile of it (attn-insert-waits places the waits)}}
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// The previous block's P V reads V once it landed.
  func.func @pv_before_value_wait(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>

          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          // expected-error @+1 {{convert-attn-to-nvvm: this GEMM reads its V tile before an attn.wait_tile of it (attn-insert-waits places the waits)}}
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// The softmax reads S once its GEMM completed.
  func.func @scores_in_flight(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn

          // expected-error @+1 {{convert-attn-to-nvvm: this op reads the result of a GEMM still in flight: an attn.wait_gemms must complete it first (attn-insert-waits places the waits)}}
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// V is handed back once the P V that reads it completed.
  func.func @release_in_flight(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(1)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: the tile is released while a GEMM that reads it is in flight: release it after the attn.wait_gemms that completes that GEMM (attn-insert-waits places the waits)}}
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// A step yields O once its P V completed (a tile without a producer).
  func.func @yield_in_flight(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c64 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      %c1_8 = arith.constant 1 : index
      %5 = arith.subi %0, %c1_8 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c64 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c64 : index
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
      attn.wait_tile %9 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %27:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.row_max %33 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %38 = attn.exp_diff %33, %35 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.pv %38, %34, %40 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(1)
        // expected-error @+1 {{convert-attn-to-nvvm: the step yields the result of a GEMM still in flight: an attn.wait_gemms must complete it first (attn-insert-waits places the waits)}}
        scf.yield %35, %39, %41 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %27#0, %arg11 = %27#1, %arg12 = %27#2) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.mask %33 rows %8 cols %31 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        %36 = attn.row_max %35 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %37 = attn.rescale_factor %arg10, %36 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.exp_diff %35, %36 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.row_sum %39 init %arg11 scaled %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.scale_rows %arg12, %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %42 = attn.pv %39, %34, %41 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %36, %40, %42 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %arg3 mask = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> -> tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>>
      %29 = arith.subi %dim_3, %8 : index
      %30 = arith.minsi %29, %c64 : index
      %extracted_slice = tensor.extract_slice %output[0, 0] [%30, 64] [1, 1] : tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>> to tensor<?x64xbf16>
      %extracted_slice_9 = tensor.extract_slice %lse[0] [%30] [1] : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %30, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_9 into %arg8[%arg4, %arg5, %8] [1, 1, %30] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// K is read only before its release.
  func.func @read_after_release(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          // expected-error @+1 {{convert-attn-to-nvvm: this op reads a tile after its attn.ring_release (the producer may already refill its stage) (attn-insert-waits places the waits)}}
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)

          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// A step waits only for the K and V tiles its GEMMs read (the prologue's
// P V is the next step's).
  func.func @prologue_waits_for_its_v(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: a kv step waits for and releases only the K and V tiles its GEMMs read (attn-insert-waits places the waits)}}
          attn.wait_tile %value : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(0)
          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// A tile is not waited for after its release (its stage may be refilled,
// its barrier a phase on).
  func.func @wait_after_release(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: this op reads a tile after its attn.ring_release (the producer may already refill its stage) (attn-insert-waits places the waits)}}
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// The prologue's else branch only yields the values the loops start from.
  func.func @wait_in_prologue_else(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        attn.wait_tile %9 : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
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
          scf.yield %42, %46, %cst_7, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } else {
          %cst_10 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %cst_11 = arith.constant dense<1.000000e+00> : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %39 = ub.poison : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          // expected-error @+1 {{convert-attn-to-nvvm: 'attn.wait_gemms' belongs in a kv step: a consumer kv loop, or the prologue or epilogue of rotated kv loops}}
          attn.wait_gemms pending(0)
          scf.yield %cst_5, %cst_6, %cst_7, %cst_10, %cst_11, %39 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        }
        %33 = arith.maxsi %c0, %31 : index
        %34 = arith.maxsi %26, %31 : index
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %32#0, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          attn.wait_gemms pending(0)
          attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          attn.ring_release %arg15 {attn.stage = 1 : i64} : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
          attn.wait_gemms pending(0)
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

// The S GEMMs read Q once it landed: the tile waits for it before its
// first kv op.
  func.func @no_query_wait(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c64 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      %c1_8 = arith.constant 1 : index
      %5 = arith.subi %0, %c1_8 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c64 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c64 : index
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
      // expected-error @+1 {{convert-attn-to-nvvm: the tile's S GEMMs read Q before an attn.wait_tile of it (attn-insert-waits places the waits)}}
      %27:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.row_max %33 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %38 = attn.exp_diff %33, %35 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.pv %38, %34, %40 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %35, %39, %41 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %27#0, %arg11 = %27#1, %arg12 = %27#2) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.mask %33 rows %8 cols %31 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        %36 = attn.row_max %35 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %37 = attn.rescale_factor %arg10, %36 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.exp_diff %35, %36 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.row_sum %39 init %arg11 scaled %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.scale_rows %arg12, %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %42 = attn.pv %39, %34, %41 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %36, %40, %42 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %arg3 mask = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> -> tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>>
      %29 = arith.subi %dim_3, %8 : index
      %30 = arith.minsi %29, %c64 : index
      %extracted_slice = tensor.extract_slice %output[0, 0] [%30, 64] [1, 1] : tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>> to tensor<?x64xbf16>
      %extracted_slice_9 = tensor.extract_slice %lse[0] [%30] [1] : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %30, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_9 into %arg8[%arg4, %arg5, %8] [1, 1, %30] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// Q is waited for once, at the top level of the tile, not in a kv step.
  func.func @query_wait_in_step(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c64 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      %c1_8 = arith.constant 1 : index
      %5 = arith.subi %0, %c1_8 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c64 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c64 : index
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
      %27:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        // expected-error @+1 {{convert-attn-to-nvvm: the consumers wait for Q once, at the top level of the tile before its first kv op (attn-insert-waits places the waits)}}
        attn.wait_tile %9 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.row_max %33 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %38 = attn.exp_diff %33, %35 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.pv %38, %34, %40 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %35, %39, %41 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %27#0, %arg11 = %27#1, %arg12 = %27#2) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.mask %33 rows %8 cols %31 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        %36 = attn.row_max %35 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %37 = attn.rescale_factor %arg10, %36 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.exp_diff %35, %36 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.row_sum %39 init %arg11 scaled %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.scale_rows %arg12, %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %42 = attn.pv %39, %34, %41 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %36, %40, %42 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %arg3 mask = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> -> tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>>
      %29 = arith.subi %dim_3, %8 : index
      %30 = arith.minsi %29, %c64 : index
      %extracted_slice = tensor.extract_slice %output[0, 0] [%30, 64] [1, 1] : tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>> to tensor<?x64xbf16>
      %extracted_slice_9 = tensor.extract_slice %lse[0] [%30] [1] : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %30, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_9 into %arg8[%arg4, %arg5, %8] [1, 1, %30] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// ... and before the first kv op.
  func.func @query_wait_after_loop(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c64 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      %c1_8 = arith.constant 1 : index
      %5 = arith.subi %0, %c1_8 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c64 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c64 : index
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
      %27:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.row_max %33 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %38 = attn.exp_diff %33, %35 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.pv %38, %34, %40 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %35, %39, %41 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "full"}
      // expected-error @+1 {{convert-attn-to-nvvm: the consumers wait for Q once, at the top level of the tile before its first kv op (attn-insert-waits places the waits)}}
      attn.wait_tile %9 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %28:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %27#0, %arg11 = %27#1, %arg12 = %27#2) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.mask %33 rows %8 cols %31 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        %36 = attn.row_max %35 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %37 = attn.rescale_factor %arg10, %36 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.exp_diff %35, %36 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.row_sum %39 init %arg11 scaled %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.scale_rows %arg12, %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %42 = attn.pv %39, %34, %41 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %36, %40, %42 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %arg3 mask = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> -> tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>>
      %29 = arith.subi %dim_3, %8 : index
      %30 = arith.minsi %29, %c64 : index
      %extracted_slice = tensor.extract_slice %output[0, 0] [%30, 64] [1, 1] : tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>> to tensor<?x64xbf16>
      %extracted_slice_9 = tensor.extract_slice %lse[0] [%30] [1] : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %30, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_9 into %arg8[%arg4, %arg5, %8] [1, 1, %30] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// ... and only once (the diagnostic names the second wait).
  func.func @query_waited_twice(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
    %c1 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %c4 = arith.constant 4 : index
    %cst_2 = arith.constant 1.44269502 : f32
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x?x64xbf16>
    %dim_3 = tensor.dim %arg0, %c2 : tensor<?x8x?x64xbf16>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
    %0 = arith.ceildivsi %dim_3, %c64 : index
    %1 = tensor.empty(%dim, %dim_3) : tensor<?x8x?x64xbf16>
    %2 = tensor.empty(%dim, %dim_3) : tensor<?x8x?xf32>
    %3 = arith.mulf %arg3, %cst_2 : f32
    %4:2 = scf.forall (%arg4, %arg5, %arg6) in (%dim, 8, %0) shared_outs(%arg7 = %1, %arg8 = %2) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
      %cst_5 = arith.constant dense<0xFF800000> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      %c1_8 = arith.constant 1 : index
      %5 = arith.subi %0, %c1_8 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c64 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %10 = arith.ceildivsi %dim_4, %c64 : index
      %11 = arith.addi %8, %c64 : index
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
      attn.wait_tile %9 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      // expected-error @+1 {{convert-attn-to-nvvm: the consumers wait for Q once, at the top level of the tile before its first kv op (attn-insert-waits places the waits)}}
      attn.wait_tile %9 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
      %27:3 = scf.for %arg9 = %c0 to %26 step %c1 iter_args(%arg10 = %cst_5, %arg11 = %cst_6, %arg12 = %cst_7) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.row_max %33 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %36 = attn.rescale_factor %arg10, %35 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %38 = attn.exp_diff %33, %35 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.row_sum %38 init %arg11 scaled %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.scale_rows %arg12, %36 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.pv %38, %34, %40 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %35, %39, %41 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "full"}
      %28:3 = scf.for %arg9 = %26 to %21 step %c1 iter_args(%arg10 = %27#0, %arg11 = %27#1, %arg12 = %27#2) -> (tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>) {
        %31 = arith.muli %arg9, %c64 : index
        %32 = attn.load_tile %arg1[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %33 = attn.qk %9, %32 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        %34 = attn.load_tile %arg2[%arg4, %7, %31] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_tile %34 : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %35 = attn.mask %33 rows %8 cols %31 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        %36 = attn.row_max %35 init %arg10 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %37 = attn.rescale_factor %arg10, %36 scale_log2 %3 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %39 = attn.exp_diff %35, %36 scale_log2 %3 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %40 = attn.row_sum %39 init %arg11 scaled %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>> -> tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %41 = attn.scale_rows %arg12, %37 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>
        %42 = attn.pv %39, %34, %41 : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
        attn.wait_gemms pending(0)
        scf.yield %36, %40, %42 : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>>, tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>
      } {attn.kv_range = "tail"}
      %output, %lse = attn.finalize %28#2, %28#1, %28#0 scale %arg3 mask = causal : tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 1>>, tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> -> tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>>
      %29 = arith.subi %dim_3, %8 : index
      %30 = arith.minsi %29, %c64 : index
      %extracted_slice = tensor.extract_slice %output[0, 0] [%30, 64] [1, 1] : tensor<64x64xbf16, #attn.wgmma_accumulator<warpgroups = 1>> to tensor<?x64xbf16>
      %extracted_slice_9 = tensor.extract_slice %lse[0] [%30] [1] : tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 1>>> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %30, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_9 into %arg8[%arg4, %arg5, %8] [1, 1, %30] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }

// -----

// A release is ordered after row sums its own step computes: the
// arrival's test holds for those only (here the epilogue's V release names
// the prologue's running sum).
#acc = #attn.wgmma_accumulator<warpgroups = 2>
#shared = #attn.swizzled_shared<swizzle = 128>
#rows = #attn.accumulator_rows<#acc>
module {
  func.func @epilogue_release_after_prologue_sum(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      %cst_5 = arith.constant dense<0xFF800000> : tensor<128xf32, #rows>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<128xf32, #rows>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #acc>
      %5 = arith.subi %0, %c1 : index
      %6 = arith.subi %5, %arg6 : index
      %7 = arith.divui %arg5, %c4 : index
      %8 = arith.muli %6, %c128 : index
      %9 = attn.load_tile %arg0[%arg4, %arg5, %8] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16, #shared>
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
          %31 = attn.load_tile %arg1[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #shared>
          %32 = attn.load_tile %arg2[%arg4, %7, %30] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #shared>
          attn.ring_push %31, %32 : tensor<64x64xbf16, #shared>, tensor<64x64xbf16, #shared>
        }
        attn.yield
      } consumer {
        %30 = arith.cmpi slt, %c0, %21 : index
        %c1_9 = arith.constant 1 : index
        %31 = arith.addi %c0, %c1_9 : index
        attn.wait_tile %9 : tensor<128x64xbf16, #shared>
        %32:6 = scf.if %30 -> (tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>) {
          %39 = arith.muli %c0, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #shared>, tensor<64x64xbf16, #shared>
          attn.wait_turn
          attn.wait_tile %key : tensor<64x64xbf16, #shared>
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #shared>, tensor<64x64xbf16, #shared> -> tensor<128x64xf32, #acc>
          attn.pass_turn
          attn.wait_gemms pending(0)
          %41 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #acc>
          %42 = attn.row_max %41 init %cst_5 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #rows>
          %45 = attn.exp_diff %41, %42 scale_log2 %3 : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %46 = attn.row_sum %45 init %cst_6 scaled %43 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          attn.ring_release %key : tensor<64x64xbf16, #shared>
          scf.yield %42, %46, %cst_7, %45, %43, %value : tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>
        } else {
          %cst_10 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #acc>
          %cst_11 = arith.constant dense<1.000000e+00> : tensor<128xf32, #rows>
          %39 = ub.poison : tensor<64x64xbf16, #shared>
          scf.yield %cst_5, %cst_6, %cst_7, %cst_10, %cst_11, %39 : tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>
        }
        %33 = arith.maxsi %c0, %31 : index
        %34 = arith.maxsi %26, %31 : index
        %35:6 = scf.for %arg9 = %33 to %34 step %c1 iter_args(%arg10 = %32#0, %arg11 = %32#1, %arg12 = %32#2, %arg13 = %32#3, %arg14 = %32#4, %arg15 = %32#5) -> (tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>) {
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #shared>, tensor<64x64xbf16, #shared>
          attn.wait_tile %key : tensor<64x64xbf16, #shared>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #shared>
          attn.wait_turn
          %39 = attn.qk %9, %key : tensor<128x64xbf16, #shared>, tensor<64x64xbf16, #shared> -> tensor<128x64xf32, #acc>
          %40 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %41 = attn.pv %arg13, %arg15, %40 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<64x64xbf16, #shared>, tensor<128x64xf32, #acc>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %42 = attn.row_max %39 init %arg10 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          %43 = attn.rescale_factor %arg10, %42 scale_log2 %3 : tensor<128xf32, #rows>
          %45 = attn.exp_diff %39, %42 scale_log2 %3 : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %46 = attn.row_sum %45 init %arg11 scaled %43 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          attn.wait_gemms pending(0)
          attn.ring_release %key after(%46 : tensor<128xf32, #rows>) : tensor<64x64xbf16, #shared>
          attn.ring_release %arg15 after(%46 : tensor<128xf32, #rows>) {attn.stage = 1 : i64} : tensor<64x64xbf16, #shared>
          scf.yield %42, %46, %41, %45, %43, %value : tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>
        } {attn.kv_range = "full"}
        %36 = arith.maxsi %21, %31 : index
        %37:6 = scf.for %arg9 = %34 to %36 step %c1 iter_args(%arg10 = %35#0, %arg11 = %35#1, %arg12 = %35#2, %arg13 = %35#3, %arg14 = %35#4, %arg15 = %35#5) -> (tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>) {
          %39 = arith.muli %arg9, %c64 : index
          %key, %value = attn.ring_pop : tensor<64x64xbf16, #shared>, tensor<64x64xbf16, #shared>
          attn.wait_tile %key : tensor<64x64xbf16, #shared>
          attn.wait_tile %arg15 : tensor<64x64xbf16, #shared>
          attn.wait_turn
          %40 = attn.qk %9, %key : tensor<128x64xbf16, #shared>, tensor<64x64xbf16, #shared> -> tensor<128x64xf32, #acc>
          %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<64x64xbf16, #shared>, tensor<128x64xf32, #acc>
          attn.pass_turn
          attn.wait_gemms pending(1)
          %43 = attn.mask %40 rows %8 cols %39 seq_q %dim_3 seq_k %dim_4 kind = causal : tensor<128x64xf32, #acc>
          %44 = attn.row_max %43 init %arg10 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #rows>
          %47 = attn.exp_diff %43, %44 scale_log2 %3 : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %48 = attn.row_sum %47 init %arg11 scaled %45 : tensor<128x64xf32, #acc> -> tensor<128xf32, #rows>
          attn.wait_gemms pending(0)
          attn.ring_release %key after(%48 : tensor<128xf32, #rows>) : tensor<64x64xbf16, #shared>
          attn.ring_release %arg15 after(%48 : tensor<128xf32, #rows>) {attn.stage = 1 : i64} : tensor<64x64xbf16, #shared>
          scf.yield %44, %48, %42, %47, %45, %value : tensor<128xf32, #rows>, tensor<128xf32, #rows>, tensor<128x64xf32, #acc>, tensor<128x64xf32, #acc>, tensor<128xf32, #rows>, tensor<64x64xbf16, #shared>
        } {attn.kv_range = "tail"}
        %38 = scf.if %30 -> (tensor<128x64xf32, #acc>) {
          attn.wait_tile %37#5 : tensor<64x64xbf16, #shared>
          %39 = attn.scale_rows %37#2, %37#4 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<128xf32, #rows>
          %40 = attn.pv %37#3, %37#5, %39 {attn.stage = 1 : i64} : tensor<128x64xf32, #acc>, tensor<64x64xbf16, #shared>, tensor<128x64xf32, #acc>
          attn.wait_gemms pending(0)
          // expected-error @+1 {{convert-attn-to-nvvm: a release is ordered after row sums its step computes (attn.row_sum results in the step) (attn-insert-waits places the waits)}}
          attn.ring_release %37#5 after(%32#1 : tensor<128xf32, #rows>) {attn.stage = 1 : i64} : tensor<64x64xbf16, #shared>
          scf.yield %40 : tensor<128x64xf32, #acc>
        } else {
          scf.yield %37#2 : tensor<128x64xf32, #acc>
        }
        %output, %lse = attn.finalize %38, %37#1, %37#0 scale %arg3 mask = causal : tensor<128x64xf32, #acc>, tensor<128xf32, #rows> -> tensor<128x64xbf16, #acc>
        attn.yield %output, %lse : tensor<128x64xbf16, #acc>, tensor<128xf32, #rows>
      } : tensor<128x64xbf16, #acc>, tensor<128xf32, #rows>
      %28 = arith.subi %dim_3, %8 : index
      %29 = arith.minsi %28, %c128 : index
      %extracted_slice = tensor.extract_slice %27#0[0, 0] [%29, 64] [1, 1] : tensor<128x64xbf16, #acc> to tensor<?x64xbf16>
      %extracted_slice_8 = tensor.extract_slice %27#1[0] [%29] [1] : tensor<128xf32, #rows> to tensor<?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg7[%arg4, %arg5, %8, 0] [1, 1, %29, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x8x?x64xbf16>
        tensor.parallel_insert_slice %extracted_slice_8 into %arg8[%arg4, %arg5, %8] [1, 1, %29] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
      }
    } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
    return %4#0, %4#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
  }
}
