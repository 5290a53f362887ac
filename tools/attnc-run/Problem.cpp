//===- Problem.cpp - one attention problem and its host data --------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Problem.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <sstream>

using namespace attnc::run;

const char *attnc::run::toString(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  }
  return "?";
}

const char *attnc::run::toString(Mask mask) {
  switch (mask) {
  case Mask::None:
    return "none";
  case Mask::Causal:
    return "causal";
  case Mask::CausalBottomRight:
    return "causal_br";
  }
  return "?";
}

size_t attnc::run::byteWidth(ElementType type) {
  return type == ElementType::F32 ? 4 : 2;
}

static std::vector<int64_t> physical(bool bshd, int64_t b, int64_t h,
                                     int64_t s, int64_t d) {
  if (bshd)
    return {b, s, h, d};
  return {b, h, s, d};
}

/// The sum of the first `count` lengths.
static int64_t sumOfFirst(const std::vector<int64_t> &lengths, int64_t count) {
  return std::accumulate(lengths.begin(), lengths.begin() + count, int64_t(0));
}

int64_t Problem::queryOffsetOf(int64_t b) const {
  return varlen ? sumOfFirst(varlen->seqLensQ, b) : 0;
}

int64_t Problem::keyOffsetOf(int64_t b) const {
  return varlen ? sumOfFirst(varlen->seqLensK, b) : 0;
}

/// The batch dim of the tensors: 1 for a packed varlen batch.
static int64_t tensorBatch(const Problem &p) { return p.varlen ? 1 : p.batch; }

std::vector<int64_t> Problem::queryShape() const {
  return physical(bshd, tensorBatch(*this), headsQ, seqQ, headDim);
}
std::vector<int64_t> Problem::keyShape() const {
  if (paged)
    return {paged->numPages, paged->pageSize, headsKV, headDim};
  return physical(bshd, tensorBatch(*this), headsKV, seqK, headDim);
}
std::vector<int64_t> Problem::valueShape() const {
  if (paged)
    return {paged->numPages, paged->pageSize, headsKV, valueHeadDim};
  return physical(bshd, tensorBatch(*this), headsKV, seqK, valueHeadDim);
}
std::vector<int64_t> Problem::outputShape() const {
  return physical(bshd, tensorBatch(*this), headsQ, seqQ, valueHeadDim);
}

std::string attnc::run::hostMemoryError(const Problem &p,
                                        const std::string &tool) {
  auto elements = [](const std::vector<int64_t> &shape) {
    double n = 1;
    for (int64_t size : shape)
      n *= double(size);
    return n;
  };
  // A varlen batch's seqQ is its total: its tensors have batch 1.
  double rowsQ = elements(p.queryShape()) / double(p.headDim);
  double splitPartials =
      p.kvSplits > 1 ? rowsQ * double(p.kvSplits) * (p.valueHeadDim + 1.0)
                     : 0.0;
  double bytes =
      8.0 * (elements(p.queryShape()) + elements(p.keyShape()) +
             elements(p.valueShape()) + 2.0 * elements(p.outputShape()) +
             rowsQ + splitPartials);
  if (bytes <= kMaxHostBytes)
    return "";
  char amount[32];
  std::snprintf(amount, sizeof(amount), "%.2e", bytes);
  return tool + ": @" + p.function + " (" + p.describeShape() +
         ") needs about " + amount + " bytes of host memory for its inputs, " +
         (p.kvSplits > 1 ? "output, kv split partials" : "output") +
         " and float64 reference, more than " + tool +
         "'s 8 GiB; use smaller sizes";
}

std::string Problem::describeShape() const {
  std::ostringstream os;
  os << "B=" << batch << " Hq=" << headsQ << " Hkv=" << headsKV
     << " Nq=" << seqQ << " Nk=" << seqK << " D=" << headDim;
  if (valueHeadDim != headDim)
    os << " Dv=" << valueHeadDim;
  if (bshd)
    os << " bshd";
  if (paged)
    os << " page=" << paged->pageSize;
  if (varlen)
    os << " varlen";
  if (packedQueryHeads > 1)
    os << " packed=" << packedQueryHeads;
  return os.str();
}

std::string Problem::describeMask() const {
  std::ostringstream os;
  os << toString(mask);
  if (window)
    os << "+win(" << window->first << "," << window->second << ")";
  if (softcap)
    os << "+cap";
  return os.str();
}

//===----------------------------------------------------------------------===//
// Element conversions (round to nearest even)
//===----------------------------------------------------------------------===//

static float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

static uint16_t floatToBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return 0x7fc0;
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

