// Gemma-2-style soft-capped scores (30 * tanh(s / 30)) in f32. The GPU
// lowering does not handle f32 (wgmma takes bf16/f16): with a GPU present
// the run command says so and runs this one on the CPU reference backend.
func.func @softcap(%q: tensor<2x4x77x96xf32>, %k: tensor<2x4x129x96xf32>,
                   %v: tensor<2x4x129x96xf32>) -> tensor<2x4x77x96xf32> {
  %o = attn.attention %q, %k, %v softcap = 30.0
      : tensor<2x4x77x96xf32>, tensor<2x4x129x96xf32>, tensor<2x4x129x96xf32>
      -> tensor<2x4x77x96xf32>
  return %o : tensor<2x4x77x96xf32>
}
