/*===- Runtime.h - attnc kernel runtime C ABI ---------------------*- C -*-===*\
|*                                                                            *|
|* The C ABI of the attnc runtime: load a kernel artifact (PTX + manifest)    *|
|* and launch it on attention tensors through the CUDA driver API. The        *|
|* runtime opens libcuda.so.1 with dlopen at first use; it links neither CUDA *|
|* nor MLIR. Memory and timing helpers for tests and benchmarks are not part  *|
|* of this ABI: they live in libAttncRuntimeTesting (Testing.h). DLTensor     *|
|* conversion is in DLPack.h.                                                 *|
|*                                                                            *|
|* Every function that can fail returns an attnc_status; the message of the   *|
|* last failed call on the calling thread is attnc_last_error().              *|
|*                                                                            *|
|* Contexts: the runtime uses one device per process and that device's        *|
|* primary context. Every entry point that calls the driver saves the calling *|
|* thread's current context (cuCtxGetCurrent), makes the primary context      *|
|* current for the call, and restores the saved one before it returns, on     *|
|* success and on failure alike: no call changes the caller's context. A      *|
|* `stream` passed in must belong to the primary context (as the streams of   *|
|* the CUDA runtime API, PyTorch and JAX on that device do).                  *|
|*                                                                            *|
|* Threads: every function may be called from any number of threads at once.  *|
|* A kernel handle may be shared between threads for launches; releasing it   *|
|* while another thread uses it is the caller's race.                         *|
|*                                                                            *|
|* Structs the caller fills start with `struct_size`, which must be set to    *|
|* sizeof(the struct) as this header declares it; a size the runtime does not *|
|* know is ATTNC_ERROR_INVALID_ARGUMENT naming the struct. Later versions add *|
|* fields at the end and keep accepting the sizes of earlier ones.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_RUNTIME_RUNTIME_H
#define ATTNC_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define ATTNC_RT_API __attribute__((visibility("default")))
#else
#define ATTNC_RT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 0.5.0 (manifests since): split_kv.writes_output_at_one_split: at a launch
 * of one split the attention kernel writes O and the LSE itself, and no
 * combine kernel runs; a runtime from before the key refuses such an
 * artifact (an unknown key), rather than combining partials never written.
 * 0.5.0: a caller's split-KV workspace: attnc_attention_args gained
 * workspace and workspace_bytes at its end (the 0.4.0 struct_size, 728 bytes,
 * and the older ones are still accepted: the runtime then allocates the
 * workspace on the stream, as before); attnc_attention_workspace_size; a
 * split-KV artifact's combine kernel may be a programmatic dependent launch
 * (the manifest's split_kv.combine.programmatic_launch).
 * 0.4.0: variable-length batches: attnc_attention_args gained cu_seqlens_q
 * and cu_seqlens_k at its end (the 0.3.0 struct_size, 552 bytes, and the
 * 0.2.0 one, 376, are still accepted: both then read as absent); ATTNC_I32
 * tensors of rank 1 serve as offset arrays too; ATTNC_CHECK_INDEX_INPUTS and
 * attnc_attention_check check their values.
 * 0.3.0: paged KV caches: attnc_attention_args gained block_table and
 * cache_lengths at its end (the 0.2.0 struct_size, 376 bytes, is still
 * accepted: both then read as absent); ATTNC_I32 and index tensors of rank 1
 * and 2 (attnc_tensor_from_dlpack accepts them); attnc_attention_check;
 * ATTNC_CHECK_INDEX_INPUTS.
 * 0.2.0: struct_size first in attnc_attention_args and attnc_kernel_attrs;
 * attnc_tensor gained device_id and byte_offset (DLPack); contexts are saved
 * and restored; attnc_get_device; the memory and timing helpers moved to
 * libAttncRuntimeTesting. */
#define ATTNC_RUNTIME_VERSION "0.5.0"

