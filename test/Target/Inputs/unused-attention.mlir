// An attention whose results the function does not return:
// canonicalization would erase it and leave nothing to compile.
func.func @unused(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                  %v: tensor<2x2x?x64xbf16>) -> tensor<2x8x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>
      -> tensor<2x8x?x64xbf16>
  return %q : tensor<2x8x?x64xbf16>
}
