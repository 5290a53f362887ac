// RUN: attnc-opt %s -split-input-file --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm | FileCheck %s
// RUN: attnc-opt %s -split-input-file --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm -cse \
// RUN:   | FileCheck %s --check-prefix=CSE

// What each tile op of a kv loop becomes in the kernel (TileOpPatterns.cpp),
// one op per case. The input is tile IR of one 64-row query block (block_m
// 64, one consumer warpgroup, no warp specialization, so the sequential
// schedule), block_n 64, D = 64, with a single kv loop over every kv block
// and no mask unless the case is about one (as if seq_k were a multiple of
// 64). Thread t holds rows r0 and r0 + 8 of the 64x64 S, P and O tiles as
// 32 values; value i sits in row r0 + 8 ((i mod 4) / 2), so a row is
// elements 0, 1, 4, 5, ... or 2, 3, 6, 7, ... The checks follow one op's
// instructions from the values it reads to the values it leaves; c is the
// exp2 multiplier (scale_log2, 0.180336878 = log2(e) / 8), computed once at
// the kernel's entry.

// attn.qk: S = Q K^T as ceil(D / 16) SS wgmmas of m64n64k16 (D = 64: four)
// after the K stage's barrier wait, the first overwriting the zero
// accumulator and each next one accumulating onto the previous one's result,
// then one commit and a full wait. The row max reads the last one's result.
// CHECK-LABEL: llvm.func @qk(
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NEXT:      nvvm.wgmma.fence.aligned
// CHECK-NEXT:      %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK:           %[[S0:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ZERO]], <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:           %[[S1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[S0]], <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK:           %[[S2:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[S1]], <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK:           %[[S3:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[S2]], <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           llvm.extractvalue %[[S3]][0] :
// CHECK:           scf.yield

