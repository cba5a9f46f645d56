// The handle and context queries of tensorflow/c/eager/c_api_experimental.h that Rill serves (see
// the header): handles are host TF_Tensors on the one CPU device, operations run synchronously.
#include <string>

#include "absl/status/status.h"
#include "c/eager_internal.h"
#include "tensorflow/c/eager/c_api_experimental.h"

using rill_c::SetOk;
using rill_c::SetStatus;

namespace {

absl::Status NullHandle() { return absl::InvalidArgumentError("Invalid handle"); }

}  // namespace

extern "C" {

void TFE_ContextOptionsSetTfrt(TFE_ContextOptions*, bool) {}

uint64_t TFE_GetContextId(TFE_Context*) { return 0; }

void TFE_ContextAsyncWait(TFE_Context* ctx, TF_Status* status) {
  if (ctx == nullptr) return SetStatus(status, absl::InvalidArgumentError("The context is null"));
  SetOk(status);
}

void* TFE_TensorHandleDevicePointer(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  // TensorFlow serves fixed-size types only (a string handle fails its CHECK and aborts).
  if (TF_DataTypeSize(h->tensor.dtype) == 0) {
    SetStatus(status, absl::InvalidArgumentError(
                          "TFE_TensorHandleDevicePointer takes a handle of a fixed-size type"));
    return nullptr;
  }
  SetOk(status);
  return TF_TensorData(&h->tensor);
}

size_t TFE_TensorHandleDeviceMemorySize(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return 0;
  }
  SetOk(status);
  return TF_TensorByteSize(&h->tensor);
}

void TFE_HostAddressSpace(TFE_Context*, TF_Buffer* buf) {
  if (buf != nullptr) rill_c::SetBufferBytes(buf, "/job:localhost/replica:0/task:0");
}

void TFE_ContextGetFunctionDef(TFE_Context* ctx, const char* function_name, TF_Buffer* buf,
                               TF_Status* status) {
  if (ctx == nullptr || function_name == nullptr || buf == nullptr) {
    return SetStatus(status,
                     absl::InvalidArgumentError("The context, the name or the buffer is null"));
  }
  std::string bytes;
  {
    rill::MutexLock lock(&ctx->mu);
    auto it = ctx->functions.find(function_name);
    if (it == ctx->functions.end()) {
      return SetStatus(status,
                       absl::NotFoundError(std::string("Unable to find FunctionDef with name: ") +
                                           function_name));
    }
    if (!it->second.SerializeToString(&bytes)) {
      return SetStatus(status, absl::InternalError("Cannot serialize the FunctionDef"));
    }
  }
  rill_c::SetBufferBytes(buf, bytes);
  SetOk(status);
}

const char* TFE_TensorHandleDeviceType(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  SetOk(status);
  return "CPU";
}

int TFE_TensorHandleDeviceID(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return -1;
  }
  SetOk(status);
  return 0;
}

}  // extern "C"
