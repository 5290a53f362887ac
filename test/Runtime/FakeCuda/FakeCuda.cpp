//===- FakeCuda.cpp - a CUDA driver stand-in for runtime tests ----*- C++
//-*-===//
//
// libattnc-fake-cuda.so: the driver entry points the runtime resolves, with
// just enough behaviour to load an artifact and "launch" it on a machine
// without a GPU (ATTNC_LIBCUDA names it). Contexts are tracked per thread as
// the real driver does, and every call that needs a context fails with
// CUDA_ERROR_INVALID_CONTEXT unless the device's primary context is current,
// so a test sees both a missing cuCtxSetCurrent and a caller's context that
// is not restored. Memory is host memory, but stream-ordered allocations
// (cuMemAllocAsync) are distinct addresses above the user address space that
// nothing may touch. Modules keep their PTX, so that a function knows its
// entry's name, parameter types and block limit (.maxntid or .reqntid).
// Launches only count, and, once a test enables the trace
// (attnc_fake_cuda_trace_enable), each tensor map encoded, each stream-ordered
// allocation and free and each launch (its function, grid and parameter values)
// are described in the calling thread's trace (attnc_fake_cuda_trace), for
// tests of what the runtime passes; so are stream-ordered copies to the host
// (cuMemcpyDtoHAsync, which copies at once: device memory is host memory)
// and stream synchronizations. A tensor map holds the base address it was
// encoded for in its first word; with ATTNC_FAKE_CUDA_TRACE_MAPS=1 a launch
// traces each tensor-map parameter as map(<base>) instead of map, so a test
// sees which map reached which parameter. ATTNC_FAKE_CUDA_FAIL_LAUNCH=<entry>
// fails the launches of that entry, ATTNC_FAKE_CUDA_FAIL_ALLOC_ASYNC=1 every
// cuMemAllocAsync and ATTNC_FAKE_CUDA_FAIL_MEMCPY_ASYNC=1 every
// cuMemcpyDtoHAsync, for tests of the runtime's error paths.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace {
struct Object {
  int tag;
};
Object primaryContext{1};

/// A function of a module: its entry's name, one letter per parameter (m: a
/// 128-byte tensor map, p: 64 bits, i: 32-bit integer, f: f32) and its
/// block limit (the entry's .maxntid or .reqntid, else 384).
struct Function {
  std::string name;
  std::string params;
  int maxThreads = 384;
};

/// A loaded module (never unloaded, as the runtime never unloads one): its
/// PTX and the functions resolved in it.
struct Module {
  std::string image;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Function>> functions;
};

/// The parameters and block limit of `.entry name(...)` in `ptx`; false if
/// there is no such entry.
bool readEntry(const std::string &ptx, const std::string &name, Function &out) {
  for (size_t at = ptx.find(".entry"); at != std::string::npos;
       at = ptx.find(".entry", at + 6)) {
    size_t begin = ptx.find_first_not_of(" \t", at + 6);
    if (begin == std::string::npos || ptx.compare(begin, name.size(), name))
      continue;
    size_t open = ptx.find_first_not_of(" \t\n", begin + name.size());
    if (open == std::string::npos || ptx[open] != '(')
      continue;
    size_t close = ptx.find(')', open);
    std::string list = ptx.substr(open + 1, close - open - 1);
    out.params.clear();
    for (size_t p = list.find(".param"); p != std::string::npos;
         p = list.find(".param", p + 6)) {
      std::string decl = list.substr(p, list.find(',', p) - p);
      out.params += decl.find('[') != std::string::npos      ? 'm'
                    : decl.find("64 ") != std::string::npos  ? 'p'
                    : decl.find(".f32") != std::string::npos ? 'f'
                                                             : 'i';
    }
    // The performance directives between the parameters and the body.
    std::string directives = ptx.substr(close, ptx.find('{', close) - close);
    for (const char *d : {".maxntid", ".reqntid"})
      if (size_t at = directives.find(d); at != std::string::npos)
        out.maxThreads = std::atoi(directives.c_str() + at + 8);
    return true;
  }
  return false;
}

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

/// " params [...]": tensor maps as "map" (or, with
/// ATTNC_FAKE_CUDA_TRACE_MAPS=1, "map(<base>)"), 64-bit values in hex, the
/// rest in decimal.
void traceParams(const Function &fn, void **params) {
  trace += " params [";
  const char *mapBases = std::getenv("ATTNC_FAKE_CUDA_TRACE_MAPS");
  bool withBases = mapBases && std::string(mapBases) == "1";
  for (size_t i = 0; i < fn.params.size(); ++i) {
    char value[32] = "map";
    if (fn.params[i] == 'm' && withBases)
      std::snprintf(value, sizeof(value), "map(0x%llx)",
                    static_cast<unsigned long long>(
                        static_cast<CUtensorMap *>(params[i])->opaque[0]));
    else if (fn.params[i] == 'p')
      std::snprintf(value, sizeof(value), "0x%llx",
                    *static_cast<unsigned long long *>(params[i]));
    else if (fn.params[i] == 'i')
      std::snprintf(value, sizeof(value), "%d",
                    *static_cast<int32_t *>(params[i]));
    else if (fn.params[i] == 'f')
      std::snprintf(value, sizeof(value), "%g",
                    double(*static_cast<float *>(params[i])));
    trace += (i ? ", " : "") + std::string(value);
  }
  trace += "]";
}

