//===- RuntimeLaunch.cpp - one launch through the fake driver ---*- C++ -*-===//
//
// attnc-rt-launch-test ARTIFACT [TENSOR=DIMS[/STRIDES][:VALUES]]...
//     [TENSOR.dtype=T] [TENSOR.device=N] [TENSOR.offset=BYTES] [lse]
//     [struct_size=N] [check] [workspace=BYTES] [workspace.offset=BYTES]
//     [workspace_bytes=BYTES] [workspace_size] [relaunch]
//     [relaunch.TENSOR.offset=BYTES]
// run with ATTNC_LIBCUDA naming libattnc-fake-cuda.so: launches the artifact
// once on tensors q, k, v and o (bf16, four dims: the logical [B, H, S, D])
// and, when given, the int32 index tensors of a paged KV cache, block_table
// and cache_lengths, and of a varlen batch, cu_seqlens_q and cu_seqlens_k
// (one to four dims; the unused trailing ones are 1 with stride 0), of the
// given shapes and element strides (default: packed
// row-major; v defaults to k and o to q, strides included), with an LSE
// buffer when `lse` is given, and prints the launch's status and the fake
// driver's trace of it: each tensor map the runtime encoded, each
// stream-ordered allocation, free and copy to the host, each stream
// synchronization, and each launch's function, grid and parameters.
// VALUES (comma-separated integers) fill an index tensor's memory from its
// first element, the rest being 0. TENSOR.dtype (bf16, f16, f32, i32 or a
// number), TENSOR.device (device_id) and TENSOR.offset (byte_offset) set
// those fields of a tensor; struct_size=N sets args.struct_size (376: the
// 0.2.0 struct, without the index tensors; 552: the 0.3.0 one, without the
// varlen offsets; 728: the 0.4.0 one, without the workspace); `check` calls
// attnc_attention_check instead of attnc_attention_launch. workspace=BYTES
// passes a caller's split-KV workspace of BYTES bytes (256-byte aligned,
// moved by workspace.offset), named cws in the trace; workspace_bytes=BYTES
// sets the byte count alone (a NULL workspace); `workspace_size` first
// prints what attnc_attention_workspace_size says and the fake driver's
// trace of that call. `relaunch` launches (with `check`, checks) a second
// time on the same tensors, each moved by its relaunch.TENSOR.offset bytes
// if given, and prints that call's status and trace too (the runtime reuses
// the tensor maps of a call on the same tensors). Addresses are
// named after what they point into: a tensor's name or lse plus an element
// offset, or ws (the allocation of the trace's mem_alloc_async, a split-KV
// workspace) plus a byte offset; "?" when they point into none.
//
// Three modes test the split-KV arithmetic of the runtime (lib/Runtime/
// SplitKv.h) without a driver:
//   attnc-rt-launch-test --kv-splits TILES KV_BLOCKS NUM_SMS
//     prints the split heuristic's count;
//   attnc-rt-launch-test --launch-kv-splits TILES SEQ_K KV_BLOCK NUM_SMS
//     prints a launch's count (the heuristic's, or 1 for few keys);
//   attnc-rt-launch-test --workspace SPLITS BATCH HEADS SEQ_Q HEAD_DIM_V
//     prints the workspace's lse_partial offset and size, or "overflow".
//
//===----------------------------------------------------------------------===//

#include "SplitKv.h"
#include "attnc/Runtime/Runtime.h"
#include "attnc/Runtime/Testing.h"

#include <dlfcn.h>

#include <algorithm>
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
  int rank = 4;
  int64_t shape[4] = {1, 1, 1, 1};
  int64_t strides[4] = {};
  bool stridesGiven = false;
  attnc_dtype dtype = ATTNC_BF16;
  int32_t deviceId = 0;
  uint64_t byteOffset = 0;
  std::vector<int64_t> values; // an index tensor's first elements
  uint64_t relaunchOffset = 0; // bytes the tensor moves by for `relaunch`
  void *data = nullptr;
};

