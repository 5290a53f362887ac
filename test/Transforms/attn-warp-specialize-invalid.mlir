// RUN: attnc-opt %s -split-input-file --attn-tiling-pipeline="block-m=32 block-n=32" \
// RUN:   --attn-warp-specialize -verify-diagnostics -o /dev/null

// What the partition cannot express is a diagnostic on the op.

// One consumer warpgroup computes 64 query rows: a 32-row tile has none.
func.func @block_m(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>,
                   %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  // expected-error @+1 {{attn-warp-specialize: block_m must be 64, 128 or 192 (one consumer warpgroup per 64 query rows), got 32}}
  %o = attn.attention %q, %k, %v
      : tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>, tensor<1x4x128x64xbf16>
      -> tensor<1x4x128x64xbf16>
  return %o : tensor<1x4x128x64xbf16>
}

// -----

// A score tile whose block has no P V: not the fused online-softmax loop.
func.func @no_pv(%q: tensor<1x4x128x64xbf16>, %l: tensor<128xf32>) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %kt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    // expected-error @+1 {{'attn.qk' op attn-warp-specialize: these scores reach no attn.pv: the kv loops are not one online-softmax step (run attn-fuse-online-softmax first)}}
    %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %o, %lse = attn.finalize %s, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// V must be loaded as K is: the producer pushes both.
func.func @value_not_loaded(%q: tensor<1x4x128x64xbf16>, %vt: tensor<64x64xbf16>,
                            %l: tensor<128xf32>, %acc: tensor<128x64xf32>) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %kt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    // expected-error @+1 {{'attn.qk' op attn-warp-specialize: expected the attn.pv of this block, with V loaded as K is, next to it}}
    %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %p = attn.exp_diff %s, %l scale_log2 %scale_cst0 : tensor<128x64xf32>, tensor<128xf32>
    %a = attn.pv %p, %vt, %acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
    %o, %lse = attn.finalize %a, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// K must be a loaded tile: the producer re-issues its load.
func.func @key_not_loaded(%q: tensor<1x4x128x64xbf16>, %kt: tensor<64x64xbf16>,
                          %l: tensor<128xf32>) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    // expected-error @+1 {{'attn.qk' op attn-warp-specialize: Q and K must come from attn.load_tile}}
    %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %o, %lse = attn.finalize %s, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// One P feeding two P V products: the blocks cannot be paired one to one.
func.func @two_pv(%q: tensor<1x4x128x64xbf16>, %l: tensor<128xf32>,
                  %acc: tensor<128x64xf32>) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %kt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %vt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    %a1 = attn.pv %s, %vt, %acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
    // expected-error @+1 {{'attn.pv' op attn-warp-specialize: expected P to come from the scores of one attn.qk, used by one attn.pv}}
    %a2 = attn.pv %s, %vt, %a1 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
    %o, %lse = attn.finalize %a2, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// Two blocks reading the same V tile: each load becomes one pop, so a shared
