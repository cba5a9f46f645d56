// TF_Operation queries: name, type, device, inputs and outputs with their types and producers,
// consumers, control edges, attrs (every TF_OperationGetAttr*), and the NodeDef.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "core/partial_tensor_shape.h"
#include "core/tensor_proto.h"
#include "graph/graph_def_export.h"
#include "proto/attr_value.pb.h"

namespace rill_c {
namespace {

// The attr `attr_name` of `oper`; TensorFlow's InvalidArgument when absent.
absl::StatusOr<const rill::AttrValue*> FindAttr(TF_Operation* oper, const char* attr_name) {
  if (oper == nullptr || attr_name == nullptr) {
    return absl::InvalidArgumentError("The operation or the attr name is null");
  }
  const rill::Node* node = ToNode(oper);
  auto it = node->def().attr().find(attr_name);
  if (it == node->def().attr().end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Operation '", node->name(), "' has no attr named '", attr_name, "'."));
  }
  return &it->second;
}

// The kind of value an AttrValue holds, spelled as in OpDef ("int", "list(float)", ...).
std::string AttrKind(const rill::AttrValue& v) {
  switch (v.value_case()) {
    case rill::AttrValue::kS:
      return "string";
    case rill::AttrValue::kI:
      return "int";
    case rill::AttrValue::kF:
      return "float";
    case rill::AttrValue::kB:
      return "bool";
    case rill::AttrValue::kType:
      return "type";
    case rill::AttrValue::kShape:
      return "shape";
    case rill::AttrValue::kTensor:
      return "tensor";
    case rill::AttrValue::kFunc:
      return "func";
    case rill::AttrValue::kPlaceholder:
      return "placeholder";
    case rill::AttrValue::kList: {
      const rill::AttrValue::ListValue& l = v.list();
      if (l.s_size() > 0) return "list(string)";
      if (l.i_size() > 0) return "list(int)";
      if (l.f_size() > 0) return "list(float)";
      if (l.b_size() > 0) return "list(bool)";
      if (l.type_size() > 0) return "list(type)";
      if (l.shape_size() > 0) return "list(shape)";
      if (l.tensor_size() > 0) return "list(tensor)";
      if (l.func_size() > 0) return "list(func)";
      return "list";
    }
    default:
      return "none";
  }
}

// OK when `v` holds a value of kind `want`; an empty list is a list of any kind.
absl::Status CheckKind(const rill::AttrValue& v, const std::string& want) {
  const std::string have = AttrKind(v);
  if (have == want || (have == "list" && absl::StartsWith(want, "list("))) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("AttrValue had value with type '", have, "' when '", want, "' expected"));
}

// The attr after checking its kind.
absl::StatusOr<const rill::AttrValue*> TypedAttr(TF_Operation* oper, const char* attr_name,
                                                 const std::string& want) {
  absl::StatusOr<const rill::AttrValue*> v = FindAttr(oper, attr_name);
  if (!v.ok()) return v;
  absl::Status s = CheckKind(**v, want);
  if (!s.ok()) return s;
  return v;
}

}  // namespace

TF_AttrType KindToAttrType(const std::string& kind) {
  std::string base = kind;
  if (absl::StartsWith(base, "list(")) base = base.substr(5, base.size() - 6);
  if (base == "int") return TF_ATTR_INT;
  if (base == "float") return TF_ATTR_FLOAT;
  if (base == "bool") return TF_ATTR_BOOL;
  if (base == "type") return TF_ATTR_TYPE;
  if (base == "shape") return TF_ATTR_SHAPE;
  if (base == "tensor") return TF_ATTR_TENSOR;
  if (base == "func") return TF_ATTR_FUNC;
  if (base == "placeholder") return TF_ATTR_PLACEHOLDER;
  return TF_ATTR_STRING;
}