typedef enum attnc_status {
  ATTNC_OK = 0,
  ATTNC_ERROR_INVALID_ARGUMENT = 1, /* bad pointer, shape, stride, dtype... */
  ATTNC_ERROR_DRIVER_NOT_FOUND = 2, /* libcuda.so.1 could not be opened */
  ATTNC_ERROR_CUDA = 3,             /* a driver call failed */
  ATTNC_ERROR_MANIFEST = 4,         /* the artifact is unreadable or invalid */
  ATTNC_ERROR_UNSUPPORTED = 5,      /* valid, but not for this device/build */
} attnc_status;

/* Starts at 1 so that a zero-initialized tensor is caught, not read as bf16. */
typedef enum attnc_dtype {
  ATTNC_BF16 = 1,
  ATTNC_F16 = 2,
  ATTNC_F32 = 3,
  ATTNC_I32 = 4, /* int32: index tensors (paged cache, varlen) only */
} attnc_dtype;

/* A device tensor in logical [batch, heads, seq, head_dim] order whatever its
 * memory layout: a BSHD tensor is the same shape with other strides. Each
 * field is one of DLPack's DLTensor (attnc_tensor_from_dlpack in DLPack.h
 * converts and checks):
 *   data        DLTensor.data, a CUdeviceptr stored as a pointer
 *   shape       DLTensor.shape, ndim == 4 (q, k, v, o); an int32 index
 *               tensor (block_table, ndim 2; cache_lengths, cu_seqlens_q
 *               and cu_seqlens_k, ndim 1) gives its dims first and 1 for
 *               each unused trailing one
 *   strides     DLTensor.strides, in elements (DLPack's NULL, compact
 *               row-major, is spelled out); 0 for an unused trailing dim
 *               (the stride of a dim of size 1 is never read)
 *   dtype       DLTensor.dtype: ATTNC_BF16 = {kDLBfloat, 16, 1},
 *               ATTNC_F16 = {kDLFloat, 16, 1}, ATTNC_F32 = {kDLFloat, 32, 1},
 *               ATTNC_I32 = {kDLInt, 32, 1}
 *   device_id   DLTensor.device.device_id; device_type is kDLCUDA. Must be
 *               the runtime's device (attnc_get_device).
 *   byte_offset DLTensor.byte_offset: the first element is at
 *               data + byte_offset (alignment rules apply to that address).
 * A zero-initialized tensor is rejected (dtype 0), not read as bf16. */
typedef struct attnc_tensor {
  void *data;
  int64_t shape[4];
  int64_t strides[4];
  attnc_dtype dtype;
  int32_t device_id;
  uint64_t byte_offset;
} attnc_tensor;

