// The eager API's operations and TFE_Execute (tensorflow/c/eager/c_api.h). An operation runs on
// the CPU in a one-operation graph (a Placeholder per input) that its context builds once per
// signature and keeps with its session (eager_internal.h).
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "c/eager_internal.h"
#include "proto/attr_value.pb.h"

using rill_c::SetOk;
using rill_c::SetStatus;

namespace {

// Signature keys: each attribute value is spelled with its type and lengths, so that different
// values never give the same key.
std::string Bytes(const void* data, size_t len) {
  return absl::StrCat(len, ":", std::string(static_cast<const char*>(data), len));
}

template <typename T>
std::string PodList(const T* values, int n) {
  return Bytes(values, sizeof(T) * static_cast<size_t>(n < 0 ? 0 : n));
}

// The first value an attribute gets is kept, as TensorFlow's eager attribute builder keeps it:
// a type inferred from an input added earlier wins over a later TFE_OpSetAttrType (cppflow sets
// Fill's index_type to int32 after adding int64 dims).
// Records the first error of an attribute setter that has no status; TFE_Execute returns it.
void Defer(TFE_Op* op, const char* attr_name, absl::string_view problem) {
  if (op == nullptr || !op->deferred.ok()) return;
  op->deferred = absl::InvalidArgumentError(absl::StrCat(
      "Attribute '", attr_name == nullptr ? "" : attr_name, "' of op '", op->name, "': ", problem));
}

void SetAttr(TFE_Op* op, const char* attr_name, TFE_Op::Attr attr) {
  if (op == nullptr) return;
  if (attr_name == nullptr) {
    return Defer(op, attr_name, "the attribute name is null; pass the attribute's name");
  }
  op->attrs.emplace(attr_name, std::move(attr));
}

absl::Status StatusOf(const TF_Status* s) {
  if (TF_GetCode(s) == TF_OK) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(TF_GetCode(s)), TF_Message(s));
}

// "T:dims,...;" for each input, the list structure, the device and every attribute: what
// decides the built graph.
std::string SignatureKey(const TFE_Op& op) {
  std::string key = absl::StrCat(op.name, "\n", op.device, "\n");
  for (const auto& input : op.inputs) absl::StrAppend(&key, input->tensor.dtype, ",");
  absl::StrAppend(&key, "\n");
  for (const TFE_Op::InputGroup& g : op.groups)
    absl::StrAppend(&key, g.is_list ? "L" : "S", g.count);
  for (const auto& [name, attr] : op.attrs) absl::StrAppend(&key, "\n", name, "=", attr.key);
  return key;
}

// How many single inputs an argument of list type takes when they were added one at a time: its
// number attr or the length of its type-list attr as set, else one.
int ListLengthFromAttrs(const TFE_Op& op, const rill::OpDef::ArgDef& arg) {
  if (!arg.number_attr().empty()) {
    auto it = op.attrs.find(arg.number_attr());
    if (it != op.attrs.end() && it->second.int_value >= 0) {
      return static_cast<int>(it->second.int_value);
    }
  }
  if (!arg.type_list_attr().empty()) {
    auto it = op.attrs.find(arg.type_list_attr());
    if (it != op.attrs.end() && it->second.list_length >= 0) return it->second.list_length;
  }
  return 1;
}