namespace {

// The length of argument `arg` of a call or functional op, from TensorFlow's op definitions of
// them: they are not registered ops in Rill, so such a node has no op_def (a SavedModel's
// StatefulPartitionedCall). nullopt when `arg` is not one of the op's arguments.
std::optional<int> FunctionalArgLength(const rill::Node& node, const std::string& arg,
                                       bool outputs) {
  const std::string& op = node.op();
  const char* list = nullptr;  // the type-list attr of `arg`; "" for a single tensor
  if (op == "PartitionedCall" || op == "StatefulPartitionedCall") {
    if (arg == (outputs ? "output" : "args")) list = outputs ? "Tout" : "Tin";
  } else if (op == "If" || op == "StatelessIf" || op == "Case" || op == "StatelessCase") {
    const bool is_if = op == "If" || op == "StatelessIf";
    if (outputs && arg == "output") list = "Tout";
    if (!outputs && arg == "input") list = "Tin";
    if (!outputs && arg == (is_if ? "cond" : "branch_index")) list = "";
  } else if (op == "While" || op == "StatelessWhile") {
    if (arg == (outputs ? "output" : "input")) list = "T";
  }
  if (list == nullptr) return std::nullopt;
  if (*list == '\0') return 1;
  auto it = node.def().attr().find(list);
  return it == node.def().attr().end() ? 0 : it->second.list().type_size();
}

// How many tensors the input or output argument `arg_name` stands for.
absl::StatusOr<int> ArgLength(TF_Operation* oper, const char* arg_name, bool outputs) {
  if (oper == nullptr || arg_name == nullptr) {
    return absl::InvalidArgumentError("The operation or the argument name is null");
  }
  const rill::Node* node = ToNode(oper);
  const char* what = outputs ? "Output" : "Input";
  if (node->op_def() == nullptr && IsFunctionalOp(node->op())) {
    if (std::optional<int> n = FunctionalArgLength(*node, arg_name, outputs)) return *n;
    return absl::InvalidArgumentError(absl::StrCat(what, " arg '", arg_name, "' not found"));
  }
  if (node->op_def() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " arg '", arg_name, "' not found (op ", node->op(), " is unknown)"));
  }
  const auto& args = outputs ? node->op_def()->output_arg() : node->op_def()->input_arg();
  for (const rill::OpDef::ArgDef& arg : args) {
    if (arg.name() != arg_name) continue;
    const auto& attrs = node->def().attr();
    if (!arg.number_attr().empty()) {
      auto it = attrs.find(arg.number_attr());
      return it == attrs.end() ? 0 : static_cast<int>(it->second.i());
    }
    if (!arg.type_list_attr().empty()) {
      auto it = attrs.find(arg.type_list_attr());
      return it == attrs.end() ? 0 : it->second.list().type_size();
    }
    return 1;
  }
  return absl::InvalidArgumentError(absl::StrCat(what, " arg '", arg_name, "' not found"));
}

std::vector<const rill::Edge*> ControlEdges(const rill::Node::EdgeList& edges, bool incoming) {
  std::vector<const rill::Edge*> out;
  for (const rill::Edge* e : edges) {
    if (!e->IsControlEdge()) continue;
    if ((incoming ? e->src() : e->dst())->IsOp()) out.push_back(e);
  }
  return out;
}

// InvalidArgument when an output array the caller sized `n` is null.
absl::Status CheckArray(const void* array, int64_t n) {
  if (array == nullptr && n > 0) return absl::InvalidArgumentError("An output array is null");
  return absl::OkStatus();
}

std::vector<std::string> SortedAttrNames(TF_Operation* oper) {
  std::vector<std::string> names;
  for (const auto& [name, value] : ToNode(oper)->def().attr()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;
using rill_c::ToNode;
using rill_c::ToOperation;

extern "C" {

const char* TF_OperationName(TF_Operation* oper) {
  return oper == nullptr ? "" : ToNode(oper)->name().c_str();
}

const char* TF_OperationOpType(TF_Operation* oper) {
  return oper == nullptr ? "" : ToNode(oper)->op().c_str();
}

const char* TF_OperationDevice(TF_Operation* oper) {
  return oper == nullptr ? "" : ToNode(oper)->requested_device().c_str();
}

int TF_OperationNumOutputs(TF_Operation* oper) {
  return oper == nullptr ? 0 : rill_c::NumOutputs(ToNode(oper));
}

TF_DataType TF_OperationOutputType(TF_Output oper_out) {
  if (oper_out.oper == nullptr) return static_cast<TF_DataType>(0);
  return static_cast<TF_DataType>(rill_c::OutputType(ToNode(oper_out.oper), oper_out.index));
}

int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  absl::StatusOr<int> n = rill_c::ArgLength(oper, arg_name, /*outputs=*/true);
  SetStatus(status, n.status());
  return n.ok() ? *n : -1;
}

int TF_OperationNumInputs(TF_Operation* oper) {
  return oper == nullptr ? 0 : ToNode(oper)->num_inputs();
}

TF_DataType TF_OperationInputType(TF_Input oper_in) {
  if (oper_in.oper == nullptr || oper_in.index < 0 ||
      oper_in.index >= ToNode(oper_in.oper)->num_inputs()) {
    return static_cast<TF_DataType>(0);
  }
  return static_cast<TF_DataType>(ToNode(oper_in.oper)->input_type(oper_in.index));
}

int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name, TF_Status* status) {
  absl::StatusOr<int> n = rill_c::ArgLength(oper, arg_name, /*outputs=*/false);
  SetStatus(status, n.status());
  return n.ok() ? *n : -1;
}

TF_Output TF_OperationInput(TF_Input oper_in) {
  if (oper_in.oper == nullptr) return TF_Output{nullptr, -1};
  const rill::Edge* e = ToNode(oper_in.oper)->input_edge(oper_in.index);
  if (e == nullptr) return TF_Output{nullptr, -1};
  return TF_Output{ToOperation(e->src()), e->src_output()};
}

void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs, int max_inputs) {
  if (oper == nullptr || inputs == nullptr) return;
  const int n = std::min(max_inputs, ToNode(oper)->num_inputs());
  for (int i = 0; i < n; ++i) inputs[i] = TF_OperationInput(TF_Input{oper, i});
}

