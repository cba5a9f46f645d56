// TensorFlow's c_api_experimental.h as Rill serves it: session and run configuration buffers, the
// XLA switches (recorded; Rill compiles nothing with XLA), debug strings and helpers.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "c/eager_internal.h"
#include "ops/op_registry.h"
#include "proto/config.pb.h"
#include "tensorflow/c/c_api_experimental.h"

using rill_c::SetOk;
using rill_c::SetStatus;

namespace {

// The process-wide XLA settings TensorFlow's setters change.
std::atomic<bool> xla_lazy_compilation{true};
std::atomic<bool> xla_cpu_global_jit{false};
std::atomic<bool> xla_auto_jit{false};
std::atomic<bool> xla_constant_folding_disabled{false};

TF_Buffer* BufferOf(const std::string& bytes) {
  return TF_NewBufferFromString(bytes.data(), bytes.size());
}

// A malloc'd, NUL-terminated copy, its length in *len.
char* MallocCopy(const std::string& s, size_t* len) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  if (len != nullptr) *len = s.size();
  return out;
}

}  // namespace

extern "C" {

void TF_EnableXLACompilation(TF_SessionOptions* options, unsigned char enable) {
  if (options == nullptr) return;
  options->options.config.mutable_graph_options()
      ->mutable_optimizer_options()
      ->set_global_jit_level(enable ? rill::OptimizerOptions::ON_1 : rill::OptimizerOptions::OFF);
}

unsigned char TF_SetXlaEnableLazyCompilation(unsigned char enable) {
  return xla_lazy_compilation.exchange(enable != 0) ? 1 : 0;
}

unsigned char TF_SetTfXlaCpuGlobalJit(unsigned char enable) {
  return xla_cpu_global_jit.exchange(enable != 0) ? 1 : 0;
}

void TF_SetXlaAutoJitMode(const char* mode) {
  // TensorFlow's modes: "" and "0" (off), "1", "2", "autoclustering" ... (on).
  const std::string m = mode == nullptr ? "" : mode;
  xla_auto_jit = !(m.empty() || m == "0" || m == "-1");
}

unsigned char TF_GetXlaAutoJitEnabled(void) { return xla_auto_jit ? 1 : 0; }

void TF_SetXlaMinClusterSize(int) {}

unsigned char TF_GetXlaConstantFoldingDisabled(void) {
  return xla_constant_folding_disabled ? 1 : 0;
}

void TF_SetXlaConstantFoldingDisabled(unsigned char should_enable) {
  xla_constant_folding_disabled = should_enable != 0;
}

TF_Buffer* TF_CreateConfig(unsigned char enable_xla_compilation,
                           unsigned char gpu_memory_allow_growth, unsigned int num_cpu_devices) {
  rill::ConfigProto config;
  config.mutable_graph_options()->mutable_optimizer_options()->set_global_jit_level(
      enable_xla_compilation ? rill::OptimizerOptions::ON_1 : rill::OptimizerOptions::OFF);
  config.mutable_gpu_options()->set_allow_growth(gpu_memory_allow_growth != 0);
  (*config.mutable_device_count())["CPU"] = static_cast<int32_t>(num_cpu_devices);
  return BufferOf(config.SerializeAsString());
}

TF_Buffer* TF_CreateRunOptions(unsigned char enable_full_trace) {
  rill::RunOptions options;
  options.set_trace_level(enable_full_trace ? rill::RunOptions::FULL_TRACE
                                            : rill::RunOptions::NO_TRACE);
  return BufferOf(options.SerializeAsString());
}

const char* TF_GraphDebugString(TF_Graph* graph, size_t* len) {
  if (graph == nullptr) return MallocCopy("", len);
  return MallocCopy(rill_c::ExportedGraphDef(graph).DebugString(), len);
}

char* TF_FunctionDebugString(TF_Function* func, size_t* len) {
  return MallocCopy(func == nullptr ? "" : func->fdef.DebugString(), len);
}

TFE_TensorHandle* TFE_NewTensorHandleFromScalar(TF_DataType data_type, void* data, size_t len,
                                                TF_Status* status) {
  const size_t size = TF_DataTypeSize(data_type);
  if (size == 0 || data_type == TF_STRING || len != size || data == nullptr) {
    SetStatus(status, absl::InvalidArgumentError(
                          "TFE_NewTensorHandleFromScalar takes a fixed-size type and exactly its "
                          "size in bytes (" +
                          std::to_string(size) + "), got " + std::to_string(len)));
    return nullptr;
  }
  TF_Tensor* t = TF_AllocateTensor(data_type, nullptr, 0, len);
  std::memcpy(TF_TensorData(t), data, len);
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, status);
  TF_DeleteTensor(t);
  return h;
}

