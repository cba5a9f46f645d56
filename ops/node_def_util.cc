#include "ops/node_def_util.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

std::string ArgSummary(const OpDef::ArgDef& arg) {
  std::string type =
      arg.type_attr().empty()
          ? (arg.type_list_attr().empty() ? DataTypeString(arg.type()) : arg.type_list_attr())
          : arg.type_attr();
  if (!arg.number_attr().empty()) type = absl::StrCat(arg.number_attr(), "*", type);
  if (arg.is_ref()) type = absl::StrCat("Ref(", type, ")");
  return absl::StrCat(arg.name(), ":", type);
}

// Appends the dtypes of one arg to `out`; a dtype repeated by a number attr (the common case)
// without a temporary list, as this runs for every arg of every node a graph is built from.
absl::Status AddArgTypes(const NodeDef& node, const OpDef::ArgDef& arg, DataTypeVector* out) {
  if (!arg.type_list_attr().empty()) {
    std::vector<DataType> types;
    RILL_RETURN_IF_ERROR(GetNodeAttr(node, arg.type_list_attr(), &types));
    for (DataType dt : types) out->push_back(arg.is_ref() ? MakeRefType(dt) : dt);
  } else {
    DataType dt = arg.type();
    if (!arg.type_attr().empty()) RILL_RETURN_IF_ERROR(GetNodeAttr(node, arg.type_attr(), &dt));
    int64_t n = 1;
    if (!arg.number_attr().empty()) RILL_RETURN_IF_ERROR(GetNodeAttr(node, arg.number_attr(), &n));
    if (n < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Attr '", arg.number_attr(), "' of node '",
                                                     node.name(), "' must be >= 0, got ", n));
    }
    // A list's length comes from the graph: bounded before anything is sized by it (Unpack with
    // num = 1e9 would otherwise make a billion outputs and die in std::bad_alloc).
    if (n > kMaxArgListLength) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Attr '", arg.number_attr(), "' of node '", node.name(), "' is ", n,
          ": Rill allows at most ", kMaxArgListLength, " tensors in one input or output list ('",
          arg.name(), "' of ", node.op(), ")"));
    }
    out->insert(out->end(), n, arg.is_ref() ? MakeRefType(dt) : dt);
  }
  return absl::OkStatus();
}

// A dtype in a type or list(type) attr must name a value type: not DT_INVALID, a code outside
// the DataType enum or a reference type (TensorFlow's AttrValueHasType and its texts).
absl::Status CheckAttrDataType(int code, bool in_list) {
  const DataType dt = static_cast<DataType>(code);
  if (!DataType_IsValid(code)) {
    return absl::InvalidArgumentError(absl::StrCat("AttrValue has invalid DataType enum: ", code));
  }
  if (IsRefType(dt)) {
    return absl::InvalidArgumentError(
        absl::StrCat("AttrValue must not have reference type value of ", DataTypeString(dt)));
  }
  if (dt == DT_INVALID) {
    return absl::InvalidArgumentError(in_list ? "AttrValue contains invalid DataType"
                                              : "AttrValue has invalid DataType");
  }
  return absl::OkStatus();
}