// one cannot.
func.func @shared_loads(%q: tensor<1x4x128x64xbf16>, %l: tensor<128xf32>,
                        %acc: tensor<128x64xf32>) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %kt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    %kt2 = attn.load_tile %q[%h, %b, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    %vt = attn.load_tile %q[%h, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
    %s1 = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %a1 = attn.pv %s1, %vt, %acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
    // expected-error @+1 {{'attn.qk' op attn-warp-specialize: expected each kv block to load its own K and V tiles}}
    %s2 = attn.qk %qt, %kt2 : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %a2 = attn.pv %s2, %vt, %a1 : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
    %o, %lse = attn.finalize %a2, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}


// -----

// K and V are one tensor: CSE merged their loads into one, which the ring
// cannot hand out as two tiles.
func.func @same_key_value(%q: tensor<1x4x?x64xbf16>, %k: tensor<1x4x?x64xbf16>) -> tensor<1x4x?x64xbf16> {
  // expected-error @+1 {{'attn.qk' op attn-warp-specialize: K and V are one tile, loaded once from one tensor: the kernel streams K and V as two tiles of two tensors (pass V as an argument of its own)}}
  %o = attn.attention %q, %k, %k
      : tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>, tensor<1x4x?x64xbf16>
      -> tensor<1x4x?x64xbf16>
  return %o : tensor<1x4x?x64xbf16>
}

// -----

// A kv loop that takes every other block: the producer pushes one block a
// step, so the loops must take one too.
func.func @kv_loop_step_two(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x?x64xbf16>,
    %v: tensor<1x4x?x64xbf16>, %l: tensor<128xf32>, %acc: tensor<128x64xf32>,
    %n: index, %m: index) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %a1 = scf.for %kb = %c0 to %n step %c1 iter_args(%o_acc = %acc) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    // expected-error @+1 {{'scf.for' op attn-warp-specialize: expected a kv loop of one block a step}}
    %a2 = scf.for %kb = %n to %m step %c2 iter_args(%o_acc = %a1) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %a2, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// Kv loops with a gap between them ([0, n) then [m, ...)): they do not
// partition one range the producer could walk.
func.func @kv_loops_gap(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x?x64xbf16>,
    %v: tensor<1x4x?x64xbf16>, %l: tensor<128xf32>, %acc: tensor<128x64xf32>,
    %n: index, %m: index) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    // expected-error @+1 {{'scf.for' op attn-warp-specialize: expected the kv loops to partition one range: the next kv loop starts at this one's upper bound}}
    %a1 = scf.for %kb = %c0 to %n step %c1 iter_args(%o_acc = %acc) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    %a2 = scf.for %kb = %m to %n step %c1 iter_args(%o_acc = %a1) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %a2, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// The last loop's upper bound is computed between the loops, where the
// producer (a region beside the consumers) cannot read it.
func.func @kv_bound_after_first_loop(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x?x64xbf16>,
    %v: tensor<1x4x?x64xbf16>, %l: tensor<128xf32>, %acc: tensor<128x64xf32>,
    %n: index, %m: index) -> tensor<1x4x128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    // expected-error @+1 {{'scf.for' op attn-warp-specialize: expected the kv range's bounds (the first kv loop's lower bound, the last's upper bound) to be computed before the first kv loop, where the producer can read them}}
    %a1 = scf.for %kb = %c0 to %n step %c1 iter_args(%o_acc = %acc) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    %e = arith.addi %n, %m : index
    %a2 = scf.for %kb = %n to %e step %c1 iter_args(%o_acc = %a1) -> (tensor<128x64xf32>) {
      %row = arith.muli %kb, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x?x64xbf16> -> tensor<64x64xbf16>
      %pv = attn.pv %s, %vt, %o_acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      scf.yield %pv : tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %a2, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// Every kv block reads the query block's one Q tile, which the consumers
// wait for once.
func.func @two_query_tiles(%q: tensor<1x4x128x64xbf16>, %q2: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %qt2 = attn.load_tile %q2[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %first:3 = scf.for %j = %c0 to %c1 step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %row = arith.muli %j, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
      %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
      %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
      scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    %res:3 = scf.for %j = %c1 to %c2 step %c1 iter_args(%m = %first#0, %l = %first#1, %acc = %first#2) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %row = arith.muli %j, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      // expected-error @+1 {{'attn.qk' op attn-warp-specialize: expected one Q tile per query block}}
      %s = attn.qk %qt2, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
      %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
      %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
      scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %res#2, %res#1, %res#0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// A tile whose attn.finalize reads no kv block: nothing to stream.
func.func @no_scores(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  // expected-error @+1 {{attn-warp-specialize: no attn.qk in the tile}}
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %o, %lse = attn.finalize %o0, %l0, %m0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// The producer pushes a kv loop's K loads one a step: a load in a loop
// nested in the kv loop is not one of its steps.
func.func @nested_key_load(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %res:3 = scf.for %j = %c0 to %c2 step %c1 iter_args(%mo = %m0, %lo = %l0, %acco = %o0) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %step:3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%m = %mo, %l = %lo, %acc = %acco) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
        %row = arith.muli %j, %c64 : index
        // expected-error @+1 {{'attn.load_tile' op attn-warp-specialize: expected the K load of a kv block directly in its kv loop}}
        %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
        %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
        %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
        %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
        %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
        %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
        %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
        %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
        %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
        scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
      }
      scf.yield %step#0, %step#1, %step#2 : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %res#2, %res#1, %res#0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}

// -----

// The consumer region runs from the first kv loop to attn.finalize: a
// finalize before the loops reads none of their blocks. (The loops' row
// sums, a second result of the tile, keep the loops alive through the
// tiling pipeline's cleanup; the pass checks finalize's place before it
// checks where the loops' results go.)
func.func @finalize_before_loops(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %sums = tensor.empty() : tensor<1x4x128xf32>
  %r:2 = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init, %out2 = %sums) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    // expected-error @+1 {{'attn.finalize' op attn-warp-specialize: expected attn.finalize after the kv loops, in the query tile's body}}
    %o, %lse = attn.finalize %o0, %l0, %m0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    %res:3 = scf.for %j = %c0 to %c2 step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %row = arith.muli %j, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
      %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
      %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
      scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
      tensor.parallel_insert_slice %res#1 into %out2[%b, %h, 0] [1, 1, 128] [1, 1, 1]
          : tensor<128xf32> into tensor<1x4x128xf32>
    }
  }
  return %r#0, %r#1 : tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
}

// -----

// Only attn.finalize's results leave the consumer region: here the kv
// loops' row sums are a second result of the tile.
func.func @loop_result_used(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %sums = tensor.empty() : tensor<1x4x128xf32>
  %r:2 = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init, %out2 = %sums) -> (tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %res:3 = scf.for %j = %c0 to %c2 step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %row = arith.muli %j, %c64 : index
      %kt = attn.load_tile %k[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
      %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
      %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
      %vt = attn.load_tile %v[%b, %h, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
      scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %res#2, %res#1, %res#0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
      // expected-error @+1 {{'tensor.parallel_insert_slice' op attn-warp-specialize: uses a value of the kv loops other than attn.finalize's results}}
      tensor.parallel_insert_slice %res#1 into %out2[%b, %h, 0] [1, 1, 128] [1, 1, 1]
          : tensor<128xf32> into tensor<1x4x128xf32>
    }
  }
  return %r#0, %r#1 : tensor<1x4x128x64xbf16>, tensor<1x4x128xf32>
}

// -----

// The producer computes the loads' batch and head before its kv loop: a
// head computed from the block index is not.
func.func @head_in_loop(%q: tensor<1x4x128x64xbf16>, %k: tensor<1x4x128x64xbf16>, %v: tensor<1x4x128x64xbf16>) -> tensor<1x4x128x64xbf16> {
  %scale = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %o0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %init = tensor.empty() : tensor<1x4x128x64xbf16>
  %r = scf.forall (%b, %h) in (1, 4) shared_outs(%out = %init) -> (tensor<1x4x128x64xbf16>) {
    %qt = attn.load_tile %q[%b, %h, %c0] : tensor<1x4x128x64xbf16> -> tensor<128x64xbf16>
    %res:3 = scf.for %j = %c0 to %c2 step %c1 iter_args(%m = %m0, %l = %l0, %acc = %o0) -> (tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>) {
      %row = arith.muli %j, %c64 : index
      %kh = arith.remui %j, %c4 : index
      // expected-error @+1 {{'attn.load_tile' op attn-warp-specialize: batch and head (and a paged load's length, a varlen load's rows) of K/V loads must be defined before the kv loops}}
      %kt = attn.load_tile %k[%b, %kh, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
      %mn = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %mn scale_log2 %scale : tensor<128xf32>
      %os = attn.scale_rows %acc, %a : tensor<128x64xf32>, tensor<128xf32>
      %p = attn.exp_diff %s, %mn scale_log2 %scale : tensor<128x64xf32>, tensor<128xf32>
      %vt = attn.load_tile %v[%b, %kh, %row] : tensor<1x4x128x64xbf16> -> tensor<64x64xbf16>
      %on = attn.pv %p, %vt, %os : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<128x64xf32>
      %ln = attn.row_sum %p init %l scaled %a : tensor<128x64xf32> -> tensor<128xf32>
      scf.yield %mn, %ln, %on : tensor<128xf32>, tensor<128xf32>, tensor<128x64xf32>
    }
    %o, %lse = attn.finalize %res#2, %res#1, %res#0 scale %scale : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %out[%b, %h, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1]
          : tensor<128x64xbf16> into tensor<1x4x128x64xbf16>
    }
  }
  return %r : tensor<1x4x128x64xbf16>
}
