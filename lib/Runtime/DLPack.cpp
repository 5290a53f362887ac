//===- DLPack.cpp - attnc tensors from DLPack tensors -----------*- C++ -*-===//
//
// attnc_tensor_from_dlpack: a field-for-field conversion with the checks that
// need no device (the launch checks the rest against the manifest).
//
//===----------------------------------------------------------------------===//

#include "attnc/Runtime/DLPack.h"

#include "RuntimeErrors.h"

#include <string>

using namespace attnc::rt;

namespace {
const char *const kCall = "attnc_tensor_from_dlpack";

std::string dtypeText(DLDataType t) {
  return "{code " + std::to_string(t.code) + ", bits " +
         std::to_string(t.bits) + ", lanes " + std::to_string(t.lanes) + "}";
}
} // namespace

extern "C" {

attnc_status attnc_tensor_from_dlpack(const DLTensor *tensor,
                                      attnc_tensor *out) {
  clearError();
  if (!tensor)
    return invalid(kCall, "tensor is NULL");
  if (!out)
    return invalid(kCall, "out is NULL");
  if (tensor->device.device_type != kDLCUDA)
    return invalid(kCall, "device.device_type is " +
                              std::to_string(tensor->device.device_type) +
                              ", not kDLCUDA (" + std::to_string(kDLCUDA) +
                              "): the runtime launches on CUDA device memory");
  DLDataType t = tensor->dtype;
  attnc_dtype dtype;
  if (t.lanes == 1 && t.code == kDLBfloat && t.bits == 16)
    dtype = ATTNC_BF16;
  else if (t.lanes == 1 && t.code == kDLFloat && t.bits == 16)
    dtype = ATTNC_F16;
  else if (t.lanes == 1 && t.code == kDLFloat && t.bits == 32)
    dtype = ATTNC_F32;
  else if (t.lanes == 1 && t.code == kDLInt && t.bits == 32)
    dtype = ATTNC_I32;
  else
    return invalid(kCall, "dtype " + dtypeText(t) +
                              " is not bf16 {kDLBfloat, 16, 1}, f16 "
                              "{kDLFloat, 16, 1}, f32 {kDLFloat, 32, 1} or "
                              "int32 {kDLInt, 32, 1}");
  // q, k, v and o are 4-d; the int32 index tensors of a paged KV cache are
  // the block table (2-d) and the cache lengths (1-d), those of a varlen
  // batch the offsets (1-d).
  int ndim = tensor->ndim;
  if (dtype != ATTNC_I32 && ndim != 4)
    return invalid(kCall, "ndim is " + std::to_string(ndim) +
                              "; expected 4 ([batch, heads, seq, head_dim])");
  if (dtype == ATTNC_I32 && ndim != 1 && ndim != 2)
    return invalid(kCall, "ndim is " + std::to_string(ndim) +
                              " for an int32 tensor; expected 2 (block_table "
                              "[batch, pages_per_seq]) or 1 (cache_lengths "
                              "[batch], cu_seqlens_q and cu_seqlens_k "
                              "[batch + 1])");
  if (!tensor->shape)
    return invalid(kCall, "shape is NULL");
  attnc_tensor result = {};
  result.data = tensor->data;
  result.dtype = dtype;
  result.device_id = tensor->device.device_id;
  result.byte_offset = tensor->byte_offset;
  for (int i = 0; i < ndim; ++i) {
    if (tensor->shape[i] < 0)
      return invalid(kCall, "shape[" + std::to_string(i) + "] is " +
                                std::to_string(tensor->shape[i]));
    result.shape[i] = tensor->shape[i];
  }
  // Unused trailing dims: size 1, stride 0.
  for (int i = ndim; i < 4; ++i)
    result.shape[i] = 1;
  // DLPack's NULL strides: compact row-major.
  int64_t stride = 1;
  for (int i = ndim - 1; i >= 0; --i) {
    result.strides[i] = tensor->strides ? tensor->strides[i] : stride;
    stride *= tensor->shape[i];
  }
  *out = result;
  return ATTNC_OK;
}

attnc_status attnc_tensor_from_dlmanaged(const DLManagedTensor *managed,
                                         attnc_tensor *out) {
  if (!managed) {
    clearError();
    return invalid("attnc_tensor_from_dlmanaged", "managed is NULL");
  }
  return attnc_tensor_from_dlpack(&managed->dl_tensor, out);
}

} // extern "C"