void TF_MakeInternalErrorStatus(TF_Status* status, const char* errMsg) {
  TF_SetStatus(status, TF_INTERNAL, errMsg == nullptr ? "" : errMsg);
}

int TF_OpIsStateful(const char* op_type, TF_Status* status) {
  if (op_type == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op type is null"));
    return 0;
  }
  absl::StatusOr<const rill::OpRegistration*> reg =
      rill::OpRegistry::Global()->LookUpOrError(op_type);
  if (!reg.ok()) {
    SetStatus(status, reg.status());
    return 0;
  }
  SetOk(status);
  return (*reg)->op_def.is_stateful() ? 1 : 0;
}

void TF_InitMain(const char*, int*, char***) {}

void TF_ImportGraphDefOptionsSetValidateColocationConstraints(TF_ImportGraphDefOptions*,
                                                              unsigned char) {}

TF_ShapeAndTypeList* TF_NewShapeAndTypeList(int num_shapes) {
  auto* list = new TF_ShapeAndTypeList;
  list->num_items = num_shapes < 0 ? 0 : num_shapes;
  // No exception leaves the C API: a count too large to allocate gives an empty list.
  list->items =
      list->num_items == 0 ? nullptr : new (std::nothrow) TF_ShapeAndType[list->num_items];
  if (list->items == nullptr) list->num_items = 0;
  for (int i = 0; i < list->num_items; ++i) list->items[i] = {-1, nullptr, TF_FLOAT};
  return list;
}

void TF_ShapeAndTypeListSetShape(TF_ShapeAndTypeList* shape_list, int index, const int64_t* dims,
                                 int num_dims) {
  if (shape_list == nullptr || index < 0 || index >= shape_list->num_items) return;
  TF_ShapeAndType& item = shape_list->items[index];
  delete[] item.dims;
  item.dims = nullptr;
  item.num_dims = -1;
  // Refused without a status (the C API has none here): the item stays of unknown rank.
  constexpr int kMaxRank = 254;
  if (num_dims < 0 || num_dims > kMaxRank || (num_dims > 0 && dims == nullptr)) return;
  item.num_dims = num_dims;
  if (num_dims > 0) {
    item.dims = new int64_t[num_dims];
    std::memcpy(item.dims, dims, sizeof(int64_t) * static_cast<size_t>(num_dims));
  }
}

void TF_ShapeAndTypeListSetUnknownShape(TF_ShapeAndTypeList* shape_list, int index) {
  TF_ShapeAndTypeListSetShape(shape_list, index, nullptr, -1);
}

void TF_ShapeAndTypeListSetDtype(TF_ShapeAndTypeList* shape_list, int index, TF_DataType dtype) {
  if (shape_list == nullptr || index < 0 || index >= shape_list->num_items) return;
  shape_list->items[index].dtype = dtype;
}

void TF_DeleteShapeAndTypeList(TF_ShapeAndTypeList* shape_list) {
  if (shape_list == nullptr) return;
  for (int i = 0; i < shape_list->num_items; ++i) delete[] shape_list->items[i].dims;
  delete[] shape_list->items;
  delete shape_list;
}

void TF_DeleteShapeAndTypeListArray(TF_ShapeAndTypeList** shape_list_array, int num_items) {
  if (shape_list_array == nullptr) return;
  for (int i = 0; i < num_items; ++i) TF_DeleteShapeAndTypeList(shape_list_array[i]);
  delete[] shape_list_array;
}

const char* TF_GetNumberAttrForOpListInput(const char* op_name, int input_index,
                                           TF_Status* status) {
  if (op_name == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op name is null"));
    return nullptr;
  }
  absl::StatusOr<const rill::OpRegistration*> reg =
      rill::OpRegistry::Global()->LookUpOrError(op_name);
  if (!reg.ok()) {
    SetStatus(status, reg.status());
    return nullptr;
  }
  const rill::OpDef& def = (*reg)->op_def;
  if (input_index < 0 || input_index >= def.input_arg_size()) {
    SetStatus(status,
              absl::InvalidArgumentError(absl::StrCat(input_index, " out of range for ", op_name)));
    return nullptr;
  }
  const std::string& attr = def.input_arg(input_index).number_attr();
  if (attr.empty()) {
    SetStatus(status,
              absl::NotFoundError(absl::StrCat(op_name, " does not have number_attr() defined.")));
    return nullptr;
  }
  SetOk(status);
  return attr.c_str();
}

}  // extern "C"
