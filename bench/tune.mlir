// Tile candidates for bench/tune.py: the same attention at several
// tile_sizes; the fastest per shape becomes the sm_90a tile-table entry.

func.func @t64_n_64x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [64, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_n_128x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_n_128x64(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 64]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_n_192x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [192, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_c_64x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [64, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_c_128x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_c_128x64(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 64]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t64_c_192x128(%q: tensor<?x32x?x64xbf16>, %k: tensor<?x32x?x64xbf16>, %v: tensor<?x32x?x64xbf16>) -> (tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [192, 128]
      : tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16>, tensor<?x32x?x64xbf16> -> tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x32x?x64xbf16>, tensor<?x32x?xf32>
}

func.func @t128_n_64x128(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [64, 128]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_n_64x64(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [64, 64]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_n_128x128(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 128]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_n_128x64(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 64]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_c_64x128(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [64, 128]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_c_64x64(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [64, 64]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_c_128x128(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 128]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_c_128x64(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 64]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t256_n_64x64(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [64, 64]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_n_128x64(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 64]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_n_64x32(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [64, 32]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_n_128x32(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 32]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_c_64x64(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [64, 64]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_c_128x64(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 64]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_c_64x32(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [64, 32]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_c_128x32(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 32]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

// Wider kv tiles than the table's, up to FA3's 128 x 80 at D = 256 (its
// 128 x 176 at D = 128 spills in attnc's kernel; 160 does not).

func.func @t128_n_128x160(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 160]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t128_c_128x160(%q: tensor<?x16x?x128xbf16>, %k: tensor<?x16x?x128xbf16>, %v: tensor<?x16x?x128xbf16>) -> (tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 160]
      : tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16>, tensor<?x16x?x128xbf16> -> tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x128xbf16>, tensor<?x16x?xf32>
}

func.func @t256_n_128x80(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v tile_sizes = [128, 80]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}

func.func @t256_c_128x80(%q: tensor<?x16x?x256xbf16>, %k: tensor<?x16x?x256xbf16>, %v: tensor<?x16x?x256xbf16>) -> (tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v mask = causal tile_sizes = [128, 80]
      : tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16>, tensor<?x16x?x256xbf16> -> tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x16x?x256xbf16>, tensor<?x16x?xf32>
}