// Adds the operation's inputs to `desc`, matching the groups as added to the op definition's
// arguments.
absl::Status AddInputs(const TFE_Op& op, const rill::OpDef& def,
                       const std::vector<TF_Output>& placeholders, TF_OperationDescription* desc) {
  size_t group = 0;
  int flat = 0;
  for (const rill::OpDef::ArgDef& arg : def.input_arg()) {
    if (group >= op.groups.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Op '", op.name, "' takes ", def.input_arg_size(), " inputs (", arg.name(),
                       " is missing): add it with TFE_OpAddInput or TFE_OpAddInputList"));
    }
    const bool list_arg = !arg.number_attr().empty() || !arg.type_list_attr().empty();
    if (list_arg) {
      int count = 0;
      if (op.groups[group].is_list) {
        count = op.groups[group++].count;
      } else {
        const int wanted = ListLengthFromAttrs(op, arg);
        while (count < wanted && group < op.groups.size() && !op.groups[group].is_list) {
          ++count;
          ++group;
        }
      }
      TF_AddInputList(desc, placeholders.data() + flat, count);
      flat += count;
    } else {
      if (op.groups[group].is_list && op.groups[group].count != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input '", arg.name(), "' of op '", op.name, "' is a single tensor, but a list of ",
            op.groups[group].count, " was added: use TFE_OpAddInput"));
      }
      ++group;
      TF_AddInput(desc, placeholders[flat++]);
    }
  }
  if (group != op.groups.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Op '", op.name, "' takes ",
                                                   def.input_arg_size(), " inputs, but ",
                                                   op.inputs.size(), " tensors were added"));
  }
  return absl::OkStatus();
}

// Builds the graph and session of `op`'s signature; `*generation` is the context's
// functions_generation of the functions it copied.
absl::StatusOr<std::shared_ptr<rill_c::EagerKernel>> BuildKernel(const TFE_Op& op,
                                                                 uint64_t* generation) {
  absl::StatusOr<rill::OpDef> def = rill_c::EagerOpDef(op.ctx, op.name);
  if (!def.ok()) return def.status();
  auto kernel = std::make_shared<rill_c::EagerKernel>();
  kernel->graph = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  std::unique_ptr<TF_Status, decltype(&TF_DeleteStatus)> status_owner(s, TF_DeleteStatus);

  std::vector<rill::FunctionDef> functions;
  {
    rill::MutexLock lock(&op.ctx->mu);
    for (const auto& [name, fdef] : op.ctx->functions) functions.push_back(fdef);
    *generation = op.ctx->functions_generation;
  }
  for (const rill::FunctionDef& fdef : functions) {
    TF_Function f;
    f.fdef = fdef;
    TF_GraphCopyFunction(kernel->graph, &f, nullptr, s);
    if (TF_GetCode(s) != TF_OK) return StatusOf(s);
  }

  for (size_t i = 0; i < op.inputs.size(); ++i) {
    TF_OperationDescription* p =
        TF_NewOperation(kernel->graph, "Placeholder", absl::StrCat("input_", i).c_str());
    TF_SetAttrType(p, "dtype", op.inputs[i]->tensor.dtype);
    TF_Operation* placeholder = TF_FinishOperation(p, s);
    if (TF_GetCode(s) != TF_OK) return StatusOf(s);
    kernel->inputs.push_back({placeholder, 0});
  }

  TF_OperationDescription* desc = TF_NewOperation(kernel->graph, op.name.c_str(), "op");
  absl::Status added = AddInputs(op, *def, kernel->inputs, desc);
  if (!added.ok()) {
    // A description is released only by finishing it; an operation without its inputs fails.
    TF_Status* ignored = TF_NewStatus();
    TF_FinishOperation(desc, ignored);
    TF_DeleteStatus(ignored);
    return added;
  }
  for (const auto& [name, attr] : op.attrs) attr.apply(desc);
  if (!op.device.empty()) TF_SetDevice(desc, op.device.c_str());
  kernel->operation = TF_FinishOperation(desc, s);
  if (TF_GetCode(s) != TF_OK) return StatusOf(s);
  const int num_outputs = TF_OperationNumOutputs(kernel->operation);
  for (int i = 0; i < num_outputs; ++i) {
    // A resource or variant lives in the session that made it: a handle to it would not work as
    // another operation's input.
    const TF_DataType type = TF_OperationOutputType({kernel->operation, i});
    if (type == TF_RESOURCE || type == TF_VARIANT) {
      return absl::UnimplementedError(absl::StrCat(
          "Rill's eager API does not keep resources or variants between operations: output ", i,
          " of ", op.name, " is a ", type == TF_RESOURCE ? "resource" : "variant",
          ". Build the operations that use it in a graph and run them with TF_SessionRun"));
    }
    kernel->outputs.push_back({kernel->operation, i});
  }

  kernel->session = TF_NewSession(kernel->graph, &op.ctx->session_options, s);
  if (TF_GetCode(s) != TF_OK) return StatusOf(s);
  return kernel;
}

