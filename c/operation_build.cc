// Building operations: TF_NewOperation, inputs, control inputs, devices, colocation, every
// TF_SetAttr*, and TF_FinishOperation, which checks the description against the op registry
// (inferring the type and length attrs its inputs determine), adds the node and its edges, and
// runs the op's shape function; any error leaves the graph unchanged.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "c/c_api_internal.h"
#include "core/status_macros.h"
#include "core/tensor_proto.h"
#include "google/protobuf/util/message_differencer.h"
#include "graph/graph_def_import.h"
#include "graph/op_classes.h"
#include "graph/shape_values.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"
#include "proto/attr_value.pb.h"
#include "proto/tensor_shape.pb.h"
#include "proto/types.pb.h"

struct TF_OperationDescription {
  TF_Graph* graph = nullptr;
  rill::NodeDef def;
  // One entry per TF_AddInput (single) or TF_AddInputList (list) call, in order.
  struct InputArg {
    bool is_list = false;
    std::vector<TF_Output> outputs;
  };
  std::vector<InputArg> inputs;
  std::vector<TF_Operation*> control_inputs;
  std::set<std::string> colocation;
  // The first error of a call that could not report one (a null argument); TF_FinishOperation
  // returns it.
  absl::Status error;
};

namespace rill_c {
namespace {

void Fail(TF_OperationDescription* desc, absl::Status s) {
  if (desc->error.ok()) desc->error = std::move(s);
}

// The attr slot `attr_name` of `desc`, or null (recording the error) for a null name.
rill::AttrValue* Slot(TF_OperationDescription* desc, const char* attr_name) {
  if (desc == nullptr) return nullptr;
  if (attr_name == nullptr) {
    Fail(desc, absl::InvalidArgumentError("An attr name is null"));
    return nullptr;
  }
  rill::AttrValue* v = &(*desc->def.mutable_attr())[attr_name];
  v->Clear();
  return v;
}

void SetShapeProto(const int64_t* dims, int num_dims, rill::TensorShapeProto* shape) {
  if (num_dims < 0 || (num_dims > 0 && dims == nullptr)) {
    shape->set_unknown_rank(true);
    return;
  }
  for (int i = 0; i < num_dims; ++i) shape->add_dim()->set_size(dims[i]);
}

// A shape attr of rank above TensorFlow's 254 (TensorFlow's TF_SetAttrShape fails a CHECK on it):
// false, recording TensorFlow's eager text (TFE_OpSetAttrShape's) for TF_FinishOperation.
bool CheckAttrRank(TF_OperationDescription* desc, const char* attr_name, int64_t rank) {
  if (rank <= rill::TensorShape::kMaxRank) return true;
  Fail(desc, absl::InvalidArgumentError(absl::StrCat(
                 "Value specified for `", attr_name, "` has ", rank,
                 " dimensions which is over the limit of ", rill::TensorShape::kMaxRank, ".")));
  return false;
}

// Checks that `out` is an output of a live op node of `g`; `consumer` is the node being built,
// of op type `op`.
absl::Status CheckOutput(const rill::Graph& g, const std::string& consumer, const std::string& op,
                         TF_Output out) {
  if (out.oper == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("Node '", consumer, "': an input is null"));
  }
  const rill::Node* node = ToNode(out.oper);
  const int id = g.FindNodeId(node->name());
  if (id < 0 || g.FindNodeById(id) != node) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", consumer, "': input node ", node->name(), " is not in this graph"));
  }
  if (out.index < 0 || out.index >= NumOutputs(node)) {
    // TensorFlow's NodeBuilder text for TF_AddInput of an output the producer lacks.
    return absl::InvalidArgumentError(absl::StrCat(
        "Attempt to add output ", out.index, " of ", node->name(), " not in range [0, ",
        NumOutputs(node), ") to node with type ", op, ". Node: {{node ", node->name(), "}}"));
  }
  return absl::OkStatus();
}

std::string TypeName(rill::DataType t) { return rill::DataType_Name(t); }

