//===- AttnAttrs.td - attn dialect attributes --------------*- tablegen -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_ATTRS_TD
#define ATTN_ATTRS_TD

include "attnc/Dialect/Attn/AttnDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

class Attn_Attr<string name, string attrMnemonic> : AttrDef<Attn_Dialect, name> {
  let mnemonic = attrMnemonic;
}

// Named barrier ids, written `[1, 2]` (a bare list would run into the next
// key of a struct).
defvar Attn_BarrierIdsParser = [{
  [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
    ::llvm::SmallVector<int64_t> ids;
    if (::mlir::failed($_parser.parseCommaSeparatedList(
            ::mlir::AsmParser::Delimiter::Square,
            [&] { return $_parser.parseInteger(ids.emplace_back()); })))
      return ::mlir::failure();
    return ids;
  }()
}];
defvar Attn_BarrierIdsPrinter = [{
  $_printer << '[';
  ::llvm::interleaveComma($_self, $_printer);
  $_printer << ']';
}];
class Attn_BarrierIds<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = Attn_BarrierIdsParser;
  let printer = Attn_BarrierIdsPrinter;
}
class Attn_OptionalBarrierIds<string desc>
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = Attn_BarrierIdsParser;
  let printer = Attn_BarrierIdsPrinter;
}

def Attn_SharedMemoryAttr : Attn_Attr<"SharedMemory", "shared_memory"> {
  let summary = "a GPU tile's shared-memory buffers, mbarriers and named barriers";
  let description = [{
    The dynamic shared memory of one CTA, as `attn-allocate-shared-memory`
    lays it out and `convert-attn-to-nvvm` uses it (it computes no offset of
    its own). Offsets are bytes from the 1024-aligned start.

    - `query`, `query_bytes`: the Q tile (whole 64-column atoms of 128-byte
      swizzle).
    - `output`, `output_bytes`: where the epilogue stages O, in Q's layout,
      before it stores it (a TMA store, or a varlen tile's row stores).
      attn-allocate-shared-memory gives it the Q buffer, whose `query_bytes`
      then hold Q or O, whichever is larger: each consumer warpgroup writes
      its rows of O over its own rows of Q, which only its S GEMMs read, and
      only after its last one (a CTA computes one tile: a kernel that went
      on to the next tile's Q would have to wait for O's store first).
      `output` may start at `query` and lie inside it; elsewhere it may
      overlap no other buffer.
    - `keys`, `values`: the first K and V stages of the ring of `stages`
      stages, `key_stage_bytes` / `value_stage_bytes` apart.
    - `probs`, `probs_bytes`, `probs_layout`: P of every consumer
      warpgroup, present when O += P V reads P from shared memory (wgmma SS)
      instead of registers. P has no tile value of its own in shared memory
      (`attn.pv` takes it as its accumulator fragment), so its buffer's
      `#attn.swizzled_shared` layout is recorded here; the kernel writes P
      in it and wgmma reads it so.
    - mbarriers (8 bytes each): `query_full`, then per stage `key_full`,
      `value_full` (TMA arrivals with transaction bytes), `key_empty` and
      `value_empty` (one arrival per consumer warpgroup when it is done with
      the stage). `key_empty == value_empty` when one arrival releases K and
      V together; separate, consumers hand K back a step before V.
    - `size`: the bytes the kernel launches with.
    - Named barriers (`bar.sync` ids; 0 is the whole CTA's):
      `warpgroup_barriers`, one per consumer warpgroup, for its 128 threads
      (its O tile written to the output buffer before one thread stores it, P
      written to shared memory before the P V wgmma reads it);
      `turn_barriers`, present with ping-pong (`attn.wait_turn` /
      `attn.pass_turn`), one per consumer warpgroup: warpgroup w waits on its
      own until the other one passes it the turn.

    The verifier checks what holds for any tile: buffers 1024-byte aligned
    (the 128-byte swizzle), mbarriers 8-byte aligned, every region inside
    `size` and no two overlapping (but `output` inside the Q buffer, from
    its start); `probs`, `probs_bytes` and `probs_layout` all present or all
    absent; named barrier ids 1..15 and distinct.
    `convert-attn-to-nvvm` checks that the buffers hold the tile's bytes,
    that `probs_layout` is the 128-byte swizzle it lowers, and that there is
    a warpgroup (and turn) barrier per consumer warpgroup, with consecutive
    ids (it indexes them by warpgroup).

    ```mlir
    #attn.shared_memory<query = 0, query_bytes = 32768, output = 0,
                        output_bytes = 32768, keys = 32768,
                        values = 131072, stages = 3,
                        key_stage_bytes = 32768, value_stage_bytes = 32768,
                        query_full = 229376, key_full = 229384,
                        value_full = 229408, key_empty = 229456,
                        value_empty = 229456, size = 229480,
                        warpgroup_barriers = [1, 2], turn_barriers = [3, 4]>
    ```
  }];
  let parameters = (ins
    "int64_t":$query,
    "int64_t":$query_bytes,
    "int64_t":$output,
    "int64_t":$output_bytes,
    "int64_t":$keys,
    "int64_t":$values,
    "int64_t":$stages,
    "int64_t":$key_stage_bytes,
    "int64_t":$value_stage_bytes,
    OptionalParameter<"std::optional<int64_t>">:$probs,
    OptionalParameter<"std::optional<int64_t>">:$probs_bytes,
    OptionalParameter<"SwizzledSharedAttr">:$probs_layout,
    "int64_t":$query_full,
    "int64_t":$key_full,
    "int64_t":$value_full,
    "int64_t":$key_empty,
    "int64_t":$value_empty,
    "int64_t":$size,
    Attn_BarrierIds<"named barrier of each consumer warpgroup">:$warpgroup_barriers,
    Attn_OptionalBarrierIds<"turn barrier of each consumer warpgroup">:$turn_barriers
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Consumers hand a stage's K back on its own barrier, a step before V.
    bool releasesKeysEarly() const { return getKeyEmpty() != getValueEmpty(); }
  }];
}

def Attn_KernelParamAttr : Attn_Attr<"KernelParam", "kernel_param"> {
  let summary = "one parameter of a GPU kernel, in the manifest's terms";
  let description = [{
    `kind` and `value` are the names of the kernel manifest
    (docs/Runtime.md): a `tensor_map` or a `pointer` of a tensor (`q`, `k`,
    `v`, `o`, `lse`), or an `i32` or `f32` problem symbol (`seq_q`,
    `seq_k`, `batch`, `scale`, `scale_log2`, ...) the runtime computes at
    launch. A tensor map has the box it loads or stores, innermost first,
    over the tensor's (d, s, h, b) dimensions, or, a box of five, over
    (d, g, s, h, b): the Q or O of a kernel that packs query heads
    (`attn.packed_query_heads`), h a kv head and g a query head of its
    group; its shared-memory side is
    `swizzle`-byte swizzled (128 unless given; 0: not swizzled, plain rows)
    and out-of-bounds elements read as zeros. A split-KV kernel's
    workspace is `o_partial` and `lse_partial` (pointers).

    ```mlir
    #attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>
    #attn.kernel_param<"tensor_map", "o", box = [128, 1, 1, 1], swizzle = 0>
    #attn.kernel_param<"f32", "scale">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the manifest's parameter kind">:$kind,
    StringRefParameter<"the tensor or the problem symbol">:$value,
    OptionalArrayRefParameter<"int64_t">:$box,
    DefaultValuedParameter<"int64_t", "128">:$swizzle
  );
  let assemblyFormat = [{
    `<` $kind `,` $value (`,` `box` `=` `[` $box^ `]`)?
    (`,` `swizzle` `=` $swizzle^)? `>`
  }];
  // The kinds, tensor names and symbols are the runtime's (one table each,
  // attnc/Runtime/Manifest.h): the compiler builds parameters from them.
  let builders = [
    AttrBuilder<(ins "::attnc::rt::ParamKind":$kind,
                     "::attnc::rt::TensorName":$tensor,
                     CArg<"::llvm::ArrayRef<int64_t>", "{}">:$box,
                     CArg<"int64_t", "128">:$swizzle), [{
      return $_get($_ctxt, ::attnc::rt::toString(kind),
                   ::attnc::rt::toString(tensor), box, swizzle);
    }]>,
    AttrBuilder<(ins "::attnc::rt::ParamKind":$kind,
                     "::attnc::rt::Symbol":$symbol), [{
      return $_get($_ctxt, ::attnc::rt::toString(kind),
                   ::attnc::rt::toString(symbol), ::llvm::ArrayRef<int64_t>(),
                   128);
    }]>
  ];
}

def Attn_SplitKvAttr : Attn_Attr<"SplitKv", "split_kv"> {
  let summary = "the second kernel of a split-KV attention and its split count";
  let description = [{
    A split-KV attention (`kv_splits`) runs as two kernels: the attention
    kernel (the `#attn.kernel_abi` that holds this attribute) writes the f32
    partial O and LSE of each kv split into the runtime's workspace
    (`o_partial`, `lse_partial`), and the kernel `entry`, lowered from
    `attn.combine_splits`, merges them into O and the LSE. `splits` is the
    split count compiled in, or 0 where the runtime chooses it at launch
    (the `kv_splits` symbol; docs/Runtime.md's split heuristic counts
    `kv_block`-key blocks). `threads`, `shared_memory`, `grid` and `params`
    are the combine kernel's, as in `#attn.kernel_abi`. Where the count is
    chosen at launch, the attention kernel also takes O's tensor map and
    the LSE pointer and writes them itself at one split; the runtime then
    launches no combine (the manifest's `split_kv.writes_output_at_one_split`,
    which the manifest writer derives from those parameters).

    With `programmatic_launch = true` the two kernels form a programmatic
    dependent launch (sm_90): every attention CTA signals
    `griddepcontrol.launch_dependents` where its tile's
    `attn.launch_dependents` stands (at the epilogue by default), the
    combine kernel waits with `griddepcontrol.wait` (until the attention grid
    completed and its writes are visible) before it reads a partial, and the
    runtime launches it with programmatic stream serialization, so its
    launch and prologue overlap the last tiles' epilogues instead of
    following the last CTA. The manifest says so as
    `split_kv.combine.programmatic_launch`.
  }];
  let parameters = (ins
    "int64_t":$splits,
    "int64_t":$kv_block,
    StringRefParameter<"the combine kernel's symbol">:$entry,
    "int64_t":$threads,
    "int64_t":$shared_memory,
    "::mlir::ArrayAttr":$grid,
    "::mlir::ArrayAttr":$params,
    DefaultValuedParameter<"bool", "false">:$programmatic_launch
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Attn_GridDimAttr : Attn_Attr<"GridDim", "grid_dim"> {
  let summary = "one grid dimension: ceil_div(product of symbols, n) + symbols";
  let description = [{
    `ceil_div(product of the problem symbols in product, ceil_div)` plus the
    sum of the symbols in `plus`. A varlen kernel's query tiles are
    `ceil_div(seq_q, block_m) + batch`, a bound on the sequences' tiles
    (`attn.sequence_tile`).

    ```mlir
    #attn.grid_dim<["seq_q"], ceil_div = 128>
    #attn.grid_dim<["seq_q"], ceil_div = 128, plus = ["batch"]>
    ```
  }];
  let parameters = (ins
    "::mlir::ArrayAttr":$product,
    DefaultValuedParameter<"int64_t", "1">:$ceil_div,
    OptionalParameter<"::mlir::ArrayAttr">:$plus
  );
  let assemblyFormat = [{
    `<` $product (`,` `ceil_div` `=` $ceil_div^)? (`,` `plus` `=` $plus^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "::mlir::ArrayAttr":$product,
                     CArg<"int64_t", "1">:$ceil_div), [{
      return $_get($_ctxt, product, ceil_div, ::mlir::ArrayAttr());
    }]>,
    // The symbols are the runtime's (attnc/Runtime/Manifest.h).
    AttrBuilder<(ins "::llvm::ArrayRef<::attnc::rt::Symbol>":$product,
                     CArg<"int64_t", "1">:$ceil_div,
                     CArg<"::llvm::ArrayRef<::attnc::rt::Symbol>", "{}">:$plus),
    [{
      auto names = [&](::llvm::ArrayRef<::attnc::rt::Symbol> symbols) {
        ::llvm::SmallVector<::mlir::Attribute> attrs;
        for (::attnc::rt::Symbol symbol : symbols)
          attrs.push_back(
              ::mlir::StringAttr::get($_ctxt, ::attnc::rt::toString(symbol)));
        return ::mlir::ArrayAttr::get($_ctxt, attrs);
      };
      return $_get($_ctxt, names(product), ceil_div,
                   plus.empty() ? ::mlir::ArrayAttr() : names(plus));
    }]>
  ];
}

def Attn_KernelAbiAttr : Attn_Attr<"KernelAbi", "kernel_abi"> {
  let summary = "how a GPU kernel is launched: its parameters, grid and shared memory";
  let description = [{
    The one description of a kernel's launch interface, which
    `convert-attn-to-nvvm` puts on the kernel's `llvm.func` as
    `attn.kernel_abi`. The kernel's signature is built from `params` (a
    tensor map becomes a 128-byte `byval` grid constant, a pointer a global
    pointer, `i32`/`f32` a scalar), and the artifact's manifest is this
    attribute written out (`toManifest`), so the two cannot disagree.

    - `threads`: threads per CTA; `shared_memory`: dynamic shared-memory
      bytes (the tile's `#attn.shared_memory` size).
    - `grid`: x, y and z, each an `#attn.grid_dim`.
    - `params`: `#attn.kernel_param`s in launch order.
    - `problem`: what the kernel was compiled for and the runtime checks a
      launch against: `dtype`, `head_dim`, `head_dim_v`, `layout`, `mask`,
      `gqa`, `has_lse`.
    - `options`: the compile options and facts recorded for
      reproducibility (`block_m`, `heads_q`, a compiled-in `scale`, ...);
      the runtime checks `heads_q`, `heads_kv` and `scale` when present.
    - `split_kv`: for a split-KV attention, the combine kernel
      (`#attn.split_kv`).

    The verifier writes the manifest and checks it with the runtime's own
    validator (`attnc::rt::validateManifest`), so the attribute holds only
    what the runtime can launch.
  }];
  let parameters = (ins
    "int64_t":$threads,
    "int64_t":$shared_memory,
    "::mlir::ArrayAttr":$grid,
    "::mlir::ArrayAttr":$params,
    "::mlir::DictionaryAttr":$problem,
    "::mlir::DictionaryAttr":$options,
    OptionalParameter<"::mlir::attn::SplitKvAttr">:$split_kv
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "int64_t":$threads, "int64_t":$shared_memory,
                     "::mlir::ArrayAttr":$grid, "::mlir::ArrayAttr":$params,
                     "::mlir::DictionaryAttr":$problem,
                     "::mlir::DictionaryAttr":$options), [{
      return $_get($_ctxt, threads, shared_memory, grid, params, problem,
                   options, ::mlir::attn::SplitKvAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Attribute> getParamList() {
      return getParams().getValue();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Tile layouts: where a tile value lives, as the encoding of its tensor type
//===----------------------------------------------------------------------===//

class Attn_TileLayout<string name, string attrMnemonic>
    : AttrDef<Attn_Dialect, name,
              [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = attrMnemonic;
}

def Attn_WgmmaAccumulatorAttr
    : Attn_TileLayout<"WgmmaAccumulator", "wgmma_accumulator"> {
  let summary = "a tile in the registers of wgmma accumulator fragments";
  let description = [{
    The layout of a `tensor<M x N x f32>` that `wgmma.mma_async.m64nNk16`
    accumulates into, spread over `warpgroups` consumer warpgroups
    (`M = 64 * warpgroups`): warpgroup `w` holds rows `[64w, 64w + 64)`,
    warp `i` of it rows `16i .. 16i + 15`, and lane `l` of the warp the two
    rows `16i + l / 4` and `16i + l / 4 + 8`, at columns
    `8c + 2 (l % 4) + {0, 1}` for every `c < N / 8`: `N / 2` f32 registers
    per thread, register `4c + e` holding row `16i + l / 4 + 8 (e / 2)`,
    column `8c + 2 (l % 4) + e % 2`. S, P and O of a kv loop have it.

    A bf16 or f16 tile in this layout (`attn.truncate` of one) holds the
    same elements in half the registers: register `k` packs the pair
    `2k, 2k + 1` (two adjacent columns of one row), the low half first. That
    is the register-A operand of `wgmma.mma_async` with P in registers, so
    a rotated kv loop can carry P to the next step's `attn.pv` in that form.

    `attn-assign-layouts` sets it; `convert-attn-to-nvvm` lowers every op
    whose result has it to per-thread registers in this order.

    ```mlir
    tensor<128x128xf32, #attn.wgmma_accumulator<warpgroups = 2>>
    ```
  }];
  let parameters = (ins "int64_t":$warpgroups);
  let genVerifyDecl = 1;
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Rows of one wgmma tile: the instruction's M.
    static constexpr int64_t kRowsPerWarpgroup = 64;
    /// Columns of one fragment slice (an n8 block of the accumulator).
    static constexpr int64_t kColumnsPerSlice = 8;
    /// Rows of one warp's slice of its warpgroup's 64.
    static constexpr int64_t kRowsPerWarp = 16;
    /// Rows a thread holds; its second lies this far below its first.
    static constexpr int64_t kRowsPerThread = 2;
    static constexpr int64_t kRowPairDistance = 8;
    /// Lanes that share a pair of rows (a quad): lane l holds rows
    /// l / kLanesPerRowPair (+ kRowPairDistance) of its warp's slice.
    static constexpr int64_t kLanesPerRowPair = 4;
    /// f32 registers a thread holds of a tile of `columns` columns.
    static int64_t getRegistersPerThread(int64_t columns) {
      return columns / 2;
    }
    /// The row of the thread's kRowsPerThread (0: its first, 1:
    /// kRowPairDistance below) that register `i` holds.
    static int64_t getRegisterRow(int64_t i) { return (i % 4) / 2; }
    /// The column register `i` holds, less the thread's first column
    /// 2 (lane % kLanesPerRowPair).
    static int64_t getRegisterColumn(int64_t i) {
      return kColumnsPerSlice * (i / 4) + i % 2;
    }
    /// The rows of all warpgroups together.
    int64_t getRows() const { return kRowsPerWarpgroup * getWarpgroups(); }
  }];
}

def Attn_AccumulatorRowsAttr
    : Attn_TileLayout<"AccumulatorRows", "accumulator_rows"> {
  let summary = "a row vector held like the rows of a wgmma accumulator";
  let description = [{
    The layout of a `tensor<M x f32>` with one value per row of a tile in
    `parent`'s layout (the running max m, the running sum l, the rescale
    factor): each thread holds the values of the two rows its accumulator
    fragment has, and the four lanes of a quad, which share those rows,
    hold the same values. A row reduction of an accumulator tile (a
    thread's own columns, then two quad shuffles) yields this layout, and
    scaling an accumulator tile by it needs no data movement. The row
    vector is Triton's slice of the accumulator layout along the columns.

    ```mlir
    tensor<128xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>
    ```
  }];
  let parameters = (ins "WgmmaAccumulatorAttr":$parent);
  let assemblyFormat = "`<` qualified($parent) `>`";
}

def Attn_SwizzledSharedAttr
    : Attn_TileLayout<"SwizzledShared", "swizzled_shared"> {
  let summary = "a 16-bit tile in shared memory, stored as swizzled atoms";
  let description = [{
    The layout of a bf16/f16 `tensor<R x C>` that TMA writes into shared
    memory and wgmma reads from it (Q, K and V; P's buffer, which
    `#attn.shared_memory` records as `probs_layout`): the columns are cut into
    atoms `swizzle` bytes wide (`swizzle / 2` elements; a tile whose `C` is
    not a multiple of it is padded to whole atoms, zero-filled by TMA), each
    atom is `R` rows of `swizzle` bytes stored contiguously, atom `a` at
    byte `a * R * swizzle` of the buffer, and inside each group of 8 rows
    the 16-byte chunks of row `r` are permuted by XOR with `r % 8` (the
    `CU_TENSOR_MAP_SWIZZLE_<swizzle>B` pattern that the wgmma
    shared-memory descriptor's swizzle mode names). `swizzle` is 32, 64 or
    128; `convert-attn-to-nvvm` lowers 128.

    `attn-assign-layouts` sets it on Q, K and V and
    `attn-allocate-shared-memory` on P's buffer (the sm_90a table); the
    latter sizes the buffers from it and `convert-attn-to-nvvm` builds the
    tensor maps' boxes, the TMA copies and the wgmma descriptors from it.

    ```mlir
    tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 128>>
    ```
  }];
  let parameters = (ins "int64_t":$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of one swizzle pattern: a group of 8 rows repeats it.
    static constexpr int64_t kPatternRows = 8;
    /// The atom arithmetic of this layout.
    ::mlir::attn::SwizzledAtoms getAtoms() const { return {getSwizzle()}; }
  }];
}


#endif // ATTN_ATTRS_TD
