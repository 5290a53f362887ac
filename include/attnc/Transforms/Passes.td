//===- Passes.td - attnc transformation passes -------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The target-independent half of the attention pipeline, in pipeline order:
// raise frontend graphs to attn.attention, tile, fuse the softmax passes
// into one online loop, split masked loops.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TRANSFORMS_PASSES_TD
#define ATTNC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnRaiseAttentionPass : Pass<"attn-raise-attention", "func::FuncOp"> {
  let summary = "Raise softmax(scale * Q K^T + mask) V in linalg or TOSA to attn.attention";
  let description = [{
    Recognizes attention the way frontends emit it and rewrites it to one
    `attn.attention`. Every contraction whose left operand is a softmax is
    a candidate:

    - linalg on tensors: `linalg.batch_matmul`, `linalg.matmul` or a
      contraction `linalg.generic`; `linalg.softmax` or its decomposed form
      (row max, subtract, exp, row sum, divide or multiply by the
      reciprocal), steps fused into any elementwise ops, in f32 after
      `arith.extf` or in the input type; an optional NaN guard
      `select(isnan(p) or rowmax == -inf, 0, p)` around it.
    - TOSA: `tosa.matmul`, `tosa.transpose` of K, `tosa.reduce_max`,
      `tosa.sub`, `tosa.exp`, `tosa.reduce_sum`, `tosa.reciprocal` and
      `tosa.mul`.

    In both: a scale by splat constants on the scores, on Q or on K (the
    attribute is their product); one additive mask computed from constants
    (a constant, or index arithmetic and comparisons in `linalg.generic`,
    as a tensor or inline in the op that adds it),
    which must be 0 or -inf everywhere and equal to a `causal`,
    `causal_bottom_right` or sliding-window mask of the static score shape;
    K transposed in the indexing maps or by a transpose; Q, K and V merged
    from `[B, H, S, D]` by a reshape (a 3-D graph without one raises with
    B = 1, a 2-D graph with B = H = 1); key/value heads expanded for GQA
    (`linalg.broadcast`, or TOSA reshape + tile, then a reshape); and a
    `[0, 2, 1, 3]` transpose from BSHD on all of Q, K and V (`layout = bshd`);
    an f32 P V of bf16/f16 operands when the graph casts it back.

    A candidate that fails a later step gets a remark
    `not raised: <reason>`; other contractions are left alone silently.
    Raised graphs are erased; `attn.attention` replaces the output (through
    the graph's reshape and transpose back when it has them).

    ```mlir
    // before: linalg.batch_matmul(Q, transpose(K)) * 0.125 -> linalg.softmax
    //         -> linalg.batch_matmul(P, V), on [B * H, S, D] tensors
    // after
    %o = attn.attention %q, %k, %v scale = 1.250000e-01
        : tensor<2x8x128x64xf32>, ... -> tensor<2x8x128x64xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::attn::AttnDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let statistics = [
    Statistic<"numRaised", "num-raised", "Number of attention graphs raised">,
  ];
}

def AttnGeneralizeLengthsPass
    : Pass<"attn-generalize-lengths", "ModuleOp"> {
  let summary = "Make batch and sequence dimensions of attention operands dynamic";
  let description = [{
    A GPU kernel takes the batch size and the sequence lengths at launch
    time, so the kv loops it runs must not be folded for one static shape.
    For every function argument used only as the Q, K or V of
    `attn.attention` ops, in a function nothing calls (its signature
    changes), this pass makes its batch and sequence dimensions dynamic
    (only the sequence dimension of a varlen batch, whose batch of 1 packs
    the sequences), with the attention results and the function's result
    types following (a `tensor.cast` back to the static type for any other
    user).
    Head counts and head dims stay static. `attn-lower-to-nvvm-pipeline` runs
    it before tiling; `convert-attn-to-nvvm` rejects static lengths.

    ```mlir
    // before
    func.func @f(%q: tensor<2x8x1024x64xbf16>, ...) -> tensor<2x8x1024x64xbf16>
    // after
    func.func @f(%q: tensor<?x8x?x64xbf16>, ...) -> tensor<?x8x?x64xbf16>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numGeneralized", "num-generalized",
              "Number of function arguments made dynamic">,
  ];
}

def AttnPackGqaPass : Pass<"attn-pack-gqa", "ModuleOp"> {
  let summary = "Pack the query heads that share a kv head into one head of more rows";
  let description = [{
    FlashAttention-3's pack-GQA. With grouped-query attention (Hq = g * Hkv)
    and few query rows (a decode step has one per sequence), a kernel with a
    tile per (batch, query head) fills each query tile with Nq rows and
    reads every K/V tile g times. This pass rewrites an `attn.attention`
    whose Q is a function argument into the attention of the packed
    problem: Q becomes [B, Hkv, g * Nq, D], row `n * g + j` of kv head `h`
    being query head `h * g + j`, token `n` (token-major, FlashAttention-3's
    order), and O and the LSE follow. That is a strided view of the caller's
    memory in either layout, so the kernel takes the caller's tensors; the Q
    argument records `g` as `attn.packed_query_heads`, which the manifest
    carries and the runtime obeys (docs/Runtime.md).

    The attention records `packed_query_heads = g`, so its masks and
    windows see packed row `n * g + j` at query position `n` (a decode
    step's bottom-right causal mask, a speculative decode's few tokens, a
    causal prefill): a tile's rows are a run of whole tokens, and its kv
    range is that of those tokens. Attentions are packed where g divides 64
    (a warpgroup's rows of O hold whole tokens) or Nq is statically 1 (not
    for varlen); a varlen batch's `cu_seqlens_q` keeps counting
    tokens (sequence b is packed rows `[g cu_seqlens_q[b],
    g cu_seqlens_q[b + 1])`). Q must be an argument used only by
    the attention and results used only by the function's return, in a
    function nothing calls (its signature changes). Others are left as they
    are. The GPU pipelines run it before `attn-generalize-lengths`, so that
    a graph's static Nq of one token is seen.

    ```mlir
    // before
    func.func @f(%q: tensor<?x32x?x128xbf16>, %k: tensor<?x8x?x128xbf16>, ...)
        -> tensor<?x32x?x128xbf16>
    // after
    func.func @f(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
                 %k: tensor<?x8x?x128xbf16>, ...) -> tensor<?x8x?x128xbf16>
    ```
  }];
  let options = [
    Option<"maskedRowLimit", "masked-row-limit", "int64_t", /*default=*/"-1",
           "Pack an attention with a mask or window only when its packed "
           "rows (g * Nq) are static and at most this many (-1: any; 0: "
           "none). Its masks see each row's query position either way">,
  ];
  let statistics = [
    Statistic<"numPacked", "num-packed", "Number of attentions packed">,
  ];
}

def AttnSplitKvPass : Pass<"attn-split-kv", "ModuleOp"> {
  let summary = "Give decode steps (and, per dynamic-rows, attentions of "
                "dynamic rows) a kv split count chosen at launch";
  let description = [{
    Flash-decoding for the graphs that need it. A decode step has few query
    rows per (batch, kv head), so its kernel has B x Hkv tiles (after
    `attn-pack-gqa`) however long the cache, and most SMs idle at small
    batches. For every `attn.attention` without `kv_splits`
    whose query rows (Q's sequence dimension: the packed rows after
    `attn-pack-gqa`) are static and at most `max-rows`, in a function
    nothing calls (its signature changes), this pass appends an index
    argument to the function and gives it to the attention as `kv_splits`.
    `convert-attn-to-nvvm` makes it the kernel's `kv_splits` parameter,
    which the runtime sets at each launch from the lengths
    (docs/Runtime.md's split heuristic: 1 split when the grid already fills
    the SMs or the launch has at most 256 keys). An attention whose query
    rows are dynamic (a kernel for every Nq, prefill and decode alike) is
    split as `dynamic-rows` says: its decode launches at small batches then
    fill the SMs, while its prefill launches run one split and pay for the
    split form where it
    costs (3-6 % at D = 64, causal: bench/HISTORY.md runs 135 and 137), so
    `auto` splits it where the target's table says
    (`getDefaultDynamicRowSplit`: above D = 64 on sm_90a). A varlen batch's
    rows per sequence are known only at launch, so it is split as
    `dynamic-rows` says: one count for the whole batch, each split taking
    its share of every sequence's own key blocks. The GPU pipeline
    runs it after `attn-pack-gqa` and before `attn-generalize-lengths`,
    which makes the rows dynamic.

    ```mlir
    // before
    func.func @f(%q: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64}, ...)
    // after
    func.func @f(%q: tensor<?x8x4x128xbf16> {attn.packed_query_heads = 4 : i64}, ...,
                 %arg3: index) {
      %o = attn.attention %q, %k, %v kv_splits(%arg3) ...
    ```
  }];
  let options = [
    Option<"maxRows", "max-rows", "int64_t", /*default=*/"128",
           "Split an attention whose static query rows are at most this "
           "many (-1: any static count; a dynamic count as dynamic-rows "
           "says)">,
    Option<"dynamicRows", "dynamic-rows", "::mlir::attn::TableChoice",
           /*default=*/"::mlir::attn::TableChoice::Auto",
           "Also split attentions whose query rows are dynamic: on, off, or "
           "auto (the target's table: above D = 64 on sm_90a)",
           [{::mlir::attn::tableChoiceValues("every such attention")}]>,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "Target whose tile table decides dynamic-rows=auto">,
  ];
  let statistics = [
    Statistic<"numSplit", "num-split", "Number of attentions given kv splits">,
  ];
}

def AttnConfigureTilesPass : Pass<"attn-configure-tiles", "func::FuncOp"> {
  let summary = "Record each attention's tile sizes while its shape is static";
  let description = [{
    The configuration step of the GPU pipeline (IREE's `lowering_config`
    model): every `attn.attention` without `tile_sizes` gets the tile
    `attn-tile` would choose, `[block_m, block_n]` from the options where
    positive, else from the target's table (`getDefaultTileConfig`). The
    table sizes a tile by the attention's query rows where they are static:
    a decode step's rows (the packed rows after `attn-pack-gqa`, say 4 query
    heads x 1 token) fill one 64-row warpgroup, so it takes `block_m = 64`,
    not the 128 rows of a prefill tile. `attn-lower-to-nvvm-pipeline` runs it
    before `attn-generalize-lengths` makes the rows dynamic; the tile is then
    in the IR for every later pass and for an embedding compiler to change.

    ```mlir
    // before: 4 packed query rows, D = 128
    %o = attn.attention %q, %k, %v kv_splits(%s)
        : tensor<?x8x4x128xbf16>, ... -> tensor<?x8x4x128xbf16>
    // after (a one-warpgroup decode tile at D = 128 takes 64-key blocks)
    %o = attn.attention %q, %k, %v kv_splits(%s) tile_sizes = [64, 64] ...
    ```
  }];
  let options = [
    Option<"blockM", "block-m", "int64_t", /*default=*/"0",
           "Query rows per tile (0: per-target default)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Key/value rows per tile (0: per-target default)">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "Target whose tile table gives the defaults">,
  ];
  let statistics = [
    Statistic<"numConfigured", "num-configured",
              "Number of attention ops given tile sizes">,
  ];
}