absl::StatusOr<std::shared_ptr<rill_c::EagerKernel>> KernelFor(const TFE_Op& op) {
  const std::string key = SignatureKey(op);
  {
    rill::MutexLock lock(&op.ctx->mu);
    auto it = op.ctx->kernels.find(key);
    if (it != op.ctx->kernels.end()) return it->second;
  }
  // Built outside the lock (other signatures go on); the first of two racing builds is kept. One
  // built while the functions changed runs this once but is not kept.
  uint64_t generation = 0;
  absl::StatusOr<std::shared_ptr<rill_c::EagerKernel>> built = BuildKernel(op, &generation);
  if (!built.ok()) return built.status();
  rill::MutexLock lock(&op.ctx->mu);
  if (op.ctx->functions_generation != generation) return *std::move(built);
  return op.ctx->kernels.emplace(key, *std::move(built)).first->second;
}

absl::Status Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals) {
  if (op == nullptr || num_retvals == nullptr) {
    return absl::InvalidArgumentError("The op or num_retvals is null");
  }
  if (!op->deferred.ok()) return op->deferred;
  absl::StatusOr<std::shared_ptr<rill_c::EagerKernel>> kernel = KernelFor(*op);
  if (!kernel.ok()) return kernel.status();
  const rill_c::EagerKernel& k = **kernel;
  const int n = static_cast<int>(k.outputs.size());
  if (*num_retvals < n) {
    return absl::InvalidArgumentError(
        absl::StrCat("Expecting ", n, " outputs, but *num_retvals is ", *num_retvals));
  }
  if (n > 0 && retvals == nullptr) return absl::InvalidArgumentError("retvals is null");

  std::vector<TF_Tensor*> feeds;
  for (const auto& input : op->inputs) feeds.push_back(&input->tensor);
  std::vector<TF_Tensor*> fetched(n, nullptr);
  const TF_Operation* target = k.operation;
  TF_Status* s = TF_NewStatus();
  std::unique_ptr<TF_Status, decltype(&TF_DeleteStatus)> status_owner(s, TF_DeleteStatus);
  TF_SessionRun(k.session, nullptr, k.inputs.data(), feeds.data(), static_cast<int>(feeds.size()),
                k.outputs.data(), fetched.data(), n, n == 0 ? &target : nullptr, n == 0 ? 1 : 0,
                nullptr, s);
  if (TF_GetCode(s) != TF_OK) return StatusOf(s);
  for (int i = 0; i < n; ++i) {
    retvals[i] = new TFE_TensorHandle{*fetched[i]};
    TF_DeleteTensor(fetched[i]);
  }
  *num_retvals = n;
  return absl::OkStatus();
}

TF_AttrType AttrTypeOf(const std::string& type, unsigned char* is_list) {
  if (is_list != nullptr) *is_list = type.rfind("list(", 0) == 0 ? 1 : 0;
  return rill_c::KindToAttrType(type);
}

TF_AttrType GetAttrType(TFE_Context* ctx, const char* op_name, const char* attr_name,
                        unsigned char* is_list, TF_Status* status) {
  if (ctx == nullptr || op_name == nullptr || attr_name == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The context, op or attribute name is null"));
    return TF_ATTR_INT;
  }
  if (is_list == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("is_list is null; pass where to write whether "
                                                 "the attribute is a list"));
    return TF_ATTR_INT;
  }
  absl::StatusOr<rill::OpDef> def = rill_c::EagerOpDef(ctx, op_name);
  if (!def.ok()) {
    SetStatus(status, def.status());
    return TF_ATTR_INT;
  }
  for (const rill::OpDef::AttrDef& attr : def->attr()) {
    if (attr.name() == attr_name) {
      SetOk(status);
      return AttrTypeOf(attr.type(), is_list);
    }
  }
  SetStatus(status, absl::InvalidArgumentError(absl::StrCat(
                        "Attribute '", attr_name, "' does not exist for this operation")));
  return TF_ATTR_INT;
}

