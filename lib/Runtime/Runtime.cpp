//===- Runtime.cpp - attnc kernel runtime -----------------------*- C++ -*-===//
//
// The C ABI of attnc/Runtime/Runtime.h: one device per process, kernel
// artifacts loaded into a process-wide module cache, and launches that check
// every caller-supplied tensor against the manifest before the driver sees
// it, so bad input ends in a message that names the call and the value at
// fault instead of a crash, a hang or a silently wrong result.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Runtime.h"

#include "CudaDriver.h"
#include "RuntimeErrors.h"
#include "SplitKv.h"
#include "TensorMapCache.h"
#include "attnc/Runtime/Manifest.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <vector>

using namespace attnc::rt;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

namespace {
thread_local std::string lastError;
} // namespace

attnc_status attnc::rt::failWith(attnc_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

attnc_status attnc::rt::invalid(const char *call, const std::string &message) {
  return failWith(ATTNC_ERROR_INVALID_ARGUMENT,
                  std::string(call) + ": " + message);
}

void attnc::rt::clearError() { lastError.clear(); }

const char *attnc::rt::lastErrorMessage() { return lastError.c_str(); }

namespace {
std::string hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%llx",
                static_cast<unsigned long long>(value));
  return buf;
}

std::string formatFloat(float value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", static_cast<double>(value));
  return buf;
}

template <typename T> std::string joinInts(const T *values, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out;
}

//===----------------------------------------------------------------------===//
// Device session: the driver table plus the one device this process uses
//===----------------------------------------------------------------------===//

struct Session {
  const CudaDriver *driver = nullptr;
  int ordinal = 0;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int maxSmemOptin = 0;
  int numSms = 0;
};

std::mutex sessionMutex;
Session *session = nullptr; // set once, then read-only; leaked on purpose

attnc_status openSession(const char *call, int ordinal, Session *&out) {
  std::string error;
  attnc_status status = ATTNC_OK;
  const CudaDriver *driver = loadCudaDriver(error, status);
  if (!driver)
    return failWith(status, std::string(call) + ": " + error);
  const CudaDriver &d = *driver;
  auto cudaFail = [&] {
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  };
  if (!ATTNC_CUDA_CALL(d, cuInit, "", error, 0))
    return cudaFail();
  int count = 0;
  if (!ATTNC_CUDA_CALL(d, cuDeviceGetCount, "", error, &count))
    return cudaFail();
  if (ordinal >= count)
    return invalid(call, "device ordinal " + std::to_string(ordinal) +
                             " is out of range; " + std::to_string(count) +
                             " CUDA device(s) visible");
  auto s = std::make_unique<Session>();
  s->driver = driver;
  s->ordinal = ordinal;
  std::string what = "device " + std::to_string(ordinal);
  char name[256] = {0};
  if (!ATTNC_CUDA_CALL(d, cuDeviceGet, what, error, &s->device, ordinal) ||
      !ATTNC_CUDA_CALL(d, cuDeviceGetName, what, error, name,
                       static_cast<int>(sizeof(name) - 1), s->device))
    return cudaFail();
  s->name = name;
  struct {
    CUdevice_attribute attr;
    int *out;
  } attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &s->ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &s->ccMinor},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &s->maxSmemOptin},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &s->numSms}};
  for (auto &a : attrs)
    if (!ATTNC_CUDA_CALL(d, cuDeviceGetAttribute, what, error, a.out, a.attr,
                         s->device))
      return cudaFail();
  if (!ATTNC_CUDA_CALL(d, cuDevicePrimaryCtxRetain, what, error, &s->context,
                       s->device))
    return cudaFail();
  out = s.release();
  return ATTNC_OK;
}

/// The process's session, opened on first use (device `ordinal`, or 0 when
/// negative), with its context current on the calling thread until `scope`
/// ends.
attnc_status getSession(const char *call, int ordinal, const Session *&out,
                        ContextScope &scope) {
  Session *s = nullptr;
  {
    std::lock_guard<std::mutex> lock(sessionMutex);
    if (!session) {
      attnc_status status = openSession(call, ordinal < 0 ? 0 : ordinal, s);
      if (status != ATTNC_OK)
        return status;
      session = s;
    }
    s = session;
  }
  if (ordinal >= 0 && ordinal != s->ordinal)
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": the runtime already uses device " +
                        std::to_string(s->ordinal) +
                        "; one device per process"
                        " (asked for device " +
                        std::to_string(ordinal) + ")");
  // Contexts are per thread: ours is current for this call only.
  std::string error;
  if (!scope.enter(*s->driver, s->context, error))
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  out = s;
  return ATTNC_OK;
}

//===----------------------------------------------------------------------===//
// Artifact files
//===----------------------------------------------------------------------===//

uint64_t fnv1a(uint64_t hash, std::string_view data) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/// The words following each occurrence of `directive` outside `//` comments.
std::vector<std::string> ptxDirectiveArgs(const std::string &ptx,
                                          const char *directive) {
  std::vector<std::string> words;
  size_t len = std::strlen(directive);
  std::istringstream lines(ptx);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find("//"));
    for (size_t at = line.find(directive); at != std::string::npos;
         at = line.find(directive, at + len)) {
      if (at > 0 && isIdentChar(line[at - 1]))
        continue;
      size_t begin = at + len;
      if (begin < line.size() && isIdentChar(line[begin]))
        continue; // a longer directive
      while (begin < line.size() && (line[begin] == ' ' || line[begin] == '\t'))
        ++begin;
      size_t end = begin;
      while (end < line.size() && isIdentChar(line[end]))
        ++end;
      words.push_back(line.substr(begin, end - begin));
    }
  }
  return words;
}

/// The position just past the name of `entry`'s ".entry" directive (exactly
/// that identifier, not a prefix of another, whatever the whitespace after
/// the directive), or npos.
size_t findEntry(const std::string &ptx, const std::string &entry) {
  for (size_t p = ptx.find(".entry"); p != std::string::npos;
       p = ptx.find(".entry", p + 6)) {
    size_t name = ptx.find_first_not_of(" \t", p + 6);
    if (name != std::string::npos && name > p + 6 &&
        ptx.compare(name, entry.size(), entry) == 0 &&
        !isIdentChar(ptx[name + entry.size()]))
      return name + entry.size();
  }
  return std::string::npos;
}

/// Checks that the PTX has an entry `k.entry` that takes one parameter per
/// `k.params` entry (the launch passes them). `prefix` is the manifest's key
/// of the kernel ("" for the top level, "split_kv.combine"), for errors.
bool checkPtxEntry(const std::string &ptxPath, const std::string &ptx,
                   const KernelLaunch &k, const std::string &prefix,
                   std::string &error) {
  const std::string &entry = k.entry;
  std::vector<std::string> entries = ptxDirectiveArgs(ptx, ".entry");
  if (std::find(entries.begin(), entries.end(), entry) == entries.end()) {
    error = ptxPath + ": no .entry named " + entry + " (" +
            (prefix.empty() ? "" : prefix + ".entry; ") + "entries: ";
    for (size_t i = 0; i < entries.size(); ++i)
      error += (i ? ", " : "") + entries[i];
    error += entries.empty() ? "none)" : ")";
    return false;
  }
  // The entry's ".param" declarations up to the closing parenthesis.
  size_t at = findEntry(ptx, entry);
  size_t open = at == std::string::npos ? at : ptx.find('(', at);
  size_t close = open == std::string::npos ? open : ptx.find(')', open);
  if (open == std::string::npos || close == std::string::npos) {
    error = ptxPath + ": .entry " + entry + " has no parameter list";
    return false;
  }
  size_t declared = 0;
  for (size_t p = ptx.find(".param", open); p != std::string::npos && p < close;
       p = ptx.find(".param", p + 6))
    ++declared;
  if (declared == k.params.size())
    return true;
  error = ptxPath + ": .entry " + entry + " takes " + std::to_string(declared) +
          " parameters but the manifest lists " +
          std::to_string(k.params.size()) + " (" +
          (prefix.empty() ? "" : prefix + ".") + "params)";
  return false;
}

/// The manifest's top-level kernel as a KernelLaunch, so that it and a
/// split-KV artifact's combine kernel are checked, loaded and launched by
/// the same code.
KernelLaunch attentionLaunch(const Manifest &m) {
  return {m.entry, m.threadsPerBlock, m.dynamicSmemBytes, m.grid, m.params};
}

/// Catches a PTX that does not match its manifest (whose top-level kernel is
/// `attention`) before the driver JITs it.
bool checkPtx(const Manifest &m, const KernelLaunch &attention,
              const std::string &ptxPath, const std::string &ptx,
              std::string &error) {
  std::vector<std::string> targets = ptxDirectiveArgs(ptx, ".target");
  if (targets.empty()) {
    error = ptxPath + ": no .target directive; not a PTX file?";
    return false;
  }
  if (targets.front() != m.target) {
    error = ptxPath + ": .target is " + targets.front() +
            " but the manifest's target is " + m.target;
    return false;
  }
  return checkPtxEntry(ptxPath, ptx, attention, "", error) &&
         (!m.splitKv || checkPtxEntry(ptxPath, ptx, m.splitKv->combine,
                                      "split_kv.combine", error));
}

//===----------------------------------------------------------------------===//
// Module cache
//===----------------------------------------------------------------------===//

/// Modules keyed by (device, canonical manifest path, content hash). They stay
/// loaded for the life of the process: unloading at exit races the driver's
/// own teardown, and a kernel handle may be released while work is queued.
struct ModuleCache {
  std::mutex mutex;
  std::map<std::string, CUmodule> modules;
};

ModuleCache &moduleCache() {
  static ModuleCache *cache = new ModuleCache;
  return *cache;
}

constexpr size_t kJitLogBytes = 64 * 1024;

attnc_status loadModule(const Session &s, const std::string &key,
                        const std::string &imagePath, const std::string &image,
                        CUmodule &out) {
  ModuleCache &cache = moduleCache();
  // Held across the JIT so that concurrent loads of one artifact JIT once.
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.modules.find(key);
  if (it != cache.modules.end()) {
    out = it->second;
    return ATTNC_OK;
  }
  std::vector<char> errorLog(kJitLogBytes, 0), infoLog(kJitLogBytes, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      errorLog.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(kJitLogBytes - 1)),
      infoLog.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(kJitLogBytes - 1))};
  CUmodule module = nullptr;
  std::string error;
  if (!ATTNC_CUDA_CALL(
          *s.driver, cuModuleLoadDataEx, imagePath, error, &module,
          image.c_str(),
          static_cast<unsigned>(sizeof(options) / sizeof(options[0])), options,
          values)) {
    if (errorLog[0])
      error += "\nJIT error log:\n" + std::string(errorLog.data());
    return failWith(ATTNC_ERROR_CUDA, "attnc_kernel_load: " + error);
  }
  cache.modules.emplace(key, module);
  out = module;
  return ATTNC_OK;
}
} // namespace

