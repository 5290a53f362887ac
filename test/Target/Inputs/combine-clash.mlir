// A split-KV function's combine kernel is named after it (@xy: xy_combine),
// beside a function whose own kernel has that name.
func.func @xy(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x8x?x64xbf16>,
             %v: tensor<?x8x?x64xbf16>, %splits: index)
    -> tensor<?x8x1x64xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x8x1x64xbf16>, tensor<?x8x?x64xbf16>, tensor<?x8x?x64xbf16>
      -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}
func.func @xy_combine(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                     %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
