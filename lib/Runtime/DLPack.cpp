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
  if (tensor->ndim != 4)
    return invalid(kCall, "ndim is " + std::to_string(tensor->ndim) +
                              "; expected 4 ([batch, heads, seq, head_dim])");
  if (!tensor->shape)
    return invalid(kCall, "shape is NULL");
  DLDataType t = tensor->dtype;
  attnc_dtype dtype;
  if (t.lanes == 1 && t.code == kDLBfloat && t.bits == 16)
    dtype = ATTNC_BF16;
  else if (t.lanes == 1 && t.code == kDLFloat && t.bits == 16)
    dtype = ATTNC_F16;
  else if (t.lanes == 1 && t.code == kDLFloat && t.bits == 32)
    dtype = ATTNC_F32;
  else
    return invalid(kCall, "dtype " + dtypeText(t) +
                              " is not bf16 {kDLBfloat, 16, 1}, f16 "
                              "{kDLFloat, 16, 1} or f32 {kDLFloat, 32, 1}");
  attnc_tensor result = {};
  result.data = tensor->data;
  result.dtype = dtype;
  result.device_id = tensor->device.device_id;
  result.byte_offset = tensor->byte_offset;
  for (int i = 0; i < 4; ++i) {
    if (tensor->shape[i] < 0)
      return invalid(kCall, "shape[" + std::to_string(i) + "] is " +
                                std::to_string(tensor->shape[i]));
    result.shape[i] = tensor->shape[i];
  }
  // DLPack's NULL strides: compact row-major.
  int64_t stride = 1;
  for (int i = 3; i >= 0; --i) {
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