def AttnGeneralizeScalePass : Pass<"attn-generalize-scale", "ModuleOp"> {
  let summary = "Make the softmax scale of each attention a function argument";
  let description = [{
    A GPU kernel takes the softmax scale at launch, as cuDNN's and
    FlashAttention's do, so one kernel serves every scale. For every
    `attn.attention` with a compile-time scale (its `scale` attribute, or
    1/sqrt(D) without one) in a function nothing calls (its signature
    changes), this pass appends an f32 argument to the function and gives it
    to the attention as `scale_value`. The argument records the compiled-in
    value as `attn.scale`, the scale a tool tests the kernel with by default.
    `attn-lower-to-nvvm-pipeline` runs it before tiling; attn-tile then
    computes the tiles' scale values from the argument, and
    `convert-attn-to-nvvm` makes it the kernel's `scale` parameter.

    ```mlir
    // before
    func.func @f(%q: ..., %k: ..., %v: ...) {
      %o = attn.attention %q, %k, %v scale = 0.125 : ...
    // after
    func.func @f(%q: ..., %k: ..., %v: ..., %scale: f32 {attn.scale = 0.125 : f32}) {
      %o = attn.attention %q, %k, %v scale_value(%scale) : ...
    ```
  }];
  let statistics = [
    Statistic<"numGeneralized", "num-generalized",
              "Number of attention scales made function arguments">,
  ];
}

