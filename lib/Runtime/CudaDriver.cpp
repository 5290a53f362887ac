//===- CudaDriver.cpp - dlopen'ed CUDA driver API ---------------*- C++ -*-===//
//
// Opens the CUDA driver once per process and resolves the function table.
// The table is never unloaded: kernels and allocations may outlive any
// owner we could pick, and the process exit releases the driver anyway.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstdlib>

using namespace attnc::rt;

namespace {
struct LoadResult {
  CudaDriver driver;
  std::string error;
  bool notFound = false;
  bool ok = false;
};

LoadResult load() {
  LoadResult result;
  // ATTNC_LIBCUDA names another driver library (tests, unusual installs).
  const char *override = std::getenv("ATTNC_LIBCUDA");
  const char *path = override && *override ? override : "libcuda.so.1";
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    result.notFound = true;
    result.error = std::string(path) +
                   " not found: no CUDA driver on this machine (dlopen: " +
                   (why ? why : "unknown error") + ")";
    return result;
  }
  auto resolve = [&](const char *symbol, const char *fallback) -> void * {
    void *fn = dlsym(handle, symbol);
    if (!fn && fallback)
      fn = dlsym(handle, fallback);
    return fn;
  };
#define ATTNC_RESOLVE(api, symbol, fallback)                                   \
  result.driver.api = reinterpret_cast<decltype(result.driver.api)>(           \
      resolve(symbol, fallback));                                              \
  if (!result.driver.api) {                                                    \
    result.error = std::string(path) + " has no symbol " + symbol +            \
                   "; the CUDA driver is too old (CUDA 12.0 or newer needed)"; \
    return result;                                                             \
  }
  ATTNC_CUDA_DRIVER_FUNCTIONS(ATTNC_RESOLVE)
#undef ATTNC_RESOLVE
  result.driver.cuDriverGetVersion(&result.driver.version);
  result.ok = true;
  return result;
}
} // namespace

const CudaDriver *attnc::rt::loadCudaDriver(std::string &error,
                                            attnc_status &status) {
  // Function-local static: loaded once, thread-safe; leaked on purpose.
  static const LoadResult *loaded = new LoadResult(load());
  if (!loaded->ok) {
    error = loaded->error;
    status = loaded->notFound ? ATTNC_ERROR_DRIVER_NOT_FOUND : ATTNC_ERROR_CUDA;
    return nullptr;
  }
  return &loaded->driver;
}

std::string attnc::rt::describeCudaResult(const CudaDriver &driver,
                                          CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driver.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) {
    // A stub libcuda answers every call, cuGetErrorName included, this way.
    if (result == CUDA_ERROR_STUB_LIBRARY)
      return "CUDA_ERROR_STUB_LIBRARY: the CUDA driver library is a stub, not "
             "a real driver";
    return "CUresult " + std::to_string(static_cast<int>(result)) +
           ": the driver has no name for this code";
  }
  if (driver.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  return std::string(name) + ": " + text;
}

bool attnc::rt::checkCuda(const CudaDriver &driver, CUresult result,
                          std::string_view call, std::string_view what,
                          std::string &error) {
  if (result == CUDA_SUCCESS)
    return true;
  error = std::string(call);
  if (!what.empty())
    error += "(" + std::string(what) + ")";
  error += ": " + describeCudaResult(driver, result);
  return false;
}

ContextScope::~ContextScope() {
  if (driver)
    driver->cuCtxSetCurrent(saved);
}

bool ContextScope::enter(const CudaDriver &d, CUcontext context,
                         std::string &error) {
  if (driver)
    return true; // entered before in this call; the caller's context is saved
  CUcontext current = nullptr;
  if (!ATTNC_CUDA_CALL(d, cuCtxGetCurrent, "", error, &current))
    return false;
  if (current == context)
    return true;
  if (!ATTNC_CUDA_CALL(d, cuCtxSetCurrent, "primary context", error, context))
    return false;
  driver = &d;
  saved = current;
  return true;
}