//===----------------------------------------------------------------------===//
// Kernel handles
//===----------------------------------------------------------------------===//

struct attnc_kernel_s {
  static constexpr uint64_t kMagic = 0x61746e636b726e6cull; // "atnckrnl"
  uint64_t magic = kMagic;
  Manifest manifest;
  /// The manifest's top-level kernel (attentionLaunch).
  KernelLaunch attention;
  std::string manifestPath;
  CUfunction function = nullptr;
  /// split_kv.combine.entry, for a split-KV artifact.
  CUfunction combine = nullptr;
  /// The tensor maps its launches encoded (a launch only reads and adds).
  mutable TensorMapCache tensorMaps;
  attnc_kernel_attrs attrs = {sizeof(attnc_kernel_attrs)};
};

namespace {
attnc_status checkKernel(const char *call, attnc_kernel kernel) {
  if (!kernel)
    return invalid(call, "kernel is NULL");
  if (kernel->magic != attnc_kernel_s::kMagic)
    return invalid(call, "kernel is not a live attnc_kernel (released?)");
  return ATTNC_OK;
}

bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string canonical(const std::string &path) {
  char *resolved = realpath(path.c_str(), nullptr);
  if (!resolved)
    return path;
  std::string out = resolved;
  std::free(resolved);
  return out;
}

/// What the device must offer before the module is worth loading: compute
/// capability 9.0 and, for each kernel, its dynamic shared memory.
attnc_status checkDevice(const char *call, const Session &s, const Manifest &m,
                         const std::string &device) {
  if (s.ccMajor != 9 || s.ccMinor != 0)
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": the artifact targets " + m.target +
                        " but " + device + " has compute capability " +
                        std::to_string(s.ccMajor) + "." +
                        std::to_string(s.ccMinor) + ", not 9.0");
  auto fits = [&](const char *key, int64_t bytes) {
    if (bytes <= s.maxSmemOptin)
      return ATTNC_OK;
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": " + key + " " +
                        std::to_string(bytes) + " exceeds the " +
                        std::to_string(s.maxSmemOptin) +
                        " bytes per block that " + device + " allows");
  };
  if (attnc_status st = fits("dynamic_smem_bytes", m.dynamicSmemBytes))
    return st;
  if (!m.splitKv)
    return ATTNC_OK;
  return fits("split_kv.combine.dynamic_smem_bytes",
              m.splitKv->combine.dynamicSmemBytes);
}

/// Resolves `k.entry` in `module`, checks its registers against its block
/// and its shared memory against the device's limit, and raises its dynamic
/// shared memory limit (a function attribute, so once here rather than on
/// every launch). `a` gets the function's attributes.
attnc_status loadFunction(const char *call, const Session &s, CUmodule module,
                          const KernelLaunch &k, const std::string &device,
                          CUfunction &fn, attnc_kernel_attrs &a) {
  const CudaDriver &d = *s.driver;
  std::string error;
  auto cudaFail = [&] {
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  };
  if (!ATTNC_CUDA_CALL(d, cuModuleGetFunction, k.entry, error, &fn, module,
                       k.entry.c_str()))
    return cudaFail();
  int regs = 0, local = 0, staticSmem = 0, maxThreads = 0;
  if (!ATTNC_CUDA_CALL(d, cuFuncGetAttribute, k.entry, error, &regs,
                       CU_FUNC_ATTRIBUTE_NUM_REGS, fn) ||
      !ATTNC_CUDA_CALL(d, cuFuncGetAttribute, k.entry, error, &local,
                       CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) ||
      !ATTNC_CUDA_CALL(d, cuFuncGetAttribute, k.entry, error, &staticSmem,
                       CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) ||
      !ATTNC_CUDA_CALL(d, cuFuncGetAttribute, k.entry, error, &maxThreads,
                       CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn))
    return cudaFail();
  a.num_regs = regs;
  a.local_bytes = local;
  a.static_smem_bytes = staticSmem;
  a.max_threads_per_block = maxThreads;
  a.dynamic_smem_bytes = static_cast<int32_t>(k.dynamicSmemBytes);
  a.threads_per_block = static_cast<int32_t>(k.threadsPerBlock);
  if (k.threadsPerBlock > maxThreads)
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": " + k.entry + " uses " +
                        std::to_string(regs) +
                        " registers per thread, so it launches with at most " +
                        std::to_string(maxThreads) +
                        " threads per block, but threads_per_block is " +
                        std::to_string(k.threadsPerBlock));
  if (staticSmem + k.dynamicSmemBytes > s.maxSmemOptin)
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": " + k.entry + " needs " +
                        std::to_string(staticSmem) + " bytes of static + " +
                        std::to_string(k.dynamicSmemBytes) +
                        " bytes of dynamic shared memory, more than the " +
                        std::to_string(s.maxSmemOptin) + " that " + device +
                        " allows");
  if (!ATTNC_CUDA_CALL(d, cuFuncSetAttribute, k.entry, error, fn,
                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                       static_cast<int>(k.dynamicSmemBytes)))
    return cudaFail();
  return ATTNC_OK;
}

attnc_status loadKernel(const char *path, attnc_kernel *out) {
  const char *call = "attnc_kernel_load";
  std::string manifestPath = path;
  std::string dir;
  if (isDirectory(manifestPath)) {
    dir = manifestPath;
    manifestPath += "/manifest.json";
  } else {
    size_t slash = manifestPath.rfind('/');
    dir = slash == std::string::npos ? "." : manifestPath.substr(0, slash);
  }

  // Everything about the artifact is checked before the driver is needed, so
  // these errors read the same on machines without a GPU.
  std::string error, manifestText, ptx, cubin;
  if (!readArtifactFile(manifestPath, manifestText, error))
    return failWith(ATTNC_ERROR_MANIFEST,
                    std::string(call) + ": manifest " + error);
  auto kernel = std::make_unique<attnc_kernel_s>();
  Manifest &m = kernel->manifest;
  if (!parseManifest(manifestText, m, error, manifestPath))
    return failWith(ATTNC_ERROR_MANIFEST, std::string(call) + ": " + error);
  kernel->attention = attentionLaunch(m);
  std::string ptxPath = dir + "/" + m.ptx;
  if (!readArtifactFile(ptxPath, ptx, error))
    return failWith(ATTNC_ERROR_MANIFEST, std::string(call) + ": PTX " + error);
  if (!checkPtx(m, kernel->attention, ptxPath, ptx, error))
    return failWith(ATTNC_ERROR_MANIFEST, std::string(call) + ": " + error);
  std::string cubinPath = m.cubin.empty() ? "" : dir + "/" + m.cubin;
  if (!cubinPath.empty() && !readArtifactFile(cubinPath, cubin, error))
    return failWith(ATTNC_ERROR_MANIFEST,
                    std::string(call) + ": cubin " + error);

  const Session *s = nullptr;
  ContextScope scope;
  if (attnc_status status = getSession(call, -1, s, scope))
    return status;
  std::string device =
      "device " + std::to_string(s->ordinal) + " (" + s->name + ")";
  if (attnc_status status = checkDevice(call, *s, m, device))
    return status;

  const std::string &image = cubin.empty() ? ptx : cubin;
  const std::string &imagePath = cubin.empty() ? ptxPath : cubinPath;
  uint64_t hash = fnv1a(1469598103934665603ull, manifestText);
  hash = fnv1a(hash, image);
  std::string key = std::to_string(s->ordinal) + "|" + canonical(manifestPath) +
                    "|" + hex(hash);
  CUmodule module = nullptr;
  if (attnc_status status = loadModule(*s, key, imagePath, image, module))
    return status;

  if (attnc_status status =
          loadFunction(call, *s, module, kernel->attention, device,
                       kernel->function, kernel->attrs))
    return status;
  // attnc_kernel_get_attrs reports the attention kernel's attributes.
  attnc_kernel_attrs combineAttrs = {sizeof(attnc_kernel_attrs)};
  if (m.splitKv)
    if (attnc_status status =
            loadFunction(call, *s, module, m.splitKv->combine, device,
                         kernel->combine, combineAttrs))
      return status;
  kernel->manifestPath = manifestPath;
  *out = kernel.release();
  return ATTNC_OK;
}

//===----------------------------------------------------------------------===//
// Launch preparation
//===----------------------------------------------------------------------===//

const char *const kDimNames[4] = {"batch", "heads", "seq", "head dim"};

/// The extent and element stride of `dim` in the map of `t`, the caller's
/// [B, H, S, D] tensor, where `group` query heads of each kv head are packed
/// (1: none): a packed map's heads are (g, h), (j, h) being query head
/// h * group + j.
std::pair<int64_t, int64_t> dimOf(const attnc_tensor &t, TensorDim dim,
                                  int64_t group) {
  switch (dim) {
  case TensorDim::B:
    return {t.shape[0], t.strides[0]};
  case TensorDim::H:
    return {t.shape[1] / group, t.strides[1] * group};
  case TensorDim::G:
    return {group, t.strides[1]};
  case TensorDim::S:
    return {t.shape[2], t.strides[2]};
  case TensorDim::D:
    return {t.shape[3], t.strides[3]};
  }
  return {t.shape[3], t.strides[3]};
}

std::optional<DType> toDType(attnc_dtype dtype) {
  switch (dtype) {
  case ATTNC_BF16:
    return DType::BF16;
  case ATTNC_F16:
    return DType::F16;
  case ATTNC_F32:
    return DType::F32;
  case ATTNC_I32:
    break;
  }
  return std::nullopt;
}

/// "ATTNC_I32", or the number of a value that is no attnc_dtype.
std::string dtypeName(attnc_dtype dtype) {
  switch (dtype) {
  case ATTNC_BF16:
    return "ATTNC_BF16";
  case ATTNC_F16:
    return "ATTNC_F16";
  case ATTNC_F32:
    return "ATTNC_F32";
  case ATTNC_I32:
    return "ATTNC_I32";
  }
  return std::to_string(static_cast<int>(dtype));
}