typedef struct attnc_attention_args {
  uint32_t struct_size; /* sizeof(attnc_attention_args) */
  attnc_tensor q;       /* [B, Hq, Sq, D]  */
  attnc_tensor k; /* [B, Hkv, Sk, D] */
  attnc_tensor v; /* [B, Hkv, Sk, Dv] */
  attnc_tensor o; /* [B, Hq, Sq, Dv] */
  /* float32 [B, Hq, Sq], contiguous; set exactly when the artifact has LSE */
  void *lse;
  /* softmax scale, usually 1/sqrt(D); must be finite and positive */
  float scale;
  /* Since 0.3.0. A paged KV cache: for an artifact whose manifest has
   * problem.page_size (P tokens per page), k and v are the page pools,
   * memory [num_pages, P, Hkv, D] (vLLM's layout) given as the logical
   * [num_pages, Hkv, P, D] tensors with strides [P*Hkv*D, D, Hkv*D, 1], so
   * their batch dim counts pages, not sequences. Both tensors below are then
   * required, ATTNC_I32 and contiguous:
   *   block_table    [B, pages_per_seq] (shape[2] = shape[3] = 1): row b
   *                  lists sequence b's pages in order; the entries past its
   *                  length are never read and may hold anything (-1)
   *   cache_lengths  [B] (shape[1..3] = 1): sequence b's cached tokens,
   *                  0 .. pages_per_seq * P
   * The kernel trusts their values unless ATTNC_CHECK_INDEX_INPUTS=1 or
   * attnc_attention_check (below) checks them. For any other artifact both
   * must be absent (zero-initialized: data NULL). With the 0.2.0
   * struct_size (offsetof(attnc_attention_args, block_table), 376) they
   * are not read and count as absent. */
  attnc_tensor block_table;
  attnc_tensor cache_lengths;
  /* Since 0.4.0. A variable-length batch: for an artifact whose manifest has
   * problem.varlen, q, k, v and o pack B sequences without padding in a
   * batch of 1: q [1, Hq, total_q, D], k [1, Hkv, total_k, D], v
   * [1, Hkv, total_k, Dv], o [1, Hq, total_q, Dv] (logical order, either
   * layout as usual) and lse float32 [1, Hq, total_q]. Both tensors below
   * are then required, ATTNC_I32, contiguous, of B + 1 entries each
   * (shape[1..3] = 1, B >= 1):
   *   cu_seqlens_q   sequence b is rows cu_seqlens_q[b] .. cu_seqlens_q[b+1]
   *                  of q, o and lse; non-decreasing, from >= 0 to at most
   *                  total_q (rows past the last offset are not written)
   *   cu_seqlens_k   sequence b is rows cu_seqlens_k[b] .. cu_seqlens_k[b+1]
   *                  of k and v, likewise up to total_k
   * Masks apply per sequence, with its own lengths. The kernel trusts the
   * values unless ATTNC_CHECK_INDEX_INPUTS=1 or attnc_attention_check checks
   * them. For any other artifact both must be absent (zero-initialized).
   * With the 0.3.0 struct_size (offsetof(attnc_attention_args,
   * cu_seqlens_q), 552) or the 0.2.0 one they are not read and count as
   * absent. */
  attnc_tensor cu_seqlens_q;
  attnc_tensor cu_seqlens_k;
  /* Since 0.5.0. The split-KV workspace of an artifact with split_kv (the
   * f32 partial O and LSE of each kv split, docs/Runtime.md): device memory
   * of workspace_bytes bytes, at least attnc_attention_workspace_size's, on
   * the runtime's device, 256-byte aligned, which nothing else reads or
   * writes until the launch's kernels are done with it (in the stream's
   * order, e.g. a buffer of PyTorch's caching allocator on that stream).
   * NULL (and workspace_bytes 0), or an older struct_size: the runtime
   * allocates the workspace on the stream (cuMemAllocAsync) and frees it
   * after the combine kernel (a launch that needs none, at one split of
   * split_kv.writes_output_at_one_split, allocates nothing), which costs a
   * stream-ordered allocation and free per launch and cannot be captured into
   * every CUDA graph. Must be NULL for an artifact without split_kv. */
  void *workspace;
  uint64_t workspace_bytes;
} attnc_attention_args;

/* What the driver reports about a loaded kernel. */
typedef struct attnc_kernel_attrs {
  uint32_t struct_size; /* sizeof(attnc_kernel_attrs), set by the caller */
  int32_t num_regs;              /* registers per thread */
  int32_t local_bytes;           /* local memory per thread (spills) */
  int32_t static_smem_bytes;     /* static shared memory per block */
  int32_t dynamic_smem_bytes;    /* from the manifest */
  int32_t max_threads_per_block; /* the most this function can launch with */
  int32_t threads_per_block;     /* from the manifest */
} attnc_kernel_attrs;

typedef struct attnc_kernel_s *attnc_kernel;

/* The message of the last failed call on this thread; "" after a success. */
ATTNC_RT_API const char *attnc_last_error(void);
/* "ATTNC_ERROR_CUDA" etc. */
ATTNC_RT_API const char *attnc_status_name(attnc_status status);
/* ATTNC_RUNTIME_VERSION of the library actually loaded. */
ATTNC_RT_API const char *attnc_version(void);

/* Opens the driver, cuInit, and retains the device's primary context (the
 * caller's current context is left as it was). Optional: other calls
 * initialize device 0 on first use. A process uses one device; a second call
 * with another ordinal is ATTNC_ERROR_UNSUPPORTED. */
