//===- Sweep.cpp - generated attention test problems ----------------------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CI sweep covers every (sequence pair, mask, element type) triple once;
// head dims and head configurations rotate through it, so each appears with
// many pairs and masks while the sweep stays small enough for a 2-core CI.
//
//===----------------------------------------------------------------------===//

#include "Sweep.h"

#include <cmath>
#include <iomanip>
#include <sstream>

using namespace attnc::run;

static std::string tensorType(const std::vector<int64_t> &shape,
                              const char *element) {
  std::ostringstream os;
  os << "tensor<";
  for (int64_t d : shape)
    os << d << "x";
  os << element << ">";
  return os.str();
}

std::string attnc::run::attentionFunctionText(const Problem &p) {
  const char *el = toString(p.dtype);
  std::string q = tensorType(p.queryShape(), el);
  std::string k = tensorType(p.keyShape(), el);
  std::string v = tensorType(p.valueShape(), el);
  std::string o = tensorType(p.outputShape(), el);
  std::string lse = tensorType({p.batch, p.headsQ, p.seqQ}, "f32");
  std::ostringstream os;
  os << std::scientific << std::setprecision(9);
  os << "func.func @" << p.function << "(%q: " << q << ", %k: " << k
     << ", %v: " << v << ") -> (" << o << (p.hasLse ? ", " + lse : "")
     << ") {\n";
  os << "  %o" << (p.hasLse ? ", %lse" : "") << " = attn.attention %q, %k, %v";
  if (p.mask == Mask::Causal)
    os << " mask = causal";
  if (p.mask == Mask::CausalBottomRight)
    os << " mask = causal_bottom_right";
  if (p.window)
    os << " window = [" << p.window->first << ", " << p.window->second << "]";
  os << " scale = " << p.scale;
  if (p.softcap)
    os << " softcap = " << *p.softcap;
  if (p.bshd)
    os << " layout = bshd";
  os << " : " << q << ", " << k << ", " << v << " -> " << o
     << (p.hasLse ? ", " + lse : "") << "\n";
  os << "  return %o" << (p.hasLse ? ", %lse" : "") << " : " << o
     << (p.hasLse ? ", " + lse : "") << "\n}\n";
  return os.str();
}

std::optional<std::vector<Problem>>
attnc::run::sweepProblems(llvm::StringRef name) {
  if (name != "ci")
    return std::nullopt;
  const int64_t headDims[] = {32, 64, 96, 128, 256};
  const std::pair<int64_t, int64_t> seqs[] = {{1, 1},     {17, 33},
                                              {113, 203}, {128, 128},
                                              {200, 100}, {257, 513}};
  struct MaskCase {
    Mask mask;
    std::optional<std::pair<int64_t, int64_t>> window;
  };
  const MaskCase masks[] = {{Mask::None, std::nullopt},
                            {Mask::Causal, std::nullopt},
                            {Mask::CausalBottomRight, std::nullopt},
                            {Mask::None, std::pair<int64_t, int64_t>{40, 24}},
                            {Mask::CausalBottomRight,
                             std::pair<int64_t, int64_t>{64, 0}}};
  const std::pair<int64_t, int64_t> heads[] = {{2, 2}, {4, 1}, {8, 2}};

  std::vector<Problem> problems;
  int64_t index = 0;
  for (auto [seqQ, seqK] : seqs)
    for (const MaskCase &m : masks)
      for (ElementType dtype : {ElementType::F32, ElementType::BF16}) {
        Problem p;
        p.dtype = dtype;
        p.headDim = p.valueHeadDim = headDims[index % 5];
        std::tie(p.headsQ, p.headsKV) = heads[index % 3];
        p.batch = seqQ * seqK > 20000 ? 1 : 2;
        p.seqQ = seqQ;
        p.seqK = seqK;
        p.mask = m.mask;
        p.window = m.window;
        p.scale = 1.0f / std::sqrt(static_cast<float>(p.headDim));
        p.hasLse = true;
        // Every seventh case is stored BSHD, every eleventh soft-capped.
        p.bshd = index % 7 == 3;
        if (index % 11 == 5)
          p.softcap = 5.0f;
        p.function = "case" + std::to_string(index);
        problems.push_back(p);
        ++index;
      }
  return problems;
}