static float f16ToFloat(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

static uint16_t floatToF16(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double HostTensor::get(int64_t i) const {
  if (type == ElementType::F32) {
    float f;
    std::memcpy(&f, bytes.data() + 4 * i, 4);
    return f;
  }
  uint16_t bits;
  std::memcpy(&bits, bytes.data() + 2 * i, 2);
  return type == ElementType::BF16 ? bf16ToFloat(bits) : f16ToFloat(bits);
}

void HostTensor::set(int64_t i, double value) {
  float f = static_cast<float>(value);
  if (type == ElementType::F32) {
    std::memcpy(bytes.data() + 4 * i, &f, 4);
    return;
  }
  uint16_t bits = type == ElementType::BF16 ? floatToBF16(f) : floatToF16(f);
  std::memcpy(bytes.data() + 2 * i, &bits, 2);
}

HostTensor attnc::run::makeTensor(ElementType type,
                                  std::vector<int64_t> shape) {
  HostTensor t;
  t.type = type;
  t.shape = std::move(shape);
  t.bytes.assign(t.numElements() * byteWidth(type), 0);
  return t;
}

void attnc::run::fillNormal(HostTensor &t, std::mt19937_64 &rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int64_t i = 0, e = t.numElements(); i < e; ++i)
    t.set(i, normal(rng));
}

//===----------------------------------------------------------------------===//
// Index inputs
//===----------------------------------------------------------------------===//

std::vector<int64_t> attnc::run::pagedCacheLengths(int64_t batch,
                                                   int64_t seqK) {
  std::vector<int64_t> lengths;
  for (int64_t b = 0; b < batch; ++b)
    lengths.push_back(
        std::min<int64_t>(seqK, std::array<int64_t, 3>{seqK, 1, 0}[b % 3]));
  return lengths;
}

void attnc::run::makeVarlen(Problem &p) {
  Problem::Varlen varlen;
  // Packed query heads: a sequence's rows are g a token.
  int64_t group = p.packedQueryHeads, tokens = p.seqQ / group;
  for (int64_t b = 0; b < p.batch; ++b) {
    std::array<int64_t, 4> rows = {tokens, 1, std::max<int64_t>(1, tokens / 3),
                                   0};
    std::array<int64_t, 4> keys = {p.seqK, p.seqK / 2 + 1, 1, 0};
    varlen.seqLensQ.push_back(std::min(tokens, rows[b % 4]) * group);
    varlen.seqLensK.push_back(std::min(p.seqK, keys[b % 4]));
  }
  p.varlen = std::move(varlen);
  p.seqQ = p.queryOffsetOf(p.batch);
  p.seqK = p.keyOffsetOf(p.batch);
}

int64_t attnc::run::pagesPerSequence(const Problem &p, int64_t pageSize) {
  return std::max<int64_t>(1, (p.seqK + pageSize - 1) / pageSize);
}

Problem::Paged attnc::run::pagedCache(const Problem &p, int64_t pageSize,
                                      int64_t maxPages, int64_t numPages) {
  Problem::Paged paged;
  paged.pageSize = pageSize;
  paged.cacheLengths = pagedCacheLengths(p.batch, p.seqK);
  int64_t needed = pagesPerSequence(p, pageSize);
  paged.maxPages = maxPages ? maxPages : needed + 1;
  paged.numPages = numPages ? numPages : p.batch * needed + 3;
  return paged;
}

std::vector<int32_t> attnc::run::shuffledBlockTable(const Problem &p,
                                                    std::mt19937_64 &rng) {
  const Problem::Paged &pg = *p.paged;
  std::vector<int32_t> pages(pg.numPages);
  std::iota(pages.begin(), pages.end(), 0);
  std::shuffle(pages.begin(), pages.end(), rng);
  std::vector<int32_t> table(p.batch * pg.maxPages, -1);
  size_t next = 0;
  for (int64_t b = 0; b < p.batch; ++b) {
    int64_t used = (pg.cacheLengths[b] + pg.pageSize - 1) / pg.pageSize;
    for (int64_t i = 0; i < used; ++i)
      table[b * pg.maxPages + i] = pages[next++];
  }
  return table;
}

IndexInputs attnc::run::makeIndexInputs(const Problem &p,
                                        std::mt19937_64 &rng) {
  IndexInputs in;
  if (p.paged) {
    in.blockTable = shuffledBlockTable(p, rng);
    for (int64_t length : p.paged->cacheLengths)
      in.cacheLengths.push_back(static_cast<int32_t>(length));
    in.maxPages = p.paged->maxPages;
  }
  if (p.varlen)
    for (int64_t b = 0; b <= p.batch; ++b) {
      in.cuSeqlensQ.push_back(
          static_cast<int32_t>(p.queryOffsetOf(b) / p.packedQueryHeads));
      in.cuSeqlensK.push_back(static_cast<int32_t>(p.keyOffsetOf(b)));
    }
  return in;
}
