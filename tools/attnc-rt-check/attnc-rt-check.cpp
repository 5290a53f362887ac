//===- attnc-rt-check.cpp - exercise the attnc runtime ----------*- C++ -*-===//
//
// A small CLI over the runtime (command line through CLI11, header-only), for
// lit tests and for checking an artifact by hand:
//   attnc-rt-check manifest [--json] FILE.json   parse, validate, summarize
//   attnc-rt-check load [--device N] ARTIFACT    load the module on a device
//   attnc-rt-check threads [--threads N] [--iterations M] ARTIFACT
//                                                parse and load from N threads
//   attnc-rt-check abi                           struct sizes, DLPack (no GPU)
// Exit codes: 0 ok, 1 error, 2 no CUDA driver on this machine.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/DLPack.h"
#include "attnc/Runtime/Manifest.h"
#include "attnc/Runtime/Runtime.h"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace attnc::rt;

namespace {
int error(const std::string &message) {
  std::cerr << "attnc-rt-check: error: " << message << "\n";
  return 1;
}

template <typename Range, typename Fn>
std::string list(const Range &range, Fn element) {
  std::string out = "[";
  for (const auto &value : range)
    out += (out.size() > 1 ? ", " : "") + element(value);
  return out + "]";
}

std::string gridExpr(const GridDim &g) {
  std::string expr;
  for (Symbol s : g.product)
    expr += (expr.empty() ? "" : " * ") + std::string(toString(s));
  if (g.ceilDiv != 1)
    expr = "ceil_div(" + expr + ", " + std::to_string(g.ceilDiv) + ")";
  for (Symbol s : g.plus)
    expr += " + " + std::string(toString(s));
  return expr;
}

std::string gridExprs(const std::array<GridDim, 3> &grid) {
  return "x = " + gridExpr(grid[0]) + ", y = " + gridExpr(grid[1]) +
         ", z = " + gridExpr(grid[2]);
}

/// "<prefix>param <i>: ..." for each parameter.
void printParams(const std::vector<KernelParam> &params, const char *prefix) {
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelParam &k = params[i];
    std::cout << prefix << "param " << i << ": " << toString(k.kind);
    switch (k.kind) {
    case ParamKind::TensorMap:
      std::cout << " " << toString(k.tensor) << " dims "
                << list(k.dims,
                        [](TensorDim d) { return std::string(toString(d)); })
                << " box "
                << list(k.box, [](int64_t b) { return std::to_string(b); })
                << " swizzle " << toString(k.swizzle) << " oob_fill "
                << toString(k.oobFill);
      break;
    case ParamKind::Pointer:
      std::cout << " " << toString(k.tensor);
      break;
    case ParamKind::I32:
    case ParamKind::F32:
      std::cout << " " << toString(k.value);
      break;
    }
    std::cout << "\n";
  }
}

/// The split_kv lines: the split count, the kv block and the combine kernel.
void printSplitKv(const SplitKv &split) {
  const KernelLaunch &c = split.combine;
  std::cout << "split_kv: "
            << (split.splits ? std::to_string(split.splits) + " splits"
                             : std::string("splits chosen at launch"))
            << ", kv_block " << split.kvBlock << "\n";
  if (split.writesOutputAtOneSplit)
    std::cout << "one split: the attention kernel writes O (no combine, no "
                 "workspace)\n";
  std::cout << "combine entry: " << c.entry << "\n"
            << "combine block: " << c.threadsPerBlock << " threads\n"
            << "combine dynamic_smem: " << c.dynamicSmemBytes << " bytes\n"
            << "combine grid: " << gridExprs(c.grid) << "\n";
  printParams(c.params, "combine ");
  if (c.programmaticLaunch)
    std::cout << "combine launch: programmatic (waits for the attention "
                 "kernel on the GPU)\n";
}

