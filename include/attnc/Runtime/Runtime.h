/*===- Runtime.h - attnc kernel runtime C ABI ---------------------*- C -*-===*\
|*                                                                            *|
|* The C ABI of the attnc runtime: load a kernel artifact (PTX + manifest),   *|
|* launch it on attention tensors through the CUDA driver API, and a few      *|
|* memory and timing helpers so that tools and Python (ctypes) need not link  *|
|* libcuda themselves. The runtime opens libcuda.so.1 with dlopen at first    *|
|* use; it links neither CUDA nor MLIR.                                       *|
|*                                                                            *|
|* Every function that can fail returns an attnc_status; the message of the   *|
|* last failed call on the calling thread is attnc_last_error(). Calls use    *|
|* one device per process and make its primary context current on the         *|
|* calling thread.                                                            *|
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

#define ATTNC_RUNTIME_VERSION "0.1.0"

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
} attnc_dtype;

/* A device tensor in logical [batch, heads, seq, head_dim] order whatever its
 * memory layout: a BSHD tensor is the same shape with other strides. Strides
 * count elements. `data` is a CUdeviceptr stored as a pointer. */
typedef struct attnc_tensor {
  void *data;
  int64_t shape[4];
  int64_t strides[4];
  attnc_dtype dtype;
} attnc_tensor;

typedef struct attnc_attention_args {
  attnc_tensor q; /* [B, Hq, Sq, D]  */
  attnc_tensor k; /* [B, Hkv, Sk, D] */
  attnc_tensor v; /* [B, Hkv, Sk, Dv] */
  attnc_tensor o; /* [B, Hq, Sq, Dv] */
  /* float32 [B, Hq, Sq], contiguous; set exactly when the artifact has LSE */
  void *lse;
  /* softmax scale, usually 1/sqrt(D); must be finite and non-zero */
  float scale;
} attnc_attention_args;

/* What the driver reports about a loaded kernel. */
typedef struct attnc_kernel_attrs {
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

/* Opens the driver, cuInit, and makes the device's primary context current.
 * Optional: other calls initialize device 0 on first use. A process uses one
 * device; a second call with another ordinal is ATTNC_ERROR_UNSUPPORTED. */
ATTNC_RT_API attnc_status attnc_init(int device_ordinal);

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

ATTNC_RT_API attnc_status attnc_kernel_get_attrs(attnc_kernel kernel,
                                                 attnc_kernel_attrs *out);

/* Checks the tensors against the manifest (dtype, head dims, batch/heads/seq
 * agreement, GQA divisibility, LSE presence, TMA alignment and strides),
 * encodes the tensor maps, computes the grid and launches on `stream`
 * (a CUstream; NULL is the default stream). Asynchronous. */
ATTNC_RT_API attnc_status attnc_attention_launch(
    attnc_kernel kernel, const attnc_attention_args *args, void *stream);

/* Launches `warmup` times, then `iters` times back to back, each between two
 * CUDA events on `stream`; `*median_ms` is the median of the iterations.
 * iters must be in 1..10000. No cache flush between iterations. */
ATTNC_RT_API attnc_status attnc_time_launches(attnc_kernel kernel,
                                              const attnc_attention_args *args,
                                              void *stream, int warmup,
                                              int iters, float *median_ms);

/* Device memory helpers. Pointers are CUdeviceptr values. Zero-byte copies
 * and sets are no-ops; a zero-byte allocation is an error. */
ATTNC_RT_API attnc_status attnc_malloc(void **ptr, size_t bytes);
ATTNC_RT_API attnc_status attnc_free(void *ptr); /* NULL is a no-op */
ATTNC_RT_API attnc_status attnc_memcpy_htod(void *dst, const void *src,
                                            size_t bytes);
ATTNC_RT_API attnc_status attnc_memcpy_dtoh(void *dst, const void *src,
                                            size_t bytes);
/* Sets `count` 16-bit elements (poisoning outputs before a check). */
ATTNC_RT_API attnc_status attnc_memset_u16(void *dst, uint16_t value,
                                           size_t count);
/* Waits for all work on the device (cuCtxSynchronize). */
ATTNC_RT_API attnc_status attnc_synchronize(void);

#ifdef __cplusplus
}
#endif

#endif /* ATTNC_RUNTIME_RUNTIME_H */