const attnc_tensor &tensorOf(const attnc_attention_args &args, TensorName t) {
  switch (t) {
  case TensorName::Q:
    return args.q;
  case TensorName::K:
    return args.k;
  case TensorName::V:
    return args.v;
  case TensorName::BlockTable:
    return args.block_table;
  case TensorName::CacheLengths:
    return args.cache_lengths;
  case TensorName::CuSeqlensQ:
    return args.cu_seqlens_q;
  case TensorName::CuSeqlensK:
    return args.cu_seqlens_k;
  default:
    return args.o;
  }
}

/// Everything cuLaunchKernelEx needs for one kernel. params point into maps
/// and scalars, config.attrs into attrs, so it is built in place and never
/// copied.
struct PreparedLaunch {
  PreparedLaunch() = default;
  PreparedLaunch(const PreparedLaunch &) = delete;
  PreparedLaunch &operator=(const PreparedLaunch &) = delete;

  std::vector<CUtensorMap> maps; // 64-byte aligned: CUtensorMap is over-aligned
  std::vector<uint64_t> scalars; // pointers, i32 and f32 values, 8 bytes each
  std::vector<void *> params;
  CUlaunchConfig config = {};
  /// The cluster shape and the programmatic stream serialization, where
  /// the kernel has them.
  std::array<CUlaunchAttribute, 2> attrs = {};
  std::string description; // for launch errors
  /// The scalars that point into the split-KV workspace. They hold offsets
  /// into it until bindWorkspace adds the base, so that every check and
  /// tensor map precedes the allocation.
  std::vector<size_t> workspaceSlots;

  void bindWorkspace(CUdeviceptr base) {
    for (size_t slot : workspaceSlots)
      scalars[slot] += base;
  }
};

/// What the host checks of a paged launch's index values need
/// (checkIndexValues): the resolved device pointers and the sizes.
struct PagedInputs {
  CUdeviceptr blockTable = 0, cacheLengths = 0;
  int64_t batch = 0, pagesPerSeq = 0, pageSize = 0, numPages = 0;
};

/// What the host checks of a varlen launch's offsets need
/// (checkVarlenValues): the resolved device pointers, the number of offsets
/// (batch + 1) and the rows of q and k they index.
struct VarlenInputs {
  CUdeviceptr cuSeqlensQ = 0, cuSeqlensK = 0;
  int64_t offsets = 0, totalQ = 0, totalK = 0;
};

/// One attnc_attention_launch: the attention kernel and, for a split-KV
/// artifact, the combine kernel and the workspace they share; for a paged
/// or a varlen artifact, its index inputs.
struct PreparedCall {
  PreparedLaunch attention;
  /// The artifact has split_kv (a workspace may be given to it).
  bool splitArtifact = false;
  /// This launch runs the combine kernel after the attention kernel, in a
  /// workspace: a split artifact, but for one split where the attention
  /// kernel writes O itself (split_kv.writes_output_at_one_split).
  bool split = false;
  PreparedLaunch combine;
  SplitWorkspace workspace;
  /// The launch's kv split count (1 without split_kv).
  int64_t splits = 1;
  /// The caller's workspace (attnc_attention_args.workspace, 0.5.0), if any.
  CUdeviceptr callerWorkspace = 0;
  uint64_t callerWorkspaceBytes = 0;
  std::optional<PagedInputs> paged;
  std::optional<VarlenInputs> varlen;
};

class LaunchBuilder {
public:
  LaunchBuilder(const Session &s, const attnc_kernel_s &kernel,
                const attnc_attention_args &args, const char *call)
      : s(s), kernel(kernel), m(kernel.manifest), args(args), call(call) {}

  attnc_status build(void *stream, PreparedCall &out);

private:
  const Session &s;
  const attnc_kernel_s &kernel;
  const Manifest &m;
  /// The caller's arguments (a packing kernel's maps view Q and O packed:
  /// dimOf).
  attnc_attention_args args;
  const char *call;
  int64_t symbols[kNumSymbols] = {};
  /// The split-KV workspace's layout (SplitKv.h); empty without split_kv.
  SplitWorkspace workspace;

  attnc_status fail(const std::string &message) {
    return invalid(call, message);
  }
  bool paged() const { return m.problem.pageSize != 0; }
  bool varlen() const { return m.problem.varlen; }
  attnc_status checkTensor(const char *name, const attnc_tensor &t);
  attnc_status checkShapes();
  attnc_status checkPagedShapes();
  attnc_status checkVarlenShapes();
  attnc_status checkIndexShape(const char *name, const attnc_tensor &t,
                               int rank, const char *dims);
  attnc_status checkIndexBatch(const char *name, const attnc_tensor &t);
  attnc_status checkIndexLayout(const char *name, const attnc_tensor &t,
                                int rank, const char *dims);
  attnc_status checkPackedQueryHeads();
  attnc_status checkTma(const char *name, const attnc_tensor &t);
  attnc_status checkContiguous(const char *name, const attnc_tensor &t,
                               bool pool);
  attnc_status encodeMap(const KernelParam &p, CUtensorMap &map);
  void setSymbols();
  attnc_status setKvSplits();
  void setCombineSymbols();
  attnc_status layOutWorkspace();
  attnc_status buildKernel(const KernelLaunch &k,
                           const std::array<int64_t, 3> &cluster,
                           const char *gridKey, void *stream,
                           PreparedLaunch &out);
  attnc_status buildParams(const std::vector<KernelParam> &params,
                           PreparedLaunch &out);
  attnc_status pointerParam(const KernelParam &p, size_t slot,
                            PreparedLaunch &out);
  int64_t gridValue(const GridDim &g, bool &overflow);
  attnc_status computeGrid(const std::array<GridDim, 3> &dims,
                           const std::array<int64_t, 3> &cluster,
                           const char *gridKey, unsigned grid[3]);
  int64_t &symbol(Symbol sym) { return symbols[static_cast<int>(sym)]; }
};

attnc_status LaunchBuilder::checkTensor(const char *name,
                                        const attnc_tensor &t) {
  std::string n = name;
  if (!t.data)
    return fail(n + ".data is NULL");
  std::optional<DType> dtype = toDType(t.dtype);
  if (t.dtype == ATTNC_I32)
    return fail(n + ".dtype is ATTNC_I32 but the artifact was compiled for " +
                toString(m.problem.dtype) +
                " (int32 is for the index tensors of a paged KV cache or a "
                "varlen batch)");
  if (!dtype)
    return fail(n + ".dtype is " + std::to_string(static_cast<int>(t.dtype)) +
                ", not an attnc_dtype (ATTNC_BF16, ATTNC_F16 or ATTNC_F32)");
  if (*dtype != m.problem.dtype)
    return fail(n + ".dtype is " + toString(*dtype) +
                " but the artifact was compiled for " +
                toString(m.problem.dtype));
  for (int i = 0; i < 4; ++i)
    if (t.shape[i] < 1 || t.shape[i] > INT32_MAX)
      return fail(n + ".shape[" + std::to_string(i) + "] (" + kDimNames[i] +
                  ") is " + std::to_string(t.shape[i]) +
                  "; dimensions must be in 1.." + std::to_string(INT32_MAX));
  if (t.strides[3] != 1)
    return fail(n + ".strides[3] (head dim) is " +
                std::to_string(t.strides[3]) +
                "; the head dim must be contiguous (stride 1)");
  for (int i = 0; i < 3; ++i)
    if (t.strides[i] < 1)
      return fail(n + ".strides[" + std::to_string(i) + "] (" + kDimNames[i] +
                  ") is " + std::to_string(t.strides[i]) +
                  "; strides must be positive");
  return ATTNC_OK;
}

