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

#endif // ATTN_ATTRS_TD
