//===- AttnOps.td - attn dialect operations ----------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_OPS_TD
#define ATTN_OPS_TD

include "attnc/Dialect/Attn/AttnDialect.td"
include "attnc/Dialect/Attn/AttnAttrs.td"
include "attnc/Dialect/Attn/AttnEnums.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def Attn_ElementType : AnyTypeOf<[BF16, F16, F32]>;
def Attn_Tensor4D : 4DTensorOf<[BF16, F16, F32]>;
def Attn_LseTensor : 3DTensorOf<[F32]>;
def Attn_Tile : 2DTensorOf<[BF16, F16, F32]>;
// A paged KV cache's page table [B, max_pages] and lengths [B].
def Attn_BlockTable : 2DTensorOf<[I32]>;
def Attn_CacheLengths : 1DTensorOf<[I32]>;
// The cumulative sequence offsets [B + 1] of a variable-length batch.
def Attn_CuSeqlens : 1DTensorOf<[I32]>;
def Attn_F32Tile : 2DTensorOf<[F32]>;
def Attn_F32Rows : 1DTensorOf<[F32]>;
def Attn_F32RowsOrTile : TensorRankOf<[F32], [1, 2]>;

//===----------------------------------------------------------------------===//
// Graph level
//===----------------------------------------------------------------------===//

