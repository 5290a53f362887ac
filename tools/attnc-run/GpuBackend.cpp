//===- GpuBackend.cpp - run attention kernels through the runtime ---------===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "attnc/Runtime/Runtime.h"
#include "attnc/Runtime/Testing.h"

#include <cstring>

using namespace attnc::run;

/// Returns false from the enclosing function with the runtime's message.
#define ATTNC_TRY(call)                                                        \
  do {                                                                         \
    if ((call) != ATTNC_OK) {                                                  \
      error = std::string(#call) + ": " + attnc_last_error();                  \
      return false;                                                            \
    }                                                                          \
  } while (false)

/// The same for the testing library's helpers, which keep their own message.
#define ATTNC_TRY_TESTING(call)                                                \
  do {                                                                         \
    if ((call) != ATTNC_OK) {                                                  \
      error = std::string(#call) + ": " + attnc_testing_last_error();          \
      return false;                                                            \
    }                                                                          \
  } while (false)

std::string attnc::run::initGpu() {
  if (attnc_init(0) != ATTNC_OK)
    return std::string("attnc_init(0): ") + attnc_last_error();
  return "";
}

namespace {
/// Device buffers freed on every exit path.
struct DeviceBuffers {
  std::vector<void *> pointers;
  ~DeviceBuffers() {
    for (void *p : pointers)
      attnc_testing_free(p);
  }
  bool alloc(size_t bytes, void *&p, std::string &error) {
    if (attnc_testing_malloc(&p, bytes) != ATTNC_OK) {
      error = std::string("attnc_testing_malloc(") + std::to_string(bytes) +
              "): " + attnc_testing_last_error();
      return false;
    }
    pointers.push_back(p);
    return true;
  }
};

attnc_dtype dtypeOf(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return ATTNC_BF16;
  case ElementType::F16:
    return ATTNC_F16;
  case ElementType::F32:
    return ATTNC_F32;
  }
  return ATTNC_F32;
}

/// The runtime's logical-BHSD view of a dense tensor stored in the
/// problem's layout.
attnc_tensor describe(void *data, const std::vector<int64_t> &physical,
                      bool bshd, ElementType type) {
  int64_t strides[4];
  int64_t stride = 1;
  for (int d = 3; d >= 0; --d) {
    strides[d] = stride;
    stride *= physical[d];
  }
  attnc_tensor t = {}; // device 0, no byte offset
  t.data = data;
  t.dtype = dtypeOf(type);
  int perm[4] = {0, bshd ? 2 : 1, bshd ? 1 : 2, 3}; // logical -> physical
  for (int d = 0; d < 4; ++d) {
    t.shape[d] = physical[perm[d]];
    t.strides[d] = strides[perm[d]];
  }
  return t;
}

/// A contiguous int32 index tensor of 1 or 2 dims: the unused trailing dims
/// have size 1 and stride 0 (Runtime.h).
attnc_tensor describeIndices(void *data, std::vector<int64_t> dims) {
  attnc_tensor t = {};
  t.data = data;
  t.dtype = ATTNC_I32;
  int64_t stride = 1;
  for (int d = 3; d >= 0; --d) {
    bool used = d < static_cast<int>(dims.size());
    t.shape[d] = used ? dims[d] : 1;
    t.strides[d] = used ? stride : 0;
    stride *= t.shape[d];
  }
  return t;
}
} // namespace

bool attnc::run::runOnGpu(const std::string &artifactDir, const Problem &p,
                          const HostTensor &q, const HostTensor &k,
                          const HostTensor &v, int iterations, DeviceResult &r,
                          std::string &error, const IndexInputs &indices) {
  attnc_kernel kernel = nullptr;
  ATTNC_TRY(attnc_kernel_load(artifactDir.c_str(), &kernel));
  r.output = makeTensor(p.dtype, p.outputShape());
  DeviceBuffers buffers;
  void *device[4] = {};
  const HostTensor *inputs[3] = {&q, &k, &v};
  for (int i = 0; i < 3; ++i) {
    if (!buffers.alloc(inputs[i]->bytes.size(), device[i], error))
      return false;
    ATTNC_TRY_TESTING(attnc_testing_memcpy_htod(
        device[i], inputs[i]->bytes.data(), inputs[i]->bytes.size()));
  }
  if (!buffers.alloc(r.output.bytes.size(), device[3], error))
    return false;
  // A varlen batch's LSE is [1, Hq, total_q], its sequences' rows packed.
  size_t lseCount = (p.varlen ? 1 : p.batch) * p.headsQ * p.seqQ;
  void *lse = nullptr;
  if (p.hasLse && !buffers.alloc(lseCount * sizeof(float), lse, error))
    return false;

  attnc_attention_args args = {sizeof(attnc_attention_args)};
  // Page pools are [num_pages, page_size, Hkv, D] in memory: bshd, a page
  // for a batch entry, whatever the layout of q and o.
  bool kvBshd = p.bshd || p.paged;
  args.q = describe(device[0], p.queryShape(), p.bshd, p.dtype);
  args.k = describe(device[1], p.keyShape(), kvBshd, p.dtype);
  args.v = describe(device[2], p.valueShape(), kvBshd, p.dtype);
  args.o = describe(device[3], p.outputShape(), p.bshd, p.dtype);
  args.lse = lse;
  args.scale = p.scale;
  if (p.paged) {
    const Problem::Paged &pg = *p.paged;
    if (indices.blockTable.size() != size_t(p.batch * pg.maxPages) ||
        indices.cacheLengths.size() != size_t(p.batch)) {
      error = "runOnGpu: a paged problem needs its block table [" +
              std::to_string(p.batch) + ", " + std::to_string(pg.maxPages) +
              "] and cache lengths [" + std::to_string(p.batch) + "]";
      return false;
    }
    void *table = nullptr, *lengths = nullptr;
    size_t tableBytes = indices.blockTable.size() * sizeof(int32_t);
    size_t lengthBytes = indices.cacheLengths.size() * sizeof(int32_t);
    if (!buffers.alloc(tableBytes, table, error) ||
        !buffers.alloc(lengthBytes, lengths, error))
      return false;
    ATTNC_TRY_TESTING(attnc_testing_memcpy_htod(
        table, indices.blockTable.data(), tableBytes));
    ATTNC_TRY_TESTING(attnc_testing_memcpy_htod(
        lengths, indices.cacheLengths.data(), lengthBytes));
    args.block_table = describeIndices(table, {p.batch, pg.maxPages});
    args.cache_lengths = describeIndices(lengths, {p.batch});
    // The checked launch: a bad table is an error naming the entry, not a
    // wrong answer.
    ATTNC_TRY(attnc_attention_check(kernel, &args, nullptr));
  }
  if (p.varlen) {
    size_t offsets = size_t(p.batch + 1);
    if (indices.cuSeqlensQ.size() != offsets ||
        indices.cuSeqlensK.size() != offsets) {
      error = "runOnGpu: a varlen problem needs its offsets cu_seqlens_q and "
              "cu_seqlens_k [" +
              std::to_string(offsets) + "]";
      return false;
    }
    void *cuQ = nullptr, *cuK = nullptr;
    size_t bytes = offsets * sizeof(int32_t);
    if (!buffers.alloc(bytes, cuQ, error) || !buffers.alloc(bytes, cuK, error))
      return false;
    ATTNC_TRY_TESTING(
        attnc_testing_memcpy_htod(cuQ, indices.cuSeqlensQ.data(), bytes));
    ATTNC_TRY_TESTING(
        attnc_testing_memcpy_htod(cuK, indices.cuSeqlensK.data(), bytes));
    args.cu_seqlens_q = describeIndices(cuQ, {p.batch + 1});
    args.cu_seqlens_k = describeIndices(cuK, {p.batch + 1});
    // The checked launch: offsets out of order or past the tensors are an
    // error naming the entry, not a wrong answer.
    ATTNC_TRY(attnc_attention_check(kernel, &args, nullptr));
  }

  // Poison: all-ones halves are NaN in bf16/f16 and, in pairs, in f32, so an
  // element the kernel does not write shows up as NaN.
  ATTNC_TRY_TESTING(
      attnc_testing_memset_u16(device[3], 0xffff, r.output.bytes.size() / 2));
  if (lse)
    ATTNC_TRY_TESTING(attnc_testing_memset_u16(lse, 0xffff, 2 * lseCount));
  ATTNC_TRY(attnc_attention_launch(kernel, &args, nullptr));
  ATTNC_TRY_TESTING(attnc_testing_synchronize());
  ATTNC_TRY_TESTING(attnc_testing_memcpy_dtoh(r.output.bytes.data(), device[3],
                                              r.output.bytes.size()));
  if (lse) {
    std::vector<float> host(lseCount);
    ATTNC_TRY_TESTING(
        attnc_testing_memcpy_dtoh(host.data(), lse, lseCount * sizeof(float)));
    r.lse.assign(host.begin(), host.end());
  }
  float ms = 0;
  ATTNC_TRY_TESTING(attnc_testing_time_launches(kernel, &args, nullptr,
                                                /*warmup=*/3, iterations, &ms));
  r.milliseconds = ms;
  ATTNC_TRY(attnc_kernel_release(kernel));
  return true;
}