// Sets attr `name` to `value` unless it holds something else already (TensorFlow's
// "Inconsistent values" error then).
absl::Status InferAttr(rill::NodeDef* def, const rill::OpDef& op_def, const std::string& name,
                       const rill::AttrValue& value, const std::string& shown_value) {
  auto it = def->attr().find(name);
  if (it == def->attr().end()) {
    (*def->mutable_attr())[name] = value;
    return absl::OkStatus();
  }
  if (google::protobuf::util::MessageDifferencer::Equals(it->second, value)) {
    return absl::OkStatus();
  }
  std::string old_value;
  if (it->second.value_case() == rill::AttrValue::kType) {
    old_value = TypeName(it->second.type());
  } else if (it->second.value_case() == rill::AttrValue::kI) {
    old_value = absl::StrCat(it->second.i());
  } else {
    old_value = it->second.ShortDebugString();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Inconsistent values for attr '", name, "' ", old_value, " vs. ", shown_value,
      " while building NodeDef '", def->name(), "' using ", rill::SummarizeOpDef(op_def)));
}

// The type and length attrs the inputs determine (T, N, Tlist), as TensorFlow's node builder
// infers them, with its errors for a single tensor given to a list argument and the reverse.
absl::Status InferAttrsFromInputs(const TF_OperationDescription& desc, const rill::OpDef& op_def,
                                  rill::NodeDef* def) {
  const int n = std::min<int>(desc.inputs.size(), op_def.input_arg_size());
  for (int i = 0; i < n; ++i) {
    const rill::OpDef::ArgDef& arg = op_def.input_arg(i);
    const TF_OperationDescription::InputArg& given = desc.inputs[i];
    const bool wants_list = !arg.number_attr().empty() || !arg.type_list_attr().empty();
    const std::string suffix = absl::StrCat(" while building NodeDef '", def->name(), "' using ",
                                            rill::SummarizeOpDef(op_def));
    if (wants_list && !given.is_list) {
      return absl::InvalidArgumentError(
          absl::StrCat("Single tensor passed to '", arg.name(), "', expected list", suffix));
    }
    if (!wants_list && given.is_list) {
      return absl::InvalidArgumentError(absl::StrCat("List provided to input '", arg.name(),
                                                     "' when single Tensor expected", suffix));
    }
    std::vector<rill::DataType> types;
    for (const TF_Output& out : given.outputs) {
      types.push_back(rill::BaseType(OutputType(ToNode(out.oper), out.index)));
    }
    if (!arg.number_attr().empty()) {
      rill::AttrValue v;
      v.set_i(static_cast<int64_t>(types.size()));
      RILL_RETURN_IF_ERROR(
          InferAttr(def, op_def, arg.number_attr(), v, absl::StrCat(types.size())));
    }
    if (!arg.type_list_attr().empty()) {
      rill::AttrValue v;
      for (rill::DataType t : types) v.mutable_list()->add_type(t);
      RILL_RETURN_IF_ERROR(InferAttr(def, op_def, arg.type_list_attr(), v, v.ShortDebugString()));
    }
    if (!arg.type_attr().empty()) {
      for (rill::DataType t : types) {
        rill::AttrValue v;
        v.set_type(t);
        RILL_RETURN_IF_ERROR(InferAttr(def, op_def, arg.type_attr(), v, TypeName(t)));
      }
    }
  }
  return absl::OkStatus();
}

