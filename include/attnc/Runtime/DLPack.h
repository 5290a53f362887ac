/*===- DLPack.h - attnc tensors from DLPack tensors ---------------*- C -*-===*\
|*                                                                            *|
|* Builds the runtime's attnc_tensor from a DLPack DLTensor (dlpack.h from    *|
|* libdlpack-dev, DLPack 0.6 or newer), field for field: see attnc_tensor in  *|
|* Runtime.h for the mapping. The attnc_tensor borrows the memory: the caller *|
|* keeps the DLPack tensor (and, for a DLManagedTensor, its manager) alive    *|
|* until the launches that use it are done, then calls its deleter.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_RUNTIME_DLPACK_H
#define ATTNC_RUNTIME_DLPACK_H

#include "attnc/Runtime/Runtime.h"

#include <dlpack/dlpack.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that `tensor` is in CUDA device memory (kDLCUDA), one lane of bf16,
 * f16 or f32 with ndim 4 (q, k, v, o) or of int32 with ndim 2 or 1 (a paged
 * KV cache's block_table and cache_lengths, a varlen batch's cu_seqlens_q
 * and cu_seqlens_k), with non-negative sizes, then
 * fills `*out`: an int32 tensor's unused trailing dims get shape 1 and
 * stride 0. NULL strides (compact row-major) become explicit ones. Device,
 * alignment and the manifest's rules are checked at launch. Does not need a
 * GPU. */
ATTNC_RT_API attnc_status attnc_tensor_from_dlpack(const DLTensor *tensor,
                                                   attnc_tensor *out);

/* attnc_tensor_from_dlpack(&managed->dl_tensor, out). */
ATTNC_RT_API attnc_status
attnc_tensor_from_dlmanaged(const DLManagedTensor *managed, attnc_tensor *out);

#ifdef __cplusplus
}
#endif

#endif /* ATTNC_RUNTIME_DLPACK_H */
