// Split-KV kernels for ptxas-split-kv.test: a decode step of GQA 32:8 whose
// split count the runtime chooses (the index argument), and a causal
// chunked prefill with a compiled-in count and the LSE.

func.func @decode_split(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                        %v: tensor<?x8x?x128xbf16>, %splits: index) -> tensor<?x32x?x128xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x32x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16> -> tensor<?x32x?x128xbf16>
  return %o : tensor<?x32x?x128xbf16>
}

func.func @prefill_split(%q: tensor<?x4x?x64xf16>, %k: tensor<?x4x?x64xf16>,
                         %v: tensor<?x4x?x64xf16>) -> (tensor<?x4x?x64xf16>, tensor<?x4x?xf32>) {
  %splits = arith.constant 4 : index
  %o, %lse = attn.attention %q, %k, %v mask = causal_bottom_right kv_splits(%splits)
      : tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>
      -> tensor<?x4x?x64xf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xf16>, tensor<?x4x?xf32>
}

// Dv = 80: the combine's last pass over a row covers 16 of its 64 columns.
func.func @d80_split(%q: tensor<?x8x?x80xbf16>, %k: tensor<?x8x?x80xbf16>,
                     %v: tensor<?x8x?x80xbf16>, %splits: index) -> tensor<?x8x?x80xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x8x?x80xbf16>, tensor<?x8x?x80xbf16>, tensor<?x8x?x80xbf16> -> tensor<?x8x?x80xbf16>
  return %o : tensor<?x8x?x80xbf16>
}

// Dv = 256: the combine's widest rows, four column passes of sixteen splits'
// loads in flight (the most registers its minctasm leaves a thread).
func.func @d256_split(%q: tensor<?x8x?x256xbf16>, %k: tensor<?x2x?x256xbf16>,
                      %v: tensor<?x2x?x256xbf16>, %splits: index) -> tensor<?x8x?x256xbf16> {
  %o = attn.attention %q, %k, %v kv_splits(%splits)
      : tensor<?x8x?x256xbf16>, tensor<?x2x?x256xbf16>, tensor<?x2x?x256xbf16> -> tensor<?x8x?x256xbf16>
  return %o : tensor<?x8x?x256xbf16>
}