absl::Status ValidateAttrValue(const NodeDef& node, const OpDef::AttrDef& def,
                               const AttrValue& value) {
  if (!AttrValueHasType(value, def.type())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "AttrValue had value with type '", AttrValueTypeName(value), "' when '", def.type(),
        "' expected\n\t for attr '", def.name(), "'\n\t; NodeDef: {{node ", node.name(), "}}"));
  }
  absl::Status dtype_ok;
  if (def.type() == "type") {
    dtype_ok = CheckAttrDataType(value.type(), false);
  } else if (def.type() == "list(type)") {
    for (int t : value.list().type()) {
      dtype_ok = CheckAttrDataType(t, true);
      if (!dtype_ok.ok()) break;
    }
  }
  if (!dtype_ok.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(dtype_ok.message(), "\n\t for attr '",
                                                   def.name(), "'\n\t; NodeDef: {{node ",
                                                   node.name(), "}}"));
  }
  if (def.has_minimum()) {
    // TensorFlow's texts: "Value for attr 'N' of 0 ..." for an int, "Length for attr
    // 'output_shapes' of 0 ..." for a list (of any element kind).
    const bool is_int = def.type() == "int";
    const AttrValue::ListValue& l = value.list();
    const int64_t got = is_int ? value.i()
                               : l.s_size() + l.i_size() + l.f_size() + l.b_size() + l.type_size() +
                                     l.shape_size() + l.tensor_size() + l.func_size();
    if (got < def.minimum()) {
      return absl::InvalidArgumentError(absl::StrCat(is_int ? "Value" : "Length", " for attr '",
                                                     def.name(), "' of ", got,
                                                     " must be at least minimum ", def.minimum(),
                                                     "\n\t; NodeDef: {{node ", node.name(), "}}"));
    }
  }
  if (def.has_allowed_values() && def.allowed_values().list().type_size() > 0) {
    const auto& allowed = def.allowed_values().list().type();
    auto check = [&](int t) -> absl::Status {
      for (int a : allowed) {
        if (a == t) return absl::OkStatus();
      }
      std::vector<DataType> names;
      for (int a : allowed) names.push_back(static_cast<DataType>(a));
      return absl::InvalidArgumentError(absl::StrCat(
          "Value for attr '", def.name(), "' of ", DataTypeString(static_cast<DataType>(t)),
          " is not in the list of allowed values: ", DataTypeListString(names),
          "\n\t; NodeDef: {{node ", node.name(), "}}"));
    };
    if (value.value_case() == AttrValue::kType) RILL_RETURN_IF_ERROR(check(value.type()));
    for (int t : value.list().type()) RILL_RETURN_IF_ERROR(check(t));
  }
  if (def.has_allowed_values() && def.allowed_values().list().s_size() > 0 &&
      value.value_case() == AttrValue::kS) {
    const auto& allowed = def.allowed_values().list().s();
    if (std::find(allowed.begin(), allowed.end(), value.s()) == allowed.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Value for attr '", def.name(), "' of \"", value.s(),
          "\" is not in the list of allowed values: \"", absl::StrJoin(allowed, "\", \""),
          "\"\n\t; NodeDef: {{node ", node.name(), "}}"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<InputName> ParseInputName(absl::string_view input) {
  InputName out;
  if (absl::StartsWith(input, "^")) {
    out.node = std::string(input.substr(1));
    out.index = -1;
  } else if (size_t colon = input.rfind(':'); colon != absl::string_view::npos) {
    out.node = std::string(input.substr(0, colon));
    if (!absl::SimpleAtoi(input.substr(colon + 1), &out.index) || out.index < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Malformed input '", input, "': the part after ':' must be an output index"));
    }
  } else {
    out.node = std::string(input);
  }
  if (out.node.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Malformed input '", input, "': empty node name"));
  }
  return out;
}

std::string SummarizeOpDef(const OpDef& op) {
  std::vector<std::string> in, out, attrs;
  for (const auto& a : op.input_arg()) in.push_back(ArgSummary(a));
  for (const auto& a : op.output_arg()) out.push_back(ArgSummary(a));
  for (const auto& a : op.attr()) {
    std::string s = absl::StrCat(a.name(), ":", a.type());
    if (a.has_default_value())
      absl::StrAppend(&s, ",default=", SummarizeAttrValue(a.default_value()));
    if (a.has_minimum()) absl::StrAppend(&s, ",min=", a.minimum());
    if (a.has_allowed_values()) {
      absl::StrAppend(&s, ",allowed=", SummarizeAttrValue(a.allowed_values()));
    }
    attrs.push_back(s);
  }
  std::string r = absl::StrCat("Op<name=", op.name(), "; signature=", absl::StrJoin(in, ", "),
                               " -> ", absl::StrJoin(out, ", "));
  if (!attrs.empty()) absl::StrAppend(&r, "; attr=", absl::StrJoin(attrs, "; "));
  if (op.is_stateful()) absl::StrAppend(&r, "; is_stateful=true");
  return r + ">";
}

std::string SummarizeNodeDef(const NodeDef& node) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& [k, v] : node.attr()) attrs.emplace_back(k, SummarizeAttrValue(v));
  std::sort(attrs.begin(), attrs.end());
  return absl::StrCat("{{node ", node.name(), "}} = ", node.op(), "[",
                      absl::StrJoin(attrs, ", ", absl::PairFormatter("=")), "](",
                      absl::StrJoin(node.input(), ", "), ")",
                      node.device().empty() ? "" : absl::StrCat(", device=", node.device()));
}

