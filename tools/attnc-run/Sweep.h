//===- Sweep.h - generated attention test problems ----------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_SWEEP_H
#define ATTNC_RUN_SWEEP_H

#include "Problem.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace attnc::run {

/// The problems of a named sweep ("ci": head dims 32..256, ragged and
/// unequal sequence pairs, every mask, MHA/GQA/MQA, f32 and bf16).
std::optional<std::vector<Problem>> sweepProblems(llvm::StringRef name);

/// MLIR text of one function computing `p` with attn.attention.
std::string attentionFunctionText(const Problem &p);

} // namespace attnc::run

#endif // ATTNC_RUN_SWEEP_H
