//===- GpuBackend.h - run attention kernels through the runtime ---*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_GPUBACKEND_H
#define ATTNC_RUN_GPUBACKEND_H

#include "CpuBackend.h"

#include "attnc/Target/KernelArtifact.h"

namespace attnc::run {

/// Opens the CUDA driver through the runtime; an error when there is none.
llvm::Error initGpu();

/// Writes `artifact` to a fresh temporary directory, loads it with the
/// runtime, uploads q, k, v, poisons O and LSE (NaN), launches, checks the
/// launch, downloads the results and times `iterations` more launches
/// (median, CUDA events). Every runtime failure names the call and value.
llvm::Expected<DeviceResult> runOnGpu(const mlir::attn::KernelArtifact &artifact,
                                      const Problem &problem,
                                      const HostTensor &q, const HostTensor &k,
                                      const HostTensor &v, int iterations);

} // namespace attnc::run

#endif // ATTNC_RUN_GPUBACKEND_H