void AddDefaultsToNodeDef(const OpDef& op_def, NodeDef* node) {
  for (const auto& attr : op_def.attr()) {
    if (attr.has_default_value() && !node->attr().count(attr.name())) {
      (*node->mutable_attr())[attr.name()] = attr.default_value();
    }
  }
}

int NumDataInputs(const NodeDef& node) {
  int n = 0;
  for (const std::string& in : node.input()) {
    if (!absl::StartsWith(in, "^")) ++n;
  }
  return n;
}

absl::Status ValidateNodeDefAttrs(const NodeDef& node, const OpDef& op_def) {
  for (const auto& [name, value] : node.attr()) {
    if (absl::StartsWith(name, "_")) continue;
    const OpDef::AttrDef* def = nullptr;
    for (const auto& a : op_def.attr()) {
      if (a.name() == name) def = &a;
    }
    if (def == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("NodeDef mentions attr '", name, "' not in ", SummarizeOpDef(op_def),
                       "; NodeDef: {{node ", node.name(),
                       "}}. (Check whether your GraphDef-interpreting "
                       "binary is up to date with your GraphDef-generating binary.)."));
    }
    RILL_RETURN_IF_ERROR(ValidateAttrValue(node, *def, value));
  }
  for (const auto& a : op_def.attr()) {
    if (!node.attr().count(a.name())) {
      return absl::InvalidArgumentError(absl::StrCat("NodeDef missing attr '", a.name(), "' from ",
                                                     SummarizeOpDef(op_def), "; NodeDef: {{node ",
                                                     node.name(), "}}"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateNodeDef(const NodeDef& node, const OpDef& op_def) {
  RILL_RETURN_IF_ERROR(ValidateNodeDefAttrs(node, op_def));
  DataTypeVector inputs, outputs;
  RILL_RETURN_IF_ERROR(InOutTypesForNode(node, op_def, &inputs, &outputs));
  // Control inputs must come after data inputs.
  bool seen_control = false;
  for (const std::string& in : node.input()) {
    if (absl::StartsWith(in, "^")) {
      seen_control = true;
    } else if (seen_control) {
      return absl::InvalidArgumentError(absl::StrCat("Node '", node.name(), "': data input '", in,
                                                     "' comes after a control input"));
    }
  }
  if (NumDataInputs(node) != static_cast<int>(inputs.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("NodeDef expected inputs '", DataTypeListString(inputs), "' do not match ",
                     NumDataInputs(node), " inputs specified; ", SummarizeOpDef(op_def),
                     "; NodeDef: ", SummarizeNodeDef(node)));
  }
  return absl::OkStatus();
}

absl::Status InOutTypesForNode(const NodeDef& node, const OpDef& op_def, DataTypeVector* inputs,
                               DataTypeVector* outputs) {
  inputs->clear();
  outputs->clear();
  for (const auto& arg : op_def.input_arg()) RILL_RETURN_IF_ERROR(AddArgTypes(node, arg, inputs));
  for (const auto& arg : op_def.output_arg()) {
    RILL_RETURN_IF_ERROR(AddArgTypes(node, arg, outputs));
  }
  return absl::OkStatus();
}

}  // namespace rill
