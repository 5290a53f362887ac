// Head dims that are not whole 64-column atoms (padded tiles), split Q/K and
// V head dims, and a softcap: compiled by ptxas-head-dims.test.

func.func @d32(%q: tensor<?x4x?x32xbf16>, %k: tensor<?x4x?x32xbf16>, %v: tensor<?x4x?x32xbf16>) -> (tensor<?x4x?x32xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x32xbf16>, tensor<?x4x?x32xbf16>, tensor<?x4x?x32xbf16> -> tensor<?x4x?x32xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x32xbf16>, tensor<?x4x?xf32>
}

func.func @d40(%q: tensor<?x4x?x40xbf16>, %k: tensor<?x4x?x40xbf16>, %v: tensor<?x4x?x40xbf16>) -> (tensor<?x4x?x40xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x40xbf16>, tensor<?x4x?x40xbf16>, tensor<?x4x?x40xbf16> -> tensor<?x4x?x40xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x40xbf16>, tensor<?x4x?xf32>
}

func.func @d80(%q: tensor<?x4x?x80xbf16>, %k: tensor<?x4x?x80xbf16>, %v: tensor<?x4x?x80xbf16>) -> (tensor<?x4x?x80xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16> -> tensor<?x4x?x80xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x80xbf16>, tensor<?x4x?xf32>
}

func.func @d96(%q: tensor<?x4x?x96xbf16>, %k: tensor<?x4x?x96xbf16>, %v: tensor<?x4x?x96xbf16>) -> (tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16>, tensor<?x4x?x96xbf16> -> tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x96xbf16>, tensor<?x4x?xf32>
}

func.func @d160(%q: tensor<?x4x?x160xbf16>, %k: tensor<?x4x?x160xbf16>, %v: tensor<?x4x?x160xbf16>) -> (tensor<?x4x?x160xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x160xbf16>, tensor<?x4x?x160xbf16>, tensor<?x4x?x160xbf16> -> tensor<?x4x?x160xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x160xbf16>, tensor<?x4x?xf32>
}

func.func @d224(%q: tensor<?x4x?x224xbf16>, %k: tensor<?x4x?x224xbf16>, %v: tensor<?x4x?x224xbf16>) -> (tensor<?x4x?x224xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x224xbf16>, tensor<?x4x?x224xbf16>, tensor<?x4x?x224xbf16> -> tensor<?x4x?x224xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x224xbf16>, tensor<?x4x?xf32>
}

func.func @d192v128_causal(%q: tensor<?x4x?x192xbf16>, %k: tensor<?x4x?x192xbf16>, %v: tensor<?x4x?x128xbf16>) -> (tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x192xbf16>, tensor<?x4x?x192xbf16>, tensor<?x4x?x128xbf16> -> tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>
}

func.func @d128v64(%q: tensor<?x4x?x128xbf16>, %k: tensor<?x4x?x128xbf16>, %v: tensor<?x4x?x64xbf16>) -> (tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>, tensor<?x4x?x64xbf16> -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
}

func.func @d128_softcap(%q: tensor<?x4x?x128xbf16>, %k: tensor<?x4x?x128xbf16>, %v: tensor<?x4x?x128xbf16>) -> (tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal softcap = 30.0
      : tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16>, tensor<?x4x?x128xbf16> -> tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x4x?x128xbf16>, tensor<?x4x?xf32>
}