ATTNC_RT_API attnc_status attnc_init(int device_ordinal);

/* The ordinal of the device the runtime uses (initializing device 0 when no
 * call has chosen one yet). */
ATTNC_RT_API attnc_status attnc_get_device(int *device_ordinal);

/* Loads an artifact: a directory holding manifest.json, or the manifest's
 * path. Checks the manifest, the PTX (.target, .entry) and the device
 * (compute capability 9.0, shared memory), JIT-compiles the PTX (or loads the
 * manifest's cubin) and raises the function's dynamic shared-memory limit.
 * Modules are cached per (path, content hash) for the life of the process. */
ATTNC_RT_API attnc_status attnc_kernel_load(const char *path,
                                            attnc_kernel *out);

/* Frees the handle (the cached module stays loaded). NULL is a no-op. */
ATTNC_RT_API attnc_status attnc_kernel_release(attnc_kernel kernel);

/* The normalized manifest as JSON, NUL-terminated. `*required` (if not NULL)
 * receives the size needed including the NUL. buf == NULL with len == 0 is a
 * size query; a too-small buffer is ATTNC_ERROR_INVALID_ARGUMENT. */
ATTNC_RT_API attnc_status attnc_kernel_info(attnc_kernel kernel, char *buf,
                                            size_t len, size_t *required);

/* `out->struct_size` must be set; the other fields are written. */
ATTNC_RT_API attnc_status attnc_kernel_get_attrs(attnc_kernel kernel,
                                                 attnc_kernel_attrs *out);

/* Checks the tensors against the manifest (dtype, head dims, batch/heads/seq
 * agreement, GQA divisibility, LSE presence, TMA alignment and strides; a
 * paged artifact's block table and cache lengths and a varlen artifact's
 * offsets by shape), encodes the tensor maps, computes the grid and launches
 * on `stream` (a CUstream; NULL is the default stream). Asynchronous, except
 * that with the environment variable ATTNC_CHECK_INDEX_INPUTS=1 a paged or
 * varlen launch first checks the index values as attnc_attention_check does
 * (a device-to-host copy and a stream synchronization per launch). */
ATTNC_RT_API attnc_status attnc_attention_launch(
    attnc_kernel kernel, const attnc_attention_args *args, void *stream);

/* Every check attnc_attention_launch makes, without launching; for a paged
 * or varlen artifact also the values of the index inputs, whatever
 * ATTNC_CHECK_INDEX_INPUTS says: they are copied to the host on `stream`,
 * after the work queued there (this call waits for it with
 * cuStreamSynchronize). Paged: every cache_lengths[b] must be in
 * 0 .. pages_per_seq * page_size and every page that sequence b's tokens
 * lie in (block_table[b][0 .. ceil(cache_lengths[b] / page_size) - 1]) in
 * 0 .. num_pages - 1. Varlen: cu_seqlens_q[0] and cu_seqlens_k[0] must be
 * >= 0, each array non-decreasing, and no entry past total_q (q's rows),
 * resp. total_k (k's). ATTNC_ERROR_INVALID_ARGUMENT names the entry. */
ATTNC_RT_API attnc_status attnc_attention_check(
    attnc_kernel kernel, const attnc_attention_args *args, void *stream);

/* The bytes of split-KV workspace that launching `kernel` with `args` needs
 * (0 for an artifact without split_kv, and at one split of an artifact
 * whose attention kernel then writes O itself: the manifest's
 * split_kv.writes_output_at_one_split), into `*bytes`: the split count the
 * runtime chooses for the launch's lengths, laid out as docs/Runtime.md
 * says. Makes the checks of attnc_attention_launch but the workspace's own,
 * without launching. The same shapes need the same bytes (while
 * ATTNC_KV_SPLITS stays as it is), so a caller may ask once per shape. */
ATTNC_RT_API attnc_status attnc_attention_workspace_size(
    attnc_kernel kernel, const attnc_attention_args *args, uint64_t *bytes);

#ifdef __cplusplus
}
#endif

#endif /* ATTNC_RUNTIME_RUNTIME_H */
