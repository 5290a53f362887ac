// RUN: attnc-opt %s -split-input-file --attn-generalize-lengths --attn-tiling-pipeline="block-m=128 block-n=64" \
// RUN:   --attn-assign-layouts --attn-allocate-shared-memory --attn-insert-waits --convert-attn-to-nvvm -verify-diagnostics -o /dev/null

// What the Hopper lowering cannot compile is a diagnostic on the op, never a
// crash or a wrong kernel.


// f32 operands have no bf16/f16 wgmma: the lowering says so.
func.func @f32(%q: tensor<1x4x16x64xf32>, %k: tensor<1x4x16x64xf32>,
               %v: tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32> {
  // expected-error @+1 {{convert-attn-to-nvvm: element type must be bf16 or f16 for wgmma, got f32}}
  %o = attn.attention %q, %k, %v
      : tensor<1x4x16x64xf32>, tensor<1x4x16x64xf32>, tensor<1x4x16x64xf32>
      -> tensor<1x4x16x64xf32>
  return %o : tensor<1x4x16x64xf32>
}

// -----

// Head dims are whole 128-byte swizzle atoms (64 bf16 elements).
func.func @d36(%q: tensor<1x4x16x36xbf16>, %k: tensor<1x4x16x36xbf16>,
               %v: tensor<1x4x16x36xbf16>) -> tensor<1x4x16x36xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: head dim must be a multiple of 8 from 32 to 256 (wgmma n and 16-byte TMA rows), got 36}}
  %o = attn.attention %q, %k, %v
      : tensor<1x4x16x36xbf16>, tensor<1x4x16x36xbf16>, tensor<1x4x16x36xbf16>
      -> tensor<1x4x16x36xbf16>
  return %o : tensor<1x4x16x36xbf16>
}

// -----

// Tiles whose Q buffer and two K/V stages do not fit in shared memory.
func.func @too_much_shared_memory(%q: tensor<1x2x256x256xbf16>, %k: tensor<1x2x256x256xbf16>,
                                  %v: tensor<1x2x256x256xbf16>) -> tensor<1x2x256x256xbf16> {
  // expected-error @+1 {{attn-allocate-shared-memory: tile 128x128 needs 327752 bytes of shared memory (Q, 2 K/V stages), more than the 232448 bytes a CTA may use on sm_90a; choose smaller tile_sizes}}
  %o = attn.attention %q, %k, %v tile_sizes = [128, 128]
      : tensor<1x2x256x256xbf16>, tensor<1x2x256x256xbf16>, tensor<1x2x256x256xbf16>
      -> tensor<1x2x256x256xbf16>
  return %o : tensor<1x2x256x256xbf16>
}

// -----

// One kernel per function: the second attention must not be dropped.
// expected-error @+1 {{convert-attn-to-nvvm: @two_attentions holds 2 attentions; a function becomes one kernel, so give each attention a function of its own}}
func.func @two_attentions(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                          %v: tensor<?x4x?x64xbf16>)
    -> (tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>) {
  %o1 = attn.attention %q, %k, %v
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  %o2 = attn.attention %q, %k, %v mask = causal
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o1, %o2 : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
}

// -----

// Only the LSE is returned (canonicalization drops the unused O): the
// kernel writes O, so this would store O where the LSE belongs.
func.func @lse_only(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                    %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?xf32> {
  // expected-error @+1 {{convert-attn-to-nvvm: the tile must write O (the kernel's output; a function that returns only the LSE is not supported: return O too)}}
  %o, %lse = attn.attention %q, %k, %v
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>, tensor<?x4x?xf32>
  return %lse : tensor<?x4x?xf32>
}

// -----

// One CTA row per query head: more heads than the grid's y dimension holds.
func.func @too_many_heads(%q: tensor<?x70000x?x64xbf16>, %k: tensor<?x70000x?x64xbf16>,
                          %v: tensor<?x70000x?x64xbf16>) -> tensor<?x70000x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: heads_q = 70000 exceeds the 65535 query heads a grid's y dimension holds}}
  %o = attn.attention %q, %k, %v
      : tensor<?x70000x?x64xbf16>, tensor<?x70000x?x64xbf16>, tensor<?x70000x?x64xbf16>
      -> tensor<?x70000x?x64xbf16>
  return %o : tensor<?x70000x?x64xbf16>
}

// -----

// Tile ops outside the tiling forall (a regression found by fuzzing: the
// lowering dereferenced the missing forall).
func.func @finalize_outside_forall(%acc: tensor<64x64xf32>, %l: tensor<64xf32>,
                                   %m: tensor<64xf32>) -> tensor<64x64xbf16> {
  %scale_cst0 = arith.constant 1.250000e-01 : f32
  // expected-error @+1 {{convert-attn-to-nvvm: attn.finalize must be in the (batch, query head, query block) scf.forall of attn-tile}}
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
      : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
  return %o : tensor<64x64xbf16>
}