template <typename T, typename Setter>
void SetPodList(TFE_Op* op, const char* attr_name, const char* tag, const T* values, int num_values,
                Setter setter) {
  if (num_values > 0 && values == nullptr) {
    return Defer(op, attr_name,
                 absl::StrCat("values is null but num_values is ", num_values,
                              "; pass num_values values, or num_values = 0 for an empty list"));
  }
  std::vector<T> v(values, values + (num_values > 0 ? num_values : 0));
  std::string name = attr_name == nullptr ? "" : attr_name;
  TFE_Op::Attr attr{absl::StrCat(tag, num_values, PodList(v.data(), static_cast<int>(v.size()))),
                    [name, v, setter](TF_OperationDescription* d) {
                      setter(d, name.c_str(), v.data(), static_cast<int>(v.size()));
                    }};
  attr.list_length = static_cast<int>(v.size());
  SetAttr(op, attr_name, std::move(attr));
}

// Sets the attributes the next input argument of the op definition implies, unless they were
// set before: its type attr from the first tensor, its number attr from the count, its type-list
// attr from the tensors' types. Inputs that do not match the next argument's kind (single tensors
// for a list) end the inference, as in TensorFlow.
void InferInputAttrs(TFE_Op* op, TFE_TensorHandle** inputs, int n, bool is_list) {
  if (!op->inferring || op->next_arg >= op->def.input_arg_size()) {
    op->inferring = false;
    return;
  }
  const rill::OpDef::ArgDef& arg = op->def.input_arg(op->next_arg);
  const bool list_arg = !arg.number_attr().empty() || !arg.type_list_attr().empty();
  if (list_arg != is_list) {
    op->inferring = false;
    return;
  }
  ++op->next_arg;
  if (!arg.number_attr().empty()) TFE_OpSetAttrInt(op, arg.number_attr().c_str(), n);
  if (!arg.type_attr().empty() && n > 0) {
    TFE_OpSetAttrType(op, arg.type_attr().c_str(), inputs[0]->tensor.dtype);
  }
  if (!arg.type_list_attr().empty()) {
    std::vector<TF_DataType> types;
    for (int i = 0; i < n; ++i) types.push_back(inputs[i]->tensor.dtype);
    TFE_OpSetAttrTypeList(op, arg.type_list_attr().c_str(), types.data(), n);
  }
}

void AddInputs(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs, bool is_list,
               TF_Status* status) {
  if (op == nullptr || num_inputs < 0 || (inputs == nullptr && num_inputs > 0)) {
    return SetStatus(status, absl::InvalidArgumentError("The op or the inputs are null"));
  }
  for (int i = 0; i < num_inputs; ++i) {
    if (inputs[i] == nullptr) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   absl::StrCat("Input ", i, " of op '", op->name, "' is null")));
    }
  }
  for (int i = 0; i < num_inputs; ++i) {
    op->inputs.push_back(std::make_unique<TFE_TensorHandle>(*inputs[i]));
  }
  op->groups.push_back({is_list, num_inputs});
  InferInputAttrs(op, inputs, num_inputs, is_list);
  SetOk(status);
}

}  // namespace

extern "C" {

TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name, TF_Status* status) {
  if (ctx == nullptr || op_or_function_name == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The context or the op name is null"));
    return nullptr;
  }
  absl::StatusOr<rill::OpDef> def = rill_c::EagerOpDef(ctx, op_or_function_name);
  if (!def.ok()) {
    SetStatus(status, def.status());
    return nullptr;
  }
  auto* op = new TFE_Op;
  op->ctx = ctx;
  op->name = op_or_function_name;
  op->def = *std::move(def);
  SetOk(status);
  return op;
}

void TFE_DeleteOp(TFE_Op* op) { delete op; }

const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status) {
  if (op == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op is null"));
    return nullptr;
  }
  SetOk(status);
  return op->name.c_str();
}

TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status) {
  if (op == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op is null"));
    return nullptr;
  }
  SetOk(status);
  return op->ctx;
}

void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status) {
  if (op == nullptr) return SetStatus(status, absl::InvalidArgumentError("The op is null"));
  op->device = device_name == nullptr ? "" : device_name;
  SetOk(status);
}