/// Stream-ordered allocations: fake addresses from 0xa00000000000 up (past
/// the 47-bit user address space, so never host memory), 1 MiB apart.
std::atomic<uint64_t> nextAsync{0xa00000000000ull};
std::mutex asyncMutex;
std::set<CUdeviceptr> liveAsync;
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
  switch (r) {
  case CUDA_ERROR_INVALID_CONTEXT:
    *s = "CUDA_ERROR_INVALID_CONTEXT";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *s = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_NOT_FOUND:
    *s = "CUDA_ERROR_NOT_FOUND";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *s = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_LAUNCH_FAILED:
    *s = "CUDA_ERROR_LAUNCH_FAILED";
    break;
  default:
    *s = "CUDA_ERROR_FAKE";
  }
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
ATTNC_FAKE_API CUresult cuModuleLoadDataEx(CUmodule *m, const void *image,
                                           unsigned int, CUjit_option *,
                                           void **) {
  if (CUresult r = needContext())
    return r;
  auto *loaded = new Module; // never unloaded, like the runtime's
  loaded->image = static_cast<const char *>(image);
  *m = reinterpret_cast<CUmodule>(loaded);
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m,
                                            const char *name) {
  if (CUresult r = needContext())
    return r;
  Module &module = *reinterpret_cast<Module *>(m);
  std::lock_guard<std::mutex> lock(module.mutex);
  std::unique_ptr<Function> &fn = module.functions[name];
  if (!fn) {
    auto made = std::make_unique<Function>();
    made->name = name;
    if (!readEntry(module.image, name, *made)) {
      module.functions.erase(name);
      return CUDA_ERROR_NOT_FOUND;
    }
    fn = std::move(made);
  }
  *f = reinterpret_cast<CUfunction>(fn.get());
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute,
                                           int) {
  return needContext();
}
ATTNC_FAKE_API CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a,
                                           CUfunction f) {
  const Function &fn = *reinterpret_cast<const Function *>(f);
  *v = a == CU_FUNC_ATTRIBUTE_NUM_REGS                ? 168
       : a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? fn.maxThreads
                                                      : 0;
  return needContext();
}
ATTNC_FAKE_API CUresult cuTensorMapEncodeTiled(
    CUtensorMap *map, CUtensorMapDataType, cuuint32_t rank, void *address,
    const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  std::memset(map, 0, sizeof(*map));
  map->opaque[0] = reinterpret_cast<uintptr_t>(address);
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
                                         CUfunction f, void **params, void **) {
  if (CUresult r = needContext())
    return r;
  const Function &fn = *reinterpret_cast<const Function *>(f);
  const char *failing = std::getenv("ATTNC_FAKE_CUDA_FAIL_LAUNCH");
  if (failing && fn.name == failing) {
    if (tracing)
      trace += "launch " + fn.name + " failed (ATTNC_FAKE_CUDA_FAIL_LAUNCH)\n";
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  ++launches;
  if (tracing) {
    unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
    unsigned block[3] = {config->blockDimX, config->blockDimY,
                         config->blockDimZ};
    trace += "launch " + fn.name + " grid [";
    appendList(grid, 3);
    trace += "] block [";
    appendList(block, 3);
    trace += "] shared_memory " + std::to_string(config->sharedMemBytes);
    for (unsigned i = 0; i < config->numAttrs; ++i)
      if (config->attrs[i].id ==
              CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
          config->attrs[i].value.programmaticStreamSerializationAllowed)
        trace += " programmatic";
    traceParams(fn, params);
    trace += "\n";
  }
  return CUDA_SUCCESS;
}

ATTNC_FAKE_API CUresult cuMemAllocAsync(CUdeviceptr *p, size_t bytes,
                                        CUstream) {
  if (CUresult r = needContext())
    return r;
  const char *fail = std::getenv("ATTNC_FAKE_CUDA_FAIL_ALLOC_ASYNC");
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (fail && *fail == '1')
    return CUDA_ERROR_OUT_OF_MEMORY;
  const uint64_t mib = uint64_t(1) << 20;
  uint64_t span = (uint64_t(bytes) + 2 * mib - 1) / mib * mib;
  *p = static_cast<CUdeviceptr>(nextAsync.fetch_add(span));
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    liveAsync.insert(*p);
  }
  if (tracing) {
    char at[32];
    std::snprintf(at, sizeof(at), "0x%llx",
                  static_cast<unsigned long long>(*p));
    trace +=
        "mem_alloc_async bytes " + std::to_string(bytes) + " at " + at + "\n";
  }
  return CUDA_SUCCESS;
}
ATTNC_FAKE_API CUresult cuMemFreeAsync(CUdeviceptr p, CUstream) {
  if (CUresult r = needContext())
    return r;
  {
    std::lock_guard<std::mutex> lock(asyncMutex);
    if (!liveAsync.erase(p))
      return CUDA_ERROR_INVALID_VALUE;
  }
  if (tracing) {
    char at[32];
    std::snprintf(at, sizeof(at), "0x%llx", static_cast<unsigned long long>(p));
    trace += std::string("mem_free_async ") + at + "\n";
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
ATTNC_FAKE_API CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src,
                                             size_t n, CUstream) {
  if (CUresult r = needContext())
    return r;
  const char *fail = std::getenv("ATTNC_FAKE_CUDA_FAIL_MEMCPY_ASYNC");
  if (tracing) {
    char from[32];
    std::snprintf(from, sizeof(from), "0x%llx",
                  static_cast<unsigned long long>(src));
    trace += "memcpy_dtoh_async bytes " + std::to_string(n) + " from " + from +
             (fail && *fail == '1' ? " failed" : "") + "\n";
  }
  if (fail && *fail == '1')
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, reinterpret_cast<void *>(src), n); // memory is host memory
  return CUDA_SUCCESS;
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
ATTNC_FAKE_API CUresult cuStreamSynchronize(CUstream) {
  if (tracing)
    trace += "stream_synchronize\n";
  return needContext();
}

} // extern "C"
