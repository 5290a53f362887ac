//===- KvBlockRangeTest.cpp - kv block ranges are minimal and exact -------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds the loop-bound IR of buildKvBlockRange on constant inputs (it folds
// to constants) and compares it, for every query block of many problems,
// with a brute-force enumeration of the mask:
//  - the visited range [begin, end) holds exactly the blocks with at least one
//    visible key (so the number of kv blocks visited is the minimum), and
//  - the unmasked range, clamped as attn-split-masked-loops clamps it, holds
//    exactly the blocks whose every key is visible to every row.
// Prints "N passed, M failed" and exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#include "attnc/Transforms/MaskUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>
#include <vector>

using namespace mlir;
using namespace mlir::attn;

namespace {

struct Case {
  int64_t seqQ, seqK, blockM, blockN;
  MaskSpec mask;
};

/// Independent statement of the mask semantics (docs of attn.attention).
bool visible(const Case &c, int64_t i, int64_t j) {
  if (j >= c.seqK)
    return false;
  int64_t d = c.mask.kind == MaskKind::CausalBottomRight ? i + c.seqK - c.seqQ : i;
  if (c.mask.kind != MaskKind::None && j > d)
    return false;
  if (c.mask.window) {
    if (j < d - (*c.mask.window)[0])
      return false;
    if (c.mask.kind == MaskKind::None && j > d + (*c.mask.window)[1])
      return false;
  }
  return true;
}

int64_t constantOf(Value v) {
  APInt value;
  if (!matchPattern(v, m_ConstantInt(&value)))
    llvm::report_fatal_error("kv block range did not fold to a constant");
  return value.getSExtValue();
}

/// Returns an empty string if the ranges of query block `qb` are exact.
std::string check(OpBuilder &b, const Case &c, int64_t qb) {
  Location loc = b.getUnknownLoc();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t rowBegin = qb * c.blockM;
  KvBlockRange r = buildKvBlockRange(b, loc, cst(rowBegin), cst(c.seqQ),
                                     cst(c.seqK), c.blockM, c.blockN, c.mask);
  int64_t begin = constantOf(r.begin), end = constantOf(r.end);
  int64_t fullBegin = c.mask.window
                          ? std::min(std::max(constantOf(r.fullBegin), begin), end)
                          : begin;
  int64_t fullEnd = std::min(std::max(constantOf(r.fullEnd), fullBegin), end);

  int64_t rowEnd = std::min(rowBegin + c.blockM, c.seqQ);
  int64_t numBlocks = (c.seqK + c.blockN - 1) / c.blockN;
  for (int64_t kb = 0; kb < numBlocks; ++kb) {
    bool any = false, all = true;
    for (int64_t i = rowBegin; i < rowEnd; ++i)
      for (int64_t j = kb * c.blockN; j < (kb + 1) * c.blockN; ++j) {
        bool v = visible(c, i, j);
        any |= v;
        all &= v;
      }
    bool visited = kb >= begin && kb < end;
    bool unmasked = kb >= fullBegin && kb < fullEnd;
    if (any != visited)
      return "block " + std::to_string(kb) + (any ? " has visible keys but is skipped"
                                                  : " is fully hidden but visited");
    if (all != unmasked)
      return "block " + std::to_string(kb) +
             (all ? " is fully visible but masked" : " needs a mask but is unmasked");
  }
  return "";
}

/// With packed query heads (`group` heads of c.seqQ tokens each,
/// token-major: packed row r at query position r / group): the ranges of
/// the block of packed rows [rowBegin, rowBegin + blockM) are exactly the
/// blocks a row of it sees (visited) and the blocks every row sees whole
/// (unmasked), since its rows' positions are one run.
std::string checkPacked(OpBuilder &b, Case c, int64_t group, int64_t qb) {
  Location loc = b.getUnknownLoc();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  c.mask.packedQueryHeads = group;
  int64_t rowBegin = qb * c.blockM;
  int64_t rows = group * c.seqQ, rowEnd = std::min(rowBegin + c.blockM, rows);
  KvBlockRange r = buildKvBlockRange(b, loc, cst(rowBegin), cst(c.seqQ),
                                     cst(c.seqK), c.blockM, c.blockN, c.mask);
  int64_t begin = constantOf(r.begin), end = constantOf(r.end);
  int64_t fullBegin = std::min(std::max(constantOf(r.fullBegin), begin), end);
  int64_t fullEnd = std::min(std::max(constantOf(r.fullEnd), fullBegin), end);
  int64_t numBlocks = (c.seqK + c.blockN - 1) / c.blockN;
  for (int64_t kb = 0; kb < numBlocks; ++kb) {
    bool any = false, all = true;
    for (int64_t i = rowBegin; i < rowEnd; ++i)
      for (int64_t j = kb * c.blockN; j < (kb + 1) * c.blockN; ++j) {
        bool v = visible(c, i / group, j);
        any |= v;
        all &= v;
      }
    bool visited = kb >= begin && kb < end;
    bool unmasked = kb >= fullBegin && kb < fullEnd;
    if (any && !visited)
      return "block " + std::to_string(kb) + " has visible keys but is skipped";
    if (unmasked && !all)
      return "block " + std::to_string(kb) + " needs a mask but is unmasked";
    if (any != visited || all != unmasked)
      return "block " + std::to_string(kb) + " is not exact";
  }
  return "";
}

/// buildKeyVisible folded on constants agrees with `visible`, both as written
/// and moved along the diagonal by `shift` (row, key and both lengths minus
/// shift), the form the Hopper kernel uses so each key is an immediate.
std::string checkKeyVisible(OpBuilder &b, const Case &c, int64_t i, int64_t j,
                            int64_t shift) {
  Location loc = b.getUnknownLoc();
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value v = buildKeyVisible(b, loc, cst(i - shift), cst(j - shift),
                            cst(c.seqQ - shift), cst(c.seqK - shift), c.mask);
  if ((constantOf(v) != 0) != visible(c, i, j)) // i1 true reads as -1
    return "key " + std::to_string(j) + " of row " + std::to_string(i) +
           " (shift " + std::to_string(shift) + ") disagrees with the mask";
  return "";
}

} // namespace

