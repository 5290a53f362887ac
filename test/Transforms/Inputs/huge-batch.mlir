// A static batch beyond the grid's z dimension.
func.func @huge_batch(%q: tensor<70000x1x16x64xbf16>, %k: tensor<70000x1x16x64xbf16>, %v: tensor<70000x1x16x64xbf16>) -> tensor<70000x1x16x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<70000x1x16x64xbf16>, tensor<70000x1x16x64xbf16>, tensor<70000x1x16x64xbf16> -> tensor<70000x1x16x64xbf16>
  return %o : tensor<70000x1x16x64xbf16>
}