attnc_status LaunchBuilder::checkShapes() {
  const Problem &p = m.problem;
  const attnc_tensor &q = args.q, &k = args.k, &v = args.v, &o = args.o;
  auto same = [&](const char *a, const attnc_tensor &ta, const char *b,
                  const attnc_tensor &tb, int i) -> attnc_status {
    if (ta.shape[i] == tb.shape[i])
      return ATTNC_OK;
    return fail(std::string(a) + ".shape[" + std::to_string(i) + "] (" +
                kDimNames[i] + ") is " + std::to_string(ta.shape[i]) + " but " +
                b + ".shape[" + std::to_string(i) + "] is " +
                std::to_string(tb.shape[i]));
  };
  auto headDim = [&](const char *name, const attnc_tensor &t, int64_t want,
                     const char *key) -> attnc_status {
    if (t.shape[3] == want)
      return ATTNC_OK;
    return fail(std::string(name) + ".shape[3] (head dim) is " +
                std::to_string(t.shape[3]) + " but the artifact's " + key +
                " is " + std::to_string(want));
  };
  if (attnc_status st = headDim("q", q, p.headDim, "head_dim"))
    return st;
  if (attnc_status st = headDim("k", k, p.headDim, "head_dim"))
    return st;
  if (attnc_status st = headDim("v", v, p.headDimV, "head_dim_v"))
    return st;
  if (attnc_status st = headDim("o", o, p.headDimV, "head_dim_v"))
    return st;
  // A varlen artifact packs its sequences in a batch of 1; the offsets say
  // where each begins (checkVarlenShapes).
  if (varlen()) {
    for (auto [name, t] :
         {std::pair<const char *, const attnc_tensor *>{"q", &q}, {"k", &k}})
      if (t->shape[0] != 1)
        return fail(std::string(name) + ".shape[0] (batch) is " +
                    std::to_string(t->shape[0]) +
                    " but the artifact packs a varlen batch (problem.varlen) "
                    "in a batch of 1: pass " +
                    name +
                    " as [1, heads, total tokens, head_dim] and the "
                    "sequences' offsets in cu_seqlens_q and cu_seqlens_k");
    if (attnc_status st = checkVarlenShapes())
      return st;
  }
  // A paged artifact's k and v are page pools: their batch dim counts pages
  // (checkPagedShapes).
  const std::pair<const char *, const attnc_tensor *> others[] = {
      {"k", &k}, {"v", &v}, {"o", &o}};
  for (auto [name, t] : others)
    if (t == &o || !paged())
      if (attnc_status st = same(name, *t, "q", q, 0))
        return st;
  if (paged())
    if (attnc_status st = checkPagedShapes())
      return st;
  if (attnc_status st = same("o", o, "q", q, 1))
    return st;
  if (attnc_status st = same("o", o, "q", q, 2))
    return st;
  if (attnc_status st = same("v", v, "k", k, 1))
    return st;
  if (attnc_status st = same("v", v, "k", k, 2))
    return st;
  if (q.shape[1] % k.shape[1] != 0)
    return fail("q has " + std::to_string(q.shape[1]) +
                " heads, not a multiple of k's " + std::to_string(k.shape[1]));
  if (!p.gqa && q.shape[1] != k.shape[1])
    return fail("the artifact was compiled without GQA (problem.gqa is false) "
                "but q has " +
                std::to_string(q.shape[1]) + " heads and k has " +
                std::to_string(k.shape[1]));
  // Sizes and constants compiled into the kernel travel as options; a tensor
  // that disagrees would be read with the wrong strides, so refuse it.
  for (const CompileOption &opt : m.options) {
    auto compiled = [&](const char *what, int64_t got) -> attnc_status {
      if (std::to_string(got) == opt.value)
        return ATTNC_OK;
      return fail(std::string(what) + " is " + std::to_string(got) +
                  " but the artifact was compiled for " + opt.value +
                  " (options." + opt.name + ")");
    };
    if (opt.name == "heads_q")
      if (attnc_status st = compiled("q.shape[1] (heads)", q.shape[1]))
        return st;
    if (opt.name == "heads_kv")
      if (attnc_status st = compiled("k.shape[1] (heads)", k.shape[1]))
        return st;
    if (opt.name == "seq_q")
      if (attnc_status st = compiled("q.shape[2] (seq)", q.shape[2]))
        return st;
    if (opt.name == "scale") {
      double want = std::strtod(opt.value.c_str(), nullptr);
      if (std::abs(args.scale - want) > 1e-6 * std::abs(want))
        return fail("args.scale is " + formatFloat(args.scale) +
                    " but the artifact was compiled with scale " + opt.value +
                    " (options.scale)");
    }
  }
  if (p.hasLse && !args.lse)
    return fail("args.lse is NULL but the artifact writes the log-sum-exp "
                "(problem.has_lse); pass a float32 buffer of batch * heads_q "
                "* seq_q elements");
  if (!p.hasLse && args.lse)
    return fail("args.lse is set but the artifact does not write the "
                "log-sum-exp (problem.has_lse is false)");
  if (args.lse && reinterpret_cast<uintptr_t>(args.lse) % 4 != 0)
    return fail("args.lse " + hex(reinterpret_cast<uintptr_t>(args.lse)) +
                " is not 4-byte aligned");
  // The kernels take the row max of the unscaled scores, so a negative
  // scale would turn the hidden (-inf) scores into +inf exponents.
  if (!std::isfinite(args.scale) || args.scale <= 0.0f)
    return fail("args.scale is " + formatFloat(args.scale) +
                "; pass the softmax scale, finite and positive (usually "
                "1/sqrt(head_dim))");
  return ATTNC_OK;
}

/// A paged artifact (problem.page_size): k and v are page pools, the logical
/// [num_pages, Hkv, page_size, D]; the block table is int32 [B,
/// pages_per_seq] and the cache lengths int32 [B], both contiguous.
attnc_status LaunchBuilder::checkPagedShapes() {
  const attnc_tensor &k = args.k, &v = args.v;
  int64_t pageSize = m.problem.pageSize;
  if (k.shape[2] != pageSize)
    return fail("k.shape[2] (seq) is " + std::to_string(k.shape[2]) +
                " but the artifact's pages hold " + std::to_string(pageSize) +
                " tokens (problem.page_size): pass the page pool as "
                "[num_pages, heads_kv, page_size, head_dim]");
  if (v.shape[0] != k.shape[0])
    return fail("v.shape[0] (pages) is " + std::to_string(v.shape[0]) +
                " but k.shape[0] is " + std::to_string(k.shape[0]) +
                ": k and v are page pools of the same pages");
  const char *tableDims = "[batch, pages_per_seq]", *lengthDims = "[batch]";
  if (attnc_status st =
          checkIndexShape("block_table", args.block_table, 2, tableDims))
    return st;
  if (attnc_status st = checkIndexBatch("block_table", args.block_table))
    return st;
  if (attnc_status st =
          checkIndexShape("cache_lengths", args.cache_lengths, 1, lengthDims))
    return st;
  if (attnc_status st = checkIndexBatch("cache_lengths", args.cache_lengths))
    return st;
  int64_t pages = args.block_table.shape[1];
  if (pages * pageSize > INT32_MAX)
    return fail("block_table.shape[1] (pages_per_seq) is " +
                std::to_string(pages) + ": " + std::to_string(pages) +
                " pages of " + std::to_string(pageSize) + " tokens are " +
                std::to_string(pages * pageSize) +
                ", more than the kernel's 32-bit lengths hold");
  if (attnc_status st =
          checkIndexLayout("block_table", args.block_table, 2, tableDims))
    return st;
  return checkIndexLayout("cache_lengths", args.cache_lengths, 1, lengthDims);
}

/// A varlen artifact (problem.varlen): cu_seqlens_q and cu_seqlens_k are
/// int32 [batch + 1], contiguous, of the same batch (at least 1).
attnc_status LaunchBuilder::checkVarlenShapes() {
  const char *dims = "[batch + 1]";
  const attnc_tensor &cuQ = args.cu_seqlens_q, &cuK = args.cu_seqlens_k;
  if (attnc_status st = checkIndexShape("cu_seqlens_q", cuQ, 1, dims))
    return st;
  if (attnc_status st = checkIndexShape("cu_seqlens_k", cuK, 1, dims))
    return st;
  if (cuQ.shape[0] < 2)
    return fail("cu_seqlens_q has 1 offset; a varlen batch of B sequences "
                "has B + 1 offsets (cu_seqlens_q[0] .. cu_seqlens_q[B]), so "
                "at least 2");
  if (cuK.shape[0] != cuQ.shape[0])
    return fail("cu_seqlens_k has " + std::to_string(cuK.shape[0]) +
                " offsets but cu_seqlens_q has " +
                std::to_string(cuQ.shape[0]) +
                ": both are [batch + 1], an offset pair per sequence");
  if (attnc_status st = checkIndexLayout("cu_seqlens_q", cuQ, 1, dims))
    return st;
  return checkIndexLayout("cu_seqlens_k", cuK, 1, dims);
}

/// An int32 index tensor of `rank` dims (`dims` names them, for errors):
/// the unused trailing dims are 1, the others in 1..2^31-1.
attnc_status LaunchBuilder::checkIndexShape(const char *name,
                                            const attnc_tensor &t, int rank,
                                            const char *dims) {
  std::string n = name;
  if (t.dtype != ATTNC_I32)
    return fail(n + ".dtype is " + dtypeName(t.dtype) + "; " + n +
                " is int32 (ATTNC_I32)");
  for (int i = rank; i < 4; ++i)
    if (t.shape[i] != 1)
      return fail(n + ".shape[" + std::to_string(i) + "] is " +
                  std::to_string(t.shape[i]) + "; " + n + " has rank " +
                  std::to_string(rank) + " " + dims + ", so shape[" +
                  std::to_string(rank) + "..3] must be 1");
  for (int i = 0; i < rank; ++i)
    if (t.shape[i] < 1 || t.shape[i] > INT32_MAX)
      return fail(n + ".shape[" + std::to_string(i) + "] is " +
                  std::to_string(t.shape[i]) + "; dimensions must be in 1.." +
                  std::to_string(INT32_MAX));
  return ATTNC_OK;
}

/// A paged cache's index tensor has a row per sequence of q.
attnc_status LaunchBuilder::checkIndexBatch(const char *name,
                                            const attnc_tensor &t) {
  if (t.shape[0] == args.q.shape[0])
    return ATTNC_OK;
  return fail(std::string(name) + ".shape[0] (batch) is " +
              std::to_string(t.shape[0]) + " but q.shape[0] is " +
              std::to_string(args.q.shape[0]));
}

/// The kernel reads an index tensor as a packed int32 array: contiguous
/// (the stride of a dim of size 1 is not read) and 4-byte aligned.
attnc_status LaunchBuilder::checkIndexLayout(const char *name,
                                             const attnc_tensor &t, int rank,
                                             const char *dims) {
  std::string n = name;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    if (t.shape[i] != 1 && t.strides[i] != stride)
      return fail(n + " has strides [" + joinInts(t.strides, rank) +
                  "] for shape [" + joinInts(t.shape, rank) +
                  "]; the kernel reads it as a contiguous int32 " + dims +
                  " tensor: strides[" + std::to_string(i) + "] must be " +
                  std::to_string(stride));
    stride *= t.shape[i];
  }
  if (reinterpret_cast<uintptr_t>(t.data) % 4 != 0)
    return fail(n + ".data " + hex(reinterpret_cast<uintptr_t>(t.data)) +
                " is not 4-byte aligned");
  return ATTNC_OK;
}

/// A kernel that packs query heads (problem.packed_query_heads = g) computes
/// the packed problem: Hkv heads of g * Nq rows, row n * g + j of kv head h
/// being query head h * g + j, token n (token-major, as FlashAttention-3's
/// pack-GQA). Its Q and O maps view the caller's tensors that way whatever
/// their strides (dimOf) and it writes the LSE at the caller's [B, Hq, Nq]
/// positions, so only the head counts and the packed lengths are checked.
attnc_status LaunchBuilder::checkPackedQueryHeads() {
  int64_t group = m.problem.packedQueryHeads;
  if (group == 1)
    return ATTNC_OK;
  if (args.q.shape[1] != group * args.k.shape[1])
    return fail("q has " + std::to_string(args.q.shape[1]) +
                " heads and k has " + std::to_string(args.k.shape[1]) +
                ", but the artifact packs " + std::to_string(group) +
                " query heads per kv head (problem.packed_query_heads)");
  if (args.q.shape[2] * group > INT32_MAX)
    return fail("q packs " + std::to_string(group) + " x " +
                std::to_string(args.q.shape[2]) +
                " rows per kv head; the kernel's lengths are 32-bit");
  return ATTNC_OK;
}

