/*===- Testing.h - attnc runtime helpers for tests and benchmarks -*- C -*-===*\
|*                                                                            *|
|* Device memory, synchronization and launch timing for the tools, the tests  *|
|* and Python benchmarks (ctypes), so that they need not link libcuda. Not    *|
|* part of the product ABI (Runtime.h): this is libAttncRuntimeTesting, which *|
|* links libAttncRuntime and opens the same driver on the same device         *|
|* (attnc_get_device) and primary context. Its calls save and restore the     *|
|* caller's current context like the runtime's. Failed calls set              *|
|* attnc_testing_last_error() (this thread), not attnc_last_error().          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef ATTNC_RUNTIME_TESTING_H
#define ATTNC_RUNTIME_TESTING_H

#include "attnc/Runtime/Runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The message of the last failed attnc_testing_* call on this thread. */
ATTNC_RT_API const char *attnc_testing_last_error(void);

/* Launches `warmup` times, then `iters` times back to back, each between two
 * CUDA events on `stream`; `*median_ms` is the median of the iterations.
 * iters must be in 1..10000. Each launch is a full attnc_attention_launch
 * (its host-side checks fall outside the events once the queue is ahead).
 * No cache flush between iterations. */
ATTNC_RT_API attnc_status attnc_testing_time_launches(
    attnc_kernel kernel, const attnc_attention_args *args, void *stream,
    int warmup, int iters, float *median_ms);

/* Device memory. Pointers are CUdeviceptr values. Zero-byte copies and sets
 * are no-ops; a zero-byte allocation is an error. */
ATTNC_RT_API attnc_status attnc_testing_malloc(void **ptr, size_t bytes);
ATTNC_RT_API attnc_status attnc_testing_free(void *ptr); /* NULL: no-op */
ATTNC_RT_API attnc_status attnc_testing_memcpy_htod(void *dst, const void *src,
                                                    size_t bytes);
ATTNC_RT_API attnc_status attnc_testing_memcpy_dtoh(void *dst, const void *src,
                                                    size_t bytes);
/* Sets `count` 16-bit elements (poisoning outputs before a check). */
ATTNC_RT_API attnc_status attnc_testing_memset_u16(void *dst, uint16_t value,
                                                   size_t count);
/* Waits for all work on the device (cuCtxSynchronize). */
ATTNC_RT_API attnc_status attnc_testing_synchronize(void);

#ifdef __cplusplus
}
#endif

#endif /* ATTNC_RUNTIME_TESTING_H */