def AttnAssignLayoutsPass : Pass<"attn-assign-layouts", "func::FuncOp"> {
  let summary = "Give every GPU tile value its register or shared-memory layout in its type";
  let description = [{
    Sets the encoding of every tile value of each tiling `scf.forall` of a
    bf16/f16 attention, so that where each value lives is in the IR and
    `convert-attn-to-nvvm` follows it:

    - the Q, K and V tiles (`attn.load_tile`, `attn.ring_pop`):
      `#attn.swizzled_shared`, with the swizzle the sm_90a table picks;
    - the f32 tiles S, P and O (`attn.qk`, `attn.mask`, `attn.softcap`,
      `attn.exp_diff`, `attn.pv`, `attn.scale_rows`, the kv loops' carried
      O and its splat initial value): `#attn.wgmma_accumulator` over the
      tile's consumer warpgroups (the `consumers` of its
      `attn.warp_specialize`, `block_m / 64` without one);
    - the row vectors m and l (`attn.row_max`, `attn.row_sum`,
      `attn.rescale_factor`, carried values and initial values):
      `#attn.accumulator_rows` of that accumulator layout.

    Splat constants the tile reads (the online softmax's initial m, l and
    O) are rebuilt with their layouts at the start of the forall.
    `attn.finalize`'s O and LSE stay in those registers (O in the
    accumulator's layout, in its element type; the LSE in its rows'), as do
    the results of the `attn.warp_specialize` that yields them, up to the
    forall's terminator, which stores their valid rows (a plain
    `tensor.extract_slice` of them, by `tensor.parallel_insert_slice`). A
    forall whose tile values already have layouts (set by an embedding
    compiler, or by hand) is left alone, and so is one that no layout can
    hold (a `block_m` that is not a multiple of 64, a width wgmma cannot
    take, a tile operand from outside the tile that is not a splat
    constant): `convert-attn-to-nvvm` names the rule it breaks.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AttnAllocateSharedMemoryPass
    : Pass<"attn-allocate-shared-memory", "func::FuncOp"> {
  let summary = "Lay out each GPU tile's shared memory and barriers in the IR";
  let description = [{
    Gives every tiling `scf.forall` of a bf16/f16 attention an
    `attn.shared_memory = #attn.shared_memory<...>` attribute: the byte
    offsets of the Q tile, of O's staging buffer (over Q), the K and V
    stages of the ring (the stage count of its `attn.warp_specialize`, 2
    without one), the P buffer when P V reads P
    from shared memory, and the mbarriers, including whether consumers hand
    K back on its own barrier (with two stages). Each buffer holds its tile
    in the tile's `#attn.swizzled_shared` layout (attn-assign-layouts runs first; a tile
    without layouts is left alone); P's in the table's, recorded as
    `probs_layout`. It also gives out the named barrier ids
    (`bar.sync`, 1..15): one per consumer warpgroup (the warpgroups of the
    tile's `#attn.wgmma_accumulator`), then, where the tile's kv loops take
    ping-pong turns (`attn.wait_turn`), one more per consumer warpgroup.
    `convert-attn-to-nvvm` uses these offsets and ids and computes none. A
    tile that needs more than the 227 KiB a CTA may use on
    sm_90a is a diagnostic. A forall that already has the attribute keeps
    it.
  }];
  let options = [
    Option<"probsInRegisters", "probs-in-registers", "bool", /*default=*/"true",
           "O += P V reads P from registers (wgmma RS); false: a P buffer "
           "and wgmma SS (FA3's ablation)">,
  ];
}

