//===- Testing.cpp - attnc runtime helpers for tests and benchmarks -------===//
//
// libAttncRuntimeTesting: device memory, synchronization and launch timing
// over the public runtime ABI plus the CUDA driver (opened the same way as
// the runtime's, on the runtime's device and primary context). Nothing here is
// part of the product ABI.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Testing.h"

#include "CudaDriver.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

using namespace attnc::rt;

namespace {
thread_local std::string lastError;

attnc_status failWith(attnc_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

attnc_status invalid(const char *call, const std::string &message) {
  return failWith(ATTNC_ERROR_INVALID_ARGUMENT,
                  std::string(call) + ": " + message);
}

std::string hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%llx",
                static_cast<unsigned long long>(value));
  return buf;
}

CUdeviceptr devicePtr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

/// The driver and the runtime's device's primary context, found once.
struct Device {
  const CudaDriver *driver = nullptr;
  CUcontext context = nullptr;
};

attnc_status openDevice(const char *call, Device &out) {
  static std::mutex mutex;
  static Device *device = nullptr; // leaked on purpose, like the runtime's
  std::lock_guard<std::mutex> lock(mutex);
  if (device) {
    out = *device;
    return ATTNC_OK;
  }
  // The runtime chooses (and initializes) the device.
  int ordinal = 0;
  if (attnc_status st = attnc_get_device(&ordinal))
    return failWith(st, std::string(call) + ": " + attnc_last_error());
  std::string error;
  attnc_status status = ATTNC_OK;
  const CudaDriver *driver = loadCudaDriver(error, status);
  if (!driver)
    return failWith(status, std::string(call) + ": " + error);
  CUdevice dev = 0;
  CUcontext context = nullptr;
  if (!ATTNC_CUDA_CALL(*driver, cuDeviceGet, "", error, &dev, ordinal) ||
      !ATTNC_CUDA_CALL(*driver, cuDevicePrimaryCtxRetain, "", error, &context,
                       dev))
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  device = new Device{driver, context};
  out = *device;
  return ATTNC_OK;
}

/// The helpers' preamble: the device, its context current for the call, and
/// a checked driver call.
template <typename Fn>
attnc_status withDriver(const char *call, Fn body) {
  lastError.clear();
  Device device;
  if (attnc_status st = openDevice(call, device))
    return st;
  ContextScope scope;
  std::string error;
  if (scope.enter(*device.driver, device.context, error) &&
      body(*device.driver, error))
    return ATTNC_OK;
  return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
}

/// A copy of `bytes` between `dst` and `src` by `copy` (a driver call);
/// zero bytes are a no-op.
template <typename Copy>
attnc_status copyBytes(const char *call, void *dst, const void *src,
                       size_t bytes, Copy copy) {
  lastError.clear();
  if (bytes == 0)
    return ATTNC_OK;
  if (!dst || !src)
    return invalid(call, std::string(dst ? "src" : "dst") + " is NULL");
  return withDriver(call, copy);
}
} // namespace

