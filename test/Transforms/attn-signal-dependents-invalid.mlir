// RUN: attnc-opt %s -split-input-file --attn-signal-dependents="at=start" -verify-diagnostics -o /dev/null

// The diagnostics of attn-signal-dependents, on hand-written split tiles
// (the forall's fourth induction variable, mapped to
// #gpu.block<linear_dim_0>, is the kv split).

// An attn.finalize nested below the tile's top level: no place for the op.
func.func @finalize_nested(%acc: tensor<64x64xf32>, %l: tensor<64xf32>, %n: index) {
  %scale = arith.constant 1.0 : f32
  // expected-error @+1 {{attn-signal-dependents: expected a split-KV tile whose attn.finalize sits in the forall's body or in the consumer region of its attn.warp_specialize}}
  scf.forall (%b, %h, %q, %s) in (%n, 2, %n, 4) {
    %r:2 = scf.execute_region -> (tensor<64x64xbf16>, tensor<64xf32>) {
      %o, %lse = attn.finalize %acc, %l, %l scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
      scf.yield %o, %lse : tensor<64x64xbf16>, tensor<64xf32>
    }
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
  return
}

// -----

// A split tile without a kv loop: at=start has no loop to precede (the
// default places the op before attn.finalize).
func.func @no_kv_loop(%acc: tensor<64x64xf32>, %l: tensor<64xf32>, %n: index) {
  %scale = arith.constant 1.0 : f32
  // expected-error @+1 {{attn-signal-dependents: at=start needs a kv loop (an scf.for) in the tile}}
  scf.forall (%b, %h, %q, %s) in (%n, 2, %n, 4) {
    %o, %lse = attn.finalize %acc, %l, %l scale %scale : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
  } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>, #gpu.block<linear_dim_0>]}
  return
}