int TF_OperationOutputNumConsumers(TF_Output oper_out) {
  return TF_OperationOutputConsumers(oper_out, nullptr, 0);
}

int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers, int max_consumers) {
  if (oper_out.oper == nullptr) return 0;
  int count = 0;
  for (const rill::Edge* e : ToNode(oper_out.oper)->out_edges()) {
    if (e->IsControlEdge() || e->src_output() != oper_out.index || !e->dst()->IsOp()) continue;
    if (consumers != nullptr && count < max_consumers) {
      consumers[count] = TF_Input{ToOperation(e->dst()), e->dst_input()};
    }
    ++count;
  }
  return count;
}

int TF_OperationNumControlInputs(TF_Operation* oper) {
  if (oper == nullptr) return 0;
  return static_cast<int>(rill_c::ControlEdges(ToNode(oper)->in_edges(), true).size());
}

int TF_OperationGetControlInputs(TF_Operation* oper, TF_Operation** control_inputs,
                                 int max_control_inputs) {
  if (oper == nullptr) return 0;
  std::vector<const rill::Edge*> edges = rill_c::ControlEdges(ToNode(oper)->in_edges(), true);
  for (int i = 0;
       control_inputs != nullptr && i < max_control_inputs && i < static_cast<int>(edges.size());
       ++i) {
    control_inputs[i] = ToOperation(edges[i]->src());
  }
  return static_cast<int>(edges.size());
}

int TF_OperationNumControlOutputs(TF_Operation* oper) {
  if (oper == nullptr) return 0;
  return static_cast<int>(rill_c::ControlEdges(ToNode(oper)->out_edges(), false).size());
}

int TF_OperationGetControlOutputs(TF_Operation* oper, TF_Operation** control_outputs,
                                  int max_control_outputs) {
  if (oper == nullptr) return 0;
  std::vector<const rill::Edge*> edges = rill_c::ControlEdges(ToNode(oper)->out_edges(), false);
  for (int i = 0;
       control_outputs != nullptr && i < max_control_outputs && i < static_cast<int>(edges.size());
       ++i) {
    control_outputs[i] = ToOperation(edges[i]->dst());
  }
  return static_cast<int>(edges.size());
}

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper, const char* attr_name,
                                            TF_Status* status) {
  TF_AttrMetadata m;
  m.is_list = 0;
  m.list_size = -1;
  m.type = TF_ATTR_STRING;
  m.total_size = -1;
  absl::StatusOr<const rill::AttrValue*> found = rill_c::FindAttr(oper, attr_name);
  if (!found.ok()) {
    SetStatus(status, found.status());
    return m;
  }
  const rill::AttrValue& v = **found;
  std::string kind = rill_c::AttrKind(v);
  if (kind == "list") {
    // An empty list: its element kind comes from the op's definition.
    kind = "list(string)";
    const rill::OpDef* op_def = ToNode(oper)->op_def();
    if (op_def != nullptr) {
      for (const rill::OpDef::AttrDef& a : op_def->attr()) {
        if (a.name() == attr_name) kind = a.type();
      }
    }
  }
  m.type = rill_c::KindToAttrType(kind);
  if (v.value_case() == rill::AttrValue::kList) {
    const rill::AttrValue::ListValue& l = v.list();
    m.is_list = 1;
    switch (m.type) {
      case TF_ATTR_STRING:
        m.list_size = l.s_size();
        m.total_size = 0;
        for (const std::string& s : l.s()) m.total_size += s.size();
        break;
      case TF_ATTR_INT:
        m.list_size = l.i_size();
        break;
      case TF_ATTR_FLOAT:
        m.list_size = l.f_size();
        break;
      case TF_ATTR_BOOL:
        m.list_size = l.b_size();
        break;
      case TF_ATTR_TYPE:
        m.list_size = l.type_size();
        break;
      case TF_ATTR_SHAPE:
        m.list_size = l.shape_size();
        m.total_size = 0;
        for (const rill::TensorShapeProto& s : l.shape()) {
          if (!s.unknown_rank()) m.total_size += s.dim_size();
        }
        break;
      case TF_ATTR_TENSOR:
        m.list_size = l.tensor_size();
        break;
      case TF_ATTR_FUNC:
        m.list_size = l.func_size();
        break;
      default:
        m.list_size = 0;
        break;
    }
  } else if (m.type == TF_ATTR_STRING) {
    m.total_size = static_cast<int64_t>(v.s().size());
  } else if (m.type == TF_ATTR_SHAPE) {
    m.total_size = v.shape().unknown_rank() ? -1 : v.shape().dim_size();
  }
  SetOk(status);
  return m;
}

