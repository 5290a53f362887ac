// An attention whose result feeds only a dead op: canonicalization erases
// both, and with them the kernel.
func.func @dead_cast(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                     %v: tensor<2x2x?x64xbf16>) -> tensor<2x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>
  %c = tensor.cast %o : tensor<2x8x?x64xbf16> to tensor<?x?x?x64xbf16>
  return %q : tensor<2x8x?x64xbf16>
}
