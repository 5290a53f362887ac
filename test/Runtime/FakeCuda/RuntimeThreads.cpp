//===- RuntimeThreads.cpp - many threads through the runtime ----*- C++ -*-===//
//
// attnc-rt-threads-test ARTIFACT [THREADS] [ITERATIONS] [shared], run with
// ATTNC_LIBCUDA naming libattnc-fake-cuda.so (or a real driver): each thread
// makes a context of its own current (a fake handle with the fake driver; no
// context with a real one), then loads the artifact, reads its attributes,
// allocates, copies, launches and times it, again and again, and checks after
// every call that its own context is still current. With `shared` the
// threads launch one kernel handle that the main thread loaded (and so share
// its tensor-map cache) instead of loading their own. Prints one summary
// line; exits non-zero on the first failure.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Runtime.h"
#include "attnc/Runtime/Testing.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
using CtxFn = int (*)(void *);
using GetCtxFn = int (*)(void **);
CtxFn setCurrent = nullptr;
GetCtxFn getCurrent = nullptr;
bool fakeDriver = false;
std::mutex failMutex;
std::atomic<int> failures{0};

void fail(const std::string &what) {
  std::lock_guard<std::mutex> lock(failMutex);
  if (failures++ < 5)
    std::fprintf(stderr, "attnc-rt-threads-test: %s\n", what.c_str());
}

/// A packed bf16 BHSD tensor of `bytes` bytes at `data`.
attnc_tensor tensor(void *data, int64_t b, int64_t h, int64_t s, int64_t d) {
  attnc_tensor t = {};
  t.data = data;
  t.dtype = ATTNC_BF16;
  int64_t shape[4] = {b, h, s, d};
  int64_t stride = 1;
  for (int i = 3; i >= 0; --i) {
    t.shape[i] = shape[i];
    t.strides[i] = stride;
    stride *= shape[i];
  }
  return t;
}

/// Q, K, V and O in `buf` (bf16 [b, h, s, d], contiguous), the LSE and the
/// scale as launch arguments.
attnc_attention_args attentionArgs(void *const buf[4], void *lse, int64_t b,
                                   int64_t h, int64_t s, int64_t d,
                                   float scale) {
  attnc_attention_args args = {sizeof(attnc_attention_args)};
  args.q = tensor(buf[0], b, h, s, d);
  args.k = tensor(buf[1], b, h, s, d);
  args.v = tensor(buf[2], b, h, s, d);
  args.o = tensor(buf[3], b, h, s, d);
  args.lse = lse;
  args.scale = scale;
  return args;
}

