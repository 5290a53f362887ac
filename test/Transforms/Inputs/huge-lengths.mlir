// A static sequence length beyond the kernel's 32-bit lengths.
func.func @huge(%q: tensor<1x1x1099511627776x64xbf16>, %k: tensor<1x1x16x64xbf16>, %v: tensor<1x1x16x64xbf16>) -> tensor<1x1x1099511627776x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<1x1x1099511627776x64xbf16>, tensor<1x1x16x64xbf16>, tensor<1x1x16x64xbf16> -> tensor<1x1x1099511627776x64xbf16>
  return %o : tensor<1x1x1099511627776x64xbf16>
}