const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status) {
  if (op == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op is null"));
    return nullptr;
  }
  SetOk(status);
  return op->device.c_str();
}

void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status) {
  AddInputs(op, &input, 1, /*is_list=*/false, status);
}

void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs, TF_Status* status) {
  AddInputs(op, inputs, num_inputs, /*is_list=*/true, status);
}

int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status) {
  if (op == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op is null"));
    return -1;
  }
  SetOk(status);
  return static_cast<int>(op->inputs.size());
}

TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index, TF_Status* status) {
  if (op == nullptr || index < 0 || index >= static_cast<int>(op->inputs.size())) {
    SetStatus(status, absl::InvalidArgumentError("The op is null or the index out of range"));
    return nullptr;
  }
  SetOk(status);
  return op->inputs[index].get();
}

TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name, unsigned char* is_list,
                              TF_Status* status) {
  if (op == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The op is null"));
    return TF_ATTR_INT;
  }
  return GetAttrType(op->ctx, op->name.c_str(), attr_name, is_list, status);
}

TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx, const char* op_or_function_name,
                                  const char* attr_name, unsigned char* is_list,
                                  TF_Status* status) {
  return GetAttrType(ctx, op_or_function_name, attr_name, is_list, status);
}

void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value, size_t length) {
  if (!rill_c::IsObjectLength(length)) {
    return Defer(op, attr_name, rill_c::ObjectLengthError("length", length).message());
  }
  if (value == nullptr && length > 0) {
    return Defer(op, attr_name,
                 absl::StrCat("value is null but length is ", length,
                              "; pass length bytes, or length 0 for an empty string"));
  }
  std::string v(static_cast<const char*>(value), value == nullptr ? 0 : length);
  std::string name = attr_name == nullptr ? "" : attr_name;
  SetAttr(op, attr_name, {"s" + Bytes(v.data(), v.size()), [name, v](TF_OperationDescription* d) {
                            TF_SetAttrString(d, name.c_str(), v.data(), v.size());
                          }});
}

void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value) {
  std::string name = attr_name == nullptr ? "" : attr_name;
  TFE_Op::Attr attr{absl::StrCat("i", value), [name, value](TF_OperationDescription* d) {
                      TF_SetAttrInt(d, name.c_str(), value);
                    }};
  attr.int_value = value;
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value) {
  std::string name = attr_name == nullptr ? "" : attr_name;
  SetAttr(op, attr_name,
          {"f" + Bytes(&value, sizeof(value)),
           [name, value](TF_OperationDescription* d) { TF_SetAttrFloat(d, name.c_str(), value); }});
}

void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name, unsigned char value) {
  std::string name = attr_name == nullptr ? "" : attr_name;
  SetAttr(op, attr_name, {absl::StrCat("b", value != 0), [name, value](TF_OperationDescription* d) {
                            TF_SetAttrBool(d, name.c_str(), value);
                          }});
}

void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value) {
  std::string name = attr_name == nullptr ? "" : attr_name;
  SetAttr(op, attr_name, {absl::StrCat("t", value), [name, value](TF_OperationDescription* d) {
                            TF_SetAttrType(d, name.c_str(), value);
                          }});
}

void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name, const int64_t* dims, const int num_dims,
                        TF_Status* out_status) {
  if (op == nullptr || attr_name == nullptr || (dims == nullptr && num_dims > 0)) {
    return SetStatus(out_status, absl::InvalidArgumentError("The op, name or dims are null"));
  }
  if (num_dims > 254) {
    return SetStatus(out_status, absl::InvalidArgumentError(absl::StrCat(
                                     "Value specified for `", attr_name, "` has ", num_dims,
                                     " dimensions which is over the limit of 254.")));
  }
  std::vector<int64_t> d(dims, dims + (num_dims > 0 ? num_dims : 0));
  std::string name = attr_name;
  SetAttr(op, attr_name,
          {absl::StrCat("S", num_dims, PodList(d.data(), static_cast<int>(d.size()))),
           [name, d, num_dims](TF_OperationDescription* desc) {
             TF_SetAttrShape(desc, name.c_str(), d.data(), num_dims);
           }});
  SetOk(out_status);
}

