//===- attnc-run-artifact.cpp - check compiled kernels on the GPU ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// attnc-run's GPU backend for machines that have a GPU but no LLVM/MLIR: it
// loads kernel artifacts written by attnc-compile, rebuilds the problem from
// each manifest, and checks every launch against the same float64 reference
// as attnc-run, on seeded normal inputs with NaN-poisoned outputs. Links only
// the runtime (no MLIR, no LLVM).
//
//   attnc-run-artifact [--shapes=B:Nq:Nk,...] [--iterations=N] DIR...
//
// A paged artifact (problem.page_size) runs on shuffled page pools and block
// tables (unused entries -1) with cache lengths Nk, 1 and 0 in turn, and its
// index inputs are checked before the launch (attnc_attention_check), so a
// bad table or length is an error naming it, never a wrong answer.
//
// A varlen artifact (problem.varlen) runs on B sequences packed in a batch
// of 1, as attnc-run generates them for a varlen graph: Nq rows and Nk keys,
// then one row and Nk / 2 + 1 keys, Nq / 3 rows and one key, and none at
// all, in turn (its default shapes have several sequences each); the
// reference applies the mask per sequence, and the offsets are checked
// before the launch as a paged artifact's table is.
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"
#include "Problem.h"
#include "Reference.h"

#include "attnc/Runtime/Manifest.h"

#include <CLI/CLI.hpp>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

using namespace attnc::run;
namespace rt = attnc::rt;

namespace {

/// For `dir` without a manifest.json that holds kernel folders (attnc-compile's
/// -o folder), what to pass instead; empty otherwise.
std::string kernelFoldersHint(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec) ||
      fs::exists(fs::path(dir) / "manifest.json", ec))
    return "";
  std::string folder = dir;
  while (folder.size() > 1 && folder.back() == '/')
    folder.pop_back();
  // Incremented with an error code: a range-for's ++ would throw.
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec))
    if (fs::exists(it->path() / "manifest.json", ec))
      return " ('" + dir +
             "' is a folder of kernel artifacts, as attnc-compile's -o "
             "writes them: pass the artifacts, " +
             folder + "/*)";
  return "";
}

std::string option(const rt::Manifest &m, const std::string &name) {
  for (const rt::CompileOption &o : m.options)
    if (o.name == name)
      return o.value;
  return "";
}

/// The problem a manifest's kernel computes, with the given dynamic sizes.
bool problemFromManifest(const rt::Manifest &m, int64_t batch, int64_t seqQ,
                         int64_t seqK, Problem &p, std::string &error) {
  p.function = m.entry;
  p.dtype = m.problem.dtype == rt::DType::BF16
                ? ElementType::BF16
                : (m.problem.dtype == rt::DType::F16 ? ElementType::F16
                                                     : ElementType::F32);
  p.headDim = m.problem.headDim;
  p.valueHeadDim = m.problem.headDimV;
  p.bshd = m.problem.layout == "bshd";
  p.hasLse = m.problem.hasLse;
  p.mask = m.problem.mask == "causal"
               ? Mask::Causal
               : (m.problem.mask == "causal_bottom_right"
                      ? Mask::CausalBottomRight
                      : Mask::None);
  std::string heads = option(m, "heads_q"), kvHeads = option(m, "heads_kv"),
              scale = option(m, "scale");
  if (heads.empty() || kvHeads.empty()) {
    error = "manifest of " + m.entry +
            " lacks options.heads_q/heads_kv (not written by attnc-compile?)";
    return false;
  }
  p.headsQ = std::stoll(heads);
  p.headsKV = std::stoll(kvHeads);
  // A compiled-in scale, else the kernel takes it at launch: 1/sqrt(D).
  p.scale = scale.empty() ? 1.0f / std::sqrt(static_cast<float>(p.headDim))
                          : std::stof(scale);
  std::string softcap = option(m, "softcap");
  if (!softcap.empty())
    p.softcap = std::stof(softcap);
  std::string left = option(m, "window_left");
  if (!left.empty())
    p.window = std::make_pair(std::stoll(left),
                              std::stoll(option(m, "window_right")));
  p.batch = batch;
  // A kernel compiled for one query length (one that packs a g not dividing
  // 64 for one token) runs at that length.
  std::string compiledSeqQ = option(m, "seq_q");
  p.seqQ = compiledSeqQ.empty() ? seqQ : std::stoll(compiledSeqQ);
  p.seqK = seqK;
  // A paged KV cache (problem.page_size), generated as attnc-run does for a
  // graph with dynamic sizes: sequences of Nk keys, one key and none in
  // turn, a table of one spare column, a pool of three spare pages; Nk is
  // the longest cache.
  if (m.problem.pageSize)
    p.paged = pagedCache(p, m.problem.pageSize);
  // A varlen batch (problem.varlen) of `batch` sequences of mixed lengths,
  // seqQ and seqK the longest (makeVarlen, shared with attnc-run); the
  // tensors' sequence dims are the totals.
  if (m.problem.varlen)
    makeVarlen(p);
  return true;
}

