//===- FakeCuda.cpp - a CUDA driver stand-in for runtime tests ----*- C++
//-*-===//
//
// libattnc-fake-cuda.so: the driver entry points the runtime resolves, with
// just enough behaviour to load an artifact and "launch" it on a machine
// without a GPU (ATTNC_LIBCUDA names it). Contexts are tracked per thread as
// the real driver does, and every call that needs a context fails with
// CUDA_ERROR_INVALID_CONTEXT unless the device's primary context is current,
// so a test sees both a missing cuCtxSetCurrent and a caller's context that
// is not restored. Memory is host memory; launches only count, and, once a
// test enables the trace (attnc_fake_cuda_trace_enable), each tensor map
// encoded and each launch's grid are described in the calling thread's
// trace (attnc_fake_cuda_trace), for tests of what the runtime passes.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
struct Object {
  int tag;
};
Object primaryContext{1}, module{2}, function{3};
thread_local CUcontext current = nullptr;
std::atomic<long> launches{0};
std::atomic<bool> tracing{false};
thread_local std::string trace;

template <typename T>
void appendList(const T *values, int n) {
  for (int i = 0; i < n; ++i)
    trace += (i ? ", " : "") + std::to_string(values[i]);
}

CUcontext primary() { return reinterpret_cast<CUcontext>(&primaryContext); }
CUresult needContext() {
  return current == primary() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
} // namespace

extern "C" {

#define ATTNC_FAKE_API __attribute__((visibility("default")))

/// For tests: launches so far.
ATTNC_FAKE_API long attnc_fake_cuda_launches() { return launches.load(); }
/// For tests: record tensor maps and launches in each thread's trace.
ATTNC_FAKE_API void attnc_fake_cuda_trace_enable(int on) { tracing = on; }
/// For tests: this thread's trace since the last call, then cleared.
ATTNC_FAKE_API const char *attnc_fake_cuda_trace() {
  static thread_local std::string taken;
  taken.swap(trace);
  trace.clear();
  return taken.c_str();
}

ATTNC_FAKE_API CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }
ATTNC_FAKE_API CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == CUDA_ERROR_INVALID_CONTEXT ? "CUDA_ERROR_INVALID_CONTEXT"
                                       : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuGetErrorString(CUresult, const char **s) {
  *s = "fake driver";
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "Fake H100", len);
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a,
                                             CUdevice) {
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *v = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *v = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *v = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *v = 132;
    break;
  default:
    *v = 0;
  }
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  *c = primary();
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuCtxGetCurrent(CUcontext *c) {
  *c = current;
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuCtxSetCurrent(CUcontext c) {
  current = c;
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuCtxSynchronize() { return needContext(); }
ATTNC_FAKE_API CUresult cuModuleLoadDataEx(CUmodule *m, const void *,
                                           unsigned int, CUjit_option *,
                                           void **) {
  *m = reinterpret_cast<CUmodule>(&module);
  return needContext();
}
ATTNC_FAKE_API CUresult cuModuleGetFunction(CUfunction *f, CUmodule,
                                            const char *) {
  *f = reinterpret_cast<CUfunction>(&function);
  return needContext();
}
ATTNC_FAKE_API CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute,
                                           int) {
  return needContext();
}
ATTNC_FAKE_API CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a,
                                           CUfunction) {
  *v = a == CU_FUNC_ATTRIBUTE_NUM_REGS                ? 168
       : a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 384
                                                      : 0;
  return needContext();
}
ATTNC_FAKE_API CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType, cuuint32_t rank, void *address,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  std::memset(map, 0, sizeof(*map));
  if (tracing) {
    char base[32];
    std::snprintf(base, sizeof(base), "%p", address);
    trace += std::string("tensor_map base ") + base + " dims [";
    appendList(dims, int(rank));
    trace += "] byte_strides [";
    appendList(strides, int(rank) - 1);
    trace += "] box [";
    appendList(box, int(rank));
    trace += "]\n";
  }
  return CUDA_SUCCESS; // needs no context in the real driver either
}
ATTNC_FAKE_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                         CUfunction, void **, void **) {
  if (CUresult r = needContext())
    return r;
  ++launches;
  if (tracing) {
    unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
    unsigned block[3] = {config->blockDimX, config->blockDimY,
                         config->blockDimZ};
    trace += "launch grid [";
    appendList(grid, 3);
    trace += "] block [";
    appendList(block, 3);
    trace += "] shared_memory " + std::to_string(config->sharedMemBytes) + "\n";
  }
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  if (CUresult r = needContext())
    return r;
  *p = reinterpret_cast<CUdeviceptr>(
      std::aligned_alloc(256, (bytes + 255) / 256 * 256));
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuMemFree_v2(CUdeviceptr p) {
  std::free(reinterpret_cast<void *>(p));
  return needContext();
}
ATTNC_FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                        size_t n) {
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return needContext();
}
ATTNC_FAKE_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
  std::memcpy(dst, reinterpret_cast<void *>(src), n);
  return needContext();
}
ATTNC_FAKE_API CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short v,
                                       size_t n) {
  unsigned short *p = reinterpret_cast<unsigned short *>(dst);
  for (size_t i = 0; i < n; ++i)
    p[i] = v;
  return needContext();
}
ATTNC_FAKE_API CUresult cuEventCreate(CUevent *e, unsigned int) {
  *e = reinterpret_cast<CUevent>(new Object{4});
  return needContext();
}
ATTNC_FAKE_API CUresult cuEventRecord(CUevent, CUstream) {
  return needContext();
}
ATTNC_FAKE_API CUresult cuEventSynchronize(CUevent) { return needContext(); }
ATTNC_FAKE_API CUresult cuEventElapsedTime_v2(float *ms, CUevent, CUevent) {
  *ms = 0.5f;
  return needContext();
}
ATTNC_FAKE_API CUresult cuEventDestroy_v2(CUevent e) {
  delete reinterpret_cast<Object *>(e);
  return needContext();
}
ATTNC_FAKE_API CUresult cuStreamSynchronize(CUstream) { return needContext(); }

} // extern "C"