void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name, const char* data, size_t length) {
  if (data == nullptr && length > 0) {
    return Defer(op, attr_name,
                 absl::StrCat("the function name is null but its length is ", length,
                              "; pass the function's name"));
  }
  std::string v(data == nullptr ? "" : std::string(data, length));
  std::string name = attr_name == nullptr ? "" : attr_name;
  SetAttr(op, attr_name, {"F" + Bytes(v.data(), v.size()), [name, v](TF_OperationDescription* d) {
                            TF_SetAttrFuncName(d, name.c_str(), v.data(), v.size());
                          }});
}

void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name, const TFE_Op* value) {
  if (value == nullptr) {
    return Defer(op, attr_name, "the function op is null; pass a TFE_Op naming the function");
  }
  TFE_OpSetAttrFunctionName(op, attr_name, value->name.data(), value->name.size());
}

void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor, TF_Status* status) {
  if (op == nullptr || attr_name == nullptr || tensor == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The op, name or tensor is null"));
  }
  absl::StatusOr<rill::Tensor> checked = rill_c::ToRillTensor(tensor);
  if (!checked.ok()) return SetStatus(status, checked.status());
  // The key holds the tensor's type, shape and bytes (strings element by element).
  std::string key = absl::StrCat(
      "T", tensor->dtype, PodList(tensor->dims.data(), static_cast<int>(tensor->dims.size())));
  if (tensor->dtype == TF_STRING) {
    const auto* strings = static_cast<const TF_TString*>(TF_TensorData(tensor));
    const size_t n = TF_TensorByteSize(tensor) / sizeof(TF_TString);
    for (size_t i = 0; i < n; ++i) {
      absl::StrAppend(
          &key, Bytes(TF_TString_GetDataPointer(&strings[i]), TF_TString_GetSize(&strings[i])));
    }
  } else {
    absl::StrAppend(&key, Bytes(TF_TensorData(tensor), TF_TensorByteSize(tensor)));
  }
  auto shared = std::make_shared<TF_Tensor>(*tensor);
  std::string name = attr_name;
  SetAttr(op, attr_name, {key, [name, shared](TF_OperationDescription* d) {
                            TF_Status* s = TF_NewStatus();
                            TF_SetAttrTensor(d, name.c_str(), shared.get(), s);
                            TF_DeleteStatus(s);
                          }});
  SetOk(status);
}

void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name, const void* const* values,
                             const size_t* lengths, int num_values) {
  if (num_values > 0 && (values == nullptr || lengths == nullptr)) {
    return Defer(op, attr_name,
                 absl::StrCat("values or lengths is null but num_values is ", num_values,
                              "; pass num_values strings, or num_values = 0 for an empty list"));
  }
  for (int i = 0; i < num_values; ++i) {
    if (values[i] == nullptr && lengths[i] > 0) {
      return Defer(op, attr_name,
                   absl::StrCat("string ", i, " is null but its length is ", lengths[i],
                                "; pass its bytes, or length 0 for an empty string"));
    }
  }
  std::vector<std::string> v;
  std::string key = absl::StrCat("ls", num_values);
  for (int i = 0; i < num_values; ++i) {
    if (values[i] == nullptr) {
      v.emplace_back();
    } else {
      v.emplace_back(static_cast<const char*>(values[i]), lengths[i]);
    }
    absl::StrAppend(&key, Bytes(v.back().data(), v.back().size()));
  }
  std::string name = attr_name == nullptr ? "" : attr_name;
  TFE_Op::Attr attr{key, [name, v](TF_OperationDescription* d) {
                      std::vector<const void*> ptrs;
                      std::vector<size_t> lens;
                      for (const std::string& s : v) {
                        ptrs.push_back(s.data());
                        lens.push_back(s.size());
                      }
                      TF_SetAttrStringList(d, name.c_str(), ptrs.data(), lens.data(),
                                           static_cast<int>(v.size()));
                    }};
  attr.list_length = num_values;
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name, const int64_t* values,
                          int num_values) {
  SetPodList(op, attr_name, "li", values, num_values, TF_SetAttrIntList);
}

