// RUN: attnc-opt %s -split-input-file --attn-assign-layouts --attn-allocate-shared-memory --attn-pipeline-kv-loops --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s

// The kernel runs the kv loops of the tile IR as they are: changing the IR
// changes the kernel. Input: the mask-split tile IR of a causal attention
// (attnc-opt --attn-tiling-pipeline="block-m=64 block-n=64"), without
// attn-warp-specialize, so the loops sit in the forall.

// The full loop has no attn.mask: no -inf select. The tail loop's attn.mask
// became per-element compares and selects of -inf.
// CHECK-LABEL: llvm.func @causal(
// CHECK:         scf.for %[[FULL_IV:.*]] = %{{.*}} to %[[FULL_END:.*]] step
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:           scf.yield
// CHECK:         scf.for %{{.*}} = %[[FULL_END]] to %{{.*}} step
// CHECK:           %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %{{.*}}, %[[NEG_INF]] : f32
// CHECK-NOT:     llvm.inline_asm {{.*}}tanh

func.func @causal(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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

// The same IR with the tail loop's attn.mask deleted: neither loop masks.
// CHECK-LABEL: llvm.func @tail_unmasked(
// CHECK:         scf.for
// CHECK:           scf.yield
// CHECK:         scf.for
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:           scf.yield

func.func @tail_unmasked(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
      %30 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
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

// attn.softcap in both loops (and the softmax scale moved into it): every
// block applies cap * tanh(s * scale / cap) before its row max (the cap
// folded into the row max and the exponentials' multiplier).
// CHECK-LABEL: llvm.func @softcapped(
// The scale operand's constant, cloned into the kernel before the loops:
// scale / cap.
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         scf.for
// CHECK:           %[[DIVISOR:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[INNER:.*]] = arith.divf %[[SCALE]], %[[DIVISOR]] : f32
// CHECK-NEXT:      %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[INNER]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[SCALED]] : (f32) -> f32
// CHECK:           %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK:           arith.mulf %[[CAP]], %{{.*}} : f32
// CHECK:         scf.for
// CHECK:           llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;"

func.func @softcapped(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 1.250000e-01 : f32
  %scale_cst1 = arith.constant 1.44269502 : f32
  %scale_cst2 = arith.constant 1.000000e+00 : f32
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
      %qk = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %28 = attn.softcap %qk scale %scale_cst0 cap = 3.000000e+01 : tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst1 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %qk = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %28 = attn.softcap %qk scale %scale_cst0 cap = 3.000000e+01 : tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst1 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst2 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
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

// A layout given in the IR (here with the K stages moved to 16384, leaving
// 8 KiB free after Q) is kept by attn-allocate-shared-memory and obeyed by
// the kernel: K's TMA destination and the launch's shared-memory size are
// the attribute's.
// CHECK-LABEL: llvm.func @moved_keys(
// CHECK-SAME:    shared_memory = 49224
// CHECK:         %[[KEYS:.*]] = arith.constant 16384 : i32
// CHECK-NEXT:    %[[STAGE:.*]] = arith.addi %[[KEYS]], %{{.*}} : i32
// CHECK-NEXT:    llvm.getelementptr %{{.*}}[%[[STAGE]]]
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1,
func.func @moved_keys(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// O staged where the IR's #attn.shared_memory says (`output`, here a buffer
// of its own after the mbarriers instead of over Q at 0): every staging
// store of the epilogue and the TMA store's source are at that offset.
// CHECK-LABEL: llvm.func @moved_output(
// CHECK-SAME:    shared_memory = 58368
// CHECK:         %[[AT:.*]] = arith.addi %c50176_i32, %{{.*}} : i32
// CHECK-NEXT:    %[[STAGED:.*]] = llvm.getelementptr %{{.*}}[%[[AT]]]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[STAGED]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-COUNT-15: arith.addi %c50176_i32_{{[0-9]+}}, %{{.*}} : i32
// CHECK:         nvvm.fence.proxy
// CHECK:         %[[ROWS:.*]] = arith.muli %{{.*}}, %c8192_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT:    %[[OUT:.*]] = arith.constant 50176 : i32
// CHECK-NEXT:    %[[SOURCE:.*]] = arith.addi %[[OUT]], %[[ROWS]] : i32
// CHECK-NEXT:    %[[SOURCE_PTR:.*]] = llvm.getelementptr %{{.*}}[%[[SOURCE]]]
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[SOURCE_PTR]], box
func.func @moved_output(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 50176, output_bytes = 8192, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 58368, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The tile's store writes where its offsets say: here each head's O into
// the mirrored head (1 - h of 2), which the TMA store takes as its head
// coordinate (the store's own batch and row beside it).
// CHECK-LABEL: llvm.func @stored_at_mirrored_head(
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// CHECK-NEXT:    %[[HEAD_Y:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK-NEXT:    %[[BATCH_Z:.*]] = nvvm.read.ptx.sreg.ctaid.z
// CHECK:         %[[BATCH:.*]] = arith.index_cast %[[BATCH_Z]] : i32 to index
// CHECK-NEXT:    %[[HEAD:.*]] = arith.index_cast %[[HEAD_Y]] : i32 to index
// CHECK:         %[[MIRRORED:.*]] = arith.subi %c1{{.*}}, %[[HEAD]] : index
// CHECK-NEXT:    %[[STORE_BATCH:.*]] = arith.index_cast %[[BATCH]] : index to i32
// CHECK-NEXT:    %[[STORE_HEAD:.*]] = arith.index_cast %[[MIRRORED]] : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, box[%{{.*}}, %{{.*}}, %[[STORE_HEAD]], %[[STORE_BATCH]]]
func.func @stored_at_mirrored_head(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    %mirrored = arith.subi %c1, %arg4 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %mirrored, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 50176, output_bytes = 8192, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 58368, warpgroup_barriers = [1]>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The same in the BSHD layout, whose insert holds the row before the head
// ([b, row, h, 0]): the TMA store still takes (row, head, batch), the head
// the mirrored one. (attnc-opt --attn-tiling-pipeline="block-m=64
// block-n=64" of a causal BSHD attention, its store's head edited.)
// CHECK-LABEL: llvm.func @stored_at_mirrored_head_bshd(
// CHECK:         nvvm.read.ptx.sreg.ctaid.x
// CHECK-NEXT:    %[[HEAD_Y:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK-NEXT:    %[[BATCH_Z:.*]] = nvvm.read.ptx.sreg.ctaid.z
// CHECK-NEXT:    %[[BATCH:.*]] = arith.index_cast %[[BATCH_Z]] : i32 to index
// CHECK-NEXT:    %[[HEAD:.*]] = arith.index_cast %[[HEAD_Y]] : i32 to index
// CHECK:         %[[MIRRORED:.*]] = arith.subi %c1{{.*}}, %[[HEAD]] : index
// CHECK-NEXT:    %[[STORE_BATCH:.*]] = arith.index_cast %[[BATCH]] : index to i32
// CHECK-NEXT:    %[[STORE_ROW:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[STORE_HEAD:.*]] = arith.index_cast %[[MIRRORED]] : index to i32
// CHECK:         %[[BOX_ROW:.*]] = arith.addi %[[STORE_ROW]], %{{.*}} : i32
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, box[%{{.*}}, %[[BOX_ROW]], %[[STORE_HEAD]], %[[STORE_BATCH]]]
func.func @stored_at_mirrored_head_bshd(%arg0: tensor<?x?x2x64xbf16>, %arg1: tensor<?x?x2x64xbf16>, %arg2: tensor<?x?x2x64xbf16>) -> tensor<?x?x2x64xbf16> {
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c-1 = arith.constant -1 : index
  %cst_2 = arith.constant 0.180336878 : f32
  %cst_3 = arith.constant 1.250000e-01 : f32
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x?x2x64xbf16>
  %dim_4 = tensor.dim %arg0, %c1 : tensor<?x?x2x64xbf16>
  %dim_5 = tensor.dim %arg1, %c1 : tensor<?x?x2x64xbf16>
  %0 = arith.ceildivsi %dim_4, %c64 : index
  %1 = tensor.empty(%dim, %dim_4) : tensor<?x?x2x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x?x2x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %4 = attn.load_tile %arg0[%arg3, %arg4, %3] layout = bshd : tensor<?x?x2x64xbf16> -> tensor<64x64xbf16>
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
    %22:3 = scf.for %arg7 = %c0 to %21 step %c1 iter_args(%arg8 = %cst_1, %arg9 = %cst_0, %arg10 = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] layout = bshd : tensor<?x?x2x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %cst_2 : tensor<64xf32>
      %31 = attn.exp_diff %28, %29 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %32 = attn.row_sum %31 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      %33 = attn.load_tile %arg2[%arg3, %arg4, %26] layout = bshd : tensor<?x?x2x64xbf16> -> tensor<64x64xbf16>
      %34 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.pv %31, %33, %34 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %29, %32, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] layout = bshd : tensor<?x?x2x64xbf16> -> tensor<64x64xbf16>
      %28 = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_4 seq_k %dim_5 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %cst_2 : tensor<64xf32>
      %32 = attn.exp_diff %29, %30 scale_log2 %cst_2 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.row_sum %32 init %arg9 scaled %31 : tensor<64x64xf32> -> tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] layout = bshd : tensor<?x?x2x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %36 = attn.pv %32, %34, %35 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %30, %33, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %cst_3 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_4, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %mirrored = arith.subi %c1, %arg4 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %3, %mirrored, 0] [1, %25, 1, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x?x2x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x?x2x64xbf16>
}

// -----

// Q loaded and the LSE stored at head 7 - h, O at h: the producer's leader
// issues Q's TMA at the load's head, and the LSE's row index takes the
// insert's head, while O's TMA store keeps its own.
// CHECK-LABEL: llvm.func @mirrored_query_and_lse(
// CHECK:         %[[HEAD_Y:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK:         %[[HEAD:.*]] = arith.index_cast %[[HEAD_Y]] : i32 to index
// CHECK:         %[[QUERY_HEAD:.*]] = arith.subi %c7, %[[HEAD]] : index
// CHECK:         nvvm.setmaxregister  decrease 24
// CHECK:         %[[Q_HEAD:.*]] = arith.index_cast %[[QUERY_HEAD]] : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0, %{{.*}}, box[%{{.*}}, %{{.*}}, %[[Q_HEAD]], %{{.*}}]
// CHECK:         nvvm.setmaxregister  increase 240
// CHECK:         %[[LSE_HEAD:.*]] = arith.subi %c7{{.*}}, %[[HEAD]] : index
// CHECK-NEXT:    %[[O_BATCH:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[O_HEAD:.*]] = arith.index_cast %[[HEAD]] : index to i32
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, box[%{{.*}}, %{{.*}}, %[[O_HEAD]], %[[O_BATCH]]]
// CHECK:         %[[LSE_HEAD_I32:.*]] = arith.index_cast %[[LSE_HEAD]] : index to i32
// CHECK:         %[[LSE_HEAD_I64:.*]] = arith.extui %[[LSE_HEAD_I32]] : i32 to i64
// CHECK:         arith.addi %{{.*}}, %[[LSE_HEAD_I64]] : i64
// CHECK:         llvm.store %{{.*}} : f32, !llvm.ptr<1>
func.func @mirrored_query_and_lse(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
    %c7 = arith.constant 7 : index
    %mirrored = arith.subi %c7, %arg4 : index
    %6 = attn.load_tile %arg0[%arg3, %mirrored, %5] : tensor<?x8x?x64xbf16> -> tensor<128x64xbf16>
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
      tensor.parallel_insert_slice %extracted_slice_6 into %arg7[%arg3, %mirrored, %5] [1, 1, %26] [1, 1, 1] : tensor<?xf32> into tensor<?x8x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %3#0, %3#1 : tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>
}

// -----

// Only the LSE's scale comes from the function's f32 argument (the softcap's
// is a constant): the kernel still takes it, as its `scale` parameter, and
// compiles no scale in.
// CHECK-LABEL: llvm.func @lse_scale_from_argument(
// CHECK-SAME:    %{{[^:]*}}: i32, %{{[^:]*}}: i32, %[[S:[^:]*]]: f32)
// CHECK-SAME:    #attn.kernel_param<"f32", "scale">]
// CHECK-NOT:     , scale =
// CHECK-SAME:    nvvm.kernel
func.func @lse_scale_from_argument(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %s: f32) -> tensor<?x2x?x64xbf16> {
  %scale_cst0 = arith.constant 1.250000e-01 : f32
  %scale_cst1 = arith.constant 1.44269502 : f32
  %scale_cst2 = arith.constant 1.000000e+00 : f32
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
      %qk = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %28 = attn.softcap %qk scale %scale_cst0 cap = 3.000000e+01 : tensor<64x64xf32>
      %29 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %30 = attn.rescale_factor %arg8, %29 scale_log2 %scale_cst1 : tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %arg9 scaled %30 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %29, %36, %35 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "full"}
    %23:3 = scf.for %arg7 = %21 to %16 step %c1 iter_args(%arg8 = %22#0, %arg9 = %22#1, %arg10 = %22#2) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %26 = arith.muli %arg7, %c64 : index
      %27 = attn.load_tile %arg1[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %qk = attn.qk %4, %27 : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %28 = attn.softcap %qk scale %scale_cst0 cap = 3.000000e+01 : tensor<64x64xf32>
      %29 = attn.mask %28 rows %3 cols %26 seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %30 = attn.row_max %29 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst1 : tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
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

// The intra-warpgroup overlap is what the IR's stages say. With the
// accumulator update in stage 1 (attn-warp-specialize's overlap), block j's
// softmax runs between the S issue of block j and the full wait: the kernel
// waits with one GEMM group pending, and the first block's S (its own step,
// peeled before the loops) and the last block's P V (after them) stand
// outside the loops.
// CHECK-LABEL: llvm.func @pipelined(
// CHECK:         scf.if
// CHECK:           nvvm.wgmma.mma_async
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         scf.if
// CHECK:           wgmma.mma_async.sync.aligned.m64n64k16
// CHECK:         llvm.return

func.func @pipelined(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
        %30 = attn.qk %6, %key : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        attn.ring_release %key : tensor<64x64xbf16>
        %31 = attn.row_max %30 init %arg9 : tensor<128x64xf32> -> tensor<128xf32>
        %32 = attn.rescale_factor %arg9, %31 scale_log2 %cst_2 : tensor<128xf32>
        %34 = attn.exp_diff %30, %31 scale_log2 %cst_2 : tensor<128x64xf32>, tensor<128xf32>
        %35 = attn.row_sum %34 init %arg10 scaled %32 : tensor<128x64xf32> -> tensor<128xf32>
        %36 = attn.scale_rows %arg11, %32 {attn.stage = 1 : i64} : tensor<128x64xf32>, tensor<128xf32>
        %37 = attn.pv %34, %value, %36 {attn.stage = 1 : i64} : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
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
        %37 = attn.scale_rows %arg11, %33 {attn.stage = 1 : i64} : tensor<128x64xf32>, tensor<128xf32>
        %38 = attn.pv %35, %value, %37 {attn.stage = 1 : i64} : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        attn.ring_release %value {attn.stage = 1 : i64} : tensor<64x64xbf16>
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

// The same IR with the stage attributes deleted: every block runs its
// GEMMs and softmax in sequence, each GEMM waited for at once.
// Each step's attn.ring_release ops are arrivals on the stage's empty
// barriers: K's once S is waited for (before V's full wait), V's after P V.
// CHECK-LABEL: llvm.func @not_pipelined(
// CHECK-NOT:     nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:     nvvm.barrier.arrive
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           scf.if
// CHECK-NEXT:        nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           scf.if
// CHECK-NEXT:        nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:           scf.yield
// CHECK:         llvm.return

func.func @not_pipelined(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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

// attn.warp_specialize is the role branch, its registers what the op says
// (here 56 and 224 instead of the table's 24 and 240): warpgroup 0 lowers
// its budget and its leader thread loads Q (the load above the op), then
// runs the producer's loop; the consumer warpgroups raise theirs, then run
// the consumer region. Each role computes the bounds its loops read after
// its setmaxnreg, none before the role branch: the producer its loop's
// causal end (the ceildivs of the last row and of Nk), the consumers also
// the full loop's end (the floordiv of the first row). (A kv range that
// starts past 0, split-KV's, is each role's too:
// convert-attn-to-nvvm-split-kv.mlir.)
// CHECK-LABEL: llvm.func @registers(
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[CTA_WG:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT:     arith.ceildivsi
// CHECK-NOT:     arith.floordivsi
// CHECK:         %[[IS_PRODUCER:.*]] = arith.cmpi eq, %[[CTA_WG]], %{{.*}} : i32
// CHECK-NEXT:    scf.if %[[IS_PRODUCER]] {
// CHECK-NEXT:      nvvm.setmaxregister  decrease 56
// CHECK-NEXT:      scf.if %{{.*}} {
// CHECK:             nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg0,
// CHECK-NOT:         arith.floordivsi
// CHECK:             %[[P_END:.*]] = arith.select
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[P_END]]
// CHECK-COUNT-2:       nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         } else {
// CHECK-NEXT:      nvvm.setmaxregister  increase 224
// CHECK:           arith.floordivsi
// CHECK:           arith.ceildivsi
// CHECK:           scf.for
// CHECK:             nvvm.wgmma.mma_async
// CHECK:         llvm.return

func.func @registers(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
    %24:2 = attn.warp_specialize consumers(2) stages(2) registers(56, 224) producer {
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

// Ping-pong is what the IR's turns say. The same IR with attn.wait_turn /
// attn.pass_turn around each attn.qk: warpgroup 1's first pass
// (attn.pass_turn warpgroup(1)) arrives on warpgroup 0's barrier (3 + 0)
// before the loops, every step waits on its own barrier (3 + warpgroup,
// both warpgroups' 256 threads) before the K wait and the S issue and
// arrives on the other's right after the issue, and warpgroup 0's last wait
// (attn.wait_turn warpgroup(0)) consumes the pending arrival after its O
// and LSE stores. Without the turns (@not_pipelined) the kernel has none of
// these barriers.
// CHECK-LABEL: llvm.func @turns(
// CHECK:         scf.if
// CHECK:           %[[OTHER:.*]] = arith.subi %c1_i32{{[_0-9]*}}, %[[WG:[0-9]+]] : i32
// CHECK:           %[[PRE:.*]] = arith.addi %[[OTHER]], %c3_i32{{[_0-9]*}} : i32
// CHECK-NEXT:      nvvm.barrier.arrive id = %[[PRE]] number_of_threads = %c256_i32
// CHECK:         scf.for
// CHECK:           %[[MINE:.*]] = arith.addi %[[WG]], %c3_i32{{[_0-9]*}} : i32
// CHECK-NEXT:      nvvm.barrier id = %[[MINE]] number_of_threads = %c256_i32
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK:           nvvm.wgmma.mma_async
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      %{{.*}} = arith.constant 1 : i32
// CHECK-NEXT:      %[[NEXT:.*]] = arith.subi %{{.*}}, %[[WG]] : i32
// CHECK:           %[[PASS:.*]] = arith.addi %[[NEXT]], %c3_i32{{[_0-9]*}} : i32
// CHECK-NEXT:      nvvm.barrier.arrive id = %[[PASS]] number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         scf.for
// CHECK:           nvvm.barrier id
// CHECK:           nvvm.barrier.arrive id
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK:         llvm.return

func.func @turns(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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

// The rotated loops' prologue (attn-pipeline-kv-loops; this input is its
// output) is lowered as the IR has it: with the tail loop's causal mask, the
// kernel's prologue (the scf.if that yields the loops' first carried values)
// compares this thread's columns and selects -inf for hidden scores.
// CHECK-LABEL: llvm.func @rotated_prologue(
// CHECK:         scf.if %{{.*}} -> (f32, f32, f32, f32, !llvm.struct
// CHECK:           %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %{{.*}}, %[[NEG_INF]] : f32
// CHECK:         scf.for

func.func @rotated_prologue(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      attn.pass_turn warpgroup(1)
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
      attn.wait_turn warpgroup(0)
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

// The same IR with the causal mask deleted from the tail loop, and so from
// the prologue, which is that loop's stage 0 at the first block: neither
// the kernel's prologue nor its loops compare columns any more.
// CHECK-LABEL: llvm.func @rotated_unmasked(
// CHECK:         scf.if %{{.*}} -> (f32, f32, f32, f32, !llvm.struct
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:         scf.for
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:         scf.for
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:         scf.if %{{.*}} -> (!llvm.struct

func.func @rotated_unmasked(%arg0: tensor<?x8x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>, %arg3: f32 {attn.scale = 1.250000e-01 : f32}) -> (tensor<?x8x?x64xbf16>, tensor<?x8x?xf32>) {
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
      attn.pass_turn warpgroup(1)
      %30 = arith.cmpi slt, %c0, %21 : index
      %c1_9 = arith.constant 1 : index
      %31 = arith.addi %c0, %c1_9 : index
      %32:6 = scf.if %30 -> (tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>) {
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %42 = attn.row_max %40 init %cst_5 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %43 = attn.rescale_factor %cst_5, %42 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
        %key, %value = attn.ring_pop : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        attn.wait_turn
        %40 = attn.qk %9, %key : tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>> -> tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        %41 = attn.scale_rows %arg12, %arg14 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %42 = attn.pv %arg13, %arg15, %41 {attn.stage = 1 : i64} : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>, tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>
        attn.pass_turn
        attn.ring_release %key : tensor<64x64xbf16, #attn.swizzled_shared<swizzle = 128>>
        %44 = attn.row_max %40 init %arg10 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> -> tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %45 = attn.rescale_factor %arg10, %44 scale_log2 %3 : tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
        %47 = attn.exp_diff %40, %44 scale_log2 %3 : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>, tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
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
      attn.wait_turn warpgroup(0)
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

// attn.launch_dependents is lowered where it stands in the tile: between
// the two kv loops, the kernel signals its dependents after the full loop
// (the tail loop starts from its results right after the signal) and
// nowhere else.
// CHECK-LABEL: llvm.func @launch_dependents_between_loops(
// CHECK-NOT:     griddepcontrol
// CHECK:         %[[FULL:.*]]:5 = scf.for
// CHECK-NOT:     griddepcontrol
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK-NOT:     scf.for
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %[[FULL]]#0,
// CHECK-NOT:     griddepcontrol
// CHECK:         llvm.return
func.func @launch_dependents_between_loops(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    attn.launch_dependents
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

// After attn.finalize, the kernel signals its dependents where the op
// stands: after the kv loop, before the forall's terminator stores O (a
// dependent waits for the whole grid before it reads O).
// CHECK-LABEL: llvm.func @launch_dependents_after_finalize(
// CHECK:         scf.for
// CHECK-NOT:     griddepcontrol
// CHECK:         llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// CHECK-NOT:     scf.for
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK-NOT:     griddepcontrol
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT:     griddepcontrol
// CHECK:         llvm.return
func.func @launch_dependents_after_finalize(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    attn.launch_dependents
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

// The consumers wait for Q where the tile IR's attn.wait_tile of it stands:
// before attn.launch_dependents, the kernel's try-wait on Q's mbarrier comes
// before the signal ...
// CHECK-LABEL: llvm.func @query_wait_then_signal(
// CHECK-NOT:     griddepcontrol
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     scf.for
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         scf.for

func.func @query_wait_then_signal(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    attn.wait_tile %4 : tensor<64x64xbf16>
    attn.launch_dependents
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

// ... and after it, after the signal.
// CHECK-LABEL: llvm.func @signal_then_query_wait(
// CHECK-NOT:     nvvm.mbarrier.try_wait.parity
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK-NOT:     scf.for
// CHECK:         nvvm.mbarrier.try_wait.parity
// CHECK-NOT:     griddepcontrol
// CHECK:         scf.for

func.func @signal_then_query_wait(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
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
    attn.launch_dependents
    attn.wait_tile %4 : tensor<64x64xbf16>
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
