//===- Reference.h - float64 reference attention ------------------*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Plain C++ attention in double precision, written from the op's documented
// semantics and sharing no code with the compiler: the oracle every backend
// and every pipeline stage is compared against.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_RUN_REFERENCE_H
#define ATTNC_RUN_REFERENCE_H

#include "Problem.h"

namespace attnc::run {

struct ReferenceResult {
  std::vector<double> output; // physical layout of O
  std::vector<double> lse;    // [B, Hq, Nq]; -inf for rows that see no key
};

/// `blockTable` ([batch, maxPages], row-major) locates the keys of a paged
/// problem; it is empty for a dense one.
ReferenceResult referenceAttention(const Problem &p, const HostTensor &q,
                                   const HostTensor &k, const HostTensor &v,
                                   const std::vector<int32_t> &blockTable = {});

/// True iff key `j` is visible to query `i` of sequence `b` (j below the
/// sequence's key count included).
bool keyVisible(const Problem &p, int64_t b, int64_t i, int64_t j);

/// Largest relative error ||out - ref|| / ||ref|| each element type may show.
double tolerance(ElementType type);

/// How a backend's outputs compare with the reference.
struct Comparison {
  double maxAbs = 0, relErr = 0, lseErr = 0;
  double maxRef = 0; // largest |reference output|
  int64_t emptyRows = 0; // rows that see no key
  std::string problem;   // why the result is wrong, if it is
  /// Within tolerance (relative norm error, and every element within a
  /// fraction of the largest reference value, so one wrong row cannot hide in
  /// a large tensor), no NaN, empty rows exactly O = 0 and LSE = -inf.
  bool ok(ElementType type) const;
};

Comparison compareWithReference(const Problem &p, const HostTensor &output,
                                const std::vector<double> &lse,
                                const ReferenceResult &ref);

} // namespace attnc::run

#endif // ATTNC_RUN_REFERENCE_H
