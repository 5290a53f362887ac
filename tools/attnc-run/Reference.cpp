//===- Reference.cpp - float64 reference attention ------------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Reference.h"

#include <cmath>
#include <limits>

using namespace attnc::run;

bool attnc::run::keyVisible(const Problem &p, int64_t b, int64_t i, int64_t j) {
  int64_t seqK = p.seqKOf(b), seqQ = p.seqQOf(b);
  if (j < 0 || j >= seqK)
    return false;
  // Packed rows are token-major: row i is token i / (packed heads).
  seqQ /= p.packedQueryHeads;
  i /= p.packedQueryHeads;
  int64_t diagonal = p.mask == Mask::CausalBottomRight ? i + seqK - seqQ : i;
  if (p.mask != Mask::None && j > diagonal)
    return false;
  if (p.window) {
    if (j < diagonal - p.window->first)
      return false;
    if (p.mask == Mask::None && j > diagonal + p.window->second)
      return false;
  }
  return true;
}

namespace {
/// Flat index of logical (b, h, s, d) in a tensor of the problem's layout.
struct Indexer {
  bool bshd;
  int64_t heads, seq, dim;
  int64_t operator()(int64_t b, int64_t h, int64_t s, int64_t d) const {
    if (bshd)
      return ((b * seq + s) * heads + h) * dim + d;
    return ((b * heads + h) * seq + s) * dim + d;
  }
};
} // namespace

namespace {
/// Flat index of key j of sequence b, head h, dim d in K or V: dense in the
/// problem's layout (a varlen batch's sequences packed in batch 0), or in
/// the page the block table gives.
struct KeyIndexer {
  const Problem &p;
  const std::vector<int32_t> &blockTable;
  Indexer dense;
  int64_t dim;
  int64_t operator()(int64_t b, int64_t h, int64_t j, int64_t d) const {
    if (!p.paged)
      return dense(p.tensorBatchOf(b), h, p.keyOffsetOf(b) + j, d);
    const Problem::Paged &pg = *p.paged;
    int64_t page = blockTable[b * pg.maxPages + j / pg.pageSize];
    return ((page * pg.pageSize + j % pg.pageSize) * p.headsKV + h) * dim + d;
  }
};
} // namespace

ReferenceResult
attnc::run::referenceAttention(const Problem &p, const HostTensor &q,
                               const HostTensor &k, const HostTensor &v,
                               const std::vector<int32_t> &blockTable) {
  Indexer qi{p.bshd, p.headsQ, p.seqQ, p.headDim};
  KeyIndexer ki{
      p, blockTable, {p.bshd, p.headsKV, p.seqK, p.headDim}, p.headDim};
  KeyIndexer vi{p,
                blockTable,
                {p.bshd, p.headsKV, p.seqK, p.valueHeadDim},
                p.valueHeadDim};
  Indexer oi{p.bshd, p.headsQ, p.seqQ, p.valueHeadDim};
  int64_t group = p.headsQ / p.headsKV;
  const double negInf = -std::numeric_limits<double>::infinity();

  ReferenceResult r;
  int64_t batches = p.varlen ? 1 : p.batch;
  r.output.assign(batches * p.headsQ * p.seqQ * p.valueHeadDim, 0.0);
  r.lse.assign(batches * p.headsQ * p.seqQ, negInf);
  std::vector<double> scores(p.seqK), acc(p.valueHeadDim);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t h = 0; h < p.headsQ; ++h) {
      int64_t hk = h / group;
      // Row i of sequence b: (tb, h, row0 + i) of the tensors.
      int64_t tb = p.tensorBatchOf(b), row0 = p.queryOffsetOf(b);
      for (int64_t i = 0; i < p.seqQOf(b); ++i) {
        double rowMax = negInf;
        for (int64_t j = 0; j < p.seqKOf(b); ++j) {
          scores[j] = negInf;
          if (!keyVisible(p, b, i, j))
            continue;
          double dot = 0.0;
          for (int64_t d = 0; d < p.headDim; ++d)
            dot += q.get(qi(tb, h, row0 + i, d)) * k.get(ki(b, hk, j, d));
          double s = dot * p.scale;
          if (p.softcap)
            s = *p.softcap * std::tanh(s / *p.softcap);
          scores[j] = s;
          rowMax = std::max(rowMax, s);
        }
        if (rowMax == negInf)
          continue; // Sees no key: O = 0, LSE = -inf.
        double sum = 0.0;
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t j = 0; j < p.seqKOf(b); ++j) {
          if (scores[j] == negInf)
            continue;
          double w = std::exp(scores[j] - rowMax);
          sum += w;
          for (int64_t e = 0; e < p.valueHeadDim; ++e)
            acc[e] += w * v.get(vi(b, hk, j, e));
        }
        for (int64_t e = 0; e < p.valueHeadDim; ++e)
          r.output[oi(tb, h, row0 + i, e)] = acc[e] / sum;
        r.lse[(tb * p.headsQ + h) * p.seqQ + row0 + i] = rowMax + std::log(sum);
      }
    }
  return r;
}

double attnc::run::tolerance(ElementType type) {
  return type == ElementType::F32 ? 1e-5 : 1e-2;
}

bool Comparison::ok(ElementType type) const {
  bool f32 = type == ElementType::F32;
  return problem.empty() && relErr <= tolerance(type) &&
         maxAbs <= (f32 ? 1e-4 : 5e-2) * std::max(maxRef, 1e-30) &&
         lseErr <= (f32 ? 1e-5 : 1e-3);
}

Comparison attnc::run::compareWithReference(const Problem &p,
                                            const HostTensor &output,
                                            const std::vector<double> &lse,
                                            const ReferenceResult &ref) {
  Comparison c;
  double diff2 = 0, ref2 = 0;
  for (int64_t i = 0, e = output.numElements(); i < e; ++i) {
    double x = output.get(i), r = ref.output[i];
    if (std::isnan(x)) {
      c.problem = "NaN in output (unwritten or NaN-producing)";
      return c;
    }
    c.maxAbs = std::max(c.maxAbs, std::abs(x - r));
    c.maxRef = std::max(c.maxRef, std::abs(r));
    diff2 += (x - r) * (x - r);
    ref2 += r * r;
  }
  c.relErr = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  if (!p.hasLse)
    return c;
  for (size_t i = 0; i < ref.lse.size(); ++i) {
    double x = lse[i], r = ref.lse[i];
    if (std::isnan(x)) {
      c.problem = "NaN in lse";
      return c;
    }
    if (std::isinf(r)) {
      ++c.emptyRows;
      if (!(std::isinf(x) && x < 0)) {
        c.problem = "row without visible keys has lse " + std::to_string(x);
        return c;
      }
      continue;
    }
    c.lseErr =
        std::max(c.lseErr, std::abs(x - r) / std::max(1.0, std::abs(r)));
  }
  return c;
}