func.func @qk(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The same with D = 40: ceil(40 / 16) = 3 wgmmas, the last one reading
// 8 zero-filled columns of Q and K.
// CHECK-LABEL: llvm.func @qk_head_dim_40(
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-3:   nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0

func.func @qk_head_dim_40(%arg0: tensor<?x2x?x40xbf16>, %arg1: tensor<?x2x?x40xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x40xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x40xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x40xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  %2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1) -> (tensor<?x2x?x64xbf16>) {
    %3 = arith.muli %arg5, %c64 : index
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x40xbf16> -> tensor<64x40xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x40xbf16> -> tensor<64x40xbf16>
      %s = attn.qk %q, %k : tensor<64x40xbf16>, tensor<64x40xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.mask (causal): every score of this thread compares its column, an
// immediate relative to the thread's first column, against the shifted
// seq_k and its row; a hidden score becomes -inf by an arith.select. The
// row max then reads the selects, and the exponentials' -m c guards a row
// whose max is still -inf (a fully masked row) by using 0 instead.
// CHECK-LABEL: llvm.func @mask(
// CHECK:         %[[C:.*]] = arith.constant 0.180336878 : f32
// CHECK:         scf.for {{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}},
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvvm.mbarrier.try_wait.parity
// The thread's first column (the block's plus 2 (t mod 4)) is subtracted
// from the rows and lengths, so each element compares with an immediate.
// CHECK:           %[[COL_BASE:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[ROW_IN_TILE:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT:      %[[FIRST_ROW:.*]] = arith.addi %{{.*}}, %[[ROW_IN_TILE]] : index
// CHECK-NEXT:      %[[ROW0:.*]] = arith.subi %[[FIRST_ROW]], %[[COL_BASE]] : index
// CHECK-NEXT:      %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[SECOND_ROW:.*]] = arith.addi %[[FIRST_ROW]], %[[EIGHT]] : index
// CHECK-NEXT:      %[[ROW1:.*]] = arith.subi %[[SECOND_ROW]], %[[COL_BASE]] : index
// CHECK-NEXT:      arith.subi %{{.*}}, %[[COL_BASE]] : index
// CHECK-NEXT:      %[[SEQ_K:.*]] = arith.subi %{{.*}}, %[[COL_BASE]] : index
// CHECK-NEXT:      %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CHECK-NEXT:      %[[S1:.*]] = llvm.extractvalue %[[S]][1] :
// CHECK-NEXT:      %[[S2:.*]] = llvm.extractvalue %[[S]][2] :
// CHECK:           %[[S31:.*]] = llvm.extractvalue %[[S]][31] :
// Element 0: column 0 of row r0.
// CHECK-NEXT:      %[[COL0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[IN_K0:.*]] = arith.cmpi sgt, %[[SEQ_K]], %[[COL0]] : index
// CHECK-NEXT:      %[[CAUSAL0:.*]] = arith.cmpi sge, %[[ROW0]], %[[COL0]] : index
// CHECK-NEXT:      %[[VISIBLE0:.*]] = arith.andi %[[IN_K0]], %[[CAUSAL0]] : i1
// CHECK-NEXT:      %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:      %[[MASKED0:.*]] = arith.select %[[VISIBLE0]], %[[S0]], %[[NEG_INF]] : f32
// Element 1: column 1 of row r0.
// CHECK-NEXT:      %[[COL1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      arith.cmpi sgt, %[[SEQ_K]], %[[COL1]] : index
// CHECK-NEXT:      arith.cmpi sge, %[[ROW0]], %[[COL1]] : index
// CHECK-NEXT:      arith.andi
// CHECK-NEXT:      arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %[[S1]], %{{.*}} : f32
// Element 2: column 0 of row r0 + 8.
// CHECK-NEXT:      %[[COL0_R1:.*]] = arith.constant 0 : index
// CHECK-NEXT:      arith.cmpi sgt, %[[SEQ_K]], %[[COL0_R1]] : index
// CHECK-NEXT:      arith.cmpi sge, %[[ROW1]], %[[COL0_R1]] : index
// CHECK-NEXT:      arith.andi
// CHECK-NEXT:      arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %[[S2]], %{{.*}} : f32
// Elements 3 to 31, each by its own select of -inf.
// CHECK-COUNT-29:  arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %[[S31]], %{{.*}} : f32
// The masked scores are the mask's struct, which the row max unpacks
// (element 0's partial maximum takes element 8 next).
// CHECK-NEXT:      llvm.mlir.poison
// CHECK-NEXT:      llvm.insertvalue %[[MASKED0]], %{{.*}}[0]
// CHECK-COUNT-30:  llvm.insertvalue
// CHECK-NEXT:      %[[MASKED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31]
// CHECK-NEXT:      %[[ROW_MAX_S0:.*]] = llvm.extractvalue %[[MASKED]][0]
// CHECK:           arith.maxnumf %[[ROW_MAX_S0]], %{{.*}} : f32
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.shfl.sync bfly
// CHECK-NEXT:      %[[MAX0:.*]] = arith.maxnumf
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:       %[[NEG_INF_M:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:       %[[EMPTY_ROW:.*]] = arith.cmpf oeq, %[[MAX0]], %[[NEG_INF_M]] : f32
// CHECK:           %[[MAX0_USE:.*]] = arith.select %[[EMPTY_ROW]], %[[ZERO]], %[[MAX0]] : f32
// CHECK-NEXT:      arith.mulf %[[MAX0_USE]], %[[C]] : f32
// CHECK:           scf.yield

func.func @mask(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %masked = attn.mask %s rows %3 cols %row seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %m = attn.row_max %masked init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %masked, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.softcap: s = cap * tanh(s * (scale / cap)), the tanh by MUFU.TANH
// (inline tanh.approx.f32) per score, the quotient once per block (the
// softmax scale is the softcap's here, as attn-tile emits it: c = log2(e)
// and the LSE's scale is 1). Each tanh value is multiplied by the cap
// before the row max reads it.
// CHECK-LABEL: llvm.func @softcap_per_score(
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         scf.for
// CHECK:           %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CHECK:           %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[INNER:.*]] = arith.divf %[[SCALE]], %[[CAP]] : f32
// CHECK-NEXT:      %[[X0:.*]] = arith.mulf %[[S0]], %[[INNER]] : f32
// CHECK-NEXT:      %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X0]] : (f32) -> f32
// CHECK-COUNT-31:  llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;"
// CHECK-NEXT:      %[[OUTER:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[C0:.*]] = arith.mulf %[[OUTER]], %[[T0]] : f32
// CHECK-COUNT-31:  arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      llvm.mlir.poison
// CHECK-NEXT:      llvm.insertvalue %[[C0]], %{{.*}}[0]
// CHECK:           scf.yield
func.func @softcap_per_score(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 1.44269502 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %capped = attn.softcap %s scale %scale cap = 3.000000e+01 : tensor<64x64xf32>
      %m = attn.row_max %capped init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %capped, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %one : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn-defer-softcap-cap's form: output_scale = 1 and the cap as the row
// max's and the exponentials' score_scale. No score is multiplied by the
// cap: the row max takes the max of the tanh values and multiplies it once
// per row (max(m_old, cap max t)), and the exponentials fold it into their
// multiplier, exp2(t (cap c) - m c).
// CHECK-LABEL: llvm.func @softcap(
// CHECK:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         scf.for {{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}},
// CHECK:           %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CHECK-NEXT:      %[[S1:.*]] = llvm.extractvalue %[[S]][1] :
// CHECK:           llvm.extractvalue %[[S]][31] :
// CHECK-NEXT:      %[[CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[INNER:.*]] = arith.divf %[[SCALE]], %[[CAP]] : f32
// CHECK-NEXT:      %[[X0:.*]] = arith.mulf %[[S0]], %[[INNER]] : f32
// CHECK-NEXT:      %[[T0:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X0]] : (f32) -> f32
// CHECK-NEXT:      %[[X1:.*]] = arith.mulf %[[S1]], %[[INNER]] : f32
// CHECK-NEXT:      %[[T1:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X1]] : (f32) -> f32
// CHECK-COUNT-30:  llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;"
// The softcap's struct holds the tanh values as they are.
// CHECK-NEXT:      llvm.mlir.poison
// CHECK-NEXT:      llvm.insertvalue %[[T0]], %{{.*}}[0]
// CHECK-COUNT-30:  llvm.insertvalue
// CHECK-NEXT:      %[[TANH:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31]
// CHECK-NEXT:      %[[MAX_T0:.*]] = llvm.extractvalue %[[TANH]][0]
// CHECK:           %[[SCORE_SCALE:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      arith.maxnumf %[[MAX_T0]], %{{.*}} : f32
// CHECK-NOT:       arith.mulf %{{.*}}, %[[MAX_T0]]
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.shfl.sync bfly
// CHECK-NEXT:      %[[TMAX:.*]] = arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[CAPPED:.*]] = arith.mulf %[[SCORE_SCALE]], %[[TMAX]] : f32
// CHECK-NEXT:      arith.maxnumf %[[M0]], %[[CAPPED]] : f32
// CHECK:           %[[EXP_CAP:.*]] = arith.constant 3.000000e+01 : f32
// CHECK-NEXT:      %[[CAPC:.*]] = arith.mulf %[[EXP_CAP]], %[[LOG2E]] : f32
// CHECK-NEXT:      %[[EXP_T0:.*]] = llvm.extractvalue %[[TANH]][0]
// CHECK:           llvm.intr.fma(%[[EXP_T0]], %[[CAPC]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK:           scf.yield

func.func @softcap(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 1.44269502 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %one = arith.constant 1.000000e+00 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %capped = attn.softcap %s scale %scale cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<64x64xf32>
      %m = attn.row_max %capped init %m_prev score_scale = 3.000000e+01 : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %capped, %m scale_log2 %scale_log2 score_scale = 3.000000e+01 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %one : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.row_max with the running max as init: per row of the thread's pair
// (r0: elements 0, 1, 4, 5, ..., r0 + 8: elements 2, 3, 6, 7, ...) the
// row's 16 scores in four partial maxima (its k-th score in partial k mod
// 4: four independent chains of arith.maxnumf), combined pairwise, then
// with the old max; then the quad's reduction, two butterfly shuffles
// (offsets 1 and 2) each followed by a max. The results are the loop's new m.
// CHECK-LABEL: llvm.func @row_max(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CHECK-NEXT:      %[[S1:.*]] = llvm.extractvalue %[[S]][1] :
// CHECK-NEXT:      %[[S2:.*]] = llvm.extractvalue %[[S]][2] :
// CHECK-NEXT:      %[[S3:.*]] = llvm.extractvalue %[[S]][3] :
// CHECK-NEXT:      %[[S4:.*]] = llvm.extractvalue %[[S]][4] :
// CHECK-NEXT:      %[[S5:.*]] = llvm.extractvalue %[[S]][5] :
// CHECK:           %[[S8:.*]] = llvm.extractvalue %[[S]][8] :
// CHECK-NEXT:      %[[S9:.*]] = llvm.extractvalue %[[S]][9] :
// CHECK-NEXT:      %[[S10:.*]] = llvm.extractvalue %[[S]][10] :
// CHECK:           %[[S12:.*]] = llvm.extractvalue %[[S]][12] :
// CHECK-NEXT:      %[[S13:.*]] = llvm.extractvalue %[[S]][13] :
// CHECK:           %[[S16:.*]] = llvm.extractvalue %[[S]][16] :
// CHECK:           %[[S29:.*]] = llvm.extractvalue %[[S]][29] :
// CHECK-NEXT:      llvm.extractvalue %[[S]][30] :
// CHECK-NEXT:      %[[S31:.*]] = llvm.extractvalue %[[S]][31] :
// Row r0's partials: {0, 8, 16, 24}, {1, 9, 17, 25}, {4, 12, 20, 28},
// {5, 13, 21, 29}.
// CHECK-NEXT:      %[[P0:.*]] = arith.maxnumf %[[S0]], %[[S8]] : f32
// CHECK-NEXT:      arith.maxnumf %[[S1]], %[[S9]] : f32
// CHECK-NEXT:      arith.maxnumf %[[S4]], %[[S12]] : f32
// CHECK-NEXT:      arith.maxnumf %[[S5]], %[[S13]] : f32
// CHECK-NEXT:      arith.maxnumf %[[P0]], %[[S16]] : f32
// CHECK-COUNT-6:   arith.maxnumf
// CHECK-NEXT:      %[[P3:.*]] = arith.maxnumf %{{.*}}, %[[S29]] : f32
// CHECK-NEXT:      %[[P01:.*]] = arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[P23:.*]] = arith.maxnumf %{{.*}}, %[[P3]] : f32
// CHECK-NEXT:      %[[P0123:.*]] = arith.maxnumf %[[P01]], %[[P23]] : f32
// CHECK-NEXT:      %[[ROW0:.*]] = arith.maxnumf %[[P0123]], %[[M0]] : f32
// CHECK-DAG:       %[[CLAMP:.*]] = arith.constant 31 : i32
// CHECK-DAG:       %[[OFFSET1:.*]] = arith.constant 1 : i32
// CHECK-DAG:       %[[ALL:.*]] = arith.constant -1 : i32
// CHECK:           %[[X1:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[ROW0]], %[[OFFSET1]], %[[CLAMP]] : f32 -> f32
// CHECK-NEXT:      %[[Y1:.*]] = arith.maxnumf %[[ROW0]], %[[X1]] : f32
// CHECK-DAG:       %[[OFFSET2:.*]] = arith.constant 2 : i32
// CHECK:           %[[X2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Y1]], %[[OFFSET2]], %{{.*}} : f32 -> f32
// CHECK-NEXT:      %[[NEW_M0:.*]] = arith.maxnumf %[[Y1]], %[[X2]] : f32
// Row r0 + 8: {2, 10, 18, 26}, ..., {7, 15, 23, 31}.
// CHECK-NEXT:      arith.maxnumf %[[S2]], %[[S10]] : f32
// CHECK-COUNT-10:  arith.maxnumf
// CHECK-NEXT:      arith.maxnumf %{{.*}}, %[[S31]] : f32
// CHECK-COUNT-3:   arith.maxnumf
// CHECK-NEXT:      %[[ROW1:.*]] = arith.maxnumf %{{.*}}, %[[M1]] : f32
// CHECK-COUNT-2:   nvvm.shfl.sync bfly
// CHECK-NEXT:      %[[NEW_M1:.*]] = arith.maxnumf
// CHECK:           scf.yield %[[NEW_M0]], %[[NEW_M1]],

func.func @row_max(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.rescale_factor: per row a = exp2(m_old c - m c), the exponent one fma
// of the old max with c = scale_log2 and -m c (the exponentials reuse
// -m c), and a = 1 exactly where the max did not move (cmpf oeq and a
// select of 1.0). The running sum's fma and O's multiplies read a.
// CHECK-LABEL: llvm.func @rescale_factor(
// CHECK:         %[[C:.*]] = arith.constant 0.180336878 : f32
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.shfl.sync bfly
// CHECK-NEXT:      %[[NEW0:.*]] = arith.maxnumf
// CHECK:           nvvm.shfl.sync bfly
// CHECK:           nvvm.shfl.sync bfly
// CHECK-NEXT:      %[[NEW1:.*]] = arith.maxnumf
// CHECK-NEXT:      %[[MC0:.*]] = arith.mulf %[[NEW0]], %[[C]] : f32
// CHECK-NEXT:      %[[NEG0:.*]] = arith.negf %[[MC0]] : f32
// CHECK-NEXT:      %[[MC1:.*]] = arith.mulf %[[NEW1]], %[[C]] : f32
// CHECK-NEXT:      %[[NEG1:.*]] = arith.negf %[[MC1]] : f32
// CHECK-NEXT:      %[[SAME0:.*]] = arith.cmpf oeq, %[[M0]], %[[NEW0]] : f32
// CHECK-DAG:       %[[ARG0:.*]] = llvm.intr.fma(%[[M0]], %[[C]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-DAG:       %[[EXP0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[ARG0]]) : (f32) -> f32
// CHECK-DAG:       %[[ONE0:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[ALPHA0:.*]] = arith.select %[[SAME0]], %[[ONE0]], %[[EXP0]] : f32
// CHECK:           %[[SAME1:.*]] = arith.cmpf oeq, %[[M1]], %[[NEW1]] : f32
// CHECK-DAG:       %[[ARG1:.*]] = llvm.intr.fma(%[[M1]], %[[C]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-DAG:       %[[EXP1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[ARG1]]) : (f32) -> f32
// CHECK-DAG:       %[[ONE1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[ALPHA1:.*]] = arith.select %[[SAME1]], %[[ONE1]], %[[EXP1]] : f32
// CHECK:           llvm.intr.fma(%[[L0]], %[[ALPHA0]], %{{.*}})
// CHECK-NEXT:      llvm.intr.fma(%[[L1]], %[[ALPHA1]], %{{.*}})
// CHECK-NEXT:      %[[O0:.*]] = llvm.extractvalue %[[ACC]][0] :
// CHECK-NEXT:      llvm.extractvalue %[[ACC]][1] :
// CHECK-NEXT:      %[[O2:.*]] = llvm.extractvalue %[[ACC]][2] :
// CHECK:           arith.mulf %[[O0]], %[[ALPHA0]] : f32
// CHECK-NEXT:      arith.mulf %{{.*}}, %[[ALPHA0]] : f32
// CHECK-NEXT:      arith.mulf %[[O2]], %[[ALPHA1]] : f32
// CHECK:           scf.yield

func.func @rescale_factor(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.exp_diff: p = exp2(s c - m c) as one fma and one ex2.approx per score,
// with -m c of the score's row (once per row), 32 of each for the thread's
// 64x64 tile. The rescale factor computes the same -m c before it: after
// CSE (as the GPU pipeline runs it) the exponentials take the factor's.
// CSE-LABEL: llvm.func @exp_diff(
// CSE:         %[[C:.*]] = arith.constant 0.180336878 : f32
// CSE:         scf.for
// CSE:           %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CSE:           %[[MC0:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// CSE-NEXT:      %[[NEG0:.*]] = arith.negf %[[MC0]] : f32
// CSE:           llvm.intr.fma(%{{arg[0-9]+}}, %[[C]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CSE-NOT:       arith.negf
// CSE:           llvm.intr.fma(%[[S0]], %[[C]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-LABEL: llvm.func @exp_diff(
// CHECK:         %[[C:.*]] = arith.constant 0.180336878 : f32
// CHECK:         scf.for
// The rescale factor ends with its two rows' selects.
// CHECK-COUNT-2:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[MC0:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// CHECK-NEXT:      %[[NEG0:.*]] = arith.negf %[[MC0]] : f32
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      %[[NEG1:.*]] = arith.negf
// CHECK-NEXT:      %[[S0:.*]] = llvm.extractvalue %[[S:[0-9]+]][0] :
// CHECK-NEXT:      %[[S1:.*]] = llvm.extractvalue %[[S]][1] :
// CHECK-NEXT:      %[[S2:.*]] = llvm.extractvalue %[[S]][2] :
// CHECK-COUNT-29:  llvm.extractvalue %[[S]]
// CHECK-NEXT:      %[[X0:.*]] = llvm.intr.fma(%[[S0]], %[[C]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X0]]) : (f32) -> f32
// CHECK-NEXT:      %[[X1:.*]] = llvm.intr.fma(%[[S1]], %[[C]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X1]]) : (f32) -> f32
// CHECK-NEXT:      %[[X2:.*]] = llvm.intr.fma(%[[S2]], %[[C]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X2]]) : (f32) -> f32
// CHECK-COUNT-29:  llvm.intr.fma(%{{.*}}, %[[C]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.mlir.poison
// CHECK:           scf.yield

func.func @exp_diff(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.row_sum with the running sum as init and the step's factor as
// init_scale: l = l a + rowsum P, as an arith.addf chain per row from 0 over
// the thread's 16 probabilities of the row and one fma per row; l is never
// multiplied on its own. The sums stay the thread's
// partial ones (attn.finalize reduces them over the quad).
// CHECK-LABEL: llvm.func @row_sum(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK:           %[[ALPHA0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[ALPHA1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.intr.fma
// CHECK-NEXT:      %[[P1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.intr.fma
// CHECK-NEXT:      %[[P2:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.intr.fma
// CHECK-NEXT:      %[[P3:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// The exponentials' struct, which the row sum unpacks.
// CHECK:           llvm.insertvalue %[[P0]], %{{.*}}[0]
// CHECK-NEXT:      llvm.insertvalue %[[P1]], %{{.*}}[1]
// CHECK-NEXT:      llvm.insertvalue %[[P2]], %{{.*}}[2]
// CHECK-NEXT:      llvm.insertvalue %[[P3]], %{{.*}}[3]
// CHECK:           %[[PS:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31]
// CHECK-NEXT:      %[[SUM_P0:.*]] = llvm.extractvalue %[[PS]][0]
// CHECK-NEXT:      %[[SUM_P1:.*]] = llvm.extractvalue %[[PS]][1]
// CHECK-NEXT:      %[[SUM_P2:.*]] = llvm.extractvalue %[[PS]][2]
// CHECK-NEXT:      %[[SUM_P3:.*]] = llvm.extractvalue %[[PS]][3]
// CHECK:           %[[ZERO0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[ZERO1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[R0:.*]] = arith.addf %[[ZERO0]], %[[SUM_P0]] : f32
// CHECK-NEXT:      arith.addf %[[R0]], %[[SUM_P1]] : f32
// CHECK-NEXT:      %[[R1:.*]] = arith.addf %[[ZERO1]], %[[SUM_P2]] : f32
// CHECK-NEXT:      arith.addf %[[R1]], %[[SUM_P3]] : f32
// CHECK-COUNT-25:  arith.addf
// CHECK-NEXT:      %[[SUM0:.*]] = arith.addf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      %[[SUM1:.*]] = arith.addf
// CHECK-NEXT:      %[[NEW_L0:.*]] = llvm.intr.fma(%[[L0]], %[[ALPHA0]], %[[SUM0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT:      %[[NEW_L1:.*]] = llvm.intr.fma(%[[L1]], %[[ALPHA1]], %[[SUM1]]) : (f32, f32, f32) -> f32
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %[[NEW_L0]], %[[NEW_L1]],

func.func @row_sum(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.scale_rows of the accumulator: O *= a as one arith.mulf per element
// of this thread's 64x64 fragment (32), element i by the factor of its row
// ((i mod 4) / 2), on the loop-carried O; P V accumulates onto the result.
// CHECK-LABEL: llvm.func @scale_rows(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK:           %[[ALPHA0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[ALPHA1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[O0:.*]] = llvm.extractvalue %[[ACC]][0] :
// CHECK-NEXT:      %[[O1:.*]] = llvm.extractvalue %[[ACC]][1] :
// CHECK-NEXT:      %[[O2:.*]] = llvm.extractvalue %[[ACC]][2] :
// CHECK-NEXT:      %[[O3:.*]] = llvm.extractvalue %[[ACC]][3] :
// CHECK-NEXT:      %[[O4:.*]] = llvm.extractvalue %[[ACC]][4] :
// CHECK-COUNT-27:  llvm.extractvalue %[[ACC]]
// CHECK-NEXT:      arith.mulf %[[O0]], %[[ALPHA0]] : f32
// CHECK-NEXT:      arith.mulf %[[O1]], %[[ALPHA0]] : f32
// CHECK-NEXT:      arith.mulf %[[O2]], %[[ALPHA1]] : f32
// CHECK-NEXT:      arith.mulf %[[O3]], %[[ALPHA1]] : f32
// CHECK-NEXT:      arith.mulf %[[O4]], %[[ALPHA0]] : f32
// CHECK-COUNT-27:  arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      llvm.mlir.poison : !llvm.struct<(f32,
// CHECK-COUNT-31:  llvm.insertvalue
// CHECK-NEXT:      %[[SCALED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] :
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           %[[SCALED0:.*]] = llvm.extractvalue %[[SCALED]][0] :
// CHECK:           llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16{{.*}}" %[[SCALED0]],
// CHECK:           scf.yield

func.func @scale_rows(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.pv with P in registers: P's 32 f32 values narrowed pairwise to
// bf16 (16 llvm.fptrunc of a <2 x f32>, each pair one i32 A register),
// then block_n / 16 = 4 RS wgmmas of m64n64k16 as inline PTX, each taking
// four of the pairs and accumulating onto the previous one's result, then
// one commit and a full wait. The last result is the loop's new O.
// CHECK-LABEL: llvm.func @pv(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK-COUNT-2:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-2:   arith.negf
// CHECK:           llvm.intr.fma
// CHECK-NEXT:      %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.intr.fma
// CHECK-NEXT:      %[[P1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:           llvm.insertvalue %[[P0]], %{{.*}}[0]
// CHECK-NEXT:      llvm.insertvalue %[[P1]], %{{.*}}[1]
// CHECK:           %[[P:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] :
// CHECK:           %[[SCALED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] :
// CHECK-NEXT:      %[[PV_P0:.*]] = llvm.extractvalue %[[P]][0] :
// CHECK-NEXT:      %[[PV_P1:.*]] = llvm.extractvalue %[[P]][1] :
// CHECK:           %[[POISON:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT:      %[[I0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[LO:.*]] = llvm.insertelement %[[PV_P0]], %[[POISON]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT:      %[[I1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[PAIR:.*]] = llvm.insertelement %[[PV_P1]], %[[LO]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT:      %[[NARROW:.*]] = llvm.fptrunc %[[PAIR]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT:      %[[A0:.*]] = llvm.bitcast %[[NARROW]] : vector<2xbf16> to i32
// CHECK:           %[[A1:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK:           %[[A2:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK:           %[[A3:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK-COUNT-12:  llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT:      llvm.bitcast
// CHECK-NEXT:      nvvm.wgmma.fence.aligned
// CHECK:           %[[ACC0:.*]] = llvm.extractvalue %[[SCALED]][0] :
// CHECK:           %[[O1:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}" %[[ACC0]], {{.*}}, %[[A0]], %[[A1]], %[[A2]], %[[A3]], %{{[^,]+}}, %{{[^ ]+}} : (
// CHECK:           llvm.extractvalue %[[O1]][0] :
// CHECK-COUNT-2:   llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK:           %[[O4:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[O4]] :

func.func @pv(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.truncate: P rounded where the op stands, after the row sum and
// before O's rescale (in @pv the P V rounds it after the rescale); the P V
// takes the rounded pairs as its A registers with no conversion of its own.
// CHECK-LABEL: llvm.func @truncate_pv(
// CHECK:         scf.for
// CHECK-COUNT-2:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-2:   arith.negf
// CHECK:           llvm.intr.fma
// CHECK-NEXT:      %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NEXT:      llvm.intr.fma
// CHECK-NEXT:      %[[P1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:           %[[P:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] :
// CHECK:           arith.addf
// CHECK:           llvm.intr.fma
// CHECK:           %[[ROUND_P1:.*]] = llvm.extractvalue %[[P]][1] :
// CHECK:           %[[PAIR:.*]] = llvm.insertelement %[[ROUND_P1]], %{{.*}} : vector<2xf32>
// CHECK-NEXT:      %[[NARROW:.*]] = llvm.fptrunc %[[PAIR]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT:      %[[A0:.*]] = llvm.bitcast %[[NARROW]] : vector<2xbf16> to i32
// CHECK-COUNT-15:  llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK:           llvm.insertvalue %[[A0]], %{{.*}}[0] : !llvm.struct<(i32,
// CHECK:           %[[ROUNDED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[15] : !llvm.struct<(i32,
// CHECK:           %[[SCALED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] :
// CHECK-NOT:       llvm.fptrunc
// CHECK:           %[[PV_A0:.*]] = llvm.extractvalue %[[ROUNDED]][0] :
// CHECK-NOT:       llvm.fptrunc
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           llvm.inline_asm has_side_effects asm_dialect = att "{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}" %{{.*}}, %[[PV_A0]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^ ]+}} : (
// CHECK-NOT:       llvm.fptrunc
// CHECK:           scf.yield

func.func @truncate_pv(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %pt = attn.truncate %p : tensor<64x64xf32> to tensor<64x64xbf16>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %pt, %v, %o_scaled : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// attn.finalize with the LSE written: after the loop, each row's partial
// sums l reduced over the quad (two butterfly shuffles and adds), 1 / l by
// arith.divf (0 for an empty row, l = 0), O * (1 / l) narrowed to bf16 pairs
// and LSE = m scale + ln l (-inf for an empty row). Then the forall's
// stores: O's pairs into shared memory and one TMA store of the O tile by
// the warpgroup's first thread; the LSE directly by the quad's first
// thread, for rows below seq_q.
// CHECK-LABEL: llvm.func @finalize(
// CHECK-SAME:    %[[O_MAP:[^:]*]]: !llvm.ptr {{[^}]*}}}, %[[LSE:[^:]*]]: !llvm.ptr<1>, %[[SEQ_Q:[^:]*]]: i32,
// CHECK:         %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[RES:[0-9]+]]:5 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK:         %[[X0:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[RES]]#2, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[Y0:.*]] = arith.addf %[[RES]]#2, %[[X0]] : f32
// CHECK:         %[[Z0:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Y0]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[L0:.*]] = arith.addf %[[Y0]], %[[Z0]] : f32
// CHECK:         %[[X1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[RES]]#3, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[Y1:.*]] = arith.addf %[[RES]]#3, %[[X1]] : f32
// CHECK:         %[[Z1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[Y1]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[L1:.*]] = arith.addf %[[Y1]], %[[Z1]] : f32
// CHECK-NEXT:    %[[ZERO0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[EMPTY0:.*]] = arith.cmpf oeq, %[[L0]], %[[ZERO0]] : f32
// CHECK-DAG:     %[[ONE0:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[RCP0:.*]] = arith.divf %[[ONE0]], %[[L0]] : f32
// CHECK-DAG:     %[[NONE0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INV0:.*]] = arith.select %[[EMPTY0]], %[[NONE0]], %[[RCP0]] : f32
// CHECK-NEXT:    %[[ZERO1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[EMPTY1:.*]] = arith.cmpf oeq, %[[L1]], %[[ZERO1]] : f32
// CHECK-DAG:     %[[ONE1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[RCP1:.*]] = arith.divf %[[ONE1]], %[[L1]] : f32
// CHECK-DAG:     %[[NONE1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INV1:.*]] = arith.select %[[EMPTY1]], %[[NONE1]], %[[RCP1]] : f32
// CHECK-NEXT:    %[[O0:.*]] = llvm.extractvalue %[[RES]]#4[0] :
// CHECK-NEXT:    %[[O1:.*]] = llvm.extractvalue %[[RES]]#4[1] :
// CHECK-NEXT:    %[[O2:.*]] = llvm.extractvalue %[[RES]]#4[2] :
// CHECK-NEXT:    %[[O3:.*]] = llvm.extractvalue %[[RES]]#4[3] :
// Registers 4j and 4j + 1 are row r0's, 4j + 2 and 4j + 3 row r0 + 8's.
// CHECK:         %[[N0:.*]] = arith.mulf %[[O0]], %[[INV0]] : f32
// CHECK-NEXT:    %[[N1:.*]] = arith.mulf %[[O1]], %[[INV0]] : f32
// CHECK-NEXT:    arith.mulf %[[O2]], %[[INV1]] : f32
// CHECK-NEXT:    arith.mulf %[[O3]], %[[INV1]] : f32
// CHECK-COUNT-28: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[POISON:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK-NEXT:    %[[I0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[LO:.*]] = llvm.insertelement %[[N0]], %[[POISON]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT:    %[[I1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[PAIR:.*]] = llvm.insertelement %[[N1]], %[[LO]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT:    %[[NARROW:.*]] = llvm.fptrunc %[[PAIR]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT:    %[[PAIR0:.*]] = llvm.bitcast %[[NARROW]] : vector<2xbf16> to i32
// CHECK-COUNT-15: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NOT:     llvm.fptrunc
// Row r0's LSE, then row r0 + 8's.
// CHECK-DAG:     %[[LN2_0:.*]] = arith.constant 0.693147182 : f32
// CHECK-DAG:     %[[LG0:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[L0]]) : (f32) -> f32
// CHECK-DAG:     %[[LN0:.*]] = arith.mulf %[[LG0]], %[[LN2_0]] : f32
// CHECK-DAG:     %[[MS0:.*]] = arith.mulf %[[RES]]#0, %[[SCALE]] : f32
// CHECK:         %[[V0:.*]] = arith.addf %[[MS0]], %[[LN0]] : f32
// CHECK-NEXT:    %[[NEG_INF0:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[LSE0:.*]] = arith.select %[[EMPTY0]], %[[NEG_INF0]], %[[V0]] : f32
// CHECK-DAG:     %[[LN2_1:.*]] = arith.constant 0.693147182 : f32
// CHECK-DAG:     %[[LG1:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%[[L1]]) : (f32) -> f32
// CHECK-DAG:     %[[LN1:.*]] = arith.mulf %[[LG1]], %[[LN2_1]] : f32
// CHECK-DAG:     %[[MS1:.*]] = arith.mulf %[[RES]]#1, %[[SCALE]] : f32
// CHECK:         %[[V1:.*]] = arith.addf %[[MS1]], %[[LN1]] : f32
// CHECK-NEXT:    %[[NEG_INF1:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[LSE1:.*]] = arith.select %[[EMPTY1]], %[[NEG_INF1]], %[[V1]] : f32
// O's registers: the pairs (the first pair in register 0).
// CHECK:         llvm.insertvalue %[[PAIR0]], %{{.*}}[0] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// The store of O: its pairs into the output buffer, then TMA.
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:         scf.if
// CHECK:           nvvm.cp.async.bulk.tensor.global.shared.cta %[[O_MAP]], %{{.*}}, box[
// CHECK-NEXT:      nvvm.cp.async.bulk.commit.group
// CHECK-NEXT:      nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:    }
// The store of the LSE.
// CHECK:         %[[ROW0_IN:.*]] = arith.cmpi slt, %{{.*}}, %[[SEQ_Q]] : i32
// CHECK-NEXT:    %[[STORE0:.*]] = arith.andi %{{.*}}, %[[ROW0_IN]] : i1
// CHECK-NEXT:    scf.if %[[STORE0]] {
// CHECK:           %[[PTR0:.*]] = llvm.getelementptr %[[LSE]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      llvm.store %[[LSE0]], %[[PTR0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK:         %[[ROW1_IN:.*]] = arith.cmpi slt, %{{.*}}, %[[SEQ_Q]] : i32
// CHECK-NEXT:    %[[STORE1:.*]] = arith.andi %{{.*}}, %[[ROW1_IN]] : i1
// CHECK-NEXT:    scf.if %[[STORE1]] {
// CHECK:           %[[PTR1:.*]] = llvm.getelementptr %[[LSE]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      llvm.store %[[LSE1]], %[[PTR1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return

func.func @finalize(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>) {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x2x?x64xbf16>
  %dim_2 = tensor.dim %arg0, %c2 : tensor<?x2x?x64xbf16>
  %dim_3 = tensor.dim %arg1, %c2 : tensor<?x2x?x64xbf16>
  %0 = arith.ceildivsi %dim_2, %c64 : index
  %1 = tensor.empty(%dim, %dim_2) : tensor<?x2x?x64xbf16>
  %lse_init = tensor.empty(%dim, %dim_2) : tensor<?x2x?xf32>
  %2:2 = scf.forall (%arg3, %arg4, %arg5) in (%dim, 2, %0) shared_outs(%arg6 = %1, %arg7 = %lse_init) -> (tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>) {
    %3 = arith.muli %arg5, %c64 : index
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    %lse_slice = tensor.extract_slice %lse[0] [%7] [1] : tensor<64xf32> to tensor<?xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
      tensor.parallel_insert_slice %lse_slice into %arg7[%arg3, %arg4, %3] [1, 1, %7] [1, 1, 1] : tensor<?xf32> into tensor<?x2x?xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2#0, %2#1 : tensor<?x2x?x64xbf16>, tensor<?x2x?xf32>
}

// -----

// An attn op whose result nothing reads is not in the kernel: this
// attn.mask is dead (the row max and the exponentials read the raw scores),
// so the loop holds no -inf: neither the mask's selects nor the guard of a
// masked row's max (compare the attn.mask case above).
// CHECK-LABEL: llvm.func @dead_mask(
// CHECK:         scf.for
// CHECK-NOT:       arith.constant 0xFF800000 : f32
// CHECK:           scf.yield

func.func @dead_mask(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %unused = attn.mask %s rows %3 cols %row seq_q %dim_2 seq_k %dim_3 kind = causal : tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The sequential schedule (no warp specialization) runs the ops in the
// IR's order. Here attn.row_sum comes before O's attn.scale_rows and
// attn.pv (attn-fuse-online-softmax's order): the row sum's addf chain and
// fma are emitted before the RS wgmmas, which end the step with the full
// wait.
// CHECK-LABEL: llvm.func @row_sum_before_pv(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK-NOT:       wgmma.mma_async.sync.aligned
// CHECK-COUNT-32:  arith.addf
// CHECK-NEXT:      llvm.intr.fma(%[[L0]], %{{.*}}, %{{.*}})
// CHECK-NEXT:      llvm.intr.fma(%[[L1]], %{{.*}}, %{{.*}})
// CHECK-COUNT-4:   llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           scf.yield

func.func @row_sum_before_pv(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}

// -----

// The same ops with attn.row_sum moved after attn.pv: the addf chain and
// fma now follow the RS wgmmas' commit and run while P V is in flight,
// before the step's full wait.
// CHECK-LABEL: llvm.func @row_sum_after_pv(
// CHECK:         scf.for %{{.*}} iter_args(%[[M0:[^ ]+]] = %{{[^,]+}}, %[[M1:[^ ]+]] = %{{[^,]+}}, %[[L0:[^ ]+]] = %{{[^,]+}}, %[[L1:[^ ]+]] = %{{[^,]+}}, %[[ACC:[^ ]+]] = %{{[^)]+}})
// CHECK-NOT:       arith.addf
// CHECK-COUNT-4:   llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-COUNT-32:  llvm.extractvalue
// CHECK-NEXT:      arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      arith.constant 0.000000e+00 : f32
// CHECK-COUNT-32:  arith.addf
// CHECK-NEXT:      llvm.intr.fma(%[[L0]], %{{.*}}, %{{.*}})
// CHECK-NEXT:      llvm.intr.fma(%[[L1]], %{{.*}}, %{{.*}})
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           scf.yield

func.func @row_sum_after_pv(%arg0: tensor<?x2x?x64xbf16>, %arg1: tensor<?x2x?x64xbf16>, %arg2: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %scale_log2 = arith.constant 0.180336878 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %cst_1 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %c1 = arith.constant 1 : index
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
    %q = attn.load_tile %arg0[%arg3, %arg4, %3] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
    %4 = arith.ceildivsi %dim_3, %c64 : index
    %5:3 = scf.for %kb = %c0 to %4 step %c1 iter_args(%m_prev = %cst_1, %l_prev = %cst_0, %acc = %cst) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %k = attn.load_tile %arg1[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %q, %k : tensor<64x64xbf16>, tensor<64x64xbf16> -> tensor<64x64xf32>
      %m = attn.row_max %s init %m_prev : tensor<64x64xf32> -> tensor<64xf32>
      %alpha = attn.rescale_factor %m_prev, %m scale_log2 %scale_log2 : tensor<64xf32>
      %p = attn.exp_diff %s, %m scale_log2 %scale_log2 : tensor<64x64xf32>, tensor<64xf32>
      %v = attn.load_tile %arg2[%arg3, %arg4, %row] : tensor<?x2x?x64xbf16> -> tensor<64x64xbf16>
      %o_scaled = attn.scale_rows %acc, %alpha : tensor<64x64xf32>, tensor<64xf32>
      %o = attn.pv %p, %v, %o_scaled : tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
      %l = attn.row_sum %p init %l_prev scaled %alpha : tensor<64x64xf32> -> tensor<64xf32>
      scf.yield %m, %l, %o : tensor<64xf32>, tensor<64xf32>, tensor<64x64xf32>
    }
    %output, %lse = attn.finalize %5#2, %5#1, %5#0 scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    %6 = arith.subi %dim_2, %3 : index
    %7 = arith.minsi %6, %c64 : index
    %extracted_slice = tensor.extract_slice %output[0, 0] [%7, 64] [1, 1] : tensor<64x64xbf16> to tensor<?x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extracted_slice into %arg6[%arg3, %arg4, %3, 0] [1, 1, %7, 64] [1, 1, 1, 1] : tensor<?x64xbf16> into tensor<?x2x?x64xbf16>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
  return %2 : tensor<?x2x?x64xbf16>
}