def AttnOrderTilesPass : Pass<"attn-order-tiles", "func::FuncOp"> {
  let summary = "Choose, in the IR, which query block each grid x block takes";
  let description = [{
    A kernel's grid launches its x blocks in order. With a mask that hides
    keys (causal, windows) the last query blocks have the most kv blocks;
    launched first, the short ones fill the last wave (FA2 and FA3 do
    this). With `order=longest-first` the pass replaces each tiling
    `scf.forall`'s query-block induction variable (the one mapped to
    `#gpu.block<x>`) by `ub - 1 - iv`, `ub` being the forall's bound for it:
    block x computes query block `ceil(Nq / block_m) - 1 - x`.
    convert-attn-to-nvvm clones that index arithmetic into the kernel like
    any other, so the order is what the IR computes. `order=auto` does so
    where the tile's mask (on `attn.finalize`) hides keys, `in-order` never.
    A forall whose query-block index is already reversed is left alone.
  }];
  let options = [
    Option<"order", "order", "std::string", /*default=*/"\"auto\"",
           "in-order, longest-first, or auto (longest-first for masks that "
           "hide keys)">,
  ];
}

def AttnConditionalRescalePass
    : Pass<"attn-conditional-rescale", "func::FuncOp"> {
  let summary = "Let the GPU kernel skip O's rescale where no row maximum moved";
  let description = [{
    Marks every `attn.scale_rows` of a tile (the online softmax's
    `O *= alpha`) whose factor is the `attn.rescale_factor` of its own kv
    step `conditional`: the GPU kernel then multiplies a warp's rows only
    where some row maximum moved during the kv block (a `vote.sync.any` and
    a branch; exact, alpha is 1 elsewhere), as FlashAttention-4 does. Late
    in a long kv range most maxima are final, but on the H200 the skip
    measured neutral to 4 % slower (the branch and the vote against 64-128
    multiplies; `bench/RESULTS.md`), so the GPU pipelines run the
    pass only with `conditional-rescale=true`, after
    `attn-pipeline-kv-loops`. The rotated loops' O update (the
    intra-warpgroup overlap, on from D = 80 in the sm_90a table) takes the
    previous step's alpha, carried, and is left unmarked: the kernel
    multiplies it. Row vectors (`l`) are left alone too.
  }];
}

