// 10^8 compiled-in kv splits: their partial O and LSE are the memory.
func.func @s(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>, %v: tensor<1x2x?x64xbf16>) -> (tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>) {
  %splits = arith.constant 100000000 : index
  %o, %lse = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o, %lse : tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
}