void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name, const float* values,
                            int num_values) {
  SetPodList(op, attr_name, "lf", values, num_values, TF_SetAttrFloatList);
}

void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name, const unsigned char* values,
                           int num_values) {
  SetPodList(op, attr_name, "lb", values, num_values, TF_SetAttrBoolList);
}

void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name, const TF_DataType* values,
                           int num_values) {
  SetPodList(op, attr_name, "lt", values, num_values, TF_SetAttrTypeList);
}

void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name, const int64_t** dims,
                            const int* num_dims, int num_values, TF_Status* out_status) {
  if (op == nullptr || attr_name == nullptr ||
      (num_values > 0 && (dims == nullptr || num_dims == nullptr))) {
    return SetStatus(out_status, absl::InvalidArgumentError("The op, name or dims are null"));
  }
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int> ranks;
  std::string key = absl::StrCat("lS", num_values);
  for (int i = 0; i < num_values; ++i) {
    if (num_dims[i] > 254) {
      return SetStatus(out_status, absl::InvalidArgumentError(absl::StrCat(
                                       "Value specified for `", attr_name, "` has ", num_dims[i],
                                       " dimensions which is over the limit of 254.")));
    }
    if (num_dims[i] > 0 && dims[i] == nullptr) {
      return SetStatus(out_status, absl::InvalidArgumentError(absl::StrCat(
                                       "Attribute '", attr_name, "' of op '", op->name, "': dims[",
                                       i, "] is null but num_dims[", i, "] is ", num_dims[i],
                                       "; pass its dimensions, or -1 for an unknown rank")));
    }
    ranks.push_back(num_dims[i]);
    shapes.emplace_back(dims[i], dims[i] + (num_dims[i] > 0 ? num_dims[i] : 0));
    absl::StrAppend(&key, ";", num_dims[i],
                    PodList(shapes.back().data(), static_cast<int>(shapes.back().size())));
  }
  std::string name = attr_name;
  TFE_Op::Attr attr{key, [name, shapes, ranks](TF_OperationDescription* d) {
                      std::vector<const int64_t*> ptrs;
                      for (const auto& s : shapes) ptrs.push_back(s.data());
                      TF_SetAttrShapeList(d, name.c_str(), ptrs.data(), ranks.data(),
                                          static_cast<int>(ranks.size()));
                    }};
  attr.list_length = num_values;
  SetAttr(op, attr_name, std::move(attr));
  SetOk(out_status);
}

void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name, const TFE_Op** value,
                               int num_values) {
  if (num_values > 0 && value == nullptr) {
    return Defer(op, attr_name,
                 absl::StrCat("value is null but num_values is ", num_values,
                              "; pass num_values function ops, or num_values = 0 for an empty "
                              "list"));
  }
  std::vector<std::string> names;
  for (int i = 0; i < num_values; ++i) {
    if (value[i] == nullptr) {
      return Defer(op, attr_name,
                   absl::StrCat("function op ", i, " is null; pass a TFE_Op naming the function"));
    }
    names.push_back(value[i]->name);
  }
  std::string key = absl::StrCat("lF", num_values);
  for (const std::string& n : names) absl::StrAppend(&key, Bytes(n.data(), n.size()));
  std::string name = attr_name == nullptr ? "" : attr_name;
  rill::AttrValue value_proto;
  for (const std::string& n : names) value_proto.mutable_list()->add_func()->set_name(n);
  const std::string bytes = value_proto.SerializeAsString();
  TFE_Op::Attr attr{key, [name, bytes](TF_OperationDescription* d) {
                      TF_Status* s = TF_NewStatus();
                      TF_SetAttrValueProto(d, name.c_str(), bytes.data(), bytes.size(), s);
                      TF_DeleteStatus(s);
                    }};
  attr.list_length = num_values;
  SetAttr(op, attr_name, std::move(attr));
}

void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals, TF_Status* status) {
  SetStatus(status, Execute(op, retvals, num_retvals));
}

}  // extern "C"
