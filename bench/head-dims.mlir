// Head dims beyond the standard table (bench/kernels.mlir): every multiple of 8
// from 32 to 256 is a tile of whole 64-column atoms, padded where D is not a
// multiple of 64; split Q/K and V head dims. Heads as the benchmark shapes
// have them (2048 / D up to D = 128, else 16). Checked and timed by
// bench/gpu_check.py.

func.func @d32_full(%q: tensor<?x64x?x32xbf16>, %k: tensor<?x64x?x32xbf16>, %v: tensor<?x64x?x32xbf16>) -> (tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x64x?x32xbf16>, tensor<?x64x?x32xbf16>, tensor<?x64x?x32xbf16> -> tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>
  return %o, %lse : tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>
}

func.func @d32_causal(%q: tensor<?x64x?x32xbf16>, %k: tensor<?x64x?x32xbf16>, %v: tensor<?x64x?x32xbf16>) -> (tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x64x?x32xbf16>, tensor<?x64x?x32xbf16>, tensor<?x64x?x32xbf16> -> tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>
  return %o, %lse : tensor<?x64x?x32xbf16>, tensor<?x64x?xf32>
}

func.func @d40_full(%q: tensor<?x51x?x40xbf16>, %k: tensor<?x51x?x40xbf16>, %v: tensor<?x51x?x40xbf16>) -> (tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x51x?x40xbf16>, tensor<?x51x?x40xbf16>, tensor<?x51x?x40xbf16> -> tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>
  return %o, %lse : tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>
}

func.func @d40_causal(%q: tensor<?x51x?x40xbf16>, %k: tensor<?x51x?x40xbf16>, %v: tensor<?x51x?x40xbf16>) -> (tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x51x?x40xbf16>, tensor<?x51x?x40xbf16>, tensor<?x51x?x40xbf16> -> tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>
  return %o, %lse : tensor<?x51x?x40xbf16>, tensor<?x51x?xf32>
}

func.func @d80_full(%q: tensor<?x25x?x80xbf16>, %k: tensor<?x25x?x80xbf16>, %v: tensor<?x25x?x80xbf16>) -> (tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x25x?x80xbf16>, tensor<?x25x?x80xbf16>, tensor<?x25x?x80xbf16> -> tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>
  return %o, %lse : tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>
}

func.func @d80_causal(%q: tensor<?x25x?x80xbf16>, %k: tensor<?x25x?x80xbf16>, %v: tensor<?x25x?x80xbf16>) -> (tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x25x?x80xbf16>, tensor<?x25x?x80xbf16>, tensor<?x25x?x80xbf16> -> tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>
  return %o, %lse : tensor<?x25x?x80xbf16>, tensor<?x25x?xf32>
}

func.func @d96_full(%q: tensor<?x21x?x96xbf16>, %k: tensor<?x21x?x96xbf16>, %v: tensor<?x21x?x96xbf16>) -> (tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x21x?x96xbf16>, tensor<?x21x?x96xbf16>, tensor<?x21x?x96xbf16> -> tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>
  return %o, %lse : tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>
}

func.func @d96_causal(%q: tensor<?x21x?x96xbf16>, %k: tensor<?x21x?x96xbf16>, %v: tensor<?x21x?x96xbf16>) -> (tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x21x?x96xbf16>, tensor<?x21x?x96xbf16>, tensor<?x21x?x96xbf16> -> tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>
  return %o, %lse : tensor<?x21x?x96xbf16>, tensor<?x21x?xf32>
}

func.func @d160_full(%q: tensor<?x16x?x160xbf16>, %k: tensor<?x16x?x160xbf16>, %v: tensor<?x16x?x160xbf16>) -> (tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x160xbf16>, tensor<?x16x?x160xbf16>, tensor<?x16x?x160xbf16> -> tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>
}

func.func @d160_causal(%q: tensor<?x16x?x160xbf16>, %k: tensor<?x16x?x160xbf16>, %v: tensor<?x16x?x160xbf16>) -> (tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x160xbf16>, tensor<?x16x?x160xbf16>, tensor<?x16x?x160xbf16> -> tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x160xbf16>, tensor<?x16x?xf32>
}

func.func @d192_causal(%q: tensor<?x16x?x192xbf16>, %k: tensor<?x16x?x192xbf16>, %v: tensor<?x16x?x192xbf16>) -> (tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x192xbf16>, tensor<?x16x?x192xbf16>, tensor<?x16x?x192xbf16> -> tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x192xbf16>, tensor<?x16x?xf32>
}

func.func @d224_full(%q: tensor<?x16x?x224xbf16>, %k: tensor<?x16x?x224xbf16>, %v: tensor<?x16x?x224xbf16>) -> (tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x224xbf16>, tensor<?x16x?x224xbf16>, tensor<?x16x?x224xbf16> -> tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>
}

func.func @d224_causal(%q: tensor<?x16x?x224xbf16>, %k: tensor<?x16x?x224xbf16>, %v: tensor<?x16x?x224xbf16>) -> (tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x224xbf16>, tensor<?x16x?x224xbf16>, tensor<?x16x?x224xbf16> -> tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x224xbf16>, tensor<?x16x?xf32>
}

func.func @d192v128_causal(%q: tensor<?x16x?x192xbf16>, %k: tensor<?x16x?x192xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal
      : tensor<?x16x?x192xbf16>, tensor<?x16x?x192xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @d128v64_full(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x64xbf16>) -> (tensor<?x16x?x64xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x64xbf16> -> tensor<?x16x?x64xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x64xbf16>, tensor<?x16x?xf32>
}
