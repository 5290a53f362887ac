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

class Attn_Attr<string name, string attrMnemonic> : AttrDef<Attn_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Attn_SharedMemoryAttr : Attn_Attr<"SharedMemory", "shared_memory"> {
  let summary = "byte offsets of a GPU tile's shared-memory buffers and mbarriers";
  let description = [{
    The dynamic shared memory of one CTA, as `attn-allocate-shared-memory`
    lays it out and `convert-attn-to-nvvm` uses it (it computes no offset of
    its own). Offsets are bytes from the 1024-aligned start.

    - `query`, `query_bytes`: the Q tile (whole 64-column atoms of 128-byte
      swizzle; it holds O in the epilogue).
    - `keys`, `values`: the first K and V stages of the ring of `stages`
      stages, `key_stage_bytes` / `value_stage_bytes` apart.
    - `probs`, `probs_bytes`: P of every consumer warpgroup, present when
      O += P V reads P from shared memory (wgmma SS) instead of registers.
    - mbarriers (8 bytes each): `query_full`, then per stage `key_full`,
      `value_full` (TMA arrivals with transaction bytes), `key_empty` and
      `value_empty` (one arrival per consumer warpgroup when it is done with
      the stage). `key_empty == value_empty` when one arrival releases K and
      V together; separate, consumers hand K back a step before V.
    - `query_free`: present for a persistent kernel (one CTA walks several
      tiles): consumers arrive once they stored O from the Q buffer, so the
      next tile's Q may be loaded into it.
    - `size`: the bytes the kernel launches with.

    The verifier checks what holds for any tile: buffers 1024-byte aligned
    (the 128-byte swizzle), mbarriers 8-byte aligned, every region inside
    `size` and no two overlapping. `convert-attn-to-nvvm` checks that the
    buffers hold the tile's bytes.

    ```mlir
    #attn.shared_memory<query = 0, query_bytes = 32768, keys = 32768,
                        values = 131072, stages = 3,
                        key_stage_bytes = 32768, value_stage_bytes = 32768,
                        query_full = 229376, key_full = 229384,
                        value_full = 229408, key_empty = 229456,
                        value_empty = 229456, size = 229480>
    ```
  }];
  let parameters = (ins
    "int64_t":$query,
    "int64_t":$query_bytes,
    "int64_t":$keys,
    "int64_t":$values,
    "int64_t":$stages,
    "int64_t":$key_stage_bytes,
    "int64_t":$value_stage_bytes,
    OptionalParameter<"std::optional<int64_t>">:$probs,
    OptionalParameter<"std::optional<int64_t>">:$probs_bytes,
    "int64_t":$query_full,
    "int64_t":$key_full,
    "int64_t":$value_full,
    "int64_t":$key_empty,
    "int64_t":$value_empty,
    OptionalParameter<"std::optional<int64_t>">:$query_free,
    "int64_t":$size
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Attn_KernelParamAttr : Attn_Attr<"KernelParam", "kernel_param"> {
  let summary = "one parameter of a GPU kernel, in the manifest's terms";
  let description = [{
    `kind` and `value` are the names of the kernel manifest
    (docs/Runtime.md): a `tensor_map` or a `pointer` of a tensor (`q`, `k`,
    `v`, `o`, `lse`), or an `i32` or `f32` problem symbol (`seq_q`,
    `seq_k`, `batch`, `scale`, `scale_log2`, ...) the runtime computes at
    launch. A tensor map has the box it loads or stores, innermost first,
    over the tensor's (d, s, h, b) dimensions; its shared-memory side is
    128-byte swizzled and out-of-bounds elements read as zeros.

    ```mlir
    #attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>
    #attn.kernel_param<"f32", "scale">
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the manifest's parameter kind">:$kind,
    StringRefParameter<"the tensor or the problem symbol">:$value,
    OptionalArrayRefParameter<"int64_t">:$box
  );
  let assemblyFormat = "`<` $kind `,` $value (`,` `box` `=` `[` $box^ `]`)? `>`";
}

def Attn_GridDimAttr : Attn_Attr<"GridDim", "grid_dim"> {
  let summary = "one grid dimension: ceil_div(product of problem symbols, n)";
  let description = [{
    ```mlir
    #attn.grid_dim<["seq_q"], ceil_div = 128>
    ```
  }];
  let parameters = (ins
    "::mlir::ArrayAttr":$product,
    DefaultValuedParameter<"int64_t", "1">:$ceil_div
  );
  let assemblyFormat = "`<` $product (`,` `ceil_div` `=` $ceil_div^)? `>`";
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
    "::mlir::DictionaryAttr":$options
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The position of the first parameter of `kind` and `value` in the
    /// kernel's signature, if there is one.
    std::optional<unsigned> findParam(::llvm::StringRef kind,
                                      ::llvm::StringRef value);
    ::llvm::ArrayRef<::mlir::Attribute> getParamList() {
      return getParams().getValue();
    }
  }];
}

#endif // ATTN_ATTRS_TD
