//===- attnc-rt-check.cpp - exercise the attnc runtime ----------*- C++ -*-===//
//
// A small CLI over the runtime, for lit tests and for checking an artifact by
// hand:
//   attnc-rt-check manifest [--json] FILE.json   parse, validate, summarize
//   attnc-rt-check load [--device N] ARTIFACT    load the module on a device
// Exit codes: 0 ok, 1 error, 2 no CUDA driver on this machine.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"
#include "attnc/Runtime/Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace attnc::rt;

namespace {
int usage() {
  std::cerr << "usage: attnc-rt-check manifest [--json] FILE.json\n"
               "       attnc-rt-check load [--device N] ARTIFACT_DIR|"
               "MANIFEST\n";
  return 1;
}

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
  return expr;
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
            << "grid: x = " << gridExpr(m.grid[0])
            << ", y = " << gridExpr(m.grid[1])
            << ", z = " << gridExpr(m.grid[2]) << "\n"
            << "problem: " << toString(p.dtype) << ", head_dim " << p.headDim
            << ", head_dim_v " << p.headDimV << ", layout " << p.layout
            << ", mask " << p.mask << ", gqa " << (p.gqa ? "yes" : "no")
            << ", lse " << (p.hasLse ? "yes" : "no") << "\n"
            << "alignment: " << m.alignmentBytes << " bytes\n";
  for (size_t i = 0; i < m.params.size(); ++i) {
    const KernelParam &k = m.params[i];
    std::cout << "param " << i << ": " << toString(k.kind);
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
  for (const CompileOption &o : m.options)
    std::cout << "option: " << o.name << " = " << o.value << "\n";
}

int checkManifest(const std::vector<std::string> &args) {
  bool json = false;
  std::string path;
  for (const std::string &arg : args) {
    if (arg == "--json")
      json = true;
    else if (path.empty() && !arg.empty() && arg[0] != '-')
      path = arg;
    else
      return usage();
  }
  if (path.empty())
    return usage();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return error("cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  Manifest manifest;
  std::string message;
  if (!parseManifest(text.str(), manifest, message, path))
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

int checkLoad(const std::vector<std::string> &args) {
  std::string path;
  int device = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--device" && i + 1 < args.size()) {
      char *end = nullptr;
      long value = std::strtol(args[++i].c_str(), &end, 10);
      if (!*args[i].c_str() || *end || value < 0 || value > 1024)
        return error("--device expects a device ordinal, found '" + args[i] +
                     "'");
      device = static_cast<int>(value);
    } else if (path.empty() && !args[i].empty() && args[i][0] != '-') {
      path = args[i];
    } else {
      return usage();
    }
  }
  if (path.empty())
    return usage();
  if (device >= 0)
    if (attnc_status status = attnc_init(device))
      return runtimeError(status);
  attnc_kernel kernel = nullptr;
  if (attnc_status status = attnc_kernel_load(path.c_str(), &kernel))
    return runtimeError(status);
  attnc_kernel_attrs attrs;
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
} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "manifest")
    return checkManifest(args);
  if (command == "load")
    return checkLoad(args);
  if (command == "--version") {
    std::cout << "attnc-rt-check " << attnc_version() << "\n";
    return 0;
  }
  return usage();
}
