//===- RuntimeLaunch.cpp - one launch through the fake driver ---*- C++ -*-===//
//
// attnc-rt-launch-test ARTIFACT [NAME=B,H,S,D[/S0,S1,S2,S3]]... [lse], run
// with ATTNC_LIBCUDA naming libattnc-fake-cuda.so: launches the artifact
// once on bf16 tensors q, k, v and o of the given logical [B, H, S, D]
// shapes and element strides (default: packed BHSD; v defaults to k and o to
// q, strides included), with an LSE buffer when `lse` is given, and prints
// the launch's status and the fake driver's trace of it: each tensor map the
// runtime encoded, each stream-ordered allocation and free, and each
// launch's function, grid and parameters. Addresses are named after what
// they point into: q, k, v, o or lse plus an element offset, or ws (the
// allocation of the trace's mem_alloc_async, a split-KV workspace) plus a
// byte offset; "?" when they point into none.
//
// Two modes test the split-KV arithmetic of the runtime (lib/Runtime/
// SplitKv.h) without a driver:
//   attnc-rt-launch-test --kv-splits TILES KV_BLOCKS NUM_SMS
//     prints the split heuristic's count;
//   attnc-rt-launch-test --workspace SPLITS BATCH HEADS SEQ_Q HEAD_DIM_V
//     prints the workspace's lse_partial offset and size, or "overflow".
//
//===----------------------------------------------------------------------===//

#include "SplitKv.h"
#include "attnc/Runtime/Runtime.h"
#include "attnc/Runtime/Testing.h"

#include <dlfcn.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {
struct Tensor {
  bool given = false;
  int64_t shape[4] = {};
  int64_t strides[4] = {};
  bool stridesGiven = false;
  void *data = nullptr;
};

bool parseInts(const std::string &text, int64_t out[4]) {
  std::istringstream in(text);
  for (int i = 0; i < 4; ++i) {
    if (!(in >> out[i]))
      return false;
    if (i < 3 && in.get() != ',')
      return false;
  }
  return in.peek() == EOF;
}

/// Elements a tensor's view spans: the last element's offset plus one.
int64_t span(const Tensor &t) {
  int64_t last = 0;
  for (int i = 0; i < 4; ++i)
    last += (t.shape[i] - 1) * t.strides[i];
  return last + 1;
}

/// A named range of memory, for naming the addresses in the trace.
struct Region {
  std::string name;
  uintptr_t base;
  uint64_t bytes;
  uint64_t elementSize; // offsets are printed in elements of this size
};

/// `line` with each 0x... address replaced by "<region>+<offset>" ("?" if
/// it is in no region).
std::string nameAddresses(const std::string &line,
                          const std::vector<Region> &regions) {
  std::string out;
  for (size_t at = 0; at < line.size();) {
    size_t hex = line.find("0x", at);
    if (hex == std::string::npos ||
        (hex > 0 && std::isalnum(static_cast<unsigned char>(line[hex - 1])))) {
      size_t stop = hex == std::string::npos ? line.size() : hex + 2;
      out += line.substr(at, stop - at);
      at = stop;
      continue;
    }
    char *end = nullptr;
    uintptr_t address = std::strtoull(line.c_str() + hex, &end, 16);
    out += line.substr(at, hex - at);
    std::string name = "?";
    for (const Region &r : regions)
      if (address >= r.base && address - r.base < r.bytes)
        name =
            r.name + "+" + std::to_string((address - r.base) / r.elementSize);
    out += name;
    at = end - line.c_str();
  }
  return out;
}

/// The split-KV arithmetic modes (see the file comment); -1 if `argv` is not
/// one of them.
int splitArithmetic(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  std::vector<int64_t> n;
  for (int i = 2; i < argc; ++i)
    n.push_back(std::strtoll(argv[i], nullptr, 10));
  if (mode == "--kv-splits" && n.size() == 3) {
    std::printf("tiles %lld kv_blocks %lld num_sms %lld -> kv_splits %lld\n",
                (long long)n[0], (long long)n[1], (long long)n[2],
                (long long)attnc::rt::chooseKvSplits(n[0], n[1], n[2]));
    return 0;
  }
  if (mode == "--workspace" && n.size() == 5) {
    attnc::rt::SplitWorkspace w;
    if (!attnc::rt::splitWorkspace(n[0], n[1], n[2], n[3], n[4], w))
      std::printf("workspace: overflow\n");
    else
      std::printf("workspace: lse_partial at %llu, %llu bytes\n",
                  (unsigned long long)w.lsePartialOffset,
                  (unsigned long long)w.bytes);
    return 0;
  }
  return -1;
}
} // namespace

