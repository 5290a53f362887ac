//===- GpuBackend.h - run attention kernel artifacts on the GPU ---*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Plain C++ over the runtime's C ABI (no MLIR, no LLVM), so that both
// attnc-run and the MLIR-free attnc-run-artifact (which runs on machines that
// have a GPU but no LLVM) share it.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_GPUBACKEND_H
#define ATTNC_RUN_GPUBACKEND_H

#include "Problem.h"

#include <string>
#include <vector>

namespace attnc::run {

/// Outputs of one launch of a compiled attention function.
struct DeviceResult {
  HostTensor output;
  std::vector<double> lse;
  double milliseconds = 0.0;
};

/// Opens the CUDA driver through the runtime; returns an error message, empty
/// on success.
std::string initGpu();

/// Loads the artifact in `artifactDir` with the runtime, uploads q, k, v
/// (for a paged problem the page pools, and the block table and cache
/// lengths of `indices`; for a varlen one the packed sequences and the
/// offsets of `indices`), poisons O and LSE (NaN), launches, downloads the
/// results and times `iterations` more launches (median, CUDA events). A
/// paged or varlen launch's index inputs are checked first
/// (attnc_attention_check: every length within the table, every page read
/// in the pool; offsets from 0 up, never decreasing, within the tensors);
/// the timed launches trust them. On failure returns false and sets `error` to
/// a message naming the call and value at fault.
bool runOnGpu(const std::string &artifactDir, const Problem &problem,
              const HostTensor &q, const HostTensor &k, const HostTensor &v,
              int iterations, DeviceResult &result, std::string &error,
              const IndexInputs &indices = {});

} // namespace attnc::run

#endif // ATTNC_RUN_GPUBACKEND_H