// -----

// One consumer warpgroup per 64 query rows: block_m is 64, 128 or 192.
func.func @block_m_32(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                      %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: block_m must be 64, 128 or 192 (one consumer warpgroup per 64 rows), got 32}}
  %o = attn.attention %q, %k, %v tile_sizes = [32, 64]
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// The wgmma of S = Q K^T is n = block_n: a multiple of 16 in [16, 256].
func.func @block_n_24(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                      %v: tensor<?x4x?x64xbf16>) -> tensor<?x4x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: block_n must be a multiple of 16 in [16, 256], got 24}}
  %o = attn.attention %q, %k, %v tile_sizes = [64, 24]
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>
      -> tensor<?x4x?x64xbf16>
  return %o : tensor<?x4x?x64xbf16>
}

// -----

// The value head dim is the n of the P V wgmma, with the same rule as the
// query/key head dim.
func.func @value_d36(%q: tensor<?x4x?x64xbf16>, %k: tensor<?x4x?x64xbf16>,
                     %v: tensor<?x4x?x36xbf16>) -> tensor<?x4x?x36xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: value head dim must be a multiple of 8 from 32 to 256 (wgmma n and 16-byte TMA rows), got 36}}
  %o = attn.attention %q, %k, %v
      : tensor<?x4x?x64xbf16>, tensor<?x4x?x64xbf16>, tensor<?x4x?x36xbf16>
      -> tensor<?x4x?x36xbf16>
  return %o : tensor<?x4x?x36xbf16>
}

// -----

// A Q of packed query heads (attn.packed_query_heads, which attn-pack-gqa
// writes only where it holds) on an attention that does not know its rows
// are packed (attn-pack-gqa also sets the attention's packed_query_heads,
// which attn.finalize repeats and the masks take as theirs): its
// mask or window would place them by their index, not their query position,
// and the runtime's view would disagree with the tile. Or packed heads that
// are not the kv heads: the runtime would refuse that kernel's manifest.
func.func @packed_causal(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
                         %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>)
    -> tensor<?x8x?x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: the tile's rows are one query head's (attn.finalize's packed_query_heads), but Q packs 4 (attn.packed_query_heads, which the runtime's view follows); attn-pack-gqa sets both}}
  %o = attn.attention %q, %k, %v mask = causal
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

func.func @packed_window(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
                         %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>)
    -> tensor<?x8x?x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: the tile's rows are one query head's (attn.finalize's packed_query_heads), but Q packs 4}}
  %o = attn.attention %q, %k, %v window = [64, 64]
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

func.func @packed_gqa(%q: tensor<?x16x?x128xbf16> {attn.packed_query_heads = 2 : i64},
                      %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>)
    -> tensor<?x16x?x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: Q has attn.packed_query_heads = 2, but only an attention with as many (packed) query heads as kv heads computes a packed problem (attn-pack-gqa)}}
  %o = attn.attention %q, %k, %v packed_query_heads = 2
      : tensor<?x16x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x16x?x128xbf16>
  return %o : tensor<?x16x?x128xbf16>
}

// -----

// Packed rows in the tile whose Q is no packed argument: the runtime would
// pass the caller's tensors unviewed.
func.func @packed_tile_unpacked_q(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x8x?x128xbf16>,
                                  %v: tensor<?x8x?x128xbf16>) -> tensor<?x8x?x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: the tile's rows are 4 packed query heads (attn.finalize's packed_query_heads), but Q is not a packed argument}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right packed_query_heads = 4
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

// A function becomes one kernel that computes its attention and nothing
// else: Q negated before the attention would be missing from the kernel.
func.func @op_before(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                     %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: @op_before computes 'arith.negf' outside its tiled attention: a function becomes one kernel that computes its attention and nothing else; compute the rest in another function}}
  %q2 = arith.negf %q : tensor<1x2x?x64xbf16>
  %o = attn.attention %q2, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// ... and so would O used after it.
func.func @op_after(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                    %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: @op_after computes 'arith.addf' outside its tiled attention}}
  %sum = arith.addf %o, %q : tensor<1x2x?x64xbf16>
  return %sum : tensor<1x2x?x64xbf16>
}

// -----

// ... and a branch around it.
func.func @branch(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                  %v: tensor<1x2x?x64xbf16>, %c: i1) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: @branch computes 'scf.if' outside its tiled attention}}
  %r = scf.if %c -> tensor<1x2x?x64xbf16> {
    %o = attn.attention %q, %k, %v
        : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
    scf.yield %o : tensor<1x2x?x64xbf16>
  } else {
    scf.yield %q : tensor<1x2x?x64xbf16>
  }
  return %r : tensor<1x2x?x64xbf16>
}

// -----

