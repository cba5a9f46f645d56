// The eager API's context options, contexts, tensor handles and library functions
// (tensorflow/c/eager/c_api.h). Operations and TFE_Execute are in eager_execute.cc.
#include <string>
#include <utility>

#include "c/eager_internal.h"
#include "google/protobuf/util/message_differencer.h"
#include "ops/op_registry.h"

using rill_c::SetOk;
using rill_c::SetStatus;

namespace rill_c {

const char kEagerCpuDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";

EagerKernel::~EagerKernel() {
  TF_Status* status = TF_NewStatus();
  if (session != nullptr) {
    TF_CloseSession(session, status);
    TF_DeleteSession(session, status);
  }
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
}

absl::StatusOr<rill::OpDef> EagerOpDef(TFE_Context* ctx, const std::string& name) {
  {
    rill::MutexLock lock(&ctx->mu);
    auto it = ctx->functions.find(name);
    if (it != ctx->functions.end()) return it->second.signature();
  }
  absl::StatusOr<const rill::OpRegistration*> reg = rill::OpRegistry::Global()->LookUpOrError(name);
  if (!reg.ok()) return reg.status();
  return (*reg)->op_def;
}

}  // namespace rill_c

namespace {

absl::Status NullHandle() { return absl::InvalidArgumentError("Invalid handle"); }

// Whether `name` names the CPU device ("CPU:0", "/device:CPU:0", the full name; "" is the
// default device).
bool IsCpuDevice(const std::string& name) {
  if (name.empty()) return true;
  for (const char* suffix : {"CPU:0", "cpu:0"}) {
    const std::string s(suffix);
    if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      return true;
    }
  }
  return false;
}

TFE_TensorHandle* ShareHandle(const TF_Tensor& tensor) {
  auto* h = new TFE_TensorHandle;
  h->tensor = tensor;
  return h;
}

}  // namespace

struct TFE_TensorDebugInfo {
  std::vector<int64_t> dims;
};

extern "C" {

// ---- Context options ----

TFE_ContextOptions* TFE_NewContextOptions(void) { return new TFE_ContextOptions; }

void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options, const void* proto, size_t proto_len,
                                 TF_Status* status) {
  if (options == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The context options are null"));
  }
  TF_SetConfig(&options->session_options, proto, proto_len, status);
}

void TFE_ContextOptionsSetAsync(TFE_ContextOptions*, unsigned char) {}

void TFE_ContextOptionsSetDevicePlacementPolicy(TFE_ContextOptions* options,
                                                TFE_ContextDevicePlacementPolicy policy) {
  if (options != nullptr) options->policy = policy;
}

void TFE_DeleteContextOptions(TFE_ContextOptions* options) { delete options; }

// ---- Contexts ----

TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts, TF_Status* status) {
  auto* ctx = new TFE_Context;
  if (opts != nullptr) {
    ctx->session_options = opts->session_options;
    ctx->policy.store(opts->policy, std::memory_order_relaxed);
  }
  // A session over an empty graph checks the configuration and lists the devices.
  TF_Graph* graph = TF_NewGraph();
  TF_Session* session = TF_NewSession(graph, &ctx->session_options, status);
  if (session != nullptr) {
    ctx->devices = session->session->ListDevices();
    TF_Status* close_status = TF_NewStatus();
    TF_CloseSession(session, close_status);
    TF_DeleteSession(session, close_status);
    TF_DeleteStatus(close_status);
  }
  TF_DeleteGraph(graph);
  if (TF_GetCode(status) != TF_OK) {
    delete ctx;
    return nullptr;
  }
  return ctx;
}

void TFE_DeleteContext(TFE_Context* ctx) { delete ctx; }

TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status) {
  if (ctx == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The context is null"));
    return nullptr;
  }
  auto* list = new TF_DeviceList;
  list->devices = ctx->devices;
  SetOk(status);
  return list;
}

void TFE_ContextClearCaches(TFE_Context* ctx) {
  if (ctx == nullptr) return;
  std::map<std::string, std::shared_ptr<rill_c::EagerKernel>> dropped;
  {
    rill::MutexLock lock(&ctx->mu);
    dropped.swap(ctx->kernels);
  }
}

void TFE_ContextSetThreadLocalDevicePlacementPolicy(TFE_Context* ctx,
                                                    TFE_ContextDevicePlacementPolicy policy) {
  if (ctx != nullptr) ctx->policy.store(policy, std::memory_order_relaxed);
}

TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(TFE_Context* ctx) {
  return ctx == nullptr ? TFE_DEVICE_PLACEMENT_SILENT : ctx->policy.load(std::memory_order_relaxed);
}

void TFE_ContextStartStep(TFE_Context*) {}
void TFE_ContextEndStep(TFE_Context*) {}

// ---- Library functions ----