void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name, void* value,
                               size_t max_length, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "string");
  if (!v.ok()) return SetStatus(status, v.status());
  const std::string& s = (*v)->s();
  if (value != nullptr) std::memcpy(value, s.data(), std::min(max_length, s.size()));
  SetOk(status);
}

void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name, void** values,
                                   size_t* lengths, int max_values, void* storage,
                                   size_t storage_size, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(string)");
  if (!v.ok()) return SetStatus(status, v.status());
  absl::Status arrays = rill_c::CheckArray(values, max_values);
  if (arrays.ok()) arrays = rill_c::CheckArray(lengths, max_values);
  if (arrays.ok()) arrays = rill_c::CheckArray(storage, static_cast<int64_t>(storage_size));
  if (!arrays.ok()) return SetStatus(status, arrays);
  const auto& list = (*v)->list().s();
  const int n = std::min(max_values, list.size());
  char* next = static_cast<char*>(storage);
  size_t left = storage_size;
  for (int i = 0; i < n; ++i) {
    const std::string& s = list[i];
    if (s.size() > left) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   "Not enough storage to hold the requested list of strings"));
    }
    std::memcpy(next, s.data(), s.size());
    values[i] = next;
    lengths[i] = s.size();
    next += s.size();
    left -= s.size();
  }
  SetOk(status);
}

void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name, int64_t* value,
                            TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "int");
  if (!v.ok()) return SetStatus(status, v.status());
  if (value != nullptr) *value = (*v)->i();
  SetOk(status);
}

void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name, int64_t* values,
                                int max_values, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(int)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().i_size());
  for (int i = 0; i < n; ++i) values[i] = (*v)->list().i(i);
  SetOk(status);
}

void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name, float* value,
                              TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "float");
  if (!v.ok()) return SetStatus(status, v.status());
  if (value != nullptr) *value = (*v)->f();
  SetOk(status);
}

void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name, float* values,
                                  int max_values, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(float)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().f_size());
  for (int i = 0; i < n; ++i) values[i] = (*v)->list().f(i);
  SetOk(status);
}

void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name, unsigned char* value,
                             TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "bool");
  if (!v.ok()) return SetStatus(status, v.status());
  if (value != nullptr) *value = (*v)->b() ? 1 : 0;
  SetOk(status);
}

void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name, unsigned char* values,
                                 int max_values, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(bool)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().b_size());
  for (int i = 0; i < n; ++i) values[i] = (*v)->list().b(i) ? 1 : 0;
  SetOk(status);
}

void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name, TF_DataType* value,
                             TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "type");
  if (!v.ok()) return SetStatus(status, v.status());
  if (value == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The value pointer is null"));
  }
  *value = static_cast<TF_DataType>((*v)->type());
  SetOk(status);
}

void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name, TF_DataType* values,
                                 int max_values, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(type)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().type_size());
  for (int i = 0; i < n; ++i) values[i] = static_cast<TF_DataType>((*v)->list().type(i));
  SetOk(status);
}

void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name, int64_t* value,
                              int num_dims, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "shape");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(value, num_dims); !a.ok()) return SetStatus(status, a);
  const rill::TensorShapeProto& shape = (*v)->shape();
  const int n = shape.unknown_rank() ? 0 : std::min(num_dims, shape.dim_size());
  for (int i = 0; i < n; ++i) value[i] = shape.dim(i).size();
  SetOk(status);
}