/// A comma-separated list of integers.
bool parseList(const std::string &text, std::vector<int64_t> &out) {
  out.clear();
  std::istringstream in(text);
  for (;;) {
    int64_t value;
    if (!(in >> value))
      return false;
    out.push_back(value);
    if (in.peek() == EOF)
      return true;
    if (in.get() != ',')
      return false;
  }
}

/// Exactly `rank` integers (1..4 when `rank` is 0, which is then set).
bool parseInts(const std::string &text, int64_t out[4], int &rank) {
  std::vector<int64_t> list;
  if (!parseList(text, list) || list.empty() || list.size() > 4 ||
      (rank && int(list.size()) != rank))
    return false;
  rank = int(list.size());
  std::copy(list.begin(), list.end(), out);
  return true;
}

bool parseDType(const std::string &text, attnc_dtype &out) {
  const std::pair<const char *, attnc_dtype> names[] = {{"bf16", ATTNC_BF16},
                                                        {"f16", ATTNC_F16},
                                                        {"f32", ATTNC_F32},
                                                        {"i32", ATTNC_I32}};
  for (auto [name, dtype] : names)
    if (text == name) {
      out = dtype;
      return true;
    }
  char *end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  out = static_cast<attnc_dtype>(value);
  return !text.empty() && !*end;
}