def AttnDeferSoftcapCapPass : Pass<"attn-defer-softcap-cap", "func::FuncOp"> {
  let summary = "Leave a soft-cap's cap to the row max and the exponentials";
  let description = [{
    `attn.softcap` multiplies each of its tanh values by the cap. Where every
    user of its result, through `attn.mask` ops (a positive factor keeps a
    masked -inf), is the scores of an `attn.row_max` or an `attn.exp_diff`,
    the pass sets the softcap's `output_scale` to 1 and multiplies those
    users' `score_scale` by what the softcap multiplied by (`output_scale`,
    the cap when absent): the row max multiplies each row's
    maximum once, and the exponentials fold the cap into their multiplier
    (`s * (cap * scale_log2)`), so the GPU kernel issues one multiply per
    score fewer. That measured 0–3 % faster up to a query-key head dim of 128,
    where the softmax's instruction issue bounds the kv step; at D = 256
    the cap's live register made the kernels spill 16 B while P crossed the
    rotated loop's back edge in f32, but with P carried in bf16 they do not
    spill, and deferring the cap costs the softcap 1–2 % less there too.
    Softcaps whose `attn.qk` has a head dim above `max-head-dim`
    are left alone (default 256: every head dim the GPU lowering takes; a
    smaller value is an ablation).

    ```mlir
    %c = attn.softcap %s scale %x cap = 3.000000e+01 : tensor<128x128xf32>
    %m1 = attn.row_max %c init %m : tensor<128x128xf32> -> tensor<128xf32>
    // becomes
    %c = attn.softcap %s scale %x cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32>
    %m1 = attn.row_max %c init %m score_scale = 3.000000e+01 : tensor<128x128xf32> -> tensor<128xf32>
    ```
  }];
  let options = [
    Option<"maxHeadDim", "max-head-dim", "int64_t", /*default=*/"256",
           "the largest head dim of the softcap's attn.qk whose cap is left "
           "to its users">,
  ];
  let statistics = [
    Statistic<"numDeferred", "num-deferred",
              "Number of softcaps whose cap their users apply">,
  ];
}

def AttnSoftcapFixedMaxPass : Pass<"attn-softcap-fixed-max", "func::FuncOp"> {
  let summary = "Give a soft-capped softmax a fixed max instead of a running one";
  let description = [{
    A soft-cap bounds every score: `|output_scale * tanh(x)| < output_scale`,
    times the users' `score_scale` (the cap, in all). The online softmax
    subtracts a running row max only so that its exponentials cannot
    overflow; scores that are bounded need no such max. Where an
    attention's kv loops carry a running max whose every step reads
    soft-capped scores (through `attn.mask` ops), this pass subtracts a
    fixed max of 0 instead (FlashDecoding++'s unified max value): the
    first loop starts its max at 0 instead of -inf and each step's
    `attn.row_max` is replaced by the max it starts from. Its folds then
    remove what a max that never moves leaves behind: `attn.rescale_factor`
    of the max with itself is 1, `attn.scale_rows` of O by 1 is O, a
    running sum's `init_scale` of 1 goes, and the loops stop carrying the
    max. A step then costs no row max (a max per score and the quad's
    shuffles), no rescale of O (a multiply per element of O) and no
    exponential per row: the softcap's two MUFU operations per score are
    paid for by ALU work no longer done.

    The exponentials are `exp2(s * c)` with `|s| < bound` and `c` the
    exponentials' `scale_log2` (a positive constant: with a softcap the
    softmax scale is applied inside it): every probability lies in
    (2^-E, 2^E), E = bound * c. The pass applies where E is at most
    `max-exponent` (default 80: a cap of up to 55.4 with c = log2 e, which
    covers Gemma 2's 50 and Grok's 30). Then the running sum and O stay in
    f32's range unless Nk * 2^E * |V| reaches 2^128 (|V| * Nk >= 2^48 at
    E = 80), and a product of P and V is a normal f32 unless |V| < 2^(E - 126).
    P must be rounded to bf16 (or stay f32): f16's 65504 cannot hold 2^E,
    so a softmax whose `attn.pv` rounds P to f16 keeps its running max. A
    fully masked row still has l = 0, hence O = 0 and LSE = -inf
    (`attn.finalize`); the LSE is log(l) + 0.

    Attentions whose steps (in `scf.for` loops that carry the max, or
    peeled out of them) do not chain the running max from a splat -inf to
    one `attn.finalize`, whose max has other readers than the steps'
    `attn.row_max`, `attn.rescale_factor` and each step's own `attn.exp_diff`
    (of the same scores, alike scaled), or whose running sum and O do not
    start at 0 (the first step's factor of 0 discards their initial values;
    a fixed max would keep them) are left alone. The
    GPU pipeline runs it after `attn-defer-softcap-cap` (option
    `softcap-fixed-max`, default on).

    ```mlir
    %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%m = %minus_inf, %l = %zero, %o = %acc0) -> (...) {
      %t = attn.softcap %s scale %scale cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32>
      %m1 = attn.row_max %t init %m score_scale = 3.000000e+01 : tensor<128x128xf32> -> tensor<128xf32>
      %a = attn.rescale_factor %m, %m1 scale_log2 %c : tensor<128xf32>
      %p = attn.exp_diff %t, %m1 scale_log2 %c score_scale = 3.000000e+01 : tensor<128x128xf32>, tensor<128xf32>
      %l1 = attn.row_sum %p init %l scaled %a : tensor<128x128xf32> -> tensor<128xf32>
      %o1 = attn.scale_rows %o, %a : tensor<128x128xf32>, tensor<128xf32>
      %o2 = attn.pv %p, %v, %o1 : tensor<128x128xf32>, tensor<128x128xbf16>, tensor<128x128xf32>
      scf.yield %m1, %l1, %o2 : ...
    }
    // becomes (%zero_max = arith.constant dense<0.0> : tensor<128xf32>)
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%l = %zero, %o = %acc0) -> (...) {
      %t = attn.softcap %s scale %scale cap = 3.000000e+01 output_scale = 1.000000e+00 : tensor<128x128xf32>
      %p = attn.exp_diff %t, %zero_max scale_log2 %c score_scale = 3.000000e+01 : tensor<128x128xf32>, tensor<128xf32>
      %l1 = attn.row_sum %p init %l : tensor<128x128xf32> -> tensor<128xf32>
      %o2 = attn.pv %p, %v, %o : tensor<128x128xf32>, tensor<128x128xbf16>, tensor<128x128xf32>
      scf.yield %l1, %o2 : ...
    }
    ```
  }];
  let options = [
    Option<"maxExponent", "max-exponent", "double", /*default=*/"80.0",
           "the largest bound * scale_log2 (the binary exponent of the "
           "largest probability) for which the max is fixed">,
  ];
  let statistics = [
    Statistic<"numFixed", "num-fixed",
              "Number of attentions whose softmax max is fixed">,
  ];
}