attnc_status LaunchBuilder::checkTma(const char *name, const attnc_tensor &t) {
  std::string n = name;
  uint64_t base = reinterpret_cast<uintptr_t>(t.data);
  int64_t align = std::max<int64_t>(16, m.alignmentBytes);
  if (base % align != 0)
    return fail(n + ".data " + hex(base) + " is not " + std::to_string(align) +
                "-byte aligned (" +
                (align == 16 ? std::string("TMA requires 16")
                             : "alignment_bytes is " +
                                   std::to_string(m.alignmentBytes)) +
                ")");
  int64_t size = elementSize(m.problem.dtype);
  for (int i = 0; i < 3; ++i) {
    int64_t bytes = t.strides[i] * size;
    if (bytes % 16 != 0)
      return fail(n + ": global stride " + std::to_string(bytes) +
                  " bytes of dim " + kDimNames[i] + " (strides[" +
                  std::to_string(i) + "] = " + std::to_string(t.strides[i]) +
                  ") is not a multiple of 16, as TMA requires");
    if (bytes >= (int64_t(1) << 40))
      return fail(n + ": global stride " + std::to_string(bytes) +
                  " bytes of dim " + kDimNames[i] +
                  " is not below 2^40, as TMA requires");
  }
  return ATTNC_OK;
}

/// A raw pointer carries no strides: the kernel assumes the manifest's
/// layout, packed, so anything else would be read wrongly.
attnc_status LaunchBuilder::checkContiguous(const char *name,
                                            const attnc_tensor &t, bool pool) {
  const int64_t *sh = t.shape;
  int64_t want[4];
  // A page pool's memory is [num_pages, page_size, Hkv, D]: bshd, with a
  // page for a batch entry.
  bool bshd = pool || m.problem.layout == "bshd";
  want[3] = 1;
  if (bshd) {
    want[1] = sh[3];
    want[2] = sh[1] * sh[3];
    want[0] = sh[2] * want[2];
  } else {
    want[2] = sh[3];
    want[1] = sh[2] * sh[3];
    want[0] = sh[1] * want[1];
  }
  if (std::equal(want, want + 4, t.strides) &&
      reinterpret_cast<uintptr_t>(t.data) % m.alignmentBytes == 0)
    return ATTNC_OK;
  return fail(std::string(name) +
              " is passed as a raw pointer, so the kernel "
              "assumes a packed " +
              (pool ? std::string("page pool [num_pages, page_size, heads, "
                                  "head_dim]")
                    : m.problem.layout + " tensor") +
              " " + std::to_string(m.alignmentBytes) +
              "-byte aligned: expected strides [" + joinInts(want, 4) +
              "], found [" + joinInts(t.strides, 4) + "] at " +
              hex(reinterpret_cast<uintptr_t>(t.data)));
}

attnc_status LaunchBuilder::encodeMap(const KernelParam &p, CUtensorMap &map) {
  const char *name = toString(p.tensor);
  const attnc_tensor &t = tensorOf(args, p.tensor);
  int64_t size = elementSize(m.problem.dtype);
  TensorMapRequest r;
  r.address = t.data;
  // The manifest's validation: rank 4, or 5 with g.
  r.rank = static_cast<unsigned>(p.dims.size());
  bool packed =
      std::find(p.dims.begin(), p.dims.end(), TensorDim::G) != p.dims.end();
  int64_t group = packed ? m.problem.packedQueryHeads : 1;
  for (unsigned i = 0; i < r.rank; ++i) {
    auto [extent, stride] = dimOf(t, p.dims[i], group);
    r.dims[i] = static_cast<cuuint64_t>(extent);
    if (i > 0)
      r.byteStrides[i - 1] = static_cast<cuuint64_t>(stride * size);
    r.box[i] = static_cast<cuuint32_t>(p.box[i]);
  }
  r.dtype = m.problem.dtype == DType::BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
            : m.problem.dtype == DType::F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                            : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  switch (p.swizzle) {
  case Swizzle::None:
    r.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
    break;
  case Swizzle::B32:
    r.swizzle = CU_TENSOR_MAP_SWIZZLE_32B;
    break;
  case Swizzle::B64:
    r.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
    break;
  case Swizzle::B128:
    r.swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
    break;
  }
  r.oobFill = p.oobFill == OobFill::NaN
                  ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                  : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  if (kernel.tensorMaps.lookup(r, map))
    return ATTNC_OK;
  const cuuint32_t elementStrides[TensorMapRequest::kMaxRank] = {1, 1, 1, 1, 1};
  std::string error;
  if (ATTNC_CUDA_CALL(*s.driver, cuTensorMapEncodeTiled, name, error, &map,
                      r.dtype, r.rank, r.address, r.dims, r.byteStrides, r.box,
                      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, r.swizzle,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, r.oobFill)) {
    kernel.tensorMaps.insert(r, map);
    return ATTNC_OK;
  }
  return failWith(
      ATTNC_ERROR_CUDA,
      std::string(call) + ": " + error + " [" + toString(m.problem.dtype) +
          ", base " + hex(reinterpret_cast<uintptr_t>(t.data)) + ", dims (" +
          joinInts(r.dims, r.rank) + "), byte strides (" +
          joinInts(r.byteStrides, r.rank - 1) + "), box (" +
          joinInts(r.box, r.rank) + "), swizzle " + toString(p.swizzle) + "]");
}

/// ceil_div(product, ceil_div) + the sum of `plus` of the grid dim;
/// `overflow` when the product or the sum passes 2^62.
int64_t LaunchBuilder::gridValue(const GridDim &g, bool &overflow) {
  constexpr int64_t kLimit = int64_t(1) << 62;
  int64_t value = 1;
  overflow = false;
  for (Symbol sym : g.product) {
    int64_t factor = symbol(sym);
    if (value > kLimit / factor)
      overflow = true;
    else
      value *= factor;
  }
  value = (value + g.ceilDiv - 1) / g.ceilDiv;
  // Every symbol is at most 2^31 - 1, so no single addition overflows.
  for (Symbol sym : g.plus) {
    value += symbol(sym);
    if (value > kLimit) {
      overflow = true;
      value = kLimit;
    }
  }
  return value;
}

/// The grid of `dims` within CUDA's limits and divisible by `cluster`;
/// errors name it as `gridKey` x/y/z with its symbols and their values.
attnc_status LaunchBuilder::computeGrid(const std::array<GridDim, 3> &dims,
                                        const std::array<int64_t, 3> &cluster,
                                        const char *gridKey, unsigned grid[3]) {
  static const char *const axes[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    const GridDim &g = dims[i];
    int64_t limit = i == 0 ? INT32_MAX : 65535;
    bool overflow = false;
    int64_t value = gridValue(g, overflow);
    if (!overflow && value <= limit && value % cluster[i] == 0) {
      grid[i] = static_cast<unsigned>(value);
      continue;
    }
    std::string names, values;
    for (Symbol sym : g.product) {
      names += (names.empty() ? "" : " * ") + std::string(toString(sym));
      values += (values.empty() ? "" : " * ") + std::to_string(symbol(sym));
    }
    if (g.ceilDiv != 1) {
      names = "ceil_div(" + names + ", " + std::to_string(g.ceilDiv) + ")";
      values = "ceil_div(" + values + ", " + std::to_string(g.ceilDiv) + ")";
    }
    for (Symbol sym : g.plus) {
      names += " + " + std::string(toString(sym));
      values += " + " + std::to_string(symbol(sym));
    }
    std::string expr =
        std::string(gridKey) + " " + axes[i] + " = " + names +
        (overflow || values != std::to_string(value) ? " = " + values : "");
    if (overflow || value > limit)
      return failWith(ATTNC_ERROR_UNSUPPORTED,
                      std::string(call) + ": " + expr + " = " +
                          (overflow ? "overflow" : std::to_string(value)) +
                          " exceeds CUDA's limit of " + std::to_string(limit));
    return failWith(ATTNC_ERROR_UNSUPPORTED,
                    std::string(call) + ": " + expr + " = " +
                        std::to_string(value) +
                        " is not a multiple of the cluster's " +
                        std::to_string(cluster[i]));
  }
  return ATTNC_OK;
}

/// The problem's symbols in the kernel's view;
/// kv_splits is 1 until setKvSplits.
void LaunchBuilder::setSymbols() {
  // A varlen batch's sequences are the offset pairs; q holds them all in
  // its batch of 1, and seq_q and seq_k are the totals.
  symbol(Symbol::Batch) =
      varlen() ? args.cu_seqlens_q.shape[0] - 1 : args.q.shape[0];
  // A packing kernel's heads and rows are the packed ones
  // (checkPackedQueryHeads).
  int64_t group = m.problem.packedQueryHeads;
  symbol(Symbol::HeadsQ) = args.q.shape[1] / group;
  symbol(Symbol::HeadsKv) = args.k.shape[1];
  symbol(Symbol::HeadsRatio) = args.q.shape[1] / group / args.k.shape[1];
  symbol(Symbol::SeqQ) = args.q.shape[2] * group;
  // A paged launch's longest cache is known only on the device: seq_k is
  // the block table's capacity.
  symbol(Symbol::PagesPerSeq) = paged() ? args.block_table.shape[1] : 0;
  symbol(Symbol::SeqK) = paged()
                             ? symbol(Symbol::PagesPerSeq) * m.problem.pageSize
                             : args.k.shape[2];
  symbol(Symbol::HeadDim) = m.problem.headDim;
  symbol(Symbol::HeadDimV) = m.problem.headDimV;
  symbol(Symbol::NumSms) = s.numSms;
  symbol(Symbol::One) = 1;
  symbol(Symbol::KvSplits) = 1;
}

/// kv_splits: 1 without split_kv; else the artifact's fixed count, or
/// ATTNC_KV_SPLITS, or the split heuristic's choice for this launch's
/// lengths, from the attention grid with one split (docs/Runtime.md).
attnc_status LaunchBuilder::setKvSplits() {
  if (!m.splitKv)
    return ATTNC_OK;
  int64_t &splits = symbol(Symbol::KvSplits);
  if (m.splitKv->splits) {
    splits = m.splitKv->splits;
    return ATTNC_OK;
  }
  std::string error;
  int64_t forced = 0;
  if (!kvSplitsOverride(forced, error))
    return fail(error);
  if (forced) {
    splits = forced;
    return ATTNC_OK;
  }
  int64_t tiles = 1; // saturates: a grid that large is refused later anyway
  for (const GridDim &g : m.grid) {
    bool overflow = false;
    int64_t value = gridValue(g, overflow);
    tiles = overflow || tiles > INT64_MAX / value ? INT64_MAX : tiles * value;
  }
  // A varlen launch's longest sequence is known only on the device: the
  // heuristic takes the mean keys of a sequence (seq_k is the total).
  int64_t keys = varlen() ? (symbol(Symbol::SeqK) + symbol(Symbol::Batch) - 1) /
                                symbol(Symbol::Batch)
                          : symbol(Symbol::SeqK);
  splits = chooseLaunchKvSplits(tiles, keys, m.splitKv->kvBlock, s.numSms);
  return ATTNC_OK;
}