int main(int argc, char **argv) {
  if (int status = splitArithmetic(argc, argv); status >= 0)
    return status;
  if (argc < 2) {
    std::fprintf(stderr, "usage: attnc-rt-launch-test ARTIFACT "
                         "[NAME=B,H,S,D[/S0,S1,S2,S3]]... [lse]\n");
    return 2;
  }
  const char *names[4] = {"q", "k", "v", "o"};
  Tensor tensors[4];
  bool withLse = false;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "lse") {
      withLse = true;
      continue;
    }
    size_t eq = arg.find('=');
    int which = -1;
    for (int n = 0; n < 4; ++n)
      if (eq != std::string::npos && arg.substr(0, eq) == names[n])
        which = n;
    if (which < 0) {
      std::fprintf(stderr, "attnc-rt-launch-test: bad argument '%s'\n",
                   argv[i]);
      return 2;
    }
    Tensor &t = tensors[which];
    std::string value = arg.substr(eq + 1);
    size_t slash = value.find('/');
    t.given = true;
    t.stridesGiven = slash != std::string::npos;
    if (!parseInts(value.substr(0, slash), t.shape) ||
        (t.stridesGiven && !parseInts(value.substr(slash + 1), t.strides))) {
      std::fprintf(stderr, "attnc-rt-launch-test: bad tensor '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!tensors[0].given || !tensors[1].given) {
    std::fprintf(stderr, "attnc-rt-launch-test: q and k are required\n");
    return 2;
  }
  // v follows k and o follows q unless given.
  if (!tensors[2].given)
    tensors[2] = tensors[1];
  if (!tensors[3].given)
    tensors[3] = tensors[0];
  for (Tensor &t : tensors)
    if (!t.stridesGiven) {
      int64_t stride = 1;
      for (int i = 3; i >= 0; --i) {
        t.strides[i] = stride;
        stride *= t.shape[i];
      }
    }

  const char *lib = std::getenv("ATTNC_LIBCUDA");
  void *driver = lib && *lib ? dlopen(lib, RTLD_NOW) : nullptr;
  auto enable = driver ? reinterpret_cast<void (*)(int)>(
                             dlsym(driver, "attnc_fake_cuda_trace_enable"))
                       : nullptr;
  auto trace = driver ? reinterpret_cast<const char *(*)()>(
                            dlsym(driver, "attnc_fake_cuda_trace"))
                      : nullptr;
  if (!enable || !trace) {
    std::fprintf(stderr, "attnc-rt-launch-test: ATTNC_LIBCUDA must name "
                         "libattnc-fake-cuda.so\n");
    return 2;
  }

  attnc_kernel kernel = nullptr;
  if (attnc_kernel_load(argv[1], &kernel) != ATTNC_OK) {
    std::fprintf(stderr, "attnc-rt-launch-test: %s\n", attnc_last_error());
    return 1;
  }
  attnc_attention_args args = {sizeof(attnc_attention_args)};
  attnc_tensor *fields[4] = {&args.q, &args.k, &args.v, &args.o};
  for (int n = 0; n < 4; ++n) {
    Tensor &t = tensors[n];
    if (attnc_testing_malloc(&t.data, size_t(span(t)) * 2) != ATTNC_OK) {
      std::fprintf(stderr, "attnc-rt-launch-test: %s\n",
                   attnc_testing_last_error());
      return 1;
    }
    attnc_tensor &f = *fields[n];
    f.data = t.data;
    f.dtype = ATTNC_BF16;
    std::memcpy(f.shape, t.shape, sizeof(t.shape));
    std::memcpy(f.strides, t.strides, sizeof(t.strides));
  }
  void *lse = nullptr;
  if (withLse) {
    const Tensor &q = tensors[0];
    attnc_testing_malloc(&lse,
                         size_t(q.shape[0] * q.shape[1] * q.shape[2]) * 4);
    args.lse = lse;
  }
  args.scale = 0.08838834764831845f;

  enable(1);
  attnc_status st = attnc_attention_launch(kernel, &args, nullptr);
  enable(0);
  std::printf("launch: %s", attnc_status_name(st));
  if (st != ATTNC_OK)
    std::printf(": %s", attnc_last_error());
  std::printf("\n");
  // Name each address after what it points into.
  std::vector<Region> regions;
  for (int n = 0; n < 4; ++n)
    regions.push_back({names[n], reinterpret_cast<uintptr_t>(tensors[n].data),
                       uint64_t(span(tensors[n])) * 2, 2});
  if (lse) {
    const Tensor &q = tensors[0];
    regions.push_back({"lse", reinterpret_cast<uintptr_t>(lse),
                       uint64_t(q.shape[0] * q.shape[1] * q.shape[2]) * 4, 4});
  }
  std::istringstream lines(trace());
  for (std::string line; std::getline(lines, line);) {
    unsigned long long bytes = 0, base = 0;
    if (std::sscanf(line.c_str(), "mem_alloc_async bytes %llu at %llx", &bytes,
                    &base) == 2)
      regions.push_back({"ws", uintptr_t(base), bytes, 1});
    std::printf("%s\n", nameAddresses(line, regions).c_str());
  }
  for (Tensor &t : tensors)
    attnc_testing_free(t.data);
  attnc_testing_free(lse);
  attnc_kernel_release(kernel);
  return st == ATTNC_OK ? 0 : 1;
}