int main() {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToStart(scratch->getBody());

  std::vector<MaskSpec> masks(5);
  masks[1].kind = MaskKind::Causal;
  masks[2].kind = MaskKind::CausalBottomRight;
  masks[3].window = SmallVector<int64_t, 2>{40, 24};
  masks[4].kind = MaskKind::CausalBottomRight;
  masks[4].window = SmallVector<int64_t, 2>{64, 0};
  const std::pair<int64_t, int64_t> seqs[] = {
      {1, 1}, {17, 33}, {113, 203}, {128, 128}, {200, 100}, {257, 513}, {64, 64}};
  const std::pair<int64_t, int64_t> tiles[] = {{64, 32}, {128, 128}, {128, 80}, {16, 16}};

  int passed = 0, failed = 0;
  for (auto [seqQ, seqK] : seqs)
    for (auto [blockM, blockN] : tiles)
      for (const MaskSpec &mask : masks) {
        Case c{seqQ, seqK, blockM, blockN, mask};
        for (int64_t qb = 0; qb * blockM < seqQ; ++qb) {
          std::string error = check(b, c, qb);
          if (error.empty()) {
            ++passed;
            continue;
          }
          ++failed;
          llvm::outs() << "FAIL Nq=" << seqQ << " Nk=" << seqK << " BM=" << blockM
                       << " BN=" << blockN << " mask=" << stringifyMaskKind(mask.kind)
                       << (mask.window ? "+window" : "") << " q-block " << qb << ": "
                       << error << "\n";
        }
      }
  llvm::outs() << "kv block ranges: " << passed << " passed, " << failed
               << " failed\n";

  // The packed shapes add decode and speculative-decode steps (Nq 1 to 8)
  // against long caches.
  std::vector<std::pair<int64_t, int64_t>> packedSeqs(std::begin(seqs),
                                                      std::end(seqs));
  for (int64_t tokens : {1, 3, 8})
    for (int64_t keys : {300, 1000})
      packedSeqs.emplace_back(tokens, keys);
  int packedPassed = 0, packedFailed = 0;
  for (auto [seqQ, seqK] : packedSeqs)
    for (auto [blockM, blockN] : tiles)
      for (const MaskSpec &mask : masks)
        for (int64_t group : {2, 4, 8}) {
          Case c{seqQ, seqK, blockM, blockN, mask};
          for (int64_t qb = 0; qb * blockM < group * seqQ; ++qb) {
            std::string error = checkPacked(b, c, group, qb);
            if (error.empty()) {
              ++packedPassed;
              continue;
            }
            ++packedFailed;
            llvm::outs() << "FAIL packed " << group << " Nq=" << seqQ
                         << " Nk=" << seqK << " BM=" << blockM
                         << " BN=" << blockN
                         << " mask=" << stringifyMaskKind(mask.kind)
                         << (mask.window ? "+window" : "") << " q-block " << qb
                         << ": " << error << "\n";
          }
        }
  llvm::outs() << "packed kv block ranges: " << packedPassed << " passed, "
               << packedFailed << " failed\n";

  int keysPassed = 0, keysFailed = 0;
  for (auto [seqQ, seqK] : seqs)
    for (const MaskSpec &mask : masks) {
      Case c{seqQ, seqK, 64, 64, mask};
      for (int64_t i = 0; i < seqQ; i += 7)
        for (int64_t j = 0; j < seqK + 9; j += 5)
          for (int64_t shift : {int64_t(0), j - j % 8, int64_t(301)}) {
            std::string error = checkKeyVisible(b, c, i, j, shift);
            if (error.empty()) {
              ++keysPassed;
              continue;
            }
            ++keysFailed;
            llvm::outs() << "FAIL Nq=" << seqQ << " Nk=" << seqK
                         << " mask=" << stringifyMaskKind(mask.kind)
                         << (mask.window ? "+window" : "") << ": " << error
                         << "\n";
          }
    }
  llvm::outs() << "key visibility: " << keysPassed << " passed, " << keysFailed
               << " failed\n";
  return failed == 0 && packedFailed == 0 && keysFailed == 0 ? 0 : 1;
}