/// The combine kernel's rows a CTA and CTAs along the rows, from the
/// launch's kv_splits.
void LaunchBuilder::setCombineSymbols() {
  int64_t rows = combineRowsPerCta(symbol(Symbol::KvSplits));
  symbol(Symbol::CombineRows) = rows;
  symbol(Symbol::CombineCtas) = (symbol(Symbol::SeqQ) + rows - 1) / rows;
}

attnc_status LaunchBuilder::layOutWorkspace() {
  if (!m.splitKv)
    return ATTNC_OK;
  // A varlen batch's sequences share its one batch of packed rows (the
  // kernels' split stride).
  const Symbol dims[] = {Symbol::KvSplits,
                         varlen() ? Symbol::One : Symbol::Batch, Symbol::HeadsQ,
                         Symbol::SeqQ};
  if (splitWorkspace(symbol(dims[0]), symbol(dims[1]), symbol(dims[2]),
                     symbol(dims[3]), m.problem.headDimV, workspace))
    return ATTNC_OK;
  std::string shape;
  for (Symbol sym : dims)
    shape +=
        std::string(toString(sym)) + " " + std::to_string(symbol(sym)) + ", ";
  return failWith(ATTNC_ERROR_UNSUPPORTED,
                  std::string(call) + ": the split-KV workspace for " + shape +
                      "head_dim_v " + std::to_string(m.problem.headDimV) +
                      " needs 2^64 bytes or more");
}

/// A pointer param's slot: the caller's tensor or LSE buffer, or an offset
/// into the workspace (PreparedLaunch::workspaceSlots).
attnc_status LaunchBuilder::pointerParam(const KernelParam &p, size_t slot,
                                         PreparedLaunch &out) {
  uint64_t &value = out.scalars[slot];
  switch (p.tensor) {
  case TensorName::Lse:
    value = reinterpret_cast<uintptr_t>(args.lse);
    return ATTNC_OK;
  case TensorName::OPartial:
  case TensorName::LsePartial:
    value = p.tensor == TensorName::OPartial ? 0 : workspace.lsePartialOffset;
    out.workspaceSlots.push_back(slot);
    return ATTNC_OK;
  case TensorName::BlockTable:
  case TensorName::CacheLengths: // checked by checkPagedShapes
  case TensorName::CuSeqlensQ:
  case TensorName::CuSeqlensK: // checked by checkVarlenShapes
    value = reinterpret_cast<uintptr_t>(tensorOf(args, p.tensor).data);
    return ATTNC_OK;
  default: {
    const attnc_tensor &t = tensorOf(args, p.tensor);
    bool pool =
        paged() && (p.tensor == TensorName::K || p.tensor == TensorName::V);
    if (attnc_status st = checkContiguous(toString(p.tensor), t, pool))
      return st;
    value = reinterpret_cast<uintptr_t>(t.data);
    return ATTNC_OK;
  }
  }
}

attnc_status LaunchBuilder::buildParams(const std::vector<KernelParam> &params,
                                        PreparedLaunch &out) {
  // Reserve first: params point into these vectors.
  size_t numMaps = 0;
  for (const KernelParam &p : params)
    numMaps += p.kind == ParamKind::TensorMap;
  out.maps.assign(numMaps, CUtensorMap());
  out.scalars.assign(params.size(), 0);
  out.params.clear();
  size_t mapIndex = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelParam &p = params[i];
    uint64_t &slot = out.scalars[i];
    switch (p.kind) {
    case ParamKind::TensorMap: {
      const attnc_tensor &t = tensorOf(args, p.tensor);
      if (attnc_status st = checkTma(toString(p.tensor), t))
        return st;
      CUtensorMap &map = out.maps[mapIndex++];
      if (attnc_status st = encodeMap(p, map))
        return st;
      out.params.push_back(&map);
      continue;
    }
    case ParamKind::Pointer:
      if (attnc_status st = pointerParam(p, i, out))
        return st;
      break;
    case ParamKind::I32: {
      int32_t value = static_cast<int32_t>(symbol(p.value));
      std::memcpy(&slot, &value, sizeof(value));
      break;
    }
    case ParamKind::F32: {
      // log2(e): kernels use exp2, so they take the scale pre-multiplied.
      float value = p.value == Symbol::Scale ? args.scale : args.scale * kLog2E;
      std::memcpy(&slot, &value, sizeof(value));
      break;
    }
    }
    out.params.push_back(&slot);
  }
  return ATTNC_OK;
}