int64_t elementSize(attnc_dtype dtype) {
  return dtype == ATTNC_BF16 || dtype == ATTNC_F16 ? 2 : 4;
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
  if (mode == "--launch-kv-splits" && n.size() == 4) {
    std::printf(
        "tiles %lld seq_k %lld kv_block %lld num_sms %lld -> kv_splits %lld\n",
        (long long)n[0], (long long)n[1], (long long)n[2], (long long)n[3],
        (long long)attnc::rt::chooseLaunchKvSplits(n[0], n[1], n[2], n[3]));
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
                         "[TENSOR=DIMS[/STRIDES][:VALUES]]... "
                         "[TENSOR.dtype=T] [TENSOR.device=N] "
                         "[TENSOR.offset=BYTES] [lse] [struct_size=N] "
                         "[check] [workspace=BYTES] [workspace.offset=BYTES] "
                         "[workspace_bytes=BYTES] [workspace_size] "
                         "[relaunch] [relaunch.TENSOR.offset=BYTES]\n");
    return 2;
  }
  constexpr int kTensors = 8;
  const char *names[kTensors] = {"q",
                                 "k",
                                 "v",
                                 "o",
                                 "block_table",
                                 "cache_lengths",
                                 "cu_seqlens_q",
                                 "cu_seqlens_k"};
  Tensor tensors[kTensors];
  for (int n = 4; n < kTensors; ++n)
    tensors[n].dtype = ATTNC_I32;
  bool withLse = false, checkOnly = false, askWorkspace = false,
       relaunch = false;
  uint32_t structSize = sizeof(attnc_attention_args);
  uint64_t workspaceBytes = 0, workspaceOffset = 0;
  bool withWorkspace = false;
  auto bad = [&](const char *what, const char *arg) {
    std::fprintf(stderr, "attnc-rt-launch-test: bad %s '%s'\n", what, arg);
    return 2;
  };
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "lse" || arg == "check" || arg == "workspace_size" ||
        arg == "relaunch") {
      (arg == "lse"              ? withLse
       : arg == "check"          ? checkOnly
       : arg == "workspace_size" ? askWorkspace
                                 : relaunch) = true;
      continue;
    }
    size_t eq = arg.find('=');
    std::string key = arg.substr(0, eq), field;
    if (eq == std::string::npos)
      return bad("argument", argv[i]);
    std::string value = arg.substr(eq + 1);
    if (key == "struct_size") {
      structSize = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
      continue;
    }
    if (key == "workspace" || key == "workspace.offset" ||
        key == "workspace_bytes") {
      (key == "workspace.offset" ? workspaceOffset : workspaceBytes) =
          std::strtoull(value.c_str(), nullptr, 10);
      withWorkspace |= key == "workspace";
      continue;
    }
    bool forRelaunch = key.rfind("relaunch.", 0) == 0;
    if (forRelaunch)
      key = key.substr(std::string("relaunch.").size());
    if (size_t dot = key.find('.'); dot != std::string::npos) {
      field = key.substr(dot + 1);
      key = key.substr(0, dot);
    }
    if (forRelaunch && field != "offset")
      return bad("argument", argv[i]);
    int which = -1;
    for (int n = 0; n < kTensors; ++n)
      if (key == names[n])
        which = n;
    if (which < 0)
      return bad("argument", argv[i]);
    Tensor &t = tensors[which];
    if (field == "dtype") {
      if (!parseDType(value, t.dtype))
        return bad("dtype", argv[i]);
      continue;
    }
    if (field == "device" || field == "offset") {
      char *end = nullptr;
      long long number = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end)
        return bad(field.c_str(), argv[i]);
      if (field == "device")
        t.deviceId = int32_t(number);
      else
        (forRelaunch ? t.relaunchOffset : t.byteOffset) = uint64_t(number);
      continue;
    }
    if (!field.empty())
      return bad("argument", argv[i]);
    size_t colon = value.find(':');
    if (colon != std::string::npos) {
      if (which < 4 || !parseList(value.substr(colon + 1), t.values))
        return bad("values", argv[i]);
      value = value.substr(0, colon);
    }
    size_t slash = value.find('/');
    t.given = true;
    t.stridesGiven = slash != std::string::npos;
    t.rank = which < 4 ? 4 : 0;
    int strideRank = 0;
    if (!parseInts(value.substr(0, slash), t.shape, t.rank) ||
        (t.stridesGiven &&
         (!parseInts(value.substr(slash + 1), t.strides, strideRank) ||
          strideRank != t.rank)))
      return bad("tensor", argv[i]);
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
      for (int i = t.rank - 1; i >= 0; --i) {
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
  attnc_tensor *fields[kTensors] = {&args.q,
                                    &args.k,
                                    &args.v,
                                    &args.o,
                                    &args.block_table,
                                    &args.cache_lengths,
                                    &args.cu_seqlens_q,
                                    &args.cu_seqlens_k};
  for (int n = 0; n < kTensors; ++n) {
    Tensor &t = tensors[n];
    if (!t.given && n >= 4)
      continue; // absent: zero-initialized
    int64_t size = elementSize(t.dtype);
    // At least one element, for a tensor with a dim of size 0.
    size_t bytes = size_t(std::max<int64_t>(span(t), 1) * size +
                          int64_t(t.byteOffset + t.relaunchOffset));
    if (attnc_testing_malloc(&t.data, bytes) != ATTNC_OK ||
        attnc_testing_memset_u16(t.data, 0, bytes / 2) != ATTNC_OK) {
      std::fprintf(stderr, "attnc-rt-launch-test: %s\n",
                   attnc_testing_last_error());
      return 1;
    }
    if (!t.values.empty()) {
      std::vector<int32_t> values(t.values.begin(), t.values.end());
      values.resize(std::max<size_t>(values.size(), 1));
      if (attnc_testing_memcpy_htod(
              static_cast<char *>(t.data) + t.byteOffset, values.data(),
              std::min(values.size() * 4, bytes - t.byteOffset)) != ATTNC_OK) {
        std::fprintf(stderr, "attnc-rt-launch-test: %s\n",
                     attnc_testing_last_error());
        return 1;
      }
    }
    attnc_tensor &f = *fields[n];
    f.data = t.data;
    f.dtype = t.dtype;
    f.device_id = t.deviceId;
    f.byte_offset = t.byteOffset;
    std::memcpy(f.shape, t.shape, sizeof(t.shape));
    std::memcpy(f.strides, t.strides, sizeof(t.strides));
  }
  args.struct_size = structSize;
  void *lse = nullptr;
  if (withLse) {
    const Tensor &q = tensors[0];
    attnc_testing_malloc(&lse,
                         size_t(q.shape[0] * q.shape[1] * q.shape[2]) * 4);
    args.lse = lse;
  }
  args.scale = 0.08838834764831845f;
  void *workspaceAllocation = nullptr;
  uintptr_t workspace = 0;
  if (withWorkspace) {
    attnc_testing_malloc(&workspaceAllocation,
                         workspaceBytes + workspaceOffset + 256);
    workspace =
        (reinterpret_cast<uintptr_t>(workspaceAllocation) + 255) / 256 * 256 +
        workspaceOffset;
    args.workspace = reinterpret_cast<void *>(workspace);
  }
  args.workspace_bytes = workspaceBytes;
  // Name each address after what it points into.
  std::vector<Region> regions;
  for (int n = 0; n < kTensors; ++n)
    if (tensors[n].data) {
      uint64_t size = uint64_t(elementSize(tensors[n].dtype));
      regions.push_back(
          {names[n],
           reinterpret_cast<uintptr_t>(tensors[n].data) + tensors[n].byteOffset,
           uint64_t(span(tensors[n])) * size, size});
    }
  if (lse) {
    const Tensor &q = tensors[0];
    regions.push_back({"lse", reinterpret_cast<uintptr_t>(lse),
                       uint64_t(q.shape[0] * q.shape[1] * q.shape[2]) * 4, 4});
  }
  if (workspace)
    regions.push_back({"cws", workspace, workspaceBytes, 1});
  // Prints the fake driver's trace of the last call.
  auto printTrace = [&] {
    std::istringstream lines(trace());
    for (std::string line; std::getline(lines, line);) {
      unsigned long long bytes = 0, base = 0;
      if (std::sscanf(line.c_str(), "mem_alloc_async bytes %llu at %llx",
                      &bytes, &base) == 2)
        regions.push_back({"ws", uintptr_t(base), bytes, 1});
      std::printf("%s\n", nameAddresses(line, regions).c_str());
    }
  };
  if (askWorkspace) {
    uint64_t bytes = 0;
    enable(1);
    attnc_status st = attnc_attention_workspace_size(kernel, &args, &bytes);
    enable(0);
    std::printf("workspace_size: %s", attnc_status_name(st));
    if (st == ATTNC_OK)
      std::printf(" bytes %llu", static_cast<unsigned long long>(bytes));
    else
      std::printf(": %s", attnc_last_error());
    std::printf("\n");
    printTrace();
  }
  // Launches (or checks) once and prints the status and the trace, as
  // `label`.
  auto launch = [&](const char *label) {
    enable(1);
    attnc_status st = checkOnly
                          ? attnc_attention_check(kernel, &args, nullptr)
                          : attnc_attention_launch(kernel, &args, nullptr);
    enable(0);
    std::printf("%s: %s", label, attnc_status_name(st));
    if (st != ATTNC_OK)
      std::printf(": %s", attnc_last_error());
    std::printf("\n");
    printTrace();
    return st;
  };
  attnc_status st = launch(checkOnly ? "check" : "launch");
  if (relaunch) {
    for (int n = 0; n < kTensors; ++n)
      fields[n]->byte_offset += tensors[n].relaunchOffset;
    if (attnc_status again = launch(checkOnly ? "recheck" : "relaunch"))
      st = again;
  }
  for (Tensor &t : tensors)
    attnc_testing_free(t.data);
  attnc_testing_free(lse);
  attnc_testing_free(workspaceAllocation);
  attnc_kernel_release(kernel);
  return st == ATTNC_OK ? 0 : 1;
}
