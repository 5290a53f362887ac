// A split-KV attention with its split count compiled in (3), MHA with a
// dynamic Nq: the combine's query rows are Nq, not packed heads
// (split-one-split-fake-driver.test).
func.func @fixed(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                 %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  %splits = arith.constant 3 : index
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}