/// One kernel's launch: its params, its grid (named `gridKey` in errors), its
/// block and shared memory, a cluster attribute unless `cluster` is 1x1x1,
/// and programmatic stream serialization where the kernel waits for its
/// predecessor itself (KernelLaunch::programmaticLaunch).
attnc_status LaunchBuilder::buildKernel(const KernelLaunch &k,
                                        const std::array<int64_t, 3> &cluster,
                                        const char *gridKey, void *stream,
                                        PreparedLaunch &out) {
  if (attnc_status st = buildParams(k.params, out))
    return st;
  unsigned grid[3];
  if (attnc_status st = computeGrid(k.grid, cluster, gridKey, grid))
    return st;
  CUlaunchConfig &c = out.config;
  c.gridDimX = grid[0];
  c.gridDimY = grid[1];
  c.gridDimZ = grid[2];
  c.blockDimX = static_cast<unsigned>(k.threadsPerBlock);
  c.blockDimY = c.blockDimZ = 1;
  c.sharedMemBytes = static_cast<unsigned>(k.dynamicSmemBytes);
  c.hStream = static_cast<CUstream>(stream);
  c.attrs = out.attrs.data();
  if (cluster[0] * cluster[1] * cluster[2] > 1) {
    CUlaunchAttribute &a = out.attrs[c.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = static_cast<unsigned>(cluster[0]);
    a.value.clusterDim.y = static_cast<unsigned>(cluster[1]);
    a.value.clusterDim.z = static_cast<unsigned>(cluster[2]);
  }
  if (k.programmaticLaunch) {
    CUlaunchAttribute &a = out.attrs[c.numAttrs++];
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a.value.programmaticStreamSerializationAllowed = 1;
  }
  out.description = k.entry + ", grid " + std::to_string(grid[0]) + "x" +
                    std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
                    ", block " + std::to_string(k.threadsPerBlock) +
                    ", cluster " + std::to_string(cluster[0]) + "x" +
                    std::to_string(cluster[1]) + "x" +
                    std::to_string(cluster[2]) + ", dynamic smem " +
                    std::to_string(k.dynamicSmemBytes) +
                    (k.programmaticLaunch ? ", programmatic launch" : "");
  return ATTNC_OK;
}

attnc_status LaunchBuilder::build(void *stream, PreparedCall &out) {
  const std::pair<const char *, const attnc_tensor *> tensors[] = {
      {"q", &args.q}, {"k", &args.k}, {"v", &args.v}, {"o", &args.o}};
  for (auto [name, t] : tensors)
    if (attnc_status st = checkTensor(name, *t))
      return st;
  if (attnc_status st = checkShapes())
    return st;
  if (attnc_status st = checkPackedQueryHeads())
    return st;
  setSymbols();
  if (attnc_status st = setKvSplits())
    return st;
  setCombineSymbols();
  out.splitArtifact = m.splitKv.has_value();
  bool attentionWritesOutput = m.splitKv && m.splitKv->writesOutputAtOneSplit &&
                               symbol(Symbol::KvSplits) == 1;
  if (!attentionWritesOutput)
    if (attnc_status st = layOutWorkspace())
      return st;
  out.workspace = workspace;
  if (m.splitKv)
    out.splits = symbol(Symbol::KvSplits);
  out.callerWorkspace = reinterpret_cast<uintptr_t>(args.workspace);
  out.callerWorkspaceBytes = args.workspace_bytes;
  if (paged()) {
    PagedInputs &p = out.paged.emplace();
    p.blockTable = reinterpret_cast<uintptr_t>(args.block_table.data);
    p.cacheLengths = reinterpret_cast<uintptr_t>(args.cache_lengths.data);
    p.batch = args.block_table.shape[0];
    p.pagesPerSeq = args.block_table.shape[1];
    p.pageSize = m.problem.pageSize;
    p.numPages = args.k.shape[0];
  }
  if (varlen()) {
    VarlenInputs &v = out.varlen.emplace();
    v.cuSeqlensQ = reinterpret_cast<uintptr_t>(args.cu_seqlens_q.data);
    v.cuSeqlensK = reinterpret_cast<uintptr_t>(args.cu_seqlens_k.data);
    v.offsets = args.cu_seqlens_q.shape[0];
    v.totalQ = args.q.shape[2];
    v.totalK = args.k.shape[2];
  }
  if (attnc_status st = buildKernel(kernel.attention, m.cluster, "grid", stream,
                                    out.attention))
    return st;
  if (!m.splitKv || attentionWritesOutput)
    return ATTNC_OK;
  // The combine kernel launches without a cluster.
  out.split = true;
  return buildKernel(m.splitKv->combine, {1, 1, 1}, "split_kv.combine.grid",
                     stream, out.combine);
}

/// attnc_attention_args as ABI 0.2.0 declared it: without block_table and
/// cache_lengths.
constexpr size_t kAttentionArgsSize02 =
    offsetof(attnc_attention_args, block_table);
static_assert(kAttentionArgsSize02 == 376, "the 0.2.0 attnc_attention_args");
/// attnc_attention_args as ABI 0.3.0 declared it: without cu_seqlens_q and
/// cu_seqlens_k.
constexpr size_t kAttentionArgsSize03 =
    offsetof(attnc_attention_args, cu_seqlens_q);
static_assert(kAttentionArgsSize03 == 552, "the 0.3.0 attnc_attention_args");
/// attnc_attention_args as ABI 0.4.0 declared it: without workspace and
/// workspace_bytes.
constexpr size_t kAttentionArgsSize04 =
    offsetof(attnc_attention_args, workspace);
static_assert(kAttentionArgsSize04 == 728, "the 0.4.0 attnc_attention_args");

/// Checks a caller-filled struct's size field against the sizes this runtime
/// knows: `known`, this version's, or one of `older`, earlier versions'.
attnc_status checkStructSize(const char *call, const char *type, uint32_t size,
                             size_t known,
                             std::initializer_list<size_t> older = {}) {
  if (size == known ||
      std::find(older.begin(), older.end(), size) != older.end())
    return ATTNC_OK;
  return invalid(call,
                 std::string(type) + ".struct_size is " + std::to_string(size) +
                     ", not a size this runtime (" + ATTNC_RUNTIME_VERSION +
                     ") knows; set it to sizeof(" + type + "), " +
                     std::to_string(known) + " in this version's Runtime.h");
}

/// The tensor the launch reads: byte_offset folded into data, on the
/// session's device.
attnc_status resolveTensor(const char *call, const char *name, const Session &s,
                           attnc_tensor &t) {
  std::string n = name;
  if (t.device_id != s.ordinal)
    return invalid(call, n + ".device_id is " + std::to_string(t.device_id) +
                             " but the runtime uses device " +
                             std::to_string(s.ordinal));
  if (!t.data)
    return invalid(call, n + ".data is NULL");
  uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
  if (t.byte_offset > UINTPTR_MAX - base)
    return invalid(call, n + ".byte_offset " + std::to_string(t.byte_offset) +
                             " overflows data " + hex(base));
  t.data = reinterpret_cast<void *>(base + t.byte_offset);
  t.byte_offset = 0;
  return ATTNC_OK;
}

/// The index inputs of a paged or a varlen artifact, resolved as the other
/// tensors are; for any other artifact, their absence.
attnc_status resolveIndexTensors(const char *call, const attnc_kernel_s &kernel,
                                 const Session &s, attnc_attention_args &args) {
  const Problem &p = kernel.manifest.problem;
  std::string paged =
      "the artifact reads a paged KV cache (problem.page_size " +
      std::to_string(p.pageSize) + ")";
  std::string varlen = "the artifact packs a varlen batch (problem.varlen)";
  struct Index {
    const char *name;
    attnc_tensor *tensor;
    bool needed;
    /// Why the artifact needs it, and why another does not.
    const std::string &reads;
    const char *notRead;
    const char *pass;
    /// The struct_size of the version before the one that added it.
    size_t before;
  };
  const char *notPaged = "the artifact does not read a paged KV cache (its "
                         "manifest has no problem.page_size)";
  const char *notVarlen = "the artifact is not a varlen batch (its "
                          "manifest's problem.varlen is not true)";
  const Index tensors[] = {
      {"block_table", &args.block_table, p.pageSize != 0, paged, notPaged,
       "the int32 block table [batch, pages_per_seq]", kAttentionArgsSize02},
      {"cache_lengths", &args.cache_lengths, p.pageSize != 0, paged, notPaged,
       "the int32 cache lengths [batch]", kAttentionArgsSize02},
      {"cu_seqlens_q", &args.cu_seqlens_q, p.varlen, varlen, notVarlen,
       "the int32 offsets [batch + 1] of the sequences' rows in q",
       kAttentionArgsSize03},
      {"cu_seqlens_k", &args.cu_seqlens_k, p.varlen, varlen, notVarlen,
       "the int32 offsets [batch + 1] of the sequences' rows in k and v",
       kAttentionArgsSize03}};
  for (const Index &index : tensors) {
    std::string n = index.name;
    attnc_tensor &t = *index.tensor;
    if (!index.needed) {
      if (t.data)
        return invalid(call, n + ".data is set but " + index.notRead +
                                 "; leave " + n + " zero-initialized");
      continue;
    }
    if (!t.data) {
      // Which older struct lacks the field, if the caller's is one.
      const char *version = nullptr;
      if (args.struct_size == kAttentionArgsSize02)
        version = "376: the 0.2.0";
      else if (args.struct_size == kAttentionArgsSize03 &&
               index.before == kAttentionArgsSize03)
        version = "552: the 0.3.0";
      return invalid(call,
                     n + " is absent (" +
                         (version ? std::string("struct_size is ") + version +
                                        " attnc_attention_args, which has "
                                        "no " +
                                        n
                                  : std::string("data is NULL")) +
                         ") but " + index.reads + ": pass " + index.pass);
    }
    if (attnc_status st = resolveTensor(call, index.name, s, t))
      return st;
  }
  return ATTNC_OK;
}

attnc_status prepare(const char *call, attnc_kernel kernel,
                     const attnc_attention_args *args, void *stream,
                     const Session *&s, ContextScope &scope,
                     PreparedCall &out) {
  if (!args)
    return invalid(call, "args is NULL");
  if (attnc_status st = checkStructSize(
          call, "attnc_attention_args", args->struct_size,
          sizeof(attnc_attention_args),
          {kAttentionArgsSize02, kAttentionArgsSize03, kAttentionArgsSize04}))
    return st;
  if (attnc_status st = checkKernel(call, kernel))
    return st;
  if (attnc_status st = getSession(call, -1, s, scope))
    return st;
  // Only the caller's struct_size bytes are read: the fields of a later
  // version than the caller's stay zero-initialized, i.e. absent.
  attnc_attention_args resolved = {};
  std::memcpy(&resolved, args, args->struct_size);
  if (attnc_status st = resolveTensor(call, "q", *s, resolved.q))
    return st;
  if (attnc_status st = resolveTensor(call, "k", *s, resolved.k))
    return st;
  if (attnc_status st = resolveTensor(call, "v", *s, resolved.v))
    return st;
  if (attnc_status st = resolveTensor(call, "o", *s, resolved.o))
    return st;
  if (attnc_status st = resolveIndexTensors(call, *kernel, *s, resolved))
    return st;
  return LaunchBuilder(*s, *kernel, resolved, call).build(stream, out);
}

/// ATTNC_CHECK_INDEX_INPUTS: `on` for "1", off for "0", empty or unset.
attnc_status indexChecksRequested(const char *call, bool &on) {
  const char *text = std::getenv("ATTNC_CHECK_INDEX_INPUTS");
  std::string value = text ? text : "";
  on = value == "1";
  if (on || value.empty() || value == "0")
    return ATTNC_OK;
  return invalid(call, "ATTNC_CHECK_INDEX_INPUTS is \"" + value +
                           "\"; expected 1 (check the index inputs of a "
                           "paged or varlen launch on the host) or 0 (or "
                           "unset: the kernel trusts them)");
}

/// The values of a paged launch's index inputs, copied to the host on
/// `stream` after the work queued there: every length within the block
/// table's capacity and every page a sequence's tokens lie in a page of the
/// pools.
attnc_status checkIndexValues(const char *call, const Session &s,
                              const PagedInputs &p, void *stream) {
  const CudaDriver &d = *s.driver;
  CUstream hStream = static_cast<CUstream>(stream);
  std::vector<int32_t> lengths(p.batch), table(p.batch * p.pagesPerSeq);
  std::string error;
  size_t lengthBytes = lengths.size() * sizeof(int32_t);
  size_t tableBytes = table.size() * sizeof(int32_t);
  if (!ATTNC_CUDA_CALL(
          d, cuMemcpyDtoHAsync,
          "cache_lengths, " + std::to_string(lengthBytes) + " bytes", error,
          lengths.data(), p.cacheLengths, lengthBytes, hStream) ||
      !ATTNC_CUDA_CALL(d, cuMemcpyDtoHAsync,
                       "block_table, " + std::to_string(tableBytes) + " bytes",
                       error, table.data(), p.blockTable, tableBytes,
                       hStream) ||
      !ATTNC_CUDA_CALL(d, cuStreamSynchronize, "index inputs", error, hStream))
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  int64_t capacity = p.pagesPerSeq * p.pageSize;
  for (int64_t b = 0; b < p.batch; ++b) {
    int64_t length = lengths[b];
    std::string at =
        "cache_lengths[" + std::to_string(b) + "] = " + std::to_string(length);
    if (length < 0)
      return invalid(call, at + " is negative");
    if (length > capacity)
      return invalid(call, at + " exceeds the block table's " +
                               std::to_string(p.pagesPerSeq) + " pages of " +
                               std::to_string(p.pageSize) + " tokens (" +
                               std::to_string(capacity) + ")");
    int64_t used = (length + p.pageSize - 1) / p.pageSize;
    for (int64_t i = 0; i < used; ++i) {
      int64_t page = table[b * p.pagesPerSeq + i];
      if (page >= 0 && page < p.numPages)
        continue;
      return invalid(
          call, "block_table[" + std::to_string(b) + "][" + std::to_string(i) +
                    "] = " + std::to_string(page) +
                    " is not a page of k, which has " +
                    std::to_string(p.numPages) + " pages (" + at +
                    ": its tokens lie in the first " + std::to_string(used) +
                    " entries of row " + std::to_string(b) + ")");
    }
  }
  return ATTNC_OK;
}

/// The values of a varlen launch's offsets, copied to the host on `stream`
/// after the work queued there: each array starts at 0 or above, never
/// decreases, and stays within the rows of the tensors it indexes.
attnc_status checkVarlenValues(const char *call, const Session &s,
                               const VarlenInputs &v, void *stream) {
  const CudaDriver &d = *s.driver;
  CUstream hStream = static_cast<CUstream>(stream);
  std::vector<int32_t> cuQ(v.offsets), cuK(v.offsets);
  size_t bytes = size_t(v.offsets) * sizeof(int32_t);
  std::string error;
  if (!ATTNC_CUDA_CALL(d, cuMemcpyDtoHAsync,
                       "cu_seqlens_q, " + std::to_string(bytes) + " bytes",
                       error, cuQ.data(), v.cuSeqlensQ, bytes, hStream) ||
      !ATTNC_CUDA_CALL(d, cuMemcpyDtoHAsync,
                       "cu_seqlens_k, " + std::to_string(bytes) + " bytes",
                       error, cuK.data(), v.cuSeqlensK, bytes, hStream) ||
      !ATTNC_CUDA_CALL(d, cuStreamSynchronize, "index inputs", error, hStream))
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  struct Offsets {
    const char *name;
    const std::vector<int32_t> &values;
    int64_t rows;
    const char *tensor;
  };
  for (const Offsets &o : {Offsets{"cu_seqlens_q", cuQ, v.totalQ, "q"},
                           Offsets{"cu_seqlens_k", cuK, v.totalK, "k"}}) {
    auto entry = [&](int64_t i) {
      return std::string(o.name) + "[" + std::to_string(i) +
             "] = " + std::to_string(o.values[i]);
    };
    for (int64_t i = 0; i < v.offsets; ++i) {
      int64_t value = o.values[i];
      if (i == 0 && value < 0)
        return invalid(call, entry(i) + " is negative");
      if (i > 0 && value < o.values[i - 1])
        return invalid(call, entry(i) + " is below " + entry(i - 1) +
                                 ": offsets must not decrease");
      if (value > o.rows)
        return invalid(call, entry(i) + " exceeds the " +
                                 std::to_string(o.rows) + " rows of " +
                                 o.tensor);
    }
  }
  return ATTNC_OK;
}

/// The host checks of a launch's index inputs (a paged cache's or a varlen
/// batch's), when it has any.
attnc_status checkIndexInputs(const char *call, const Session &s,
                              const PreparedCall &prepared, void *stream) {
  if (prepared.paged)
    if (attnc_status st = checkIndexValues(call, s, *prepared.paged, stream))
      return st;
  if (prepared.varlen)
    return checkVarlenValues(call, s, *prepared.varlen, stream);
  return ATTNC_OK;
}

attnc_status launch(const char *call, const Session &s, CUfunction function,
                    PreparedLaunch &launch) {
  std::string error;
  if (ATTNC_CUDA_CALL(*s.driver, cuLaunchKernelEx, launch.description, error,
                      &launch.config, function, launch.params.data(), nullptr))
    return ATTNC_OK;
  return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
}

/// The caller's workspace of a launch (attnc_attention_args.workspace):
/// present only for a split-KV artifact, 256-byte aligned and at least the
/// bytes the launch's split count needs.
attnc_status checkCallerWorkspace(const char *call,
                                  const PreparedCall &prepared) {
  CUdeviceptr ws = prepared.callerWorkspace;
  uint64_t bytes = prepared.callerWorkspaceBytes;
  if (!ws) {
    if (bytes)
      return invalid(call, "workspace_bytes is " + std::to_string(bytes) +
                               " but workspace is NULL");
    return ATTNC_OK;
  }
  if (!prepared.splitArtifact)
    return invalid(call, "workspace is set but the artifact has no split_kv "
                         "(it needs no workspace); leave workspace NULL");
  if (ws % kWorkspaceAlignment)
    return invalid(call, "workspace " + hex(ws) + " is not " +
                             std::to_string(kWorkspaceAlignment) +
                             "-byte aligned");
  if (bytes < prepared.workspace.bytes)
    return invalid(call, "workspace_bytes is " + std::to_string(bytes) +
                             " but this launch's " +
                             std::to_string(prepared.splits) +
                             " kv splits need " +
                             std::to_string(prepared.workspace.bytes) +
                             " bytes (attnc_attention_workspace_size)");
  return ATTNC_OK;
}

/// A split-KV launch, all on `stream`: the attention kernel (it writes the
/// partials) and the combine kernel (it reads them), into the caller's
/// workspace, or else into one allocated first and freed after them. The
/// free is queued after whatever was launched, so it also follows a failed
/// launch.
attnc_status launchSplit(const char *call, const Session &s,
                         const attnc_kernel_s &kernel, PreparedCall &prepared,
                         void *stream) {
  if (CUdeviceptr base = prepared.callerWorkspace) {
    prepared.attention.bindWorkspace(base);
    prepared.combine.bindWorkspace(base);
    if (attnc_status st = launch(call, s, kernel.function, prepared.attention))
      return st;
    return launch(call, s, kernel.combine, prepared.combine);
  }
  const CudaDriver &d = *s.driver;
  CUstream hStream = static_cast<CUstream>(stream);
  std::string error;
  CUdeviceptr base = 0;
  if (!ATTNC_CUDA_CALL(d, cuMemAllocAsync,
                       "split-KV workspace of " +
                           std::to_string(prepared.workspace.bytes) + " bytes",
                       error, &base, size_t(prepared.workspace.bytes), hStream))
    return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
  prepared.attention.bindWorkspace(base);
  prepared.combine.bindWorkspace(base);
  attnc_status st = launch(call, s, kernel.function, prepared.attention);
  if (st == ATTNC_OK)
    st = launch(call, s, kernel.combine, prepared.combine);
  if (ATTNC_CUDA_CALL(d, cuMemFreeAsync, "split-KV workspace", error, base,
                      hStream))
    return st;
  if (st != ATTNC_OK)
    return failWith(st, std::string(lastErrorMessage()) + "; then " + error);
  return failWith(ATTNC_ERROR_CUDA, std::string(call) + ": " + error);
}

} // namespace