extern "C" {

const char *attnc_testing_last_error(void) { return lastError.c_str(); }

attnc_status attnc_testing_time_launches(attnc_kernel kernel,
                                         const attnc_attention_args *args,
                                         void *stream, int warmup, int iters,
                                         float *median_ms) {
  const char *call = "attnc_testing_time_launches";
  lastError.clear();
  if (!median_ms)
    return invalid(call, "median_ms is NULL");
  if (warmup < 0 || warmup > 10000)
    return invalid(call,
                   "warmup " + std::to_string(warmup) + " is outside 0..10000");
  if (iters < 1 || iters > 10000)
    return invalid(call,
                   "iters " + std::to_string(iters) + " is outside 1..10000");
  auto launch = [&]() -> attnc_status {
    if (attnc_status st = attnc_attention_launch(kernel, args, stream))
      return failWith(st, std::string(call) + ": " + attnc_last_error());
    return ATTNC_OK;
  };
  // The first launch checks everything before any event is created.
  if (attnc_status st = launch())
    return st;
  for (int i = 1; i < warmup; ++i)
    if (attnc_status st = launch())
      return st;

  std::vector<float> times(static_cast<size_t>(iters));
  attnc_status status = ATTNC_OK; // of a failed launch
  std::string launchError;
  attnc_status driverStatus = withDriver(call, [&](const CudaDriver &d,
                                                   std::string &error) {
    std::vector<CUevent> events;
    auto done = [&](bool ok) {
      for (CUevent e : events)
        d.cuEventDestroy(e);
      return ok;
    };
    CUstream cuStream = static_cast<CUstream>(stream);
    events.reserve(2 * static_cast<size_t>(iters));
    for (int i = 0; i < 2 * iters; ++i) {
      CUevent e = nullptr;
      if (!ATTNC_CUDA_CALL(d, cuEventCreate, "", error, &e, CU_EVENT_DEFAULT))
        return done(false);
      events.push_back(e);
    }
    for (int i = 0; i < iters; ++i) {
      if (!ATTNC_CUDA_CALL(d, cuEventRecord, "start", error, events[2 * i],
                           cuStream))
        return done(false);
      if ((status = launch()) != ATTNC_OK) {
        launchError = lastError;
        return done(false);
      }
      if (!ATTNC_CUDA_CALL(d, cuEventRecord, "stop", error, events[2 * i + 1],
                           cuStream))
        return done(false);
    }
    if (!ATTNC_CUDA_CALL(d, cuEventSynchronize, "stop", error, events.back()))
      return done(false);
    for (int i = 0; i < iters; ++i)
      if (!ATTNC_CUDA_CALL(d, cuEventElapsedTime, "", error, &times[i],
                           events[2 * i], events[2 * i + 1]))
        return done(false);
    return done(true);
  });
  if (status != ATTNC_OK) // a launch failed: its status and message
    return failWith(status, launchError);
  if (driverStatus != ATTNC_OK)
    return driverStatus;
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  *median_ms =
      times.size() % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return ATTNC_OK;
}

attnc_status attnc_testing_malloc(void **ptr, size_t bytes) {
  const char *call = "attnc_testing_malloc";
  lastError.clear();
  if (!ptr)
    return invalid(call, "ptr is NULL");
  *ptr = nullptr;
  if (bytes == 0)
    return invalid(call, "bytes is 0");
  return withDriver(call, [&](const CudaDriver &d, std::string &error) {
    CUdeviceptr p = 0;
    if (!ATTNC_CUDA_CALL(d, cuMemAlloc, std::to_string(bytes) + " bytes", error,
                         &p, bytes))
      return false;
    *ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
    return true;
  });
}

attnc_status attnc_testing_free(void *ptr) {
  lastError.clear();
  if (!ptr)
    return ATTNC_OK;
  return withDriver("attnc_testing_free",
                    [&](const CudaDriver &d, std::string &error) {
                      return ATTNC_CUDA_CALL(d, cuMemFree, hex(devicePtr(ptr)),
                                             error, devicePtr(ptr));
                    });
}

attnc_status attnc_testing_memcpy_htod(void *dst, const void *src,
                                       size_t bytes) {
  return copyBytes("attnc_testing_memcpy_htod", dst, src, bytes,
                   [&](const CudaDriver &d, std::string &error) {
                     return ATTNC_CUDA_CALL(d, cuMemcpyHtoD,
                                            std::to_string(bytes) +
                                                " bytes to " +
                                                hex(devicePtr(dst)),
                                            error, devicePtr(dst), src, bytes);
                   });
}

attnc_status attnc_testing_memcpy_dtoh(void *dst, const void *src,
                                       size_t bytes) {
  return copyBytes("attnc_testing_memcpy_dtoh", dst, src, bytes,
                   [&](const CudaDriver &d, std::string &error) {
                     return ATTNC_CUDA_CALL(d, cuMemcpyDtoH,
                                            std::to_string(bytes) +
                                                " bytes from " +
                                                hex(devicePtr(src)),
                                            error, dst, devicePtr(src), bytes);
                   });
}

attnc_status attnc_testing_memset_u16(void *dst, uint16_t value, size_t count) {
  const char *call = "attnc_testing_memset_u16";
  lastError.clear();
  if (count == 0)
    return ATTNC_OK;
  if (!dst)
    return invalid(call, "dst is NULL");
  if (reinterpret_cast<uintptr_t>(dst) % 2 != 0)
    return invalid(call,
                   "dst " + hex(devicePtr(dst)) + " is not 2-byte aligned");
  return withDriver(call, [&](const CudaDriver &d, std::string &error) {
    return ATTNC_CUDA_CALL(d, cuMemsetD16,
                           std::to_string(count) + " elements at " +
                               hex(devicePtr(dst)),
                           error, devicePtr(dst), value, count);
  });
}

attnc_status attnc_testing_synchronize(void) {
  lastError.clear();
  return withDriver("attnc_testing_synchronize",
                    [](const CudaDriver &d, std::string &error) {
                      return ATTNC_CUDA_CALL(d, cuCtxSynchronize, "", error);
                    });
}

} // extern "C"