void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name, int64_t** dims,
                                  int* num_dims, int num_shapes, int64_t* storage, int storage_size,
                                  TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(shape)");
  if (!v.ok()) return SetStatus(status, v.status());
  absl::Status arrays = rill_c::CheckArray(dims, num_shapes);
  if (arrays.ok()) arrays = rill_c::CheckArray(num_dims, num_shapes);
  if (arrays.ok()) arrays = rill_c::CheckArray(storage, storage_size);
  if (!arrays.ok()) return SetStatus(status, arrays);
  const auto& shapes = (*v)->list().shape();
  const int n = std::min(num_shapes, shapes.size());
  int64_t* next = storage;
  int left = storage_size;
  for (int i = 0; i < n; ++i) {
    const rill::TensorShapeProto& s = shapes[i];
    if (s.unknown_rank()) {
      num_dims[i] = -1;
      dims[i] = nullptr;
      continue;
    }
    if (s.dim_size() > left) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   "Not enough storage to hold the requested list of shapes"));
    }
    num_dims[i] = s.dim_size();
    dims[i] = next;
    for (int j = 0; j < s.dim_size(); ++j) next[j] = s.dim(j).size();
    next += s.dim_size();
    left -= s.dim_size();
  }
  SetOk(status);
}

void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper, const char* attr_name,
                                         TF_Buffer* value, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "shape");
  if (!v.ok()) return SetStatus(status, v.status());
  SetStatus(status, rill_c::SerializeToBuffer((*v)->shape(), value));
}

void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper, const char* attr_name,
                                             TF_Buffer** values, int max_values,
                                             TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(shape)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().shape_size());
  for (int i = 0; i < n; ++i) {
    values[i] = TF_NewBuffer();
    (void)rill_c::SerializeToBuffer((*v)->list().shape(i), values[i]);
  }
  SetOk(status);
}

void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name, TF_Tensor** value,
                               TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "tensor");
  if (!v.ok()) return SetStatus(status, v.status());
  absl::StatusOr<rill::Tensor> t = rill::TensorFromProto((*v)->tensor());
  if (!t.ok()) return SetStatus(status, t.status());
  if (value != nullptr) *value = rill_c::FromRillTensor(*t);
  SetOk(status);
}

void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name, TF_Tensor** values,
                                   int max_values, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::TypedAttr(oper, attr_name, "list(tensor)");
  if (!v.ok()) return SetStatus(status, v.status());
  if (absl::Status a = rill_c::CheckArray(values, max_values); !a.ok()) {
    return SetStatus(status, a);
  }
  const int n = std::min(max_values, (*v)->list().tensor_size());
  std::vector<rill::Tensor> tensors;
  for (int i = 0; i < n; ++i) {
    absl::StatusOr<rill::Tensor> t = rill::TensorFromProto((*v)->list().tensor(i));
    if (!t.ok()) return SetStatus(status, t.status());
    tensors.push_back(*std::move(t));
  }
  for (int i = 0; i < n; ++i) values[i] = rill_c::FromRillTensor(tensors[i]);
  SetOk(status);
}

void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value, TF_Status* status) {
  absl::StatusOr<const rill::AttrValue*> v = rill_c::FindAttr(oper, attr_name);
  if (!v.ok()) return SetStatus(status, v.status());
  SetStatus(status, rill_c::SerializeToBuffer(**v, output_attr_value));
}

int TF_OperationGetNumAttrs(TF_Operation* oper) {
  return oper == nullptr ? 0 : ToNode(oper)->def().attr_size();
}

int TF_OperationGetAttrNameLength(TF_Operation* oper, int i) {
  if (oper == nullptr) return -1;
  std::vector<std::string> names = rill_c::SortedAttrNames(oper);
  if (i < 0 || i >= static_cast<int>(names.size())) return -1;
  return static_cast<int>(names[i].size());
}

void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output, TF_Status* status) {
  if (oper == nullptr || output == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The operation or the output is null"));
  }
  std::vector<std::string> names = rill_c::SortedAttrNames(oper);
  if (i < 0 || i >= static_cast<int>(names.size())) {
    return SetStatus(status, absl::OutOfRangeError(absl::StrCat(
                                 "Operation '", ToNode(oper)->name(), "' has ", names.size(),
                                 " attrs; attr ", i, " does not exist")));
  }
  std::memcpy(output, names[i].data(), names[i].size());
  SetOk(status);
}

void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def, TF_Status* status) {
  if (oper == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The operation is null"));
  }
  SetStatus(status,
            rill_c::SerializeToBuffer(rill::NodeDefWithInputs(*ToNode(oper)), output_node_def));
}

}  // extern "C"