// The type attrs of If/StatelessIf (Tcond, Tin), Case/StatelessCase (Tin), While/StatelessWhile (T)
// and PartitionedCall/StatefulPartitionedCall (Tin) from their inputs, where not set.
void InferFunctionalAttrs(const TF_OperationDescription& desc, rill::NodeDef* def) {
  auto types_of = [](const TF_OperationDescription::InputArg& arg) {
    rill::AttrValue v;
    v.mutable_list();
    for (const TF_Output& out : arg.outputs) {
      v.mutable_list()->add_type(rill::BaseType(OutputType(ToNode(out.oper), out.index)));
    }
    return v;
  };
  auto set_if_absent = [def](const std::string& name, const rill::AttrValue& v) {
    if (def->attr().find(name) == def->attr().end()) (*def->mutable_attr())[name] = v;
  };
  const rill::OpClass c = rill::ClassifyOp(def->op());
  if (c == rill::OpClass::kFunctionalIf && desc.inputs.size() == 2) {
    const rill::AttrValue cond = types_of(desc.inputs[0]);
    if (cond.list().type_size() == 1) {
      rill::AttrValue t;
      t.set_type(cond.list().type(0));
      set_if_absent("Tcond", t);
    }
    set_if_absent("Tin", types_of(desc.inputs[1]));
  } else if (c == rill::OpClass::kFunctionalCase && desc.inputs.size() == 2) {
    set_if_absent("Tin", types_of(desc.inputs[1]));
  } else if (c == rill::OpClass::kFunctionalWhile && desc.inputs.size() == 1) {
    set_if_absent("T", types_of(desc.inputs[0]));
  } else if (c == rill::OpClass::kFunctionCall && desc.inputs.size() == 1) {
    set_if_absent("Tin", types_of(desc.inputs[0]));
  }
}

}  // namespace

// The op's shape function on `node`, reading its producers' shapes (and small constant index
// inputs, and the partial values of other shape inputs), as the importer runs it.
absl::Status InferNodeShapes(rill::Node* node) {
  const rill::OpRegistration* reg = rill::OpRegistry::Global()->LookUp(node->op());
  if (reg == nullptr) {
    node->set_output_shapes(std::vector<rill::PartialTensorShape>(node->num_outputs()));
    return absl::OkStatus();
  }
  std::vector<rill::PartialTensorShape> inputs(node->num_inputs());
  std::vector<const rill::Tensor*> input_tensors(node->num_inputs(), nullptr);
  std::vector<std::unique_ptr<rill::Tensor>> constants;
  for (const rill::Edge* e : node->in_edges()) {
    if (e->IsControlEdge()) continue;
    const auto& produced = e->src()->output_shapes();
    if (e->src_output() < static_cast<int>(produced.size())) {
      inputs[e->dst_input()] = produced[e->src_output()];
    }
    const rill::DataType type = node->input_type(e->dst_input());
    if (type != rill::DT_INT32 && type != rill::DT_INT64) continue;
    std::optional<rill::Tensor> value = rill::ConstantIndexTensor(e->src()->def());
    if (!value) continue;
    constants.push_back(std::make_unique<rill::Tensor>(*std::move(value)));
    input_tensors[e->dst_input()] = constants.back().get();
  }
  rill::ShapeInferenceContext c(node->def(), std::move(inputs), node->num_outputs(),
                                std::move(input_tensors));
  c.set_input_values(rill::InputPartialValues(*node));
  c.set_input_handle_shapes(rill::InputHandleShapes(*node));
  absl::Status s = reg->shape_fn(c);
  if (!s.ok()) {
    if (absl::StrContains(s.message(), absl::StrCat("'", node->name(), "'"))) return s;
    return rill::AnnotateStatus(s, absl::StrCat("Shape inference failed for node '", node->name(),
                                                "' (op ", node->op(), ")"));
  }
  node->set_output_shapes(c.TakeOutputs());
  return absl::OkStatus();
}