//===----------------------------------------------------------------------===//
// C ABI
//===----------------------------------------------------------------------===//

extern "C" {

const char *attnc_last_error(void) { return lastErrorMessage(); }

const char *attnc_status_name(attnc_status status) {
  switch (status) {
  case ATTNC_OK:
    return "ATTNC_OK";
  case ATTNC_ERROR_INVALID_ARGUMENT:
    return "ATTNC_ERROR_INVALID_ARGUMENT";
  case ATTNC_ERROR_DRIVER_NOT_FOUND:
    return "ATTNC_ERROR_DRIVER_NOT_FOUND";
  case ATTNC_ERROR_CUDA:
    return "ATTNC_ERROR_CUDA";
  case ATTNC_ERROR_MANIFEST:
    return "ATTNC_ERROR_MANIFEST";
  case ATTNC_ERROR_UNSUPPORTED:
    return "ATTNC_ERROR_UNSUPPORTED";
  }
  return "ATTNC_ERROR_UNKNOWN";
}

const char *attnc_version(void) { return ATTNC_RUNTIME_VERSION; }

attnc_status attnc_init(int device_ordinal) {
  clearError();
  if (device_ordinal < 0)
    return invalid("attnc_init", "device ordinal " +
                                     std::to_string(device_ordinal) +
                                     " is negative");
  const Session *s = nullptr;
  ContextScope scope;
  return getSession("attnc_init", device_ordinal, s, scope);
}

attnc_status attnc_get_device(int *device_ordinal) {
  clearError();
  if (!device_ordinal)
    return invalid("attnc_get_device", "device_ordinal is NULL");
  const Session *s = nullptr;
  ContextScope scope;
  if (attnc_status st = getSession("attnc_get_device", -1, s, scope))
    return st;
  *device_ordinal = s->ordinal;
  return ATTNC_OK;
}

attnc_status attnc_kernel_load(const char *path, attnc_kernel *out) {
  clearError();
  if (!path || !*path)
    return invalid("attnc_kernel_load", "path is NULL or empty");
  if (!out)
    return invalid("attnc_kernel_load", "out is NULL");
  *out = nullptr;
  return loadKernel(path, out);
}

attnc_status attnc_kernel_release(attnc_kernel kernel) {
  clearError();
  if (!kernel)
    return ATTNC_OK;
  if (attnc_status st = checkKernel("attnc_kernel_release", kernel))
    return st;
  kernel->magic = 0; // so a second release is reported, not a double free
  delete kernel;
  return ATTNC_OK;
}

attnc_status attnc_kernel_info(attnc_kernel kernel, char *buf, size_t len,
                               size_t *required) {
  clearError();
  const char *call = "attnc_kernel_info";
  if (attnc_status st = checkKernel(call, kernel))
    return st;
  std::string json = toJson(kernel->manifest);
  if (required)
    *required = json.size() + 1;
  if (!buf && len == 0)
    return ATTNC_OK;
  if (!buf)
    return invalid(call, "buf is NULL but len is " + std::to_string(len));
  if (len < json.size() + 1)
    return invalid(call, "buffer of " + std::to_string(len) +
                             " bytes is too small; " +
                             std::to_string(json.size() + 1) + " needed");
  std::memcpy(buf, json.c_str(), json.size() + 1);
  return ATTNC_OK;
}

attnc_status attnc_kernel_get_attrs(attnc_kernel kernel,
                                    attnc_kernel_attrs *out) {
  clearError();
  if (!out)
    return invalid("attnc_kernel_get_attrs", "out is NULL");
  if (attnc_status st =
          checkStructSize("attnc_kernel_get_attrs", "attnc_kernel_attrs",
                          out->struct_size, sizeof(attnc_kernel_attrs)))
    return st;
  if (attnc_status st = checkKernel("attnc_kernel_get_attrs", kernel))
    return st;
  *out = kernel->attrs;
  return ATTNC_OK;
}

attnc_status attnc_attention_launch(attnc_kernel kernel,
                                    const attnc_attention_args *args,
                                    void *stream) {
  clearError();
  const char *call = "attnc_attention_launch";
  const Session *s = nullptr;
  ContextScope scope;
  PreparedCall prepared;
  if (attnc_status st = prepare(call, kernel, args, stream, s, scope, prepared))
    return st;
  if (attnc_status st = checkCallerWorkspace(call, prepared))
    return st;
  if (prepared.paged || prepared.varlen) {
    bool check = false;
    if (attnc_status st = indexChecksRequested(call, check))
      return st;
    if (check)
      if (attnc_status st = checkIndexInputs(call, *s, prepared, stream))
        return st;
  }
  if (prepared.split)
    return launchSplit(call, *s, *kernel, prepared, stream);
  return launch(call, *s, kernel->function, prepared.attention);
}

attnc_status attnc_attention_check(attnc_kernel kernel,
                                   const attnc_attention_args *args,
                                   void *stream) {
  clearError();
  const char *call = "attnc_attention_check";
  const Session *s = nullptr;
  ContextScope scope;
  PreparedCall prepared;
  if (attnc_status st = prepare(call, kernel, args, stream, s, scope, prepared))
    return st;
  if (attnc_status st = checkCallerWorkspace(call, prepared))
    return st;
  return checkIndexInputs(call, *s, prepared, stream);
}

attnc_status attnc_attention_workspace_size(attnc_kernel kernel,
                                            const attnc_attention_args *args,
                                            uint64_t *bytes) {
  clearError();
  const char *call = "attnc_attention_workspace_size";
  if (!bytes)
    return invalid(call, "bytes is NULL");
  const Session *s = nullptr;
  ContextScope scope;
  PreparedCall prepared;
  if (attnc_status st =
          prepare(call, kernel, args, /*stream=*/nullptr, s, scope, prepared))
    return st;
  *bytes = prepared.split ? prepared.workspace.bytes : 0;
  return ATTNC_OK;
}

} // extern "C"