void TFE_ContextAddFunction(TFE_Context* ctx, TF_Function* function, TF_Status* status) {
  if (ctx == nullptr || function == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The context or the function is null"));
  }
  const std::string& name = function->fdef.signature().name();
  if (rill::OpRegistry::Global()->LookUp(name) != nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("Cannot add function '" + name +
                                                        "' because an op with the same name "
                                                        "already exists."));
  }
  // Kernels built before may call an earlier set of functions; destroyed outside the lock.
  std::map<std::string, std::shared_ptr<rill_c::EagerKernel>> dropped;
  {
    rill::MutexLock lock(&ctx->mu);
    auto it = ctx->functions.find(name);
    if (it != ctx->functions.end()) {
      if (google::protobuf::util::MessageDifferencer::Equals(it->second, function->fdef)) {
        return SetOk(status);
      }
      return SetStatus(status, absl::InvalidArgumentError(
                                   "Cannot add function '" + name +
                                   "' because a different function with the same name already "
                                   "exists."));
    }
    ctx->functions.emplace(name, function->fdef);
    ++ctx->functions_generation;
    dropped.swap(ctx->kernels);
  }
  SetOk(status);
}

void TFE_ContextAddFunctionDef(TFE_Context* ctx, const char* serialized_function_def, size_t size,
                               TF_Status* status) {
  TF_Function* function = TF_FunctionImportFunctionDef(serialized_function_def, size, status);
  if (function == nullptr) return;
  TFE_ContextAddFunction(ctx, function, status);
  TF_DeleteFunction(function);
}

void TFE_ContextRemoveFunction(TFE_Context* ctx, const char* name, TF_Status* status) {
  if (ctx == nullptr || name == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The context or the name is null"));
  }
  std::map<std::string, std::shared_ptr<rill_c::EagerKernel>> dropped;
  {
    rill::MutexLock lock(&ctx->mu);
    if (ctx->functions.erase(name) == 0) {
      return SetStatus(status,
                       absl::InvalidArgumentError("Tried to remove non-existent function '" +
                                                  std::string(name) + "'."));
    }
    ++ctx->functions_generation;
    dropped.swap(ctx->kernels);
  }
  SetOk(status);
}

unsigned char TFE_ContextHasFunction(TFE_Context* ctx, const char* name) {
  if (ctx == nullptr || name == nullptr) return 0;
  rill::MutexLock lock(&ctx->mu);
  return ctx->functions.count(name) > 0 ? 1 : 0;
}

// ---- Tensor handles ----

TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status) {
  if (t == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The tensor is null"));
    return nullptr;
  }
  SetOk(status);
  return ShareHandle(*t);
}

void TFE_DeleteTensorHandle(TFE_TensorHandle* h) { delete h; }

TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h) {
  return h == nullptr ? TF_FLOAT : h->tensor.dtype;
}

int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return -1;
  }
  SetOk(status);
  return static_cast<int>(h->tensor.dims.size());
}

int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return -1;
  }
  SetOk(status);
  int64_t n = 1;
  for (int64_t d : h->tensor.dims) n *= d;
  return n;
}

int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return -1;
  }
  const int rank = static_cast<int>(h->tensor.dims.size());
  if (dim_index < 0 || dim_index >= rank) {
    SetStatus(status, absl::InvalidArgumentError("Dimension index " + std::to_string(dim_index) +
                                                 " is out of range for a tensor of rank " +
                                                 std::to_string(rank)));
    return -1;
  }
  SetOk(status);
  return h->tensor.dims[dim_index];
}

const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  SetOk(status);
  return rill_c::kEagerCpuDevice;
}

const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h, TF_Status* status) {
  return TFE_TensorHandleDeviceName(h, status);
}

TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  SetOk(status);
  return ShareHandle(h->tensor);
}

TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  SetOk(status);
  return new TF_Tensor(h->tensor);
}

TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h, TFE_Context* ctx,
                                               const char* device_name, TF_Status* status) {
  if (h == nullptr || ctx == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The handle or the context is null"));
    return nullptr;
  }
  const std::string device = device_name == nullptr ? "" : device_name;
  if (!IsCpuDevice(device)) {
    SetStatus(status, absl::InvalidArgumentError(
                          "Rill's eager API runs on the CPU only; cannot copy a tensor to '" +
                          device + "'"));
    return nullptr;
  }
  SetOk(status);
  return ShareHandle(h->tensor);
}

TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h, TF_Status* status) {
  if (h == nullptr) {
    SetStatus(status, NullHandle());
    return nullptr;
  }
  SetOk(status);
  return new TFE_TensorDebugInfo{h->tensor.dims};
}

void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info) { delete debug_info; }

int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info) {
  return debug_info == nullptr ? -1 : static_cast<int>(debug_info->dims.size());
}

int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info, int dim_index) {
  if (debug_info == nullptr || dim_index < 0 ||
      dim_index >= static_cast<int>(debug_info->dims.size())) {
    return -1;
  }
  return debug_info->dims[dim_index];
}

}  // extern "C"