namespace {

absl::StatusOr<TF_Operation*> Finish(TF_OperationDescription* desc)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(desc->graph->mu) {
  rill::Graph& g = desc->graph->graph;
  rill::NodeDef def = desc->def;
  const std::string& name = def.name();
  // As in TensorFlow, any name but a duplicate (or, in Rill, an empty one) is taken here: a name
  // TensorFlow's importer refuses ("Node 'a b': Node name contains invalid characters") fails
  // when a session runs the graph or a graph imports its GraphDef, with the importer's error.
  if (g.FindNodeId(name) >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("Duplicate node name in graph: '", name, "'"));
  }
  // A registered op, a call of a library function (its signature is its OpDef), or a
  // functional op the session inlines.
  const rill::OpRegistration* reg = rill::OpRegistry::Global()->LookUp(def.op());
  const rill::FunctionDef* function = reg == nullptr ? FindFunction(g, def.op()) : nullptr;
  if (reg == nullptr && function == nullptr && !IsFunctionalOp(def.op())) {
    // TensorFlow's TF_FinishOperation reports the unknown op through its NodeDefBuilder:
    // InvalidArgument, naming the node being built.
    const absl::Status unknown = rill::OpRegistry::Global()->LookUpOrError(def.op()).status();
    return absl::InvalidArgumentError(
        absl::StrCat(unknown.message(), " while building NodeDef '", name, "'"));
  }
  const rill::OpDef* op_def = reg != nullptr        ? &reg->op_def
                              : function != nullptr ? &function->signature()
                                                    : nullptr;
  std::vector<TF_Output> flat_inputs;
  for (const TF_OperationDescription::InputArg& arg : desc->inputs) {
    for (const TF_Output& out : arg.outputs) {
      RILL_RETURN_IF_ERROR(CheckOutput(g, name, def.op(), out));
      flat_inputs.push_back(out);
      def.add_input(OutputName(out));
    }
  }
  for (TF_Operation* op : desc->control_inputs) {
    const rill::Node* src = ToNode(op);
    const int id = g.FindNodeId(src->name());
    if (id < 0 || g.FindNodeById(id) != src) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", name, "': control input ", src->name(), " is not in this graph"));
    }
    def.add_input(absl::StrCat("^", ToNode(op)->name()));
  }
  if (!desc->colocation.empty()) {
    rill::AttrValue& cls = (*def.mutable_attr())["_class"];
    cls.Clear();
    for (const std::string& c : desc->colocation) cls.mutable_list()->add_s(c);
  }
  std::optional<std::vector<rill::DataType>> declared;
  if (op_def != nullptr) {
    // One TF_AddInput or TF_AddInputList call per input arg, counted as TensorFlow's
    // NodeDefBuilder counts them.
    if (static_cast<int>(desc->inputs.size()) != op_def->input_arg_size()) {
      return absl::InvalidArgumentError(absl::StrCat(desc->inputs.size(), " inputs specified of ",
                                                     op_def->input_arg_size(),
                                                     " inputs in Op while building NodeDef '", name,
                                                     "' using ", rill::SummarizeOpDef(*op_def)));
    }
    RILL_RETURN_IF_ERROR(InferAttrsFromInputs(*desc, *op_def, &def));
    rill::AddDefaultsToNodeDef(*op_def, &def);
    RILL_RETURN_IF_ERROR(rill::ValidateNodeDef(def, *op_def));
  } else {
    InferFunctionalAttrs(*desc, &def);
  }
  if (reg == nullptr) {
    RILL_ASSIGN_OR_RETURN(declared, FunctionalOutputTypes(g, def));
  }

  RILL_ASSIGN_OR_RETURN(rill::Node * node, g.AddNode(def));
  auto undo = [&](absl::Status s) {
    g.RemoveNode(node);
    return s;
  };
  for (size_t i = 0; i < flat_inputs.size(); ++i) {
    absl::StatusOr<const rill::Edge*> e =
        g.AddEdge(ToNode(flat_inputs[i].oper), flat_inputs[i].index, node, static_cast<int>(i));
    if (!e.ok()) return undo(e.status());
  }
  for (TF_Operation* op : desc->control_inputs) g.AddControlEdge(ToNode(op), node);
  if (declared) {
    node->set_output_shapes(std::vector<rill::PartialTensorShape>(declared->size()));
    RecordDeclaredOutputs(node, *std::move(declared));
    return ToOperation(node);
  }
  absl::Status shapes = InferNodeShapes(node);
  if (!shapes.ok()) return undo(shapes);
  return ToOperation(node);
}

}  // namespace
}  // namespace rill_c

using rill_c::SetOk;
using rill_c::SetStatus;
using rill_c::Slot;
using rill_c::ToNode;

extern "C" {

TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  TF_OperationDescription* desc = new TF_OperationDescription;
  desc->graph = graph;
  if (graph == nullptr) rill_c::Fail(desc, absl::InvalidArgumentError("The graph is null"));
  if (op_type == nullptr || oper_name == nullptr) {
    rill_c::Fail(desc, absl::InvalidArgumentError("The op type or the operation name is null"));
  }
  desc->def.set_op(op_type == nullptr ? "" : op_type);
  desc->def.set_name(oper_name == nullptr ? "" : oper_name);
  return desc;
}

TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph, const char* op_type,
                                               const char* oper_name) {
  return TF_NewOperation(graph, op_type, oper_name);
}

void TF_SetDevice(TF_OperationDescription* desc, const char* device) {
  if (desc != nullptr) desc->def.set_device(device == nullptr ? "" : device);
}

void TF_AddInput(TF_OperationDescription* desc, TF_Output input) {
  if (desc == nullptr) return;
  TF_OperationDescription::InputArg arg;
  arg.outputs.push_back(input);
  desc->inputs.push_back(std::move(arg));
}

void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs, int num_inputs) {
  if (desc == nullptr) return;
  if (num_inputs < 0 || (num_inputs > 0 && inputs == nullptr)) {
    return rill_c::Fail(desc, absl::InvalidArgumentError("The input list is null"));
  }
  TF_OperationDescription::InputArg arg;
  arg.is_list = true;
  arg.outputs.assign(inputs, inputs + num_inputs);
  desc->inputs.push_back(std::move(arg));
}

void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input) {
  if (desc == nullptr) return;
  if (input == nullptr) {
    return rill_c::Fail(desc, absl::InvalidArgumentError("A control input is null"));
  }
  desc->control_inputs.push_back(input);
}

void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op) {
  if (desc == nullptr) return;
  if (op == nullptr) {
    return rill_c::Fail(desc, absl::InvalidArgumentError("The colocation operation is null"));
  }
  desc->colocation.insert(absl::StrCat("loc:@", ToNode(op)->name()));
}

void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name, const void* value,
                      size_t length) {
  if (desc != nullptr && !rill_c::IsObjectLength(length)) {
    return rill_c::Fail(desc, rill_c::ObjectLengthError("TF_SetAttrString's length", length));
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr)
    v->set_s(value == nullptr ? "" : std::string(static_cast<const char*>(value), length));
}

void TF_SetAttrStringList(TF_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths, int num_values) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_values && values != nullptr && lengths != nullptr; ++i) {
    v->mutable_list()->add_s(std::string(static_cast<const char*>(values[i]), lengths[i]));
  }
}

void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name, int64_t value) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->set_i(value);
}

void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name, const int64_t* values,
                       int num_values) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_values && values != nullptr; ++i) v->mutable_list()->add_i(values[i]);
}

void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name, float value) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->set_f(value);
}

void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name, const float* values,
                         int num_values) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_values && values != nullptr; ++i) v->mutable_list()->add_f(values[i]);
}

void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name, unsigned char value) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->set_b(value != 0);
}

void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_values && values != nullptr; ++i) {
    v->mutable_list()->add_b(values[i] != 0);
  }
}

void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name, TF_DataType value) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->set_type(static_cast<rill::DataType>(value));
}

void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                        const TF_DataType* values, int num_values) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_values && values != nullptr; ++i) {
    v->mutable_list()->add_type(static_cast<rill::DataType>(values[i]));
  }
}

void TF_SetAttrPlaceholder(TF_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->set_placeholder(placeholder == nullptr ? "" : placeholder);
}

void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name, const char* value,
                        size_t length) {
  if (desc != nullptr && !rill_c::IsObjectLength(length)) {
    return rill_c::Fail(desc, rill_c::ObjectLengthError("TF_SetAttrFuncName's length", length));
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v != nullptr) v->mutable_func()->set_name(value == nullptr ? "" : std::string(value, length));
}

void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name, const int64_t* dims,
                     int num_dims) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr || !rill_c::CheckAttrRank(desc, attr_name, num_dims)) return;
  rill_c::SetShapeProto(dims, num_dims, v->mutable_shape());
}

void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims, int num_shapes) {
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) return;
  v->mutable_list();
  for (int i = 0; i < num_shapes && dims != nullptr && num_dims != nullptr; ++i) {
    if (!rill_c::CheckAttrRank(desc, attr_name, num_dims[i])) return;
    rill_c::SetShapeProto(dims[i], num_dims[i], v->mutable_list()->add_shape());
  }
}

