//===- attnc-rt-check.cpp - exercise the attnc runtime ----------*- C++ -*-===//
//
// A small CLI over the runtime (command line through CLI11, header-only), for
// lit tests and for checking an artifact by hand:
//   attnc-rt-check manifest [--json] FILE.json   parse, validate, summarize
//   attnc-rt-check load [--device N] ARTIFACT    load the module on a device
// Exit codes: 0 ok, 1 error, 2 no CUDA driver on this machine.
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/Manifest.h"
#include "attnc/Runtime/Runtime.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

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

int checkManifest(const std::string &path, bool json) {
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

int checkLoad(const std::string &path, int device) {
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
  std::cerr << app.help();
  return 1;
}