// ... and an op with an effect, though it only takes scalars.
func.func @assert(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                  %v: tensor<1x2x?x64xbf16>, %ok: i1) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: @assert computes 'cf.assert' outside its tiled attention}}
  cf.assert %ok, "checked on the host"
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// The kernel's results are O, then the LSE, each once.
func.func @lse_first(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                     %v: tensor<1x2x?x64xbf16>) -> (tensor<1x2x?xf32>, tensor<1x2x?x64xbf16>) {
  %o, %lse = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  // expected-error @+1 {{convert-attn-to-nvvm: @lse_first returns its attention's LSE as result #0 (a kernel's results are O, then the LSE)}}
  return %lse, %o : tensor<1x2x?xf32>, tensor<1x2x?x64xbf16>
}

// -----

func.func @o_twice(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                   %v: tensor<1x2x?x64xbf16>) -> (tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>) {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: @o_twice returns its attention's O as result #1 (a kernel's results are O, then the LSE)}}
  return %o, %o : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
}

// -----

// An argument the attention does not read would be dropped from the kernel.
// expected-error @+1 {{convert-attn-to-nvvm: @unread_argument takes argument #3, which its attention does not read (a kernel's parameters are its attention's inputs)}}
func.func @unread_argument(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                           %v: tensor<1x2x?x64xbf16>, %x: tensor<4xf32>) -> tensor<1x2x?x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// A result the attention does not compute (an argument returned as is).
func.func @returns_argument(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                            %v: tensor<1x2x?x64xbf16>) -> (tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>) {
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: @returns_argument returns result #1, which its attention does not compute}}
  return %o, %q : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
}

// -----

// The manifest names the kernel's parameters by role and callers pass them
// in the function's order: K read from the third argument is refused.
func.func @swapped_kv(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                      %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: k must be the function's argument #1, got argument #2 (a function becomes one kernel whose arguments are q, k, v in order)}}
  %o = attn.attention %q, %v, %k
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// A paged kernel's arguments are q, k, v, block_table, cache_lengths.
func.func @paged_swapped_table(%q: tensor<?x8x1x128xbf16>, %k: tensor<?x16x8x128xbf16>,
                               %v: tensor<?x16x8x128xbf16>, %cache_lengths: tensor<?xi32>,
                               %block_table: tensor<?x?xi32>) -> tensor<?x8x1x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: block_table must be the function's argument #3, got argument #4 (a function becomes one kernel whose arguments are q, k, v, block_table, cache_lengths in order)}}
  %o = attn.attention %q, %k, %v
      pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16>
      -> tensor<?x8x1x128xbf16>
  return %o : tensor<?x8x1x128xbf16>
}

// -----

// Q read from the second argument.
func.func @swapped_qk(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                      %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: q must be the function's argument #0, got argument #1}}
  %o = attn.attention %k, %q, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

// A varlen kernel's arguments are q, k, v, cu_seqlens_q, cu_seqlens_k.
func.func @varlen_swapped_offsets(%q: tensor<1x?x8x128xbf16>, %k: tensor<1x?x8x128xbf16>,
                                  %v: tensor<1x?x8x128xbf16>, %cu_k: tensor<?xi32>,
                                  %cu_q: tensor<?xi32>) -> tensor<1x?x8x128xbf16> {
  // expected-error @+1 {{convert-attn-to-nvvm: cu_seqlens_q must be the function's argument #3, got argument #4 (a function becomes one kernel whose arguments are q, k, v, cu_seqlens_q, cu_seqlens_k in order)}}
  %o = attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd
      varlen(%cu_q, %cu_k : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>, tensor<1x?x8x128xbf16>
      -> tensor<1x?x8x128xbf16>
  return %o : tensor<1x?x8x128xbf16>
}

// -----

// A function of more than one block (a branch around the attention) is not
// one kernel.
// expected-error @+1 {{convert-attn-to-nvvm: @two_blocks has more than one block: a function becomes one kernel that computes its attention and nothing else; compute the rest in another function}}
func.func @two_blocks(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                      %v: tensor<1x2x?x64xbf16>, %c: i1) -> tensor<1x2x?x64xbf16> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %o = attn.attention %q, %k, %v
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
^bb2:
  return %q : tensor<1x2x?x64xbf16>
}

// -----

// Q read through a tensor.cast of the argument is not the kernel's q
// parameter as the caller passes it.
func.func @cast_q(%q: tensor<1x2x?x64xbf16>, %k: tensor<?x2x?x64xbf16>,
                  %v: tensor<?x2x?x64xbf16>) -> tensor<?x2x?x64xbf16> {
  %qc = tensor.cast %q : tensor<1x2x?x64xbf16> to tensor<?x2x?x64xbf16>
  // expected-error @+1 {{convert-attn-to-nvvm: q must be the function's argument #0, got a value computed outside the kernel (a function becomes one kernel whose arguments are q, k, v in order)}}
  %o = attn.attention %qc, %k, %v
      : tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16>, tensor<?x2x?x64xbf16> -> tensor<?x2x?x64xbf16>
  return %o : tensor<?x2x?x64xbf16>
}