def Attn_AttentionOp : Attn_Op<"attention", [Pure, AttrSizedOperandSegments]> {
  let summary = "scaled dot-product attention: softmax(scale * Q K^T + mask) V";
  let description = [{
    Computes, for every batch `b`, query head `h`, query row `i` and value
    column `e`:

    ```
    s[j]   = scale * sum_d Q[b, h, i, d] * K[b, h / G, j, d]      (j < Nk)
    s[j]   = softcap * tanh(s[j] / softcap)          (if softcap is present)
    s[j]   = -inf                      (if mask/window hide key j from row i)
    O[b, h, i, e] = sum_j exp(s[j] - max_j s) * V[b, h / G, j, e]
                    / sum_j exp(s[j] - max_j s)
    LSE[b, h, i]  = log(sum_j exp(s[j]))                       (natural log)
    ```

    where `G = Hq / Hkv` groups query heads over shared key/value heads
    (GQA; MQA when `Hkv = 1`). Shapes in the default `bhsd` layout:
    Q `[B, Hq, Nq, D]`, K `[B, Hkv, Nk, D]`, V `[B, Hkv, Nk, Dv]`,
    O `[B, Hq, Nq, Dv]`; with `layout = bshd` the middle two dimensions of
    every operand and of O are swapped. The optional second result LSE is
    always `[B, Hq, Nq]` in f32. `B`, `Nq` and `Nk` may be dynamic; heads and
    head dims must be static.

    `scale` defaults to `1/sqrt(D)`. `scale_value(%s)` gives it as an f32 SSA
    value instead (a function argument: the GPU kernel then takes the scale at
    launch, so one kernel serves every scale; `attn-generalize-scale` makes
    the attribute such an argument); the two are exclusive. `mask = causal` hides key `j` from query
    `i` when `j > i`; `causal_bottom_right` when `j > i + Nk - Nq`. `window =
    [left, right]` additionally hides keys outside `[i' - left, i' + right]`,
    where `i'` is `i` on the mask's diagonal (`i + Nk - Nq` for
    `causal_bottom_right`, `i` otherwise). A row that sees no key at all has
    O = 0 and LSE = -inf. `tile_sizes = [block_m, block_n]` overrides the tile
    configuration the compiler would pick.

    `kv_splits(%n)` (an index; a constant must be at least 1, a value below
    1 at run time counts as 1) is a schedule, not a change of the result: the compiler may split each query row's keys into up to
    `%n` contiguous ranges, attend to each separately and merge the partial
    results exactly (flash-decoding; `attn-tile` tiles such an attention
    into one tile per (query block, range) and an `attn.combine_splits`).
    It pays when the other dimensions leave the GPU's SMs idle (decode: one
    query row against a long cache), and it is a value so that the split
    count can follow the lengths at launch time. Canonicalization drops a
    constant 1.

    `pages(%block_table, %cache_lengths)` reads K and V from a paged KV
    cache (vLLM's PagedAttention, FlashAttention-3's page table): `key` and
    `value` are page pools `[num_pages, page_size, Hkv, D]` (at least one
    page; whatever `layout`, which then describes Q and O only), `block_table`
    (`[B, max_pages]`, i32, at least one column) lists each sequence's pages
    in order and `cache_lengths` (`[B]`, i32) its number of keys: key `t` of
    sequence `b` (`t < cache_lengths[b]`) is row `t % page_size` of page
    `block_table[b, t / page_size]`. Each sequence has its own Nk, so a
    mask's diagonal is per sequence (`i + cache_lengths[b] - Nq` for
    `causal_bottom_right`, the decode alignment). Lengths above
    `max_pages * page_size` and page indices outside `[0, num_pages)` are
    the caller's error (the runtime checks what it is given).

    `packed_query_heads = g` (FlashAttention-3's pack-GQA;
    `attn-pack-gqa` sets it) says that Q's and O's sequence dim holds the
    rows of `g` query heads per head, `Nq` tokens each (the dim is
    `g * Nq`), token-major: row `n * g + j` is token `n` of the group's
    query head `j`, so masks and windows see it at query position `n` with
    `Nq` queries, and a block of rows is one run of positions. With
    `varlen`, the offsets still count tokens: sequence `b` is packed rows
    `[g cu_seqlens_q[b], g cu_seqlens_q[b + 1])`.

    `varlen(%cu_seqlens_q, %cu_seqlens_k)` computes a batch of sequences of
    different lengths packed without padding (FlashAttention's varlen
    form): Q, K, V and O have batch 1 and hold every sequence's tokens one
    after the other along their sequence dim, and the i32 offsets
    (`[B + 1]` each, non-decreasing, the first 0) delimit them: sequence
    `b` is query rows `[cu_seqlens_q[b], cu_seqlens_q[b + 1])` (g times
    those with `packed_query_heads = g`) and keys
    `[cu_seqlens_k[b], cu_seqlens_k[b + 1])`, and attends to its own keys
    only, its mask aligned to its own lengths (`causal_bottom_right`:
    chunked prefill). The LSE is `[1, Hq, total_q]` (packed: `[1, Hkv,
    g total_q]`). There is at least one sequence. Rows past the last
    sequence's belong to no sequence, and their O
    and LSE are unspecified (the tiled lowering does not write them);
    offsets that decrease or exceed the tensors are the caller's error (the
    runtime checks what it is given). Not combined with `pages` yet.

    Example (GQA 4:1, causal, bf16, with LSE):

    ```mlir
    %o, %lse = attn.attention %q, %k, %v mask = causal scale = 0.125
        : tensor<2x32x?x128xbf16>, tensor<2x8x?x128xbf16>,
          tensor<2x8x?x128xbf16> -> tensor<2x32x?x128xbf16>, tensor<2x32x?xf32>
    ```
  }];

  let arguments = (ins
    Attn_Tensor4D:$query,
    Attn_Tensor4D:$key,
    Attn_Tensor4D:$value,
    DefaultValuedAttr<Attn_MaskKind, "::mlir::attn::MaskKind::None">:$mask,
    OptionalAttr<DenseI64ArrayAttr>:$window,
    OptionalAttr<F32Attr>:$scale,
    OptionalAttr<F32Attr>:$softcap,
    DefaultValuedAttr<Attn_Layout, "::mlir::attn::Layout::BHSD">:$layout,
    OptionalAttr<DenseI64ArrayAttr>:$tile_sizes,
    OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$packed_query_heads,
    Optional<F32>:$scale_value,
    Optional<Index>:$kv_splits,
    Optional<Attn_BlockTable>:$block_table,
    Optional<Attn_CacheLengths>:$cache_lengths,
    Optional<Attn_CuSeqlens>:$cu_seqlens_q,
    Optional<Attn_CuSeqlens>:$cu_seqlens_k
  );
  let results = (outs Attn_Tensor4D:$output, Optional<Attn_LseTensor>:$lse);

  let assemblyFormat = [{
    $query `,` $key `,` $value
    (`mask` `=` $mask^)?
    (`window` `=` $window^)?
    (`scale` `=` $scale^)?
    (`scale_value` `(` $scale_value^ `)`)?
    (`softcap` `=` $softcap^)?
    (`layout` `=` $layout^)?
    (`tile_sizes` `=` $tile_sizes^)?
    (`packed_query_heads` `=` $packed_query_heads^)?
    (`kv_splits` `(` $kv_splits^ `)`)?
    (`pages` `(` $block_table^ `,` $cache_lengths `:` type($block_table) `,`
      type($cache_lengths) `)`)?
    (`varlen` `(` $cu_seqlens_q^ `,` $cu_seqlens_k `:` type($cu_seqlens_q) `,`
      type($cu_seqlens_k) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    `->` type($output) (`,` type($lse)^)?
  }];

  let extraClassDeclaration = [{
    /// The dimensions of an operand in logical [batch, heads, seq, head_dim]
    /// order, whatever the layout.
    ::llvm::SmallVector<int64_t, 4> getLogicalShape(::mlir::Type type);
    /// Static sizes: query heads, key/value heads, head dims.
    int64_t getNumQueryHeads();
    int64_t getNumKVHeads();
    int64_t getHeadDim();
    int64_t getValueHeadDim();
    /// Q's rows per (batch, head) where they are static (Nq; after
    /// attn-pack-gqa the packed rows, g * Nq): what decides whether the GPU
    /// pipeline treats a graph as a decode step.
    std::optional<int64_t> getStaticQueryRows();
    /// K and V are page pools [num_pages, page_size, Hkv, D] (`pages`).
    bool isPaged() { return static_cast<bool>(getBlockTable()); }
    /// The pools' page size (dim 1); only for a paged attention.
    int64_t getPageSize();
    /// The rules of `pages(...)` (part of the verifier).
    ::llvm::LogicalResult verifyPages();
    /// Q, K, V and O pack sequences of different lengths (`varlen`).
    bool isVarlen() { return static_cast<bool>(getCuSeqlensQ()); }
    /// The rules of `varlen(...)` (part of the verifier).
    ::llvm::LogicalResult verifyVarlen();
    /// The compile-time softmax scale: the attribute if present, else
    /// 1/sqrt(D). Meaningless when the scale is given as `scale_value`.
    float getStaticScale();
    /// Which keys each query sees: kind, window, and whether the rows are
    /// packed query heads.
    MaskSpec getMaskSpec();
    /// The softmax scale as an f32 value at the builder's insertion point:
    /// `scale_value`, or a constant of getStaticScale().
    ::mlir::Value materializeScale(::mlir::OpBuilder &b);
  }];

  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Attn_CombineSplitsOp : Attn_Op<"combine_splits", [Pure]> {
  let summary = "merge the partial attention results of a split kv range";
  let description = [{
    Split `s` of a query row attended to its own part of the keys and gave
    the normalized output `O_s` and its log-sum-exp `LSE_s` (`-inf`, with
    `O_s = 0`, for a part that had no visible key). The op merges them into
    the attention over all keys:

    ```
    M      = max_s LSE_s
    w_s    = exp(LSE_s - M)
    O      = sum_s w_s O_s / sum_s w_s
    LSE    = M + log(sum_s w_s)
    ```

    and O = 0, LSE = -inf where every `LSE_s` is `-inf`. `partial_output`
    is `[S, B, Hq, Nq, Dv]` and `partial_lse` `[S, B, Hq, Nq]`, f32, in
    logical BHSD order; `output` is `[B, Hq, Nq, Dv]` in `layout` (its
    element type is the attention's) and `lse` `[B, Hq, Nq]` f32. `attn-tile`
    creates the op after the tiles of an `attn.attention` with `kv_splits`.

    ```mlir
    %o, %lse = attn.combine_splits %po, %plse
        : tensor<?x?x8x?x128xf32>, tensor<?x?x8x?xf32>
        -> tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>
    ```
  }];
  let arguments = (ins
    TensorRankOf<[F32], [5]>:$partial_output,
    4DTensorOf<[F32]>:$partial_lse,
    DefaultValuedAttr<Attn_Layout, "::mlir::attn::Layout::BHSD">:$layout
  );
  let results = (outs Attn_Tensor4D:$output, Attn_LseTensor:$lse);
  let assemblyFormat = [{
    $partial_output `,` $partial_lse (`layout` `=` $layout^)? attr-dict
    `:` type($partial_output) `,` type($partial_lse)
    `->` type($output) `,` type($lse)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile level
//===----------------------------------------------------------------------===//

def Attn_LoadTileOp : Attn_Op<"load_tile", [Pure]> {
  let summary = "read a block of rows of one head, zero-filled past the end";
  let description = [{
    Returns `tile[r, d] = source[batch, head, row + r, d]` (in the operand's
    logical BHSD order; `layout` says how `source` is stored), and 0 where
    `row + r` is past the sequence length. This is the tile a TMA load with
    out-of-bounds zero fill produces.

    ```mlir
    %qt = attn.load_tile %q[%b, %h, %row] : tensor<2x8x?x64xbf16> -> tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins Attn_Tensor4D:$source, Index:$batch, Index:$head,
                   Index:$row,
                   DefaultValuedAttr<Attn_Layout, "::mlir::attn::Layout::BHSD">:$layout);
  let results = (outs Attn_Tile:$tile);
  let assemblyFormat = [{
    $source `[` $batch `,` $head `,` $row `]` (`layout` `=` $layout^)?
    attr-dict `:` type($source) `->` type($tile)
  }];
  let hasVerifier = 1;
}

def Attn_LoadPagedTileOp : Attn_Op<"load_paged_tile", [Pure]> {
  let summary = "read a block of rows of one head from a paged KV cache";
  let description = [{
    The paged form of `attn.load_tile`: returns
    `tile[r, d] = pool[block_table[batch, t / P], t % P, head, d]` for
    `t = row + r < length`, and 0 for `t >= length` (whose table entries are
    not used), where `pool` is `[num_pages, P, heads, D]` (at least one
    page) and P its static page size. `attn-tile` reads K and V of a paged `attn.attention` with
    it, `length` being the sequence's cache length.

    ```mlir
    %kt = attn.load_paged_tile %k[%b, %h, %row] pages %table length %len
        : tensor<?x16x8x128xbf16>, tensor<?x?xi32> -> tensor<128x128xbf16>
    ```
  }];
  let arguments = (ins Attn_Tensor4D:$pool, Attn_BlockTable:$block_table,
                   Index:$batch, Index:$head, Index:$row, Index:$length);
  let results = (outs Attn_Tile:$tile);
  let assemblyFormat = [{
    $pool `[` $batch `,` $head `,` $row `]` `pages` $block_table
    `length` $length attr-dict `:` type($pool) `,` type($block_table) `->`
    type($tile)
  }];
  let extraClassDeclaration = [{
    /// The static page size P: the pool's dim 1.
    int64_t getPageSize() { return getPool().getType().getDimSize(1); }
  }];
  let hasVerifier = 1;
}

def Attn_SequenceTileOp : Attn_Op<"sequence_tile", [Pure]> {
  let summary = "the sequence and query block of a tile of a varlen batch";
  let description = [{
    The tile scheduler of a variable-length batch: the query blocks of its
    sequences, `ceil((cu_seqlens[b + 1] - cu_seqlens[b]) / block_m)` of
    sequence `b`, numbered one after the other in sequence order. Returns
    the `sequence` and its `query_block` that linear tile `tile` is. A tile
    past the last block belongs to the last sequence, at its query block one
    past its rows, so it computes and stores nothing: `attn-tile` launches
    `ceil(total_q / block_m) + B` tiles, a bound on the sequences' blocks
    that the caller knows without reading the offsets. Sequences of length
    0 have no block. `block_m` counts offsets: where the attention packs
    `g` query heads (`packed_query_heads`), a tile's rows are `g` a token
    and `attn-tile` gives the tile's tokens, its rows / `g`.

    ```mlir
    %seq, %qb = attn.sequence_tile %cu_seqlens_q[%t] block_m = 128
        : tensor<?xi32>
    ```
  }];
  let arguments = (ins Attn_CuSeqlens:$cu_seqlens, Index:$tile,
                   ConfinedAttr<I64Attr, [IntPositive]>:$block_m);
  let results = (outs Index:$sequence, Index:$query_block);
  let assemblyFormat = [{
    $cu_seqlens `[` $tile `]` `block_m` `=` $block_m attr-dict
    `:` type($cu_seqlens)
  }];
}

def Attn_LoadVarlenTileOp : Attn_Op<"load_varlen_tile", [Pure]> {
  let summary = "read a block of rows of one head of one packed sequence";
  let description = [{
    The variable-length form of `attn.load_tile`: `source` has batch 1 and
    packs sequences along its sequence dim; the sequence of the tile spans
    rows `[begin, end)`. Returns `tile[r, d] = source[0, head, begin + row +
    r, d]` (logical BHSD; `layout` says how `source` is stored) where
    `begin + row + r < end`, and 0 elsewhere, so a tile never reads the
    next sequence. `attn-tile` reads Q, K and V of a varlen
    `attn.attention` with it. (The GPU lowering loads whole TMA boxes from
    the sequence's first row and relies on the masks and the clipped stores
    instead: the rows past `end` it reads, of the next sequence or past the
    last offset, are multiplied by 0, so they must be finite.)

    ```mlir
    %kt = attn.load_varlen_tile %k[%h, %row] rows %begin to %end layout = bshd
        : tensor<1x?x8x128xbf16> -> tensor<128x128xbf16>
    ```
  }];
  let arguments = (ins Attn_Tensor4D:$source, Index:$head, Index:$row,
                   Index:$begin, Index:$end,
                   DefaultValuedAttr<Attn_Layout, "::mlir::attn::Layout::BHSD">:$layout);
  let results = (outs Attn_Tile:$tile);
  let assemblyFormat = [{
    $source `[` $head `,` $row `]` `rows` $begin `to` $end
    (`layout` `=` $layout^)? attr-dict `:` type($source) `->` type($tile)
  }];
  let hasVerifier = 1;
}

def Attn_QKOp : Attn_Op<"qk", [Pure]> {
  let summary = "score tile S = Q K^T with f32 accumulation";
  let description = [{
    `scores[i, j] = sum_d query[i, d] * key[j, d]`, unscaled; the scale is
    folded into the exponent later (`attn.exp_diff`).

    ```mlir
    %s = attn.qk %qt, %kt : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins Attn_Tile:$query, Attn_Tile:$key);
  let results = (outs Attn_F32Tile:$scores);
  let assemblyFormat = [{
    $query `,` $key attr-dict `:` type($query) `,` type($key) `->` type($scores)
  }];
  let hasVerifier = 1;
}

def Attn_SoftcapOp : Attn_Op<"softcap", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "soft-cap a score tile: output_scale * tanh(scale * s / cap)";
  let description = [{
    Applies the softmax scale and Gemma-2 style soft-capping to raw scores:
    `result[i, j] = output_scale * tanh(scale * scores[i, j] / cap)`, where
    `output_scale` defaults to `cap`. After it the scores are already
    scaled, so later steps use scale 1. `scale` is a value (a constant, or
    the kernel's scale argument); `cap` and `output_scale` are positive
    compile-time constants.

    `output_scale = 1.0` leaves the cap's multiplication to the users:
    attn-defer-softcap-cap writes it where every user (through masks) is an
    `attn.row_max` or `attn.exp_diff` that applies the cap as its
    `score_scale`, once per row or folded into the exponent's multiplier,
    instead of once per score.

    ```mlir
    %c = attn.softcap %s scale %scale cap = 3.000000e+01 output_scale = 1.000000e+00
        : tensor<128x128xf32>
    ```
  }];
  let arguments = (ins Attn_F32Tile:$scores, F32:$scale, F32Attr:$cap,
                   OptionalAttr<F32Attr>:$output_scale);
  let results = (outs Attn_F32Tile:$result);
  let assemblyFormat = [{
    $scores `scale` $scale `cap` `=` $cap
    (`output_scale` `=` $output_scale^)? attr-dict `:` type($scores)
  }];
  let extraClassDeclaration = [{
    /// What the tanh values are multiplied by: `output_scale`, else `cap`.
    ::llvm::APFloat getOutputScaleOrCap() {
      return getOutputScale().value_or(getCap());
    }
  }];
  let hasVerifier = 1;
}

def Attn_MaskOp : Attn_Op<"mask", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "set hidden scores of a tile to -inf";
  let description = [{
    The tile covers query rows `row_offset + i` and key columns
    `col_offset + j`. A score becomes `-inf` when its key is past `seq_k`, or
    when `kind`/`window` hide it (see `attn.attention`; the diagonal depends
    on `seq_q` and `seq_k` for `causal_bottom_right`). Query rows past
    `seq_q` are left alone: they are never stored. With
    `packed_query_heads` = g the tile's rows are packed query heads
    (`attn.attention`'s `packed_query_heads`, FlashAttention-3's order: the
    g heads of one token are adjacent rows): row `row_offset + i` is query
    position `(row_offset + i) floordiv g`, and `seq_q` counts positions
    (each head's tokens).

    ```mlir
    %m = attn.mask %s rows %r cols %c seq_q %nq seq_k %nk kind = causal : tensor<128x64xf32>
    ```
  }];
  let arguments = (ins Attn_F32Tile:$scores, Index:$row_offset,
                   Index:$col_offset, Index:$seq_q, Index:$seq_k,
                   DefaultValuedAttr<Attn_MaskKind, "::mlir::attn::MaskKind::None">:$kind,
                   OptionalAttr<DenseI64ArrayAttr>:$window,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$packed_query_heads);
  let results = (outs Attn_F32Tile:$result);
  let assemblyFormat = [{
    $scores `rows` $row_offset `cols` $col_offset `seq_q` $seq_q `seq_k` $seq_k
    (`kind` `=` $kind^)? (`window` `=` $window^)? (`packed_query_heads` `=` $packed_query_heads^)?
    attr-dict `:` type($scores)
  }];
  let extraClassDeclaration = [{
    /// Which keys the mask hides (kind, window, packed query heads).
    MaskSpec getMaskSpec();
  }];
  let hasVerifier = 1;
}

def Attn_RowMaxOp : Attn_Op<"row_max", [Pure,
    OptionalTypesMatchWith<"init matches result", "result", "init", "$_self">]> {
  let summary = "row maximum of a score tile, optionally combined with a running max";
  let description = [{
    `result[i] = max(init[i], score_scale * max_j scores[i, j])`; without
    `init` the max starts at -inf, without `score_scale` (positive, so that
    it commutes with the max) the scores are taken as they are. A
    `score_scale` is a soft-cap's cap left to its users
    (attn-defer-softcap-cap): one multiply per row instead of one per score.
  }];
  let arguments = (ins Attn_F32Tile:$scores, Optional<Attn_F32Rows>:$init,
                   OptionalAttr<F32Attr>:$score_scale);
  let results = (outs Attn_F32Rows:$result);
  let assemblyFormat = [{
    $scores (`init` $init^)? (`score_scale` `=` $score_scale^)? attr-dict
    `:` type($scores) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Attn_ExpDiffOp : Attn_Op<"exp_diff", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "unnormalized probabilities exp2((s - m) * scale_log2)";
  let description = [{
    `result[i, j] = exp2((score_scale * scores[i, j] - row_max[i]) *
    scale_log2)`, with the softmax scale and log2(e) folded into one
    multiplier so the GPU path uses a single `ex2` per score. A row whose
    max is -inf (every key hidden so far) gives 0, not NaN. `scale_log2` is
    an f32 value: attn-tile computes it once per attention, outside the
    tiles (a constant, or the product of the scale argument and log2(e)).
    `score_scale` (positive, default 1) is a soft-cap's cap left to its
    users (attn-defer-softcap-cap); the GPU kernel folds it into the
    multiplier of the scores, `s * (score_scale * scale_log2)`.

    `software_exp2_period = N` (N >= 1; attn-warp-specialize sets it with
    its `software-exp2-period` option) is a code-generation choice of the
    sm_90a lowering, not a change of the math: of every N consecutive
    element pairs of a thread's accumulator fragment (pair k = fragment
    elements 2k and 2k + 1, two adjacent columns of one row), pair k with
    k % N = 0 computes its exp2 on the FMA pipe instead of with MUFU.EX2
    (FlashAttention-4's exponential emulation): x = n + f with n the
    nearest integer, 2^f from a degree-3 minimax polynomial on
    [-0.5, 0.5], 2^n added through the exponent bits. Those elements have
    a relative error of at most 7.5e-5 (MUFU.EX2: about 2^-22), far below
    the rounding of P to bf16 (2^-9) or f16 (2^-11) for P V; like MUFU.EX2,
    they are exactly 0 for x < -126 and x = -inf (a fully masked row keeps
    l = 0) and NaN for NaN. N = 1 computes every exponential so, N = 2
    half of them. The CPU lowering ignores the attribute.
  }];
  let arguments = (ins Attn_F32Tile:$scores, Attn_F32Rows:$row_max,
                   F32:$scale_log2,
                   OptionalAttr<I64Attr>:$software_exp2_period,
                   OptionalAttr<F32Attr>:$score_scale);
  let results = (outs Attn_F32Tile:$result);
  let assemblyFormat = [{
    $scores `,` $row_max `scale_log2` $scale_log2
    (`score_scale` `=` $score_scale^)? attr-dict
    `:` type($scores) `,` type($row_max)
  }];
  let hasVerifier = 1;
}

def Attn_RowSumOp : Attn_Op<"row_sum", [Pure, AttrSizedOperandSegments,
    OptionalTypesMatchWith<"init matches result", "result", "init", "$_self">,
    OptionalTypesMatchWith<"init_scale matches result", "result", "init_scale",
                           "$_self">]> {
  let summary = "row sum of a tile, optionally added to a (rescaled) running sum";
  let description = [{
    `result[i] = init[i] * init_scale[i] + sum_j probs[i, j]`; without
    `init_scale` the running sum is added as it is, and without `init` the
    sum starts at 0 (`init_scale` needs `init`).
    An `init_scale` that is a splat constant 1 folds away.

    The online softmax's running sum is rescaled by the step's
    `attn.rescale_factor` before the step's probabilities are added:
    attn-fuse-online-softmax writes that rescale as `init_scale` rather than
    as an `attn.scale_rows` of the sum, so that the sum of the step's
    probabilities does not wait for the factor and the GPU kernel adds the
    rescaled sum with one fma per row.

    ```mlir
    %l1 = attn.row_sum %p init %l scaled %alpha
        : tensor<128x128xf32, #acc> -> tensor<128xf32, #rows>
    ```
  }];
  let arguments = (ins Attn_F32Tile:$probs, Optional<Attn_F32Rows>:$init,
                   Optional<Attn_F32Rows>:$init_scale);
  let results = (outs Attn_F32Rows:$result);
  let assemblyFormat = [{
    $probs (`init` $init^)? (`scaled` $init_scale^)? attr-dict `:` type($probs)
    `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$probs,
                   "::mlir::Value":$init), [{
      build($_builder, $_state, result, probs, init, ::mlir::Value());
    }]>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Attn_TruncateOp : Attn_Op<"truncate", [Pure]> {
  let summary = "round an f32 tile to a 16-bit float type";
  let description = [{
    `result[i, j] = round(input[i, j])` to the result's element type (bf16
    or f16), to nearest even; the layout is the input's. It is the rounding
    of the probabilities that `attn.pv` performs itself on f32 P, made a
    step of its own where it matters when it happens: attn-pipeline-kv-loops
    rounds P in the step that computes it, so that the rotated loops carry
    P to the next step's `attn.pv` in 16 bits (in the wgmma accumulator
    layout a thread's pairs of adjacent elements share a 32-bit register:
    wgmma's register A operand) instead of in f32.

    ```mlir
    %pt = attn.truncate %p : tensor<128x128xf32, #acc> to tensor<128x128xbf16, #acc>
    ```
  }];
  let arguments = (ins Attn_F32Tile:$input);
  let results = (outs Attn_Tile:$result);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `to` type($result)
  }];
  let hasVerifier = 1;
}

def Attn_PVOp : Attn_Op<"pv", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "accumulate P V into the output tile";
  let description = [{
    `result[i, e] = acc[i, e] + sum_j T(probs[i, j]) * value[j, e]` where `T`
    rounds f32 probabilities to the element type of `value`, as the tensor
    cores consume them; probabilities of that type (`attn.truncate`) are
    taken as they are.
  }];
  let arguments = (ins Attn_Tile:$probs, Attn_Tile:$value,
                   Attn_F32Tile:$acc);
  let results = (outs Attn_F32Tile:$result);
  let assemblyFormat = [{
    $probs `,` $value `,` $acc attr-dict `:` type($probs) `,` type($value)
    `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Attn_RescaleFactorOp : Attn_Op<"rescale_factor", [Pure, AllTypesMatch<["old_max", "new_max", "result"]>]> {
  let summary = "online-softmax correction exp2((m_old - m_new) * scale_log2)";
  let description = [{
    The factor that rescales a running sum and accumulator when the running
    row max grows from `old_max` to `new_max`; 0 when `old_max` is -inf
    (nothing was accumulated yet), so the guard never produces NaN.

    Folds to a splat 1 when both maxima are the same finite splat constant
    (a max that never moves: attn-softcap-fixed-max).
  }];
  let arguments = (ins Attn_F32Rows:$old_max, Attn_F32Rows:$new_max,
                   F32:$scale_log2);
  let results = (outs Attn_F32Rows:$result);
  let assemblyFormat = [{
    $old_max `,` $new_max `scale_log2` $scale_log2 attr-dict `:` type($old_max)
  }];
  let hasFolder = 1;
}

def Attn_ScaleRowsOp : Attn_Op<"scale_rows", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "multiply each row of a tile (or each element of a row vector) by a factor";
  let description = [{
    `result[i, ...] = input[i, ...] * factor[i]`.

    `conditional` (a tile only, set by `attn-conditional-rescale`) lets the
    GPU kernel skip the multiplies where they cannot change the tile: where
    the factor is the online softmax's rescale `exp2((m_old - m_new) * c)`
    of the same kv step, a row whose maximum did not move has the factor
    1 exactly, and the kernel leaves the rows of a warp in which no maximum
    moved as they are (FlashAttention-4's conditional rescale). Elsewhere,
    and on the CPU, every row is multiplied; the result is the same.

    A factor that is a splat constant 1 folds the op away.

    ```mlir
    %o = attn.scale_rows %acc, %alpha conditional
        : tensor<128x128xf32, #acc>, tensor<128xf32, #rows>
    ```
  }];
  let arguments = (ins Attn_F32RowsOrTile:$input, Attn_F32Rows:$factor,
                   UnitAttr:$conditional);
  let results = (outs Attn_F32RowsOrTile:$result);
  let assemblyFormat = [{
    $input `,` $factor (`conditional` $conditional^)? attr-dict `:` type($input)
    `,` type($factor)
  }];
  let extraClassDeclaration = [{
    /// Whether the factor is the attn.rescale_factor of this op's own block
    /// (its kv step's alpha), whose rows the GPU kernel knows moved or not:
    /// the rescale a `conditional` skip applies to.
    bool rescalesByStepFactor();
  }];
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Attn_FinalizeOp : Attn_Op<"finalize", [Pure,
    AllTypesMatch<["row_sum", "row_max", "lse"]>]> {
  let summary = "normalize the accumulator by the row sum and compute the LSE";
  let description = [{
    `output[i, e] = acc[i, e] / row_sum[i]` rounded to the output element type
    and `lse[i] = scale * row_max[i] + log(row_sum[i])`, where `row_max` is in
    raw-score units. Rows with `row_sum = 0` (no visible key) give output 0
    and LSE -inf.

    The results stay where the operands are: `output` has the layout of
    `acc` (a GPU tile's #attn.wgmma_accumulator registers) and `lse` that of
    the row vectors. The forall's terminator stores them (its
    `tensor.parallel_insert_slice` of their valid rows), which the GPU
    lowering turns into the tile's O and LSE stores.

    `mask` and `window` repeat the attention's mask for the whole tile. The
    kv loops' `attn.mask` ops can fold away for static shapes (when no block
    of this shape needs one), but attn-warp-specialize needs the mask itself:
    its producer loop re-derives the kv block range [begin, end) from the
    lengths (`buildKvBlockRange`), and with a `target` a window changes the
    schedule it picks. The GPU kernel masks where the loops' `attn.mask` ops
    do; it reads this mask only for its manifest. attn-order-tiles reads it
    for the launch order of the query blocks (`order=auto`).
    `packed_query_heads` repeats the attention's: the tile's rows are that
    many query heads' tokens, which the producer's range sees at their query
    positions (the GPU lowering checks it against the Q argument's
    `attn.packed_query_heads`).
  }];
  let arguments = (ins Attn_F32Tile:$acc, Attn_F32Rows:$row_sum,
                   Attn_F32Rows:$row_max, F32:$scale,
                   DefaultValuedAttr<Attn_MaskKind, "::mlir::attn::MaskKind::None">:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$window,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$packed_query_heads);
  let results = (outs Attn_Tile:$output, Attn_F32Rows:$lse);
  let assemblyFormat = [{
    $acc `,` $row_sum `,` $row_max `scale` $scale
    (`mask` `=` $mask^)? (`window` `=` $window^)?
    (`packed_query_heads` `=` $packed_query_heads^)? attr-dict
    `:` type($acc) `,` type($row_sum) `->` type($output)
  }];
  let extraClassDeclaration = [{
    /// The tile's mask as one value.
    MaskSpec getMaskSpec();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

/// The ring of shared-memory K/V stages between the producer and consumer
/// regions of one attn.warp_specialize.
def Attn_KvRing : Resource<"::mlir::attn::KvRingResource">;
/// Whose turn it is to issue GEMMs among the consumer warpgroups of one
/// attn.warp_specialize.
def Attn_GemmTurn : Resource<"::mlir::attn::GemmTurnResource">;
/// A consumer warpgroup's asynchronous GEMM groups in flight (wgmma).
def Attn_GemmGroups : Resource<"::mlir::attn::GemmGroupsResource">;

def Attn_WarpSpecializeOp : Attn_Op<"warp_specialize", [
    RecursiveMemoryEffects]> {
  let summary = "split one query tile's work into a producer and consumer warpgroups";
  let description = [{
    The partition FlashAttention-3 runs on Hopper, made explicit: the
    `producer` region (one warpgroup, `producer_registers` per thread after
    `setmaxnreg`) streams K/V tiles into a ring of `stages` shared-memory
    stages with `attn.ring_push`; the `consumer` region (`consumer_warpgroups`
    warpgroups of 64 query rows each, `consumer_registers` per thread) takes
    them in the same order with `attn.ring_pop`, runs the online softmax and
    yields the op's results (the tile's `attn.finalize`). Values defined
    above the op (the Q tile, kv block bounds) are shared by both regions.

    FA3's ping-pong between two consumer warpgroups (they take turns issuing
    their GEMMs, so one's softmax overlaps the other's GEMMs) is not an
    attribute of this op but the `attn.wait_turn` / `attn.pass_turn` pair
    around each kv loop's `attn.qk`.
    The intra-warpgroup overlap (each consumer runs the softmax of block j
    while its P V GEMM of block j-1 is in flight) is not an attribute of this
    op but a software pipeline of each consumer kv loop: its accumulator
    update (O's `attn.scale_rows` and `attn.pv`) carries `attn.stage = 1`
    and runs for block j-1 during iteration j, as `attn-pipeline-kv-loops`
    rotates the loops. Together with the turns (as in FA3), a warpgroup's
    turn issues both of its GEMMs.

    `attn-warp-specialize` creates the op from fused tile IR;
    `convert-attn-to-nvvm` lowers it (one producer thread issues the TMA loads
    behind full/empty mbarrier pairs). The CPU lowering does not accept it.

    ```mlir
    %o, %lse = attn.warp_specialize consumers(2) stages(2) registers(24, 240)
    producer {
      scf.for %kb = %begin to %end step %c1 {
        %k = attn.load_tile %K[%b, %h, %row] : tensor<?x8x?x128xbf16> -> tensor<128x128xbf16>
        %v = attn.load_tile %V[%b, %h, %row] : tensor<?x8x?x128xbf16> -> tensor<128x128xbf16>
        attn.ring_push %k, %v : tensor<128x128xbf16>, tensor<128x128xbf16>
      }
      attn.yield
    } consumer {
      ...
      %k, %v = attn.ring_pop : tensor<128x128xbf16>, tensor<128x128xbf16>
      ...
      attn.yield %out, %l : tensor<128x128xbf16>, tensor<128xf32>
    } : tensor<128x128xbf16>, tensor<128xf32>
    ```
  }];
  let arguments = (ins I64Attr:$consumer_warpgroups, I64Attr:$stages,
                   I64Attr:$producer_registers, I64Attr:$consumer_registers);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = [{
    `consumers` `(` $consumer_warpgroups `)` `stages` `(` $stages `)`
    `registers` `(` $producer_registers `,` $consumer_registers `)`
    `producer` $producer `consumer` $consumer attr-dict (`:` type($results)^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Attn_YieldOp : Attn_Op<"yield", [Pure, Terminator, ReturnLike,
                                      HasParent<"WarpSpecializeOp">]> {
  let summary = "end a region of attn.warp_specialize";
  let description = [{
    The producer region yields nothing; the consumer region yields the
    results of the enclosing `attn.warp_specialize`.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Attn_RingPushOp : Attn_Op<"ring_push", [MemoryEffects<[MemWrite<Attn_KvRing>]>]> {
  let summary = "producer: put the next K/V tile pair into the stage ring";
  let description = [{
    Waits until the consumers released the oldest stage, then fills it with
    `key` and `value` (the lowering: TMA loads completing on the stage's
    full mbarriers). Only inside the producer region of
    `attn.warp_specialize`.
  }];
  let arguments = (ins Attn_Tile:$key, Attn_Tile:$value);
  let assemblyFormat = [{
    $key `,` $value attr-dict `:` type($key) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Attn_RingPopOp : Attn_Op<"ring_pop", [
    MemoryEffects<[MemRead<Attn_KvRing>, MemWrite<Attn_KvRing>]>]> {
  let summary = "consumers: take the next K/V tile pair from the stage ring";
  let description = [{
    Returns the oldest tile pair the producer pushed and releases its stage
    once the consumers' GEMMs have read it. Pops happen in push order, one
    per push. Only inside the consumer region of `attn.warp_specialize`.
  }];
  let results = (outs Attn_Tile:$key, Attn_Tile:$value);
  let assemblyFormat = "attr-dict `:` type($key) `,` type($value)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result of a pop that `tile` is: the result itself, or a value a
    /// software-pipelined kv loop carries from one (attn-pipeline-kv-loops:
    /// an scf.for iter arg or result, an scf.if result, whose yield is such
    /// a value); null otherwise. Result 0 is K, result 1 is V.
    static ::mlir::OpResult ofTile(::mlir::Value tile);
  }];
}

def Attn_RingReleaseOp : Attn_Op<"ring_release", [MemoryEffects<[MemWrite<Attn_KvRing>]>]> {
  let summary = "consumers: done with a popped K or V tile, its stage may be refilled";
  let description = [{
    `tile` is a result of this step's `attn.ring_pop`, or of the previous
    step's where `attn-pipeline-kv-loops` carries the V tile into the next
    iteration (`attn.ring_pop`'s `ofTile`); after this op the
    consumers no longer read it, so the producer may load the next block
    into its ring stage. The lowering arrives on the tile's empty mbarrier
    (once per consumer warpgroup) when the GEMM that reads it has completed:
    with separate K and V barriers (two stages, `#attn.shared_memory`'s
    `key_empty` != `value_empty`) a K release hands K back before V; with
    one barrier per stage the V release frees both and the K release emits
    nothing.

    The row vectors `after`, if any, are computed before the release
    arrives: the lowering makes the arrival depend on them (through a test
    that holds for every value a row sum can have: not below -1), so that
    ptxas issues neither it nor the full GEMM wait before it any earlier.
    `convert-attn-to-nvvm` takes only row sums (`attn.row_sum` results) of
    the release's own step; `attn-insert-waits` gives a rotated step's
    releases its row sums (the arrivals stay behind the softmax).

    `attn-warp-specialize` puts the K release right after the step's S GEMM
    (`attn.qk`, or its `attn.pass_turn`) and the V release last in the step,
    in stage 1 (`attn.stage`) when the P V GEMM that reads V is; the rotated
    loop of `attn-pipeline-kv-loops` releases the previous step's V. Only in the
    consumer region of an `attn.warp_specialize`.

    ```mlir
    %k, %v = attn.ring_pop : tensor<128x128xbf16>, tensor<128x128xbf16>
    %s = attn.qk %q, %k : ...
    attn.ring_release %k : tensor<128x128xbf16>
    ...
    attn.ring_release %v after(%l : tensor<128xf32>) : tensor<128x128xbf16>
    ```
  }];
  let arguments = (ins Attn_Tile:$tile, Variadic<1DTensorOf<[F32]>>:$after);
  let assemblyFormat = [{
    $tile (`after` `(` $after^ `:` type($after) `)`)? attr-dict `:` type($tile)
  }];
  let hasVerifier = 1;
}

def Attn_WaitTileOp : Attn_Op<"wait_tile", [
    MemoryEffects<[MemRead<Attn_KvRing>, MemWrite<Attn_KvRing>]>]> {
  let summary = "consumers: wait until a Q, K or V tile has landed in shared memory";
  let description = [{
    `tile` is a tile that is loaded asynchronously (TMA) into shared memory:
    a K or V tile in its ring stage, a result of `attn.ring_pop` (or a value
    a rotated kv loop carries from one) or, in a tile without
    `attn.warp_specialize`, the `attn.load_tile` of a kv loop (its stage was
    filled ahead); or the tile's Q. The op waits on the stage's full
    mbarrier, at the phase of the tile's ring iteration, or on Q's mbarrier.
    A GEMM that reads the tile must follow it.

    `attn-insert-waits` places it where the kernel waits: K right before the
    step's `attn.qk`; V right after K's release (where V landed with K, so
    that no try-wait separates the softmax from P V), or, in a rotated step,
    the previous block's V right after K; Q once, right before the tile's
    first kv op.
  }];
  let arguments = (ins Attn_Tile:$tile);
  let assemblyFormat = "$tile attr-dict `:` type($tile)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `tile` lands asynchronously in shared memory, so that there
    /// is a landing to wait for: a pop's tile (carried or not) or a loaded
    /// tile (Q, or K or V without a producer).
    static bool landsAsynchronously(::mlir::Value tile);
  }];
}

def Attn_WaitGemmsOp : Attn_Op<"wait_gemms", [
    MemoryEffects<[MemRead<Attn_GemmGroups>, MemWrite<Attn_GemmGroups>]>]> {
  let summary = "consumers: wait until at most `pending` of this warpgroup's GEMMs are in flight";
  let description = [{
    `attn.qk` and `attn.pv` are issued asynchronously (wgmma), each as one
    group; this op waits until at most `pending` of the most recently
    issued groups are still running (`wgmma.wait_group pending`). An op that
    reads a GEMM's result, or writes the registers of its accumulator, must
    follow a wait that completed it; a kv step ends with none in flight.

    `attn-insert-waits` places them: in a kv step, `pending(0)` after the S
    GEMM (and its ping-pong turn) and after P V; in a rotated step,
    `pending(1)` after both issues (S complete, P V of the previous block in
    flight under the softmax) and `pending(0)` after the softmax.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "`pending` `(` $pending `)` attr-dict";
  let hasVerifier = 1;
}

class Attn_TurnOp<string mnemonic>
    : Attn_Op<mnemonic,
              [MemoryEffects<[MemRead<Attn_GemmTurn>, MemWrite<Attn_GemmTurn>]>]> {
  let arguments = (ins
      OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$warpgroup);
  let assemblyFormat = "(`warpgroup` `(` $warpgroup^ `)`)? attr-dict";
  let hasVerifier = 1;
}

def Attn_WaitTurnOp : Attn_TurnOp<"wait_turn"> {
  let summary = "consumers: wait for this warpgroup's turn to issue its GEMMs";
  let description = [{
    FlashAttention-3's ping-pong, as two ops: the two consumer warpgroups of
    an `attn.warp_specialize` take turns issuing their tensor-core work, so
    that one warpgroup's softmax runs while the other's GEMMs occupy the
    tensor cores. `attn.wait_turn` blocks until the other warpgroup passed
    the turn with `attn.pass_turn`; warpgroup 0 has the first turn. A turn
    issues the GEMMs between the two ops: the step's `attn.qk` and, in a
    software-pipelined kv loop (`attn.stage`, rotated by
    `attn-pipeline-kv-loops`), the previous block's `attn.pv`, which the
    rotated step issues right after it.

    `warpgroup(w)`: only consumer warpgroup `w` executes the op. The turns
    start and end with one: warpgroup 0 has the first turn because
    warpgroup 1 passes it once before the kv ops (`attn.pass_turn
    warpgroup(1)`), which leaves warpgroup 0's barrier one arrival ahead;
    warpgroup 0 waits once more after the tile's `attn.finalize`
    (`attn.wait_turn warpgroup(0)`), so that no arrival is pending when the
    CTA exits.

    `attn-warp-specialize` (`ping-pong`) puts `attn.wait_turn` right before
    and `attn.pass_turn` right after the `attn.qk` of every consumer kv
    loop, the first turn's `attn.pass_turn warpgroup(1)` before the first
    kv loop and the last `attn.wait_turn warpgroup(0)` after
    `attn.finalize`; `convert-attn-to-nvvm` lowers them to named barriers
    (a `bar.sync` on this warpgroup's barrier, a `bar.arrive` on the
    other's). Only in the consumer region of an `attn.warp_specialize` with
    two consumer warpgroups.

    ```mlir
    attn.pass_turn warpgroup(1)
    %r:3 = scf.for ... {
      attn.wait_turn
      %s = attn.qk %q, %k : ...
      attn.pass_turn
      ...
    }
    %o, %lse = attn.finalize ...
    attn.wait_turn warpgroup(0)
    ```
  }];
}

def Attn_PassTurnOp : Attn_TurnOp<"pass_turn"> {
  let summary = "consumers: hand the GEMM turn to the other warpgroup";
  let description = [{
    Ends this warpgroup's turn (see `attn.wait_turn`): the other consumer
    warpgroup may issue its GEMMs.
  }];
}

//===----------------------------------------------------------------------===//
// Kernel-level scheduling
//===----------------------------------------------------------------------===//

/// The launch of the kernels that wait on this one's grid (a programmatic
/// dependent launch).
def Attn_DependentLaunch : Resource<"::mlir::attn::DependentLaunchResource">;

def Attn_LaunchDependentsOp : Attn_Op<"launch_dependents",
    [MemoryEffects<[MemWrite<Attn_DependentLaunch>]>]> {
  let summary = "let the kernels that depend on this one launch now";
  let description = [{
    Where the threads of a tile reach this op, the CTA lets the kernel's
    programmatic dependents launch (PTX `griddepcontrol.launch_dependents`):
    a dependent that the runtime launches with programmatic stream
    serialization may start once every CTA of the grid executed it or
    exited, instead of after the grid completed. It changes only when the
    dependent starts, never what it reads: the dependent waits for the whole
    grid's completion and memory (`griddepcontrol.wait`) before its first
    load of this kernel's outputs.

    The one dependent attnc launches is the combine kernel of a split-KV
    attention (`attn.combine_splits`): a split tile that holds this op makes
    the combine a programmatic dependent launch (`#attn.split_kv`'s
    `programmatic_launch`, the manifest's
    `split_kv.combine.programmatic_launch`); one without it, an ordinary
    launch after the attention kernel. `attn-signal-dependents` puts the op
    at the tile's epilogue (right before its `attn.finalize`) or at its
    start (before its first kv loop); `convert-attn-to-nvvm` lowers it where
    it stands among the tile's kv loops and `attn.finalize` (after
    `attn.finalize`: before the forall's terminator stores O and the LSE; a
    dependent waits for the whole grid before it reads them). Only at the
    top level of a tile:
    the consumer region of an `attn.warp_specialize`, or the body of the
    tiling `scf.forall` without warp specialization.

    ```mlir
    %acc:3 = scf.for ... { ... }
    attn.launch_dependents
    %o, %lse = attn.finalize %acc#2, %acc#1, %acc#0 scale %scale ...
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // ATTN_OPS_TD