void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc, const char* attr_name,
                                const void* proto, size_t proto_len, TF_Status* status) {
  rill::TensorShapeProto shape;
  if (proto == nullptr || !rill_c::ParseFromBytes(proto, proto_len, &shape)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable TensorShapeProto"));
  }
  if (shape.dim_size() > rill::TensorShape::kMaxRank) {
    return SetStatus(status,
                     absl::InvalidArgumentError(absl::StrCat(
                         "Value specified for `", attr_name == nullptr ? "" : attr_name, "` has ",
                         shape.dim_size(), " dimensions which is over the limit of ",
                         rill::TensorShape::kMaxRank, ".")));
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The description or attr name is null"));
  }
  *v->mutable_shape() = shape;
  SetOk(status);
}

void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc, const char* attr_name,
                                    const void* const* protos, const size_t* proto_lens,
                                    int num_shapes, TF_Status* status) {
  rill::AttrValue list;
  list.mutable_list();
  for (int i = 0; i < num_shapes; ++i) {
    rill::TensorShapeProto* shape = list.mutable_list()->add_shape();
    if (protos == nullptr || proto_lens == nullptr || protos[i] == nullptr ||
        !rill_c::ParseFromBytes(protos[i], proto_lens[i], shape)) {
      return SetStatus(status, absl::InvalidArgumentError(
                                   absl::StrCat("Unparseable TensorShapeProto at index ", i)));
    }
    if (shape->dim_size() > rill::TensorShape::kMaxRank) {
      return SetStatus(status,
                       absl::InvalidArgumentError(absl::StrCat(
                           "Value specified for `", attr_name == nullptr ? "" : attr_name, "` has ",
                           shape->dim_size(), " dimensions which is over the limit of ",
                           rill::TensorShape::kMaxRank, ".")));
    }
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The description or attr name is null"));
  }
  *v = list;
  SetOk(status);
}

void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name, TF_Tensor* value,
                      TF_Status* status) {
  absl::StatusOr<rill::Tensor> t = rill_c::ToRillTensor(value);
  if (!t.ok()) return SetStatus(status, t.status());
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The description or attr name is null"));
  }
  rill::TensorToProto(*t, v->mutable_tensor());
  SetOk(status);
}

void TF_SetAttrTensorList(TF_OperationDescription* desc, const char* attr_name,
                          TF_Tensor* const* values, int num_values, TF_Status* status) {
  rill::AttrValue list;
  list.mutable_list();
  for (int i = 0; i < num_values; ++i) {
    absl::StatusOr<rill::Tensor> t = rill_c::ToRillTensor(values == nullptr ? nullptr : values[i]);
    if (!t.ok()) return SetStatus(status, t.status());
    rill::TensorToProto(*t, list.mutable_list()->add_tensor());
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The description or attr name is null"));
  }
  *v = list;
  SetOk(status);
}

void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name, const void* proto,
                          size_t proto_len, TF_Status* status) {
  rill::AttrValue value;
  if (proto == nullptr || !rill_c::ParseFromBytes(proto, proto_len, &value)) {
    return SetStatus(status, absl::InvalidArgumentError("Unparseable AttrValue proto"));
  }
  rill::AttrValue* v = Slot(desc, attr_name);
  if (v == nullptr) {
    return SetStatus(status, absl::InvalidArgumentError("The description or attr name is null"));
  }
  *v = value;
  SetOk(status);
}

TF_Operation* TF_FinishOperation(TF_OperationDescription* desc, TF_Status* status) {
  if (desc == nullptr) {
    SetStatus(status, absl::InvalidArgumentError("The operation description is null"));
    return nullptr;
  }
  std::unique_ptr<TF_OperationDescription> owned(desc);
  if (!desc->error.ok()) {
    SetStatus(status, desc->error);
    return nullptr;
  }
  absl::StatusOr<TF_Operation*> op;
  {
    rill::MutexLock lock(&desc->graph->mu);
    op = rill_c::Finish(desc);
  }
  if (!op.ok()) {
    SetStatus(status, op.status());
    return nullptr;
  }
  SetOk(status);
  return *op;
}

TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc, TF_Status* status) {
  return TF_FinishOperation(desc, status);
}

}  // extern "C"