/// One "key: value" line per fact, so tests can match lines independently.
void printSummary(const Manifest &m) {
  const Problem &p = m.problem;
  std::cout << "entry: " << m.entry << "\n"
            << "target: " << m.target << "\n"
            << "ptx: " << m.ptx << "\n";
  if (!m.cubin.empty())
    std::cout << "cubin: " << m.cubin << "\n";
  std::cout << "attnc_version: " << m.attncVersion << "\n"
            << "block: " << m.threadsPerBlock << " threads\n"
            << "cluster: " << m.cluster[0] << "x" << m.cluster[1] << "x"
            << m.cluster[2] << "\n"
            << "dynamic_smem: " << m.dynamicSmemBytes << " bytes\n"
            << "grid: " << gridExprs(m.grid) << "\n"
            << "problem: " << toString(p.dtype) << ", head_dim " << p.headDim
            << ", head_dim_v " << p.headDimV << ", layout " << p.layout
            << ", mask " << p.mask << ", gqa " << (p.gqa ? "yes" : "no")
            << ", lse " << (p.hasLse ? "yes" : "no");
  // Only where packed, so that other kernels' summaries stay as they were.
  if (p.packedQueryHeads > 1)
    std::cout << ", packed_query_heads " << p.packedQueryHeads;
  if (p.pageSize)
    std::cout << ", page_size " << p.pageSize;
  if (p.varlen)
    std::cout << ", varlen";
  std::cout << "\n"
            << "alignment: " << m.alignmentBytes << " bytes\n";
  printParams(m.params, "");
  if (m.splitKv)
    printSplitKv(*m.splitKv);
  for (const CompileOption &o : m.options)
    std::cout << "option: " << o.name << " = " << o.value << "\n";
}

int checkManifest(const std::string &path, bool json) {
  std::string text, message;
  if (!readArtifactFile(path, text, message))
    return error(message);
  Manifest manifest;
  if (!parseManifest(text, manifest, message, path))
    return error(message);
  if (json)
    std::cout << toJson(manifest);
  else
    printSummary(manifest);
  return 0;
}

int runtimeError(attnc_status status) {
  std::cerr << "attnc-rt-check: error: " << attnc_last_error() << "\n";
  return status == ATTNC_ERROR_DRIVER_NOT_FOUND ? 2 : 1;
}

int checkLoad(const std::string &path, int device) {
  if (device >= 0)
    if (attnc_status status = attnc_init(device))
      return runtimeError(status);
  attnc_kernel kernel = nullptr;
  if (attnc_status status = attnc_kernel_load(path.c_str(), &kernel))
    return runtimeError(status);
  attnc_kernel_attrs attrs = {sizeof(attnc_kernel_attrs)};
  if (attnc_status status = attnc_kernel_get_attrs(kernel, &attrs))
    return runtimeError(status);
  std::cout << "loaded: " << path << "\n"
            << "registers: " << attrs.num_regs << "\n"
            << "local_bytes: " << attrs.local_bytes << "\n"
            << "static_smem: " << attrs.static_smem_bytes << " bytes\n"
            << "dynamic_smem: " << attrs.dynamic_smem_bytes << " bytes\n"
            << "threads: " << attrs.threads_per_block << " (at most "
            << attrs.max_threads_per_block << ")\n";
  attnc_kernel_release(kernel);
  return 0;
}
/// Every thread parses the manifest and loads the artifact `iterations` times;
/// all must end the same way (all loads succeed with a GPU, all fail with the
/// same message without one).
int checkThreads(const std::string &path, int threads, int iterations) {
  std::string manifestPath = path + "/manifest.json", text, readError;
  if (!readArtifactFile(manifestPath, text, readError))
    return error(readError);
  std::mutex mutex;
  std::map<std::string, int> outcomes; // "<status>: <message>" -> count
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int i = 0; i < iterations; ++i) {
        Manifest manifest;
        std::string message;
        std::string outcome = "manifest ok";
        if (!parseManifest(text, manifest, message, manifestPath))
          outcome = "manifest error: " + message;
        attnc_kernel kernel = nullptr;
        attnc_status status = attnc_kernel_load(path.c_str(), &kernel);
        outcome += std::string(", load ") + attnc_status_name(status);
        if (status != ATTNC_OK)
          outcome += std::string(": ") + attnc_last_error();
        attnc_kernel_release(kernel);
        std::lock_guard<std::mutex> lock(mutex);
        ++outcomes[outcome];
      }
    });
  for (std::thread &t : pool)
    t.join();
  for (const auto &[outcome, count] : outcomes)
    std::cout << count << " x " << outcome << "\n";
  if (outcomes.size() != 1)
    return error(std::to_string(outcomes.size()) +
                 " different outcomes from one artifact");
  return 0;
}

