//===- CudaDriver.h - dlopen'ed CUDA driver API -----------------*- C++ -*-===//
//
// The runtime never links libcuda: the driver is opened with dlopen at first
// use and every entry point is resolved by its exported (versioned) symbol,
// so the library builds and reports clean errors on machines without a GPU.
// cuda.h is included for types and enums only. Also here: the one helper that
// turns a CUresult into "<call>(<what>): <CUDA_ERROR_NAME>: <description>",
// and the scope that saves and restores the caller's current context.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_RUNTIME_CUDADRIVER_H
#define ATTNC_LIB_RUNTIME_CUDADRIVER_H

#include "attnc/Runtime/Runtime.h"

#include <cuda.h>

#include <string>
#include <string_view>

namespace attnc::rt {

/// X(api, exported symbol, fallback symbol). Members are named after the API
/// (cuda.h's macros rename e.g. cuMemAlloc to cuMemAlloc_v2 both where a member
/// is declared and where it is used, so the pair stays consistent). The
/// fallback serves drivers older than the versioned symbol.
#define ATTNC_CUDA_DRIVER_FUNCTIONS(X)                                         \
  X(cuInit, "cuInit", nullptr)                                                 \
  X(cuDriverGetVersion, "cuDriverGetVersion", nullptr)                         \
  X(cuGetErrorName, "cuGetErrorName", nullptr)                                 \
  X(cuGetErrorString, "cuGetErrorString", nullptr)                             \
  X(cuDeviceGetCount, "cuDeviceGetCount", nullptr)                             \
  X(cuDeviceGet, "cuDeviceGet", nullptr)                                       \
  X(cuDeviceGetName, "cuDeviceGetName", nullptr)                               \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", nullptr)                     \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr)             \
  X(cuCtxGetCurrent, "cuCtxGetCurrent", nullptr)                               \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", nullptr)                               \
  X(cuCtxSynchronize, "cuCtxSynchronize", nullptr)                             \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", nullptr)                         \
  X(cuModuleGetFunction, "cuModuleGetFunction", nullptr)                       \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", nullptr)                         \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", nullptr)                         \
  X(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", nullptr)                 \
  X(cuLaunchKernelEx, "cuLaunchKernelEx", nullptr)                             \
  X(cuMemAlloc, "cuMemAlloc_v2", nullptr)                                      \
  X(cuMemFree, "cuMemFree_v2", nullptr)                                        \
  X(cuMemAllocAsync, "cuMemAllocAsync", nullptr)                               \
  X(cuMemFreeAsync, "cuMemFreeAsync", nullptr)                                 \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", nullptr)                                  \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", nullptr)                                  \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", nullptr)                        \
  X(cuMemsetD16, "cuMemsetD16_v2", nullptr)                                    \
  X(cuEventCreate, "cuEventCreate", nullptr)                                   \
  X(cuEventRecord, "cuEventRecord", nullptr)                                   \
  X(cuEventSynchronize, "cuEventSynchronize", nullptr)                         \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")         \
  X(cuEventDestroy, "cuEventDestroy_v2", nullptr)                              \
  X(cuStreamSynchronize, "cuStreamSynchronize", nullptr)

/// The resolved entry points. Types come from cuda.h's prototypes, so a
/// mismatch between a symbol and its use is a compile error.
struct CudaDriver {
#define ATTNC_DECLARE_MEMBER(api, symbol, fallback)                            \
  decltype(&::api) api = nullptr;
  ATTNC_CUDA_DRIVER_FUNCTIONS(ATTNC_DECLARE_MEMBER)
#undef ATTNC_DECLARE_MEMBER
  int version = 0; // cuDriverGetVersion, e.g. 13000
};

/// Opens libcuda.so.1 and resolves the table once per process; later calls
/// return the same table (or the same failure). Does not call cuInit. On
/// failure returns null and sets `error` and `status`:
/// ATTNC_ERROR_DRIVER_NOT_FOUND for a missing driver, ATTNC_ERROR_CUDA for a
/// broken one.
const CudaDriver *loadCudaDriver(std::string &error, attnc_status &status);

/// "CUDA_ERROR_X: description", robust to codes the driver does not name.
std::string describeCudaResult(const CudaDriver &driver, CUresult result);

/// Returns true on CUDA_SUCCESS; otherwise sets `error` to
/// "<call>(<what>): <CUDA_ERROR_NAME>: <description>" (no parentheses when
/// `what` is empty) and returns false.
bool checkCuda(const CudaDriver &driver, CUresult result, std::string_view call,
               std::string_view what, std::string &error);

/// Makes a context current for the life of an entry point, then restores the
/// caller's (a failure to restore cannot be reported: the call's own result
/// stands). Every entry point that calls the driver holds one.
class ContextScope {
public:
  ContextScope() = default;
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;
  ~ContextScope();

  /// Saves the current context and makes `context` current (one context per
  /// scope; a second call in the same scope does nothing).
  bool enter(const CudaDriver &driver, CUcontext context, std::string &error);

private:
  const CudaDriver *driver = nullptr; // set when `saved` must be restored
  CUcontext saved = nullptr;
};

} // namespace attnc::rt

/// Calls `driver.api(args...)` and checks the result, naming the call after
/// the API ("cuTensorMapEncodeTiled(q)"). Evaluates to a bool.
#define ATTNC_CUDA_CALL(driver, api, what, error, ...)                         \
  ::attnc::rt::checkCuda((driver), (driver).api(__VA_ARGS__), #api, (what),    \
                         (error))

#endif // ATTNC_LIB_RUNTIME_CUDADRIVER_H
