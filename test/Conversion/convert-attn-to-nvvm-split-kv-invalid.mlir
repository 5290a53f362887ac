// RUN: attnc-opt %s -split-input-file --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// A split-KV attention's attn.combine_splits that the combine kernel cannot
// be lowered from: a diagnostic that names the rule. Each case edits the IR
// of a decode step (Hq = Hkv = 2, D 64, kv_splits(4)) after attnc-opt
// --attn-lower-to-nvvm-pipeline, printed before convert-attn-to-nvvm.

#acc = #attn.wgmma_accumulator<warpgroups = 1>
#shared = #attn.swizzled_shared<swizzle = 128>
#rows = #attn.accumulator_rows<#acc>

// The combine kernel compiles in the heads and value head dim of the rows
// it merges: casts that erase them from every type of the op leave it
// nothing to compile in.
func.func @dynamic_combine_shape(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>) {
  %c4 = arith.constant 4 : index
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c128 = arith.constant 128 : index
  %cst_2 = arith.constant 1.44269502 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_3, %c64 : index
  %1 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?x64xf32>
  %2 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?xf32>
  %3 = arith.mulf %arg3, %cst_2 : f32
  %4:2 = scf.forall (%arg4, %arg5, %arg6, %arg7) in (%dim, 2, %0, 4) shared_outs(%arg8 = %1, %arg9 = %2) -> (tensor<4x?x2x?x64xf32>, tensor<4x?x2x?xf32>) {
    %cst_6 = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<64xf32, #rows>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %5 = arith.muli %arg6, %c64 : index
    %6 = attn.load_tile %arg0[%arg4, %arg5, %5] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #shared>
    %7 = arith.ceildivsi %dim_4, %c128 : index
    %8 = arith.ceildivsi %7, %c4 : index
    %9 = arith.muli %arg7, %8 : index
    %10 = arith.addi %9, %8 : index
    %11 = arith.maxsi %9, %c0 : index
    %12 = arith.minsi %7, %10 : index
    %13 = arith.floordivsi %dim_4, %c128 : index
    %14 = arith.maxsi %13, %11 : index
    %15 = arith.minsi %14, %12 : index
    %16:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg10 = %11 to %12 step %c1 {
        %19 = arith.muli %arg10, %c128 : index
        %20 = attn.load_tile %arg1[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        %21 = attn.load_tile %arg2[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        attn.ring_push %20, %21 : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
      }
      attn.yield
    } consumer {
      attn.wait_tile %6 : tensor<64x64xbf16, #shared>
      %19:3 = scf.for %arg10 = %11 to %15 step %c1 iter_args(%arg11 = %cst_6, %arg12 = %cst_7, %arg13 = %cst_8) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %21 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %22 = attn.row_max %21 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %23 = attn.rescale_factor %arg11, %22 scale_log2 %3 : tensor<64xf32, #rows>
        %25 = attn.exp_diff %21, %22 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %26 = attn.row_sum %25 init %arg12 scaled %23 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %27 = attn.scale_rows %arg13, %23 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.pv %25, %value, %27 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %22, %26, %28 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "full"}
      %20:3 = scf.for %arg10 = %15 to %12 step %c1 iter_args(%arg11 = %19#0, %arg12 = %19#1, %arg13 = %19#2) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %21 = arith.muli %arg10, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %22 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %23 = attn.mask %22 rows %5 cols %21 seq_q %dim_3 seq_k %dim_4 : tensor<64x128xf32, #acc>
        %24 = attn.row_max %23 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %25 = attn.rescale_factor %arg11, %24 scale_log2 %3 : tensor<64xf32, #rows>
        %27 = attn.exp_diff %23, %24 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.row_sum %27 init %arg12 scaled %25 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %29 = attn.scale_rows %arg13, %25 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %30 = attn.pv %27, %value, %29 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %24, %28, %30 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "tail"}
      attn.launch_dependents
      %output_10, %lse_11 = attn.finalize %20#2, %20#1, %20#0 scale %arg3 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows> -> tensor<64x64xf32, #acc>
      attn.yield %output_10, %lse_11 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    } : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    %17 = arith.subi %dim_3, %5 : index
    %18 = arith.minsi %17, %c64 : index
    %extracted_slice = tensor.extract_slice %16#0[0, 0] [%18, 64] [1, 1] : tensor<64x64xf32, #acc> to tensor<?x64xf32>
    %extracted_slice_9 = tensor.extract_slice %16#1[0] [%18] [1] : tensor<64xf32, #rows> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[%arg7, %arg4, %arg5, %5, 0] [1, 1, 1, %18, 64] [1, 1, 1, 1, 1] : tensor<?x64xf32> into tensor<4x?x2x?x64xf32>
      tensor.parallel_insert_slice %extracted_slice_9 into %arg9[%arg7, %arg4, %arg5, %5] [1, 1, 1, %18] [1, 1, 1, 1] : tensor<?xf32> into tensor<4x?x2x?xf32>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 40960, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 73728, key_full = 73736, value_full = 73752, key_empty = 73768, value_empty = 73784, size = 73800, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
  %cast = tensor.cast %4#0 : tensor<4x?x2x?x64xf32> to tensor<?x?x?x?x?xf32>
  %cast_5 = tensor.cast %4#1 : tensor<4x?x2x?xf32> to tensor<?x?x?x?xf32>
  // expected-error @+1 {{convert-attn-to-nvvm: attn.combine_splits needs static heads and value head dim in its types (the combine kernel compiles in its rows' strides and columns)}}
  %output, %lse = attn.combine_splits %cast, %cast_5 : tensor<?x?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xbf16>, tensor<?x?x?xf32>
  %o = tensor.cast %output : tensor<?x?x?x?xbf16> to tensor<?x2x?x64xbf16>
  %l = tensor.cast %lse : tensor<?x?x?xf32> to tensor<?x2x?xf32>
  return %o, %l : tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
}

// -----

#acc = #attn.wgmma_accumulator<warpgroups = 1>
#shared = #attn.swizzled_shared<swizzle = 128>
#rows = #attn.accumulator_rows<#acc>

// The split tile's partials are merged once, by the combine kernel: a
// second attn.combine_splits of them would be a second merge the kernel
// does not run.
func.func @two_combines(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>) {
  %c4 = arith.constant 4 : index
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c128 = arith.constant 128 : index
  %cst_2 = arith.constant 1.44269502 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_3, %c64 : index
  %1 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?x64xf32>
  %2 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?xf32>
  %3 = arith.mulf %arg3, %cst_2 : f32
  // expected-error @+1 {{convert-attn-to-nvvm: a split-KV tile's partial O and LSE must go, in that order, to one attn.combine_splits}}
  %4:2 = scf.forall (%arg4, %arg5, %arg6, %arg7) in (%dim, 2, %0, 4) shared_outs(%arg8 = %1, %arg9 = %2) -> (tensor<4x?x2x?x64xf32>, tensor<4x?x2x?xf32>) {
    %cst_6 = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<64xf32, #rows>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %5 = arith.muli %arg6, %c64 : index
    %6 = attn.load_tile %arg0[%arg4, %arg5, %5] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #shared>
    %7 = arith.ceildivsi %dim_4, %c128 : index
    %8 = arith.ceildivsi %7, %c4 : index
    %9 = arith.muli %arg7, %8 : index
    %10 = arith.addi %9, %8 : index
    %11 = arith.maxsi %9, %c0 : index
    %12 = arith.minsi %7, %10 : index
    %13 = arith.floordivsi %dim_4, %c128 : index
    %14 = arith.maxsi %13, %11 : index
    %15 = arith.minsi %14, %12 : index
    %16:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg10 = %11 to %12 step %c1 {
        %19 = arith.muli %arg10, %c128 : index
        %20 = attn.load_tile %arg1[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        %21 = attn.load_tile %arg2[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        attn.ring_push %20, %21 : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
      }
      attn.yield
    } consumer {
      attn.wait_tile %6 : tensor<64x64xbf16, #shared>
      %19:3 = scf.for %arg10 = %11 to %15 step %c1 iter_args(%arg11 = %cst_6, %arg12 = %cst_7, %arg13 = %cst_8) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %21 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %22 = attn.row_max %21 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %23 = attn.rescale_factor %arg11, %22 scale_log2 %3 : tensor<64xf32, #rows>
        %25 = attn.exp_diff %21, %22 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %26 = attn.row_sum %25 init %arg12 scaled %23 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %27 = attn.scale_rows %arg13, %23 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.pv %25, %value, %27 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %22, %26, %28 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "full"}
      %20:3 = scf.for %arg10 = %15 to %12 step %c1 iter_args(%arg11 = %19#0, %arg12 = %19#1, %arg13 = %19#2) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %21 = arith.muli %arg10, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %22 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %23 = attn.mask %22 rows %5 cols %21 seq_q %dim_3 seq_k %dim_4 : tensor<64x128xf32, #acc>
        %24 = attn.row_max %23 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %25 = attn.rescale_factor %arg11, %24 scale_log2 %3 : tensor<64xf32, #rows>
        %27 = attn.exp_diff %23, %24 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.row_sum %27 init %arg12 scaled %25 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %29 = attn.scale_rows %arg13, %25 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %30 = attn.pv %27, %value, %29 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %24, %28, %30 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "tail"}
      attn.launch_dependents
      %output_10, %lse_11 = attn.finalize %20#2, %20#1, %20#0 scale %arg3 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows> -> tensor<64x64xf32, #acc>
      attn.yield %output_10, %lse_11 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    } : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    %17 = arith.subi %dim_3, %5 : index
    %18 = arith.minsi %17, %c64 : index
    %extracted_slice = tensor.extract_slice %16#0[0, 0] [%18, 64] [1, 1] : tensor<64x64xf32, #acc> to tensor<?x64xf32>
    %extracted_slice_9 = tensor.extract_slice %16#1[0] [%18] [1] : tensor<64xf32, #rows> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[%arg7, %arg4, %arg5, %5, 0] [1, 1, 1, %18, 64] [1, 1, 1, 1, 1] : tensor<?x64xf32> into tensor<4x?x2x?x64xf32>
      tensor.parallel_insert_slice %extracted_slice_9 into %arg9[%arg7, %arg4, %arg5, %5] [1, 1, 1, %18] [1, 1, 1, 1] : tensor<?xf32> into tensor<4x?x2x?xf32>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 40960, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 73728, key_full = 73736, value_full = 73752, key_empty = 73768, value_empty = 73784, size = 73800, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
  %cast = tensor.cast %4#0 : tensor<4x?x2x?x64xf32> to tensor<?x?x2x?x64xf32>
  %cast_5 = tensor.cast %4#1 : tensor<4x?x2x?xf32> to tensor<?x?x2x?xf32>
  %unused:2 = attn.combine_splits %cast, %cast_5 : tensor<?x?x2x?x64xf32>, tensor<?x?x2x?xf32> -> tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
  %output, %lse = attn.combine_splits %cast, %cast_5 : tensor<?x?x2x?x64xf32>, tensor<?x?x2x?xf32> -> tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
  return %output, %lse : tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
}

// -----

#acc = #attn.wgmma_accumulator<warpgroups = 1>
#shared = #attn.swizzled_shared<swizzle = 128>
#rows = #attn.accumulator_rows<#acc>

// The merged O is the attention's: the manifest's dtype and the O the tile
// writes itself at one split are Q's element type, so a combine that writes
// another would hand the caller O in a type it did not ask for.
func.func @combine_element_type(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x2x?x64xf16>, tensor<?x2x?xf32>) {
  %c4 = arith.constant 4 : index
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c128 = arith.constant 128 : index
  %cst_2 = arith.constant 1.44269502 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_4 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_3, %c64 : index
  %1 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?x64xf32>
  %2 = tensor.empty(%dim, %dim_3) : tensor<4x?x2x?xf32>
  %3 = arith.mulf %arg3, %cst_2 : f32
  %4:2 = scf.forall (%arg4, %arg5, %arg6, %arg7) in (%dim, 2, %0, 4) shared_outs(%arg8 = %1, %arg9 = %2) -> (tensor<4x?x2x?x64xf32>, tensor<4x?x2x?xf32>) {
    %cst_6 = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<64xf32, #rows>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %5 = arith.muli %arg6, %c64 : index
    %6 = attn.load_tile %arg0[%arg4, %arg5, %5] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16, #shared>
    %7 = arith.ceildivsi %dim_4, %c128 : index
    %8 = arith.ceildivsi %7, %c4 : index
    %9 = arith.muli %arg7, %8 : index
    %10 = arith.addi %9, %8 : index
    %11 = arith.maxsi %9, %c0 : index
    %12 = arith.minsi %7, %10 : index
    %13 = arith.floordivsi %dim_4, %c128 : index
    %14 = arith.maxsi %13, %11 : index
    %15 = arith.minsi %14, %12 : index
    %16:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
      scf.for %arg10 = %11 to %12 step %c1 {
        %19 = arith.muli %arg10, %c128 : index
        %20 = attn.load_tile %arg1[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        %21 = attn.load_tile %arg2[%arg4, %arg5, %19] : tensor<?x2x?x64xbf16> -> tensor<128x64xbf16, #shared>
        attn.ring_push %20, %21 : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
      }
      attn.yield
    } consumer {
      attn.wait_tile %6 : tensor<64x64xbf16, #shared>
      %19:3 = scf.for %arg10 = %11 to %15 step %c1 iter_args(%arg11 = %cst_6, %arg12 = %cst_7, %arg13 = %cst_8) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %21 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %22 = attn.row_max %21 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %23 = attn.rescale_factor %arg11, %22 scale_log2 %3 : tensor<64xf32, #rows>
        %25 = attn.exp_diff %21, %22 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %26 = attn.row_sum %25 init %arg12 scaled %23 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %27 = attn.scale_rows %arg13, %23 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.pv %25, %value, %27 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %22, %26, %28 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "full"}
      %20:3 = scf.for %arg10 = %15 to %12 step %c1 iter_args(%arg11 = %19#0, %arg12 = %19#1, %arg13 = %19#2) -> (tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>) {
        %21 = arith.muli %arg10, %c128 : index
        %key, %value = attn.ring_pop : tensor<128x64xbf16, #shared>, tensor<128x64xbf16, #shared>
        attn.wait_tile %key : tensor<128x64xbf16, #shared>
        %22 = attn.qk %6, %key : tensor<64x64xbf16, #shared>, tensor<128x64xbf16, #shared> -> tensor<64x128xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %key : tensor<128x64xbf16, #shared>
        attn.wait_tile %value : tensor<128x64xbf16, #shared>
        %23 = attn.mask %22 rows %5 cols %21 seq_q %dim_3 seq_k %dim_4 : tensor<64x128xf32, #acc>
        %24 = attn.row_max %23 init %arg11 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %25 = attn.rescale_factor %arg11, %24 scale_log2 %3 : tensor<64xf32, #rows>
        %27 = attn.exp_diff %23, %24 scale_log2 %3 : tensor<64x128xf32, #acc>, tensor<64xf32, #rows>
        %28 = attn.row_sum %27 init %arg12 scaled %25 : tensor<64x128xf32, #acc> -> tensor<64xf32, #rows>
        %29 = attn.scale_rows %arg13, %25 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
        %30 = attn.pv %27, %value, %29 : tensor<64x128xf32, #acc>, tensor<128x64xbf16, #shared>, tensor<64x64xf32, #acc>
        attn.wait_gemms pending(0)
        attn.ring_release %value : tensor<128x64xbf16, #shared>
        scf.yield %24, %28, %30 : tensor<64xf32, #rows>, tensor<64xf32, #rows>, tensor<64x64xf32, #acc>
      } {attn.kv_range = "tail"}
      attn.launch_dependents
      %output_10, %lse_11 = attn.finalize %20#2, %20#1, %20#0 scale %arg3 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows> -> tensor<64x64xf32, #acc>
      attn.yield %output_10, %lse_11 : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    } : tensor<64x64xf32, #acc>, tensor<64xf32, #rows>
    %17 = arith.subi %dim_3, %5 : index
    %18 = arith.minsi %17, %c64 : index
    %extracted_slice = tensor.extract_slice %16#0[0, 0] [%18, 64] [1, 1] : tensor<64x64xf32, #acc> to tensor<?x64xf32>
    %extracted_slice_9 = tensor.extract_slice %16#1[0] [%18] [1] : tensor<64xf32, #rows> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg8[%arg7, %arg4, %arg5, %5, 0] [1, 1, 1, %18, 64] [1, 1, 1, 1, 1] : tensor<?x64xf32> into tensor<4x?x2x?x64xf32>
      tensor.parallel_insert_slice %extracted_slice_9 into %arg9[%arg7, %arg4, %arg5, %5] [1, 1, 1, %18] [1, 1, 1, 1] : tensor<?xf32> into tensor<4x?x2x?xf32>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 40960, stages = 2, key_stage_bytes = 16384, value_stage_bytes = 16384, query_full = 73728, key_full = 73736, value_full = 73752, key_empty = 73768, value_empty = 73784, size = 73800, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
  %cast = tensor.cast %4#0 : tensor<4x?x2x?x64xf32> to tensor<?x?x2x?x64xf32>
  %cast_5 = tensor.cast %4#1 : tensor<4x?x2x?xf32> to tensor<?x?x2x?xf32>
  // expected-error @+1 {{convert-attn-to-nvvm: attn.combine_splits must merge the split tile's rows into O of the attention's element type ('bf16', 2 heads, value head dim 64), got 'f16', 2 heads, value head dim 64}}
  %output, %lse = attn.combine_splits %cast, %cast_5 : tensor<?x?x2x?x64xf32>, tensor<?x?x2x?xf32> -> tensor<?x2x?x64xf16>, tensor<?x2x?xf32>
  return %output, %lse : tensor<?x2x?x64xf16>, tensor<?x2x?xf32>
}