/// The ABI checks that need no GPU: struct sizes and DLPack conversion.
int checkAbi() {
  auto report = [](const char *what, attnc_status status) {
    std::cout << what << ": " << attnc_status_name(status);
    if (status != ATTNC_OK)
      std::cout << ": " << attnc_last_error();
    std::cout << "\n";
  };
  std::cout << "sizeof(attnc_tensor): " << sizeof(attnc_tensor) << "\n"
            << "sizeof(attnc_attention_args): " << sizeof(attnc_attention_args)
            << "\n"
            << "sizeof(attnc_kernel_attrs): " << sizeof(attnc_kernel_attrs)
            << "\n";
  // Every field's offset, for bindings that mirror the structs (ctypes).
#define ATTNC_OFFSET(type, field)                                              \
  std::cout << "offsetof(" #type ", " #field "): " << offsetof(type, field)    \
            << "\n"
  ATTNC_OFFSET(attnc_tensor, data);
  ATTNC_OFFSET(attnc_tensor, shape);
  ATTNC_OFFSET(attnc_tensor, strides);
  ATTNC_OFFSET(attnc_tensor, dtype);
  ATTNC_OFFSET(attnc_tensor, device_id);
  ATTNC_OFFSET(attnc_tensor, byte_offset);
  ATTNC_OFFSET(attnc_attention_args, struct_size);
  ATTNC_OFFSET(attnc_attention_args, q);
  ATTNC_OFFSET(attnc_attention_args, k);
  ATTNC_OFFSET(attnc_attention_args, v);
  ATTNC_OFFSET(attnc_attention_args, o);
  ATTNC_OFFSET(attnc_attention_args, lse);
  ATTNC_OFFSET(attnc_attention_args, scale);
  ATTNC_OFFSET(attnc_attention_args, block_table);
  ATTNC_OFFSET(attnc_attention_args, cache_lengths);
  ATTNC_OFFSET(attnc_attention_args, cu_seqlens_q);
  ATTNC_OFFSET(attnc_attention_args, cu_seqlens_k);
  ATTNC_OFFSET(attnc_attention_args, workspace);
  ATTNC_OFFSET(attnc_attention_args, workspace_bytes);
  ATTNC_OFFSET(attnc_kernel_attrs, struct_size);
  ATTNC_OFFSET(attnc_kernel_attrs, num_regs);
  ATTNC_OFFSET(attnc_kernel_attrs, local_bytes);
  ATTNC_OFFSET(attnc_kernel_attrs, static_smem_bytes);
  ATTNC_OFFSET(attnc_kernel_attrs, dynamic_smem_bytes);
  ATTNC_OFFSET(attnc_kernel_attrs, max_threads_per_block);
  ATTNC_OFFSET(attnc_kernel_attrs, threads_per_block);
#undef ATTNC_OFFSET
  attnc_attention_args args = {};
  report("launch, struct_size 0",
         attnc_attention_launch(nullptr, &args, nullptr));
  args.struct_size = sizeof(args) + 8;
  report("launch, struct_size too large",
         attnc_attention_launch(nullptr, &args, nullptr));
  args.struct_size = sizeof(args);
  report("launch, NULL kernel",
         attnc_attention_launch(nullptr, &args, nullptr));
  // 0.2.0's struct, without the paged KV cache's tensors: still accepted.
  args.struct_size = offsetof(attnc_attention_args, block_table);
  report("launch, 0.2.0 struct_size",
         attnc_attention_launch(nullptr, &args, nullptr));
  // 0.3.0's, without the varlen offsets: still accepted.
  args.struct_size = offsetof(attnc_attention_args, cu_seqlens_q);
  report("launch, 0.3.0 struct_size",
         attnc_attention_launch(nullptr, &args, nullptr));
  // 0.4.0's, without the caller's workspace: still accepted.
  args.struct_size = offsetof(attnc_attention_args, workspace);
  report("launch, 0.4.0 struct_size",
         attnc_attention_launch(nullptr, &args, nullptr));
  uint64_t bytes = 0;
  report("workspace_size, NULL kernel",
         attnc_attention_workspace_size(nullptr, &args, &bytes));
  report("workspace_size, NULL bytes",
         attnc_attention_workspace_size(nullptr, &args, nullptr));
  report("check, NULL kernel", attnc_attention_check(nullptr, &args, nullptr));
  attnc_kernel_attrs attrs = {};
  report("attrs, struct_size 0", attnc_kernel_get_attrs(nullptr, &attrs));

  int64_t shape[4] = {2, 8, 128, 64};
  int64_t strides[4] = {8 * 128 * 64, 64, 8 * 64, 1}; // BSHD storage
  DLTensor dl = {};
  dl.data = reinterpret_cast<void *>(0x10000);
  dl.device = {kDLCUDA, 0};
  dl.ndim = 4;
  dl.dtype = {kDLBfloat, 16, 1};
  dl.shape = shape;
  dl.strides = strides;
  dl.byte_offset = 256;
  attnc_tensor t = {};
  auto print = [](const attnc_tensor &t) {
    std::cout << "  dtype " << t.dtype << " device " << t.device_id
              << " byte_offset " << t.byte_offset << " shape [" << t.shape[0]
              << ", " << t.shape[1] << ", " << t.shape[2] << ", " << t.shape[3]
              << "] strides [" << t.strides[0] << ", " << t.strides[1] << ", "
              << t.strides[2] << ", " << t.strides[3] << "]\n";
  };
  report("dlpack bf16 strided", attnc_tensor_from_dlpack(&dl, &t));
  print(t);
  dl.strides = nullptr;
  dl.dtype = {kDLFloat, 16, 1};
  DLManagedTensor managed = {};
  managed.dl_tensor = dl;
  report("dlmanaged f16 compact", attnc_tensor_from_dlmanaged(&managed, &t));
  print(t);
  dl.device = {kDLCPU, 0};
  report("dlpack on the CPU", attnc_tensor_from_dlpack(&dl, &t));
  dl.device = {kDLCUDA, 0};
  dl.ndim = 3;
  report("dlpack 3-d", attnc_tensor_from_dlpack(&dl, &t));
  dl.ndim = 4;
  dl.dtype = {kDLFloat, 16, 2};
  report("dlpack 2 lanes", attnc_tensor_from_dlpack(&dl, &t));
  dl.dtype = {kDLInt, 8, 1};
  report("dlpack int8", attnc_tensor_from_dlpack(&dl, &t));
  // The index tensors of a paged KV cache: int32 of rank 2 and 1, their
  // unused trailing dims 1 with stride 0.
  int64_t tableShape[2] = {4, 16};
  int64_t tableStrides[2] = {32, 1}; // a view of a wider table
  dl.dtype = {kDLInt, 32, 1};
  dl.ndim = 2;
  dl.shape = tableShape;
  dl.strides = tableStrides;
  dl.byte_offset = 0;
  report("dlpack int32 block table", attnc_tensor_from_dlpack(&dl, &t));
  print(t);
  dl.ndim = 1;
  dl.strides = nullptr;
  report("dlpack int32 cache lengths", attnc_tensor_from_dlpack(&dl, &t));
  print(t);
  dl.ndim = 4;
  dl.shape = shape;
  report("dlpack int32 4-d", attnc_tensor_from_dlpack(&dl, &t));
  dl.dtype = {kDLBfloat, 16, 1};
  dl.ndim = 2;
  report("dlpack bf16 2-d", attnc_tensor_from_dlpack(&dl, &t));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app("Checks attnc kernel artifacts with the runtime (exit codes: 0 "
               "ok, 1 error, 2 no CUDA driver on this machine).",
               "attnc-rt-check");
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the runtime's version");

  CLI::App *manifest = app.add_subcommand(
      "manifest", "Parse, validate and summarize a manifest");
  std::string manifestPath;
  bool json = false;
  manifest->add_flag("--json", json, "Print the normalized JSON instead");
  manifest->add_option("FILE", manifestPath, "manifest.json to check")
      ->required();

  CLI::App *load = app.add_subcommand(
      "load", "Load an artifact's module on a device and print its attributes");
  std::string artifact;
  int device = -1;
  load->add_option("--device", device, "CUDA device ordinal (default: 0)")
      ->check(CLI::Range(0, 1024));
  load->add_option("ARTIFACT", artifact,
                   "Artifact directory or its manifest.json")
      ->required();

  CLI::App *threads = app.add_subcommand(
      "threads", "Parse and load an artifact from many threads at once; all "
                 "must end the same way");
  int threadCount = 16, iterations = 20;
  threads->add_option("--threads", threadCount, "Threads")
      ->check(CLI::Range(1, 1024));
  threads->add_option("--iterations", iterations, "Loads per thread")
      ->check(CLI::Range(1, 100000));
  std::string threadsArtifact;
  threads->add_option("ARTIFACT", threadsArtifact, "Artifact directory")
      ->required();

  CLI::App *abi = app.add_subcommand(
      "abi", "Struct sizes and DLPack conversion (needs no GPU)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    error(e.what());
    std::cerr << "Run with --help for more information.\n";
    return 1;
  }
  if (version) {
    std::cout << "attnc-rt-check " << attnc_version() << "\n";
    return 0;
  }
  if (manifest->parsed())
    return checkManifest(manifestPath, json);
  if (load->parsed())
    return checkLoad(artifact, device);
  if (threads->parsed())
    return checkThreads(threadsArtifact, threadCount, iterations);
  if (abi->parsed())
    return checkAbi();
  std::cerr << app.help();
  return 1;
}