/// Parses "B:Nq:Nk,..."; on failure names the offending item.
std::string parseShapes(const std::string &text,
                        std::vector<std::array<int64_t, 3>> &shapes) {
  shapes.clear();
  std::stringstream list(text);
  std::string item;
  // The kernels take B as grid z (at most 65535) and the lengths as i32.
  constexpr int64_t kMaxBatch = 65535, kMaxLength = INT32_MAX;
  while (std::getline(list, item, ',')) {
    std::array<int64_t, 3> s{};
    const char *at = item.c_str();
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i) {
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(at, &end, 10);
      ok = end != at && errno != ERANGE && *end == (i < 2 ? ':' : '\0') &&
           v >= 1 && v <= (i == 0 ? kMaxBatch : kMaxLength);
      s[i] = v;
      at = end + 1;
    }
    if (!ok)
      return "--shapes: bad shape '" + item + "' (want B:Nq:Nk, B in 1.." +
             std::to_string(kMaxBatch) + ", Nq and Nk in 1.." +
             std::to_string(kMaxLength) + ")";
    shapes.push_back(s);
  }
  if (shapes.empty())
    return "--shapes: expected at least one B:Nq:Nk, found '" + text + "'";
  return "";
}

} // namespace

int main(int argc, char **argv) {
  // One row at a time: a run killed by a caller's timeout (each kernel's
  // PTX is JIT-compiled by the driver as it is loaded) keeps the rows it
  // printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::array<int64_t, 3>> shapes = {
      {1, 1, 1}, {2, 17, 33}, {1, 113, 203}, {1, 200, 100}, {1, 257, 513}};
  // A varlen artifact's B counts sequences of mixed lengths: its default
  // shapes have several (the longest of 1 to 257 rows and keys).
  const std::vector<std::array<int64_t, 3>> varlenShapes = {
      {1, 1, 1}, {4, 17, 33}, {5, 113, 203}, {8, 200, 100}, {9, 257, 513}};
  int iterations = 10;
  uint64_t seed = 1;
  std::vector<std::string> dirs;
  std::string shapeList;

  CLI::App app("Checks attnc kernel artifacts on the GPU against a float64 "
               "reference (exit codes: 0 all pass, 1 a failure, 2 usage).",
               "attnc-run-artifact");
  app.add_option("--shapes", shapeList,
                 "Comma-separated B:Nq:Nk problem sizes (default: "
                 "1:1:1,2:17:33,1:113:203,1:200:100,1:257:513; for a varlen "
                 "artifact B sequences of at most Nq rows and Nk keys, "
                 "default 1:1:1,4:17:33,5:113:203,8:200:100,9:257:513)");
  app.add_option("--iterations", iterations,
                 "Timed launches per shape (median reported)")
      ->check(CLI::Range(1, 100000));
  app.add_option("--seed", seed, "Seed of the normal inputs")
      ->check(CLI::NonNegativeNumber);
  app.add_option("ARTIFACT_DIR", dirs, "Directories written by attnc-compile")
      ->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr,
                 "attnc-run-artifact: error: %s\nRun with --help for more "
                 "information.\n",
                 e.what());
    return 2;
  }
  if (!shapeList.empty())
    if (std::string why = parseShapes(shapeList, shapes); !why.empty()) {
      std::fprintf(stderr, "attnc-run-artifact: error: %s\n", why.c_str());
      return 2;
    }
  // What needs no GPU first: each manifest, the PTX file it names and the
  // entry in it, and the problem it describes; an artifact that fails one of
  // these is reported as such on a machine with a GPU or without one.
  int passes = 0, failures = 0, unusable = 0;
  std::vector<std::pair<std::string, rt::Manifest>> artifacts;
  for (const std::string &dir : dirs) {
    std::string json, ptx, error;
    rt::Manifest m;
    Problem problem;
    auto [batch, seqQ, seqK] = shapes.front();
    bool usable = rt::readArtifactFile(dir + "/manifest.json", json, error) &&
                  rt::parseManifest(json, m, error, dir + "/manifest.json") &&
                  rt::readArtifactFile(dir + "/" + m.ptx, ptx, error) &&
                  problemFromManifest(m, batch, seqQ, seqK, problem, error);
    if (usable && ptx.find(".entry " + m.entry + "(") == std::string::npos) {
      error = dir + "/" + m.ptx + " has no kernel entry " + m.entry +
              " (the manifest's entry)";
      usable = false;
    }
    if (!usable) {
      error += kernelFoldersHint(dir);
      std::fprintf(stderr, "attnc-run-artifact: error: %s\n", error.c_str());
      ++unusable;
      continue;
    }
    artifacts.emplace_back(dir, std::move(m));
  }
  if (artifacts.empty())
    return 1;
  if (std::string why = initGpu(); !why.empty()) {
    std::fprintf(stderr, "attnc-run-artifact: needs a GPU: %s\n", why.c_str());
    return 1;
  }

  std::mt19937_64 rng(seed);
  std::printf("%-18s %-5s %-40s %-16s %9s %9s %6s %9s  %s\n", "kernel", "dtype",
              "shape", "mask", "rel_err", "lse_err", "empty", "ms", "result");
  for (const auto &[dir, m] : artifacts) {
    std::string error;
    bool defaultVarlen = m.problem.varlen && shapeList.empty();
    for (auto [batch, seqQ, seqK] : defaultVarlen ? varlenShapes : shapes) {
      Problem p;
      if (!problemFromManifest(m, batch, seqQ, seqK, p, error)) {
        std::printf("%-18s FAIL (%s)\n", m.entry.c_str(), error.c_str());
        ++failures;
        break;
      }
      if (std::string why = hostMemoryError(p, "attnc-run-artifact");
          !why.empty()) {
        std::printf("%-18s FAIL (%s)\n", m.entry.c_str(), why.c_str());
        ++failures;
        continue;
      }
      HostTensor q = makeTensor(p.dtype, p.queryShape()),
                 k = makeTensor(p.dtype, p.keyShape()),
                 v = makeTensor(p.dtype, p.valueShape());
      fillNormal(q, rng);
      fillNormal(k, rng);
      fillNormal(v, rng);
      IndexInputs indices = makeIndexInputs(p, rng);
      DeviceResult result;
      if (!runOnGpu(dir, p, q, k, v, iterations, result, error, indices)) {
        std::printf("%-18s %-5s %-40s FAIL (%s)\n", m.entry.c_str(),
                    toString(p.dtype), p.describeShape().c_str(), error.c_str());
        ++failures;
        continue;
      }
      Comparison c = compareWithReference(
          p, result.output, result.lse,
          referenceAttention(p, q, k, v, indices.blockTable));
      bool ok = c.ok(p.dtype);
      std::printf("%-18s %-5s %-40s %-16s %9.2e %9.2e %6ld %9.3f  %s%s\n",
                  m.entry.c_str(), toString(p.dtype), p.describeShape().c_str(),
                  p.describeMask().c_str(), c.relErr, c.lseErr,
                  static_cast<long>(c.emptyRows), result.milliseconds,
                  ok ? "PASS" : "FAIL",
                  c.problem.empty() ? "" : (" (" + c.problem + ")").c_str());
      ok ? ++passes : ++failures;
    }
  }
  std::printf("backend: gpu (attnc-run-artifact: sm_90a kernels through "
              "libAttncRuntime)\n%d passed, %d failed",
              passes, failures);
  // Those are rows of the table; an unusable artifact has none (its error
  // went to stderr) but fails the run as well.
  if (unusable)
    std::printf(", %d artifacts unusable", unusable);
  std::printf("\n");
  return failures == 0 && unusable == 0 ? 0 : 1;
}