/// `shared`: the kernel handle every thread launches, or null for a handle
/// each thread loads and releases per iteration.
void worker(int id, const char *artifact, int iterations, attnc_kernel shared) {
  // With the fake driver any pointer is a context; the runtime must hand it
  // back untouched.
  void *mine =
      fakeDriver ? reinterpret_cast<void *>(0x1000 + 16 * id) : nullptr;
  if (setCurrent)
    setCurrent(mine);
  auto kept = [&](const char *call) {
    void *now = nullptr;
    if (getCurrent && (getCurrent(&now) != 0 || now != mine))
      fail(std::string(call) + " left context " +
           std::to_string(reinterpret_cast<uintptr_t>(now)) +
           " current, not the caller's");
  };
  auto check = [&](attnc_status st, const char *call, bool testing = false) {
    kept(call);
    if (st != ATTNC_OK) {
      fail(std::string(call) + ": " +
           (testing ? attnc_testing_last_error() : attnc_last_error()));
      return false;
    }
    return true;
  };
  for (int i = 0; i < iterations && failures == 0; ++i) {
    attnc_kernel kernel = shared;
    if (!kernel &&
        !check(attnc_kernel_load(artifact, &kernel), "attnc_kernel_load"))
      return;
    attnc_kernel_attrs attrs = {sizeof(attnc_kernel_attrs)};
    check(attnc_kernel_get_attrs(kernel, &attrs), "attnc_kernel_get_attrs");
    // The artifact: bf16, D = 128, causal, GQA, LSE (test/Runtime/Inputs).
    const int64_t b = 1, h = 2, s = 128, d = 128;
    size_t bytes = b * h * s * d * 2;
    void *buf[4] = {};
    void *lse = nullptr;
    for (void *&p : buf)
      check(attnc_testing_malloc(&p, bytes), "attnc_testing_malloc", true);
    check(attnc_testing_malloc(&lse, b * h * s * 4), "attnc_testing_malloc",
          true);
    std::vector<uint16_t> host(bytes / 2, 0x3f80);
    check(attnc_testing_memcpy_htod(buf[0], host.data(), bytes),
          "attnc_testing_memcpy_htod", true);
    check(attnc_testing_memset_u16(buf[3], 0xffff, bytes / 2),
          "attnc_testing_memset_u16", true);
    attnc_attention_args args =
        attentionArgs(buf, lse, b, h, s, d, 0.08838834764831845f);
    check(attnc_attention_launch(kernel, &args, nullptr),
          "attnc_attention_launch");
    float ms = 0;
    check(attnc_testing_time_launches(kernel, &args, nullptr, 1, 2, &ms),
          "attnc_testing_time_launches", true);
    check(attnc_testing_synchronize(), "attnc_testing_synchronize", true);
    check(attnc_testing_memcpy_dtoh(host.data(), buf[3], bytes),
          "attnc_testing_memcpy_dtoh", true);
    for (void *p : buf)
      check(attnc_testing_free(p), "attnc_testing_free", true);
    check(attnc_testing_free(lse), "attnc_testing_free", true);
    if (!shared)
      check(attnc_kernel_release(kernel), "attnc_kernel_release");
  }
}
/// A launch with a negative scale is refused (the kernel would give NaN),
/// naming the value; prints the status and message.
void checkNegativeScale(const char *artifact) {
  attnc_kernel kernel = nullptr;
  if (attnc_kernel_load(artifact, &kernel) != ATTNC_OK) {
    fail(std::string("attnc_kernel_load: ") + attnc_last_error());
    return;
  }
  const int64_t b = 1, h = 2, s = 128, d = 128;
  void *buf[4] = {};
  void *lse = nullptr;
  for (void *&p : buf)
    attnc_testing_malloc(&p, b * h * s * d * 2);
  attnc_testing_malloc(&lse, b * h * s * 4);
  attnc_attention_args args = attentionArgs(buf, lse, b, h, s, d, -0.5f);
  attnc_status st = attnc_attention_launch(kernel, &args, nullptr);
  std::printf("scale -0.5: %s: %s\n", attnc_status_name(st),
              attnc_last_error());
  for (void *p : buf)
    attnc_testing_free(p);
  attnc_testing_free(lse);
  attnc_kernel_release(kernel);
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: attnc-rt-threads-test ARTIFACT [THREADS] [ITERATIONS] "
                 "[shared]\n");
    return 2;
  }
  int threads = argc > 2 ? std::atoi(argv[2]) : 16;
  int iterations = argc > 3 ? std::atoi(argv[3]) : 10;
  const char *lib = std::getenv("ATTNC_LIBCUDA");
  void *driver = dlopen(lib && *lib ? lib : "libcuda.so.1", RTLD_NOW);
  long (*fakeLaunches)() = nullptr;
  if (driver) {
    setCurrent = reinterpret_cast<CtxFn>(dlsym(driver, "cuCtxSetCurrent"));
    getCurrent = reinterpret_cast<GetCtxFn>(dlsym(driver, "cuCtxGetCurrent"));
    fakeLaunches =
        reinterpret_cast<long (*)()>(dlsym(driver, "attnc_fake_cuda_launches"));
    fakeDriver = fakeLaunches != nullptr;
  }
  bool sharedHandle = argc > 4 && std::string(argv[4]) == "shared";
  attnc_kernel shared = nullptr;
  if (sharedHandle && attnc_kernel_load(argv[1], &shared) != ATTNC_OK) {
    std::fprintf(stderr, "attnc-rt-threads-test: attnc_kernel_load: %s\n",
                 attnc_last_error());
    return 1;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(worker, t, argv[1], iterations, shared);
  for (std::thread &t : pool)
    t.join();
  attnc_kernel_release(shared);
  if (failures) {
    std::fprintf(stderr, "attnc-rt-threads-test: %d failures\n",
                 failures.load());
    return 1;
  }
  std::printf("%d threads x %d iterations%s: every call kept the caller's "
              "context",
              threads, iterations,
              sharedHandle ? " sharing one kernel handle" : "");
  if (fakeLaunches)
    std::printf(", %ld launches", fakeLaunches());
  std::printf("\n");
  checkNegativeScale(argv[1]);
  return failures ? 1 : 0;
}
