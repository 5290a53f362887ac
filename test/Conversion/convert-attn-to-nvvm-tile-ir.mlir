// RUN: attnc-opt %s -split-input-file --attn-allocate-shared-memory --convert-attn-to-nvvm | FileCheck %s

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
      %32 = attn.scale_rows %arg9, %31 : tensor<64xf32>, tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %32 : tensor<64x64xf32> -> tensor<64xf32>
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
      %30 = attn.row_max %28 init %arg8 : tensor<64x64xf32> -> tensor<64xf32>
      %31 = attn.rescale_factor %arg8, %30 scale_log2 %scale_cst0 : tensor<64xf32>
      %32 = attn.scale_rows %arg9, %31 : tensor<64xf32>, tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %28, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %32 : tensor<64x64xf32> -> tensor<64xf32>
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
// block applies cap * tanh(s * scale / cap) before its row max.
// CHECK-LABEL: llvm.func @softcapped(
// CHECK:         scf.for
// The scale operand's constant, cloned into the kernel: scale / cap.
// CHECK:           %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-NEXT:      %[[DIVISOR:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[INNER:.*]] = arith.divf %[[SCALE]], %[[DIVISOR]] : f32
// CHECK-NEXT:      %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[INNER]] : f32
// CHECK-NEXT:      %[[TANH:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[SCALED]] : (f32) -> f32
// CHECK-NEXT:      arith.mulf %[[CAP]], %[[TANH]] : f32
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
      %31 = attn.scale_rows %arg9, %30 : tensor<64xf32>, tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %31 : tensor<64x64xf32> -> tensor<64xf32>
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
      %32 = attn.scale_rows %arg9, %31 : tensor<64xf32>, tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %32 : tensor<64x64xf32> -> tensor<64xf32>
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
      %32 = attn.scale_rows %arg9, %31 : tensor<64xf32>, tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst0 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %32 : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %30, %37, %36 : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    } {attn.kv_range = "tail"}
    %output, %lse = attn.finalize %23#2, %23#1, %23#0 scale %scale_cst1 mask = causal : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %24 = arith.subi %dim_2, %3 : index
    %25 = arith.minsi %24, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%25, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %25, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224>, mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
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
      %31 = attn.scale_rows %arg9, %30 : tensor<64xf32>, tensor<64xf32>
      %32 = attn.scale_rows %arg10, %30 : tensor<64x64xf32>, tensor<64xf32>
      %33 = attn.exp_diff %28, %29 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %35 = attn.pv %33, %34, %32 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %36 = attn.row_sum %33 init %31 : tensor<64x64xf32> -> tensor<64xf32>
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
      %32 = attn.scale_rows %arg9, %31 : tensor<64xf32>, tensor<64xf32>
      %33 = attn.scale_rows %arg10, %31 : tensor<64x64xf32>, tensor<64xf32>
      %34 = attn.exp_diff %29, %30 scale_log2 %scale_cst1 : tensor<64x64xf32>, tensor<64xf32>
      %35 = attn.load_tile %arg2[%arg3, %arg4, %26] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %36 = attn.pv %34, %35, %33 : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %37 = attn.row_sum %34 init %32 : tensor<64x64xf32> -> tensor<64xf32>
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