def AttnSignalDependentsPass : Pass<"attn-signal-dependents", "func::FuncOp"> {
  let summary = "Say in the IR when a split-KV tile lets its combine kernel launch";
  let description = [{
    A split-KV attention runs as two kernels: the tiles write partial O and
    LSE, then `attn.combine_splits` merges them. As a programmatic dependent
    launch the combine kernel starts while the attention kernel's last tiles
    still run, and waits for that grid on the GPU before it reads a partial
    (instead of a launch gap after the grid completed). The pass puts one
    `attn.launch_dependents` at the top level of every split-KV tile (the
    consumer region of its `attn.warp_specialize`, or the tiling
    `scf.forall`'s body): with `at=epilogue` (the default) right before the
    tile's `attn.finalize`, with `at=start` before its first kv loop (and
    before the ping-pong's first `attn.pass_turn warpgroup(1)`). A tile
    that already holds one is left alone; tiles without a kv split have no
    dependent and get none.

    Where the op stands is when a CTA signals. At the start, the combine's
    CTAs occupied SMs through the whole kv loop: MQA at B = 8 ran at 1.28
    TB/s against 1.41 with an ordinary launch; at the epilogue the launch
    overlaps the last tiles' stores: 1.49 there, and 2.69 against 2.59 TB/s
    at B = 1, Nk = 32k (`bench/HISTORY.md`).
  }];
  let options = [
    Option<"at", "at", "std::string", /*default=*/"\"epilogue\"",
           "epilogue (before attn.finalize) or start (before the first kv "
           "loop)">,
  ];
}

def AttnTilePass : Pass<"attn-tile", "func::FuncOp"> {
  let summary = "Tile attn.attention into block loops over tile-level ops";
  let description = [{
    Rewrites every `attn.attention` into an `scf.forall` over
    (batch, query head, query block) whose body loads a `block_m` x D query
    tile and runs the classic three-pass softmax over key/value blocks of
    `block_n` rows: one loop for the row max, one for the row sum, one for
    P V, then `attn.finalize`. Each query head reads key/value head
    `h / (Hq / Hkv)` (GQA). Key blocks that the mask hides entirely are never
    visited: the kv loops run over the minimal block range of the query block.
    Sequence lengths need not divide the tile sizes; `attn.load_tile` zero-fills
    and `attn.mask` hides the ragged tail.

    Tile sizes come from, in order: the op's `tile_sizes` attribute, the pass
    options, the per-target table (`getDefaultTileConfig`). The forall maps
    query blocks to `#gpu.block<x>`, heads to `y` and batches to `z`: the
    grid a kernel launches (and canonicalization keeps dimensions of extent
    1, which the kernel lowering needs).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"blockM", "block-m", "int64_t", /*default=*/"0",
           "Query rows per tile (0: per-target default)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Key/value rows per tile (0: per-target default)">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "Target whose tile table gives the defaults">,
  ];
  let statistics = [
    Statistic<"numTiled", "num-tiled", "Number of attention ops tiled">,
  ];
}

def AttnFuseOnlineSoftmaxPass
    : Pass<"attn-fuse-online-softmax", "func::FuncOp"> {
  let summary = "Fuse the three softmax passes into one online-softmax loop";
  let description = [{
    Matches the max / sum / P V loops that `attn-tile` produces and replaces
    them with one kv loop carrying the running row max `m`, the running row
    sum `l` and the unnormalized accumulator:

    ```
    m' = row_max(S, init m);  a = rescale_factor(m, m')
    P  = exp_diff(S, m')      // exp2((S - m') * scale * log2 e)
    l' = row_sum(P, init l scaled a)   // l * a + rowsum P
    acc' = pv(P, V, scale_rows(acc, a))
    ```

    The 1/l normalization and the LSE stay in the epilogue
    (`attn.finalize`). `rescale_factor` is 0 while m is -inf, so rows that
    see no key end with O = 0 and LSE = -inf, never NaN.
  }];
  let statistics = [
    Statistic<"numFused", "num-fused", "Number of softmax loop triples fused">,
  ];
}

def AttnSplitMaskedLoopsPass
    : Pass<"attn-split-masked-loops", "func::FuncOp"> {
  let summary = "Split kv loops so only edge blocks apply the mask";
  let description = [{
    For every kv loop whose body applies `attn.mask`, computes the range of
    key blocks that every row of the query block sees entirely and splits the
    loop into up to three: masked blocks before that range (sliding-window
    edge), the unmasked range with the `attn.mask` removed, and masked blocks
    after it (causal diagonal, ragged key tail). Iteration order and the
    carried values are preserved.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numSplit", "num-split", "Number of kv loops split">,
  ];
}

def AttnWarpSpecializePass
    : Pass<"attn-warp-specialize", "func::FuncOp"> {
  let summary = "Partition each query tile into a K/V producer and consumer warpgroups";
  let description = [{
    Wraps the kv loops and the epilogue of every fused query tile in an
    `attn.warp_specialize` (FlashAttention-3's warp specialization, made
    visible in the IR):

    * the `producer` region gets one loop over the tile's kv blocks (the
      lower bound of the consumers' first kv loop to the upper bound of their
      last, the same values; `buildKvBlockRange` anew where canonicalization
      folded those loops; kv loops that do not partition one range, one
      block a step, from bounds computed before them are a diagnostic) that
      loads each K/V tile pair and `attn.ring_push`es it;
    * the `consumer` region gets the kv loops, in which each K/V
      `attn.load_tile` pair becomes one `attn.ring_pop` (with an
      `attn.ring_release` of K right after the S GEMM and of V last in the
      step), and `attn.finalize`, whose results it yields.

    block_m / 64 consumer warpgroups (block_m must be 64, 128 or 192); the
    setmaxnreg budgets come from the target's table (24/240 with two
    consumers). With two consumers `ping-pong` makes them take turns on the
    tensor cores: `attn.wait_turn` before and `attn.pass_turn` after the
    `attn.qk` of every consumer kv loop; `intra-warpgroup-overlap` overlaps each consumer's
    softmax with its previous P V GEMM (with ping-pong, a turn issues both
    GEMMs): it marks the accumulator update of every consumer kv loop (O's
    `attn.scale_rows` and the `attn.pv`) `attn.stage = 1`, a two-stage
    software pipeline that attn-pipeline-kv-loops rotates the loops into. With `target` set, tiles
    whose head dim the target's table does not specialize are left alone,
    ping-pong is set only where the table keeps it, and `stages = 0` and
    `intra-warpgroup-overlap = auto` take the table's schedule (an explicit
    `stages` keeps the table's overlap choice). `software-exp2-period = N`
    (N >= 1) gives every `attn.exp_diff` in the kv loops of the specialized
    tiles `software_exp2_period = N` (one exp2 pair in N on the FMA pipe);
    0 takes the table's choice (on sm_90a, for a soft-capped softmax whose
    exponentials subtract a fixed max, attn-softcap-fixed-max, 4 at a head
    dim of at most 64 and 3 at most 128; none otherwise), -1 turns it off.
    Run after attn-fuse-online-softmax (and attn-split-masked-loops); the
    result is for convert-attn-to-nvvm, not for the CPU lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Consult this target's table (e.g. sm_90a) and specialize only "
           "where it says so; empty: specialize every tile">,
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Shared-memory stages of the K/V ring (3 fits at D <= 128); 0: "
           "the target's table, 2 without a target">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
           "With two consumer warpgroups: take turns issuing the S GEMM "
           "(named barriers) so one's softmax overlaps the other's GEMMs">,
    Option<"overlap", "intra-warpgroup-overlap", "::mlir::attn::TableChoice",
           /*default=*/"::mlir::attn::TableChoice::Auto",
           "Run the softmax of block j while the P V GEMM of block j-1 is in "
           "flight: on, off, or auto (the target's table; off without a "
           "target)",
           [{::mlir::attn::tableChoiceValues("every tile")}]>,
    Option<"softwareExp2Period", "software-exp2-period", "int64_t",
           /*default=*/"0",
           "Of every N element pairs of a consumer thread's scores, one "
           "computes its exp2 on the FMA pipe instead of MUFU.EX2 (sets "
           "attn.exp_diff's software_exp2_period); 0: the target's table "
           "(on sm_90a for a fixed-max softcap 4 at D <= 64, 3 at D <= "
           "128; off without "
           "a target), -1: off">,
  ];
  let statistics = [
    Statistic<"numSpecialized", "num-specialized",
              "Number of query tiles partitioned">,
  ];
}

def AttnPipelineKvLoopsPass
    : Pass<"attn-pipeline-kv-loops", "func::FuncOp"> {
  let summary = "Rotate software-pipelined kv loops: stage 1 of block j-1 runs in step j";
  let description = [{
    Turns the two-stage schedule that `attn.stage` marks on the consumer kv
    loops of an `attn.warp_specialize` (attn-warp-specialize's
    `intra-warpgroup-overlap`) into the loops the kernel runs, as
    FlashAttention-3's consumer does:

    * a prologue `scf.if` (there are kv blocks) runs stage 0 of the first
      block, `begin`: the S GEMM and the softmax, with the score modifiers
      of the first kv loop that has an `attn.mask` (every block may need
      the mask), else of the first loop; without blocks it yields P = 0,
      alpha = 1 and a `ub.poison` V tile, so stage 1 leaves O as it is;
    * each kv loop then runs blocks `max(lb, begin + 1)` to
      `max(ub, begin + 1)`, carrying P, alpha (the stage-0 values that stage 1
      reads) and the V tile of its block after the running max, sum and O.
      P is carried in V's element type: an `attn.truncate` in stage 0,
      right where the P V stood, rounds it, so that the next step holds it
      in half the registers of f32 P while its S GEMM is in flight.
      Its step issues S of block j, then stage 1 of block j-1 (O *= alpha,
      O += P V, the V release) right behind it, inside the step's ping-pong
      turn, and runs the softmax of block j under that GEMM;
    * an epilogue `scf.if` runs stage 1 of the last block; `attn.finalize`
      reads its O. It has no V release: a CTA computes one tile, so no
      later load waits for the stage.

    Stage-1 ops keep `attn.stage = 1`: they belong to the previous block.
    Loops without `attn.stage` are left alone; a tile whose kv loops are not
    all alike, or whose stages are not the accumulator update, is a
    diagnostic. The GPU pipelines run it after attn-allocate-shared-memory
    and before attn-conditional-rescale and attn-insert-waits;
    convert-attn-to-nvvm lowers the rotated loops and requires them where
    the loops are staged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
  let statistics = [
    Statistic<"numRotated", "num-rotated",
              "Number of consumer tiles whose kv loops were rotated">,
  ];
}

def AttnInsertWaitsPass : Pass<"attn-insert-waits", "func::FuncOp"> {
  let summary = "Write where each kv step waits for its tiles and GEMMs, and the tile for Q";
  let description = [{
    The K and V tiles of a kv step land asynchronously (TMA into a ring
    stage) and its GEMMs run asynchronously (wgmma). This pass places the
    waits the kernel runs, so that convert-attn-to-nvvm lowers them where
    they stand:

    * `attn.wait_tile` of K right before the step's `attn.qk`; of V right
      after the S wait and K's release (V landed with K: no try-wait then
      separates the softmax from P V); in a rotated step
      (attn-pipeline-kv-loops), K and the previous block's V before the
      ping-pong turn; in the rotated loops' epilogue, V first;
    * `attn.wait_gemms pending(0)` after the S GEMM (and its turn), and at
      the end of the step, after P V; in a rotated step `pending(1)` after
      both GEMM issues (S complete, the previous block's P V in flight under
      the softmax) and `pending(0)` after the softmax;
    * each `attn.ring_release` after the wait that completes the GEMM reading
      its tile: a rotated step and the prologue release K after the softmax,
      with the previous V, and a rotated step's releases name its row sums
      as their `after` operands (the arrivals stay behind the softmax);
    * `attn.wait_tile` of Q, which every S GEMM reads, once per tile: right
      before its first kv op (the first kv loop, or the rotated loops'
      prologue) at the top level of the consumer region, or of the forall
      without warp specialization.

    Steps that already hold waits, and blocks that are not one kv step (two
    S GEMMs, two turns), are left alone, and a tile whose top level waits
    for its Q gets no second wait. Runs after attn-pipeline-kv-loops,
    right before convert-attn-to-nvvm.
  }];
  let statistics = [
    Statistic<"numSteps", "num-steps", "Number of kv steps given waits">,
  ];
}

#endif // ATTNC_TRANSFORMS_PASSES_TD
