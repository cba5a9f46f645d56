#include "ops/op_registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/registration_errors.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "google/protobuf/text_format.h"
#include "ops/node_def_util.h"

namespace rill {
namespace {

absl::Status SpecError(const std::string& op, absl::string_view spec, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Op '", op, "': cannot parse spec '", spec, "': ", why));
}

// Shorthands TensorFlow's OpDefs use for sets of types.
std::vector<DataType> NamedTypeSet(absl::string_view name) {
  if (name == "numbertype") {
    return {DT_FLOAT,  DT_DOUBLE,     DT_INT32,  DT_UINT8,  DT_INT16,    DT_INT8,   DT_COMPLEX64,
            DT_INT64,  DT_QINT8,      DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_QINT16, DT_QUINT16,
            DT_UINT16, DT_COMPLEX128, DT_HALF,   DT_UINT32, DT_UINT64};
  }
  if (name == "realnumbertype") {
    return {DT_FLOAT, DT_DOUBLE,   DT_INT32,  DT_UINT8, DT_INT16,  DT_INT8,
            DT_INT64, DT_BFLOAT16, DT_UINT16, DT_HALF,  DT_UINT32, DT_UINT64};
  }
  if (name == "floatingpoint") return {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE};
  return {};
}

absl::Status ParseDefault(const std::string& op, absl::string_view spec, const std::string& type,
                          absl::string_view text, AttrValue* out) {
  text = absl::StripAsciiWhitespace(text);
  if (type == "bool") {
    if (text == "true")
      out->set_b(true);
    else if (text == "false")
      out->set_b(false);
    else
      return SpecError(op, spec, "bad bool default");
  } else if (type == "int") {
    int64_t v;
    if (!absl::SimpleAtoi(text, &v)) return SpecError(op, spec, "bad int default");
    out->set_i(v);
  } else if (type == "float") {
    float v;
    if (!absl::SimpleAtof(text, &v)) return SpecError(op, spec, "bad float default");
    out->set_f(v);
  } else if (type == "string") {
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') {
      return SpecError(op, spec, "string default must be quoted");
    }
    out->set_s(std::string(text.substr(1, text.size() - 2)));
  } else if (type == "type") {
    absl::StatusOr<DataType> dt = DataTypeFromString(text);
    if (!dt.ok()) return SpecError(op, spec, dt.status().message());
    out->set_type(*dt);
  } else if (type == "shape") {
    if (!google::protobuf::TextFormat::ParseFromString(
            std::string(absl::StripSuffix(absl::StripPrefix(text, "{"), "}")),
            out->mutable_shape())) {
      return SpecError(op, spec, "bad shape default");
    }
  } else if (absl::StartsWith(type, "list(")) {
    // [] for any list; list(int) also takes values: "[1, 1, 1, 1]" (Conv2D's dilations).
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
      return SpecError(op, spec, "list default must be in brackets");
    }
    auto* list = out->mutable_list();
    const absl::string_view items = absl::StripAsciiWhitespace(text.substr(1, text.size() - 2));
    if (!items.empty()) {
      if (type != "list(int)") {
        return SpecError(op, spec, "only list(int) defaults may have values");
      }
      for (absl::string_view item : absl::StrSplit(items, ',')) {
        int64_t v;
        if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(item), &v)) {
          return SpecError(op, spec, "bad list(int) default");
        }
        list->add_i(v);
      }
    }
  } else {
    return SpecError(op, spec, "defaults are not supported for this attr type");
  }
  return absl::OkStatus();
}

absl::Status ParseAttr(const std::string& op, const std::string& spec, OpDef::AttrDef* attr) {
  std::pair<std::string, std::string> nt = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  attr->set_name(std::string(absl::StripAsciiWhitespace(nt.first)));
  std::string rest(absl::StripAsciiWhitespace(nt.second));
  if (attr->name().empty() || rest.empty()) return SpecError(op, spec, "want 'name: type'");
  std::string default_text;
  size_t eq = rest.find('=');
  while (eq != std::string::npos && eq > 0 && rest[eq - 1] == '>') eq = rest.find('=', eq + 1);
  if (eq != std::string::npos) {
    default_text = rest.substr(eq + 1);
    rest = std::string(absl::StripAsciiWhitespace(rest.substr(0, eq)));
  }
  if (size_t ge = rest.find(">="); ge != std::string::npos) {
    int64_t min;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest.substr(ge + 2)), &min)) {
      return SpecError(op, spec, "bad minimum");
    }
    attr->set_has_minimum(true);
    attr->set_minimum(min);
    rest = std::string(absl::StripAsciiWhitespace(rest.substr(0, ge)));
  }
  std::vector<DataType> allowed;
  if (absl::StartsWith(rest, "{'")) {  // a string attr with allowed values: {'A', 'B'}
    if (!absl::EndsWith(rest, "}")) return SpecError(op, spec, "unclosed '{'");
    for (absl::string_view v : absl::StrSplit(rest.substr(1, rest.size() - 2), ',')) {
      v = absl::StripAsciiWhitespace(v);
      if (v.size() < 2 || v.front() != '\'' || v.back() != '\'') {
        return SpecError(op, spec, "allowed strings must be single-quoted");
      }
      attr->mutable_allowed_values()->mutable_list()->add_s(std::string(v.substr(1, v.size() - 2)));
    }
    rest = "string";
  } else if (absl::StartsWith(rest, "{") || absl::StartsWith(rest, "list({")) {
    // A type attr, or a list of types (SparseCross's "list({int64, string})"), with allowed types.
    const bool list = rest[0] == 'l';
    const std::string close = list ? "})" : "}";
    if (!absl::EndsWith(rest, close)) return SpecError(op, spec, "unclosed '{'");
    const size_t open = list ? 6 : 1;
    for (absl::string_view t :
         absl::StrSplit(rest.substr(open, rest.size() - open - close.size()), ',')) {
      t = absl::StripAsciiWhitespace(t);
      absl::StatusOr<DataType> dt = DataTypeFromString(t);
      if (!dt.ok()) return SpecError(op, spec, dt.status().message());
      allowed.push_back(*dt);
    }
    rest = list ? "list(type)" : "type";
  } else if (std::vector<DataType> set = NamedTypeSet(rest); !set.empty()) {
    allowed = set;
    rest = "type";
  }
  static const char* kTypes[] = {"string",       "int",         "float",        "bool",
                                 "type",         "shape",       "tensor",       "func",
                                 "list(string)", "list(int)",   "list(float)",  "list(bool)",
                                 "list(type)",   "list(shape)", "list(tensor)", "list(func)"};
  bool known = false;
  for (const char* t : kTypes) known |= (rest == t);
  if (!known) return SpecError(op, spec, absl::StrCat("unknown attr type '", rest, "'"));
  attr->set_type(rest);
  if (!allowed.empty()) {
    for (DataType dt : allowed) attr->mutable_allowed_values()->mutable_list()->add_type(dt);
  }
  if (!default_text.empty()) {
    RILL_RETURN_IF_ERROR(ParseDefault(op, spec, rest, default_text, attr->mutable_default_value()));
  }
  return absl::OkStatus();
}

absl::Status ParseArg(const std::string& op, const std::string& spec, const OpDef& def,
                      OpDef::ArgDef* arg) {
  std::pair<std::string, std::string> nt = absl::StrSplit(spec, absl::MaxSplits(':', 1));
  arg->set_name(std::string(absl::StripAsciiWhitespace(nt.first)));
  std::string type(absl::StripAsciiWhitespace(nt.second));
  if (arg->name().empty() || type.empty()) return SpecError(op, spec, "want 'name: type'");
  if (absl::StartsWith(type, "Ref(") && absl::EndsWith(type, ")")) {
    arg->set_is_ref(true);
    type = type.substr(4, type.size() - 5);
  }
  if (size_t star = type.find('*'); star != std::string::npos) {
    arg->set_number_attr(std::string(absl::StripAsciiWhitespace(type.substr(0, star))));
    type = std::string(absl::StripAsciiWhitespace(type.substr(star + 1)));
  }
  absl::StatusOr<DataType> fixed = DataTypeFromString(type);
  if (fixed.ok()) {
    arg->set_type(*fixed);
    return absl::OkStatus();
  }
  for (const auto& attr : def.attr()) {
    if (attr.name() != type) continue;
    if (attr.type() == "type") {
      arg->set_type_attr(type);
    } else if (attr.type() == "list(type)") {
      arg->set_type_list_attr(type);
    } else {
      return SpecError(op, spec, absl::StrCat("attr '", type, "' is not a type attr"));
    }
    return absl::OkStatus();
  }
  return SpecError(op, spec, absl::StrCat("'", type, "' is neither a dtype nor a declared attr"));
}

}  // namespace

OpDefBuilder::OpDefBuilder(std::string name) : name_(std::move(name)) {}
OpDefBuilder& OpDefBuilder::Input(std::string spec) {
  inputs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::Output(std::string spec) {
  outputs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::Attr(std::string spec) {
  attrs_.push_back(std::move(spec));
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsStateful() {
  stateful_ = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetIsCommutative() {
  commutative_ = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetAllowsUninitializedInput() {
  allows_uninitialized_ = true;
  return *this;
}
OpDefBuilder& OpDefBuilder::SetShapeFn(ShapeFn fn) {
  shape_fn_ = std::move(fn);
  return *this;
}
OpDefBuilder& OpDefBuilder::Doc(std::string summary) {
  summary_ = std::move(summary);
  return *this;
}

absl::StatusOr<OpRegistration> OpDefBuilder::Finalize() const {
  OpRegistration reg;
  OpDef& def = reg.op_def;
  def.set_name(name_);
  def.set_is_stateful(stateful_);
  def.set_is_commutative(commutative_);
  def.set_allows_uninitialized_input(allows_uninitialized_);
  def.set_summary(summary_);
  for (const std::string& a : attrs_) RILL_RETURN_IF_ERROR(ParseAttr(name_, a, def.add_attr()));
  for (const std::string& s : inputs_) {
    RILL_RETURN_IF_ERROR(ParseArg(name_, s, def, def.add_input_arg()));
  }
  for (const std::string& s : outputs_) {
    RILL_RETURN_IF_ERROR(ParseArg(name_, s, def, def.add_output_arg()));
  }
  reg.shape_fn = shape_fn_ ? shape_fn_ : ShapeFn(shape_fns::Unknown);
  reg.has_shape_fn = static_cast<bool>(shape_fn_);
  return reg;
}

OpRegistry* OpRegistry::Global() {
  static OpRegistry* const registry = new OpRegistry();
  return registry;
}

absl::Status OpRegistry::Register(OpRegistration registration) {
  rill::MutexLock lock(&mu_);
  const std::string name = registration.op_def.name();
  if (ops_.count(name)) {
    return absl::AlreadyExistsError(absl::StrCat("Op '", name, "' is registered twice"));
  }
  ops_[name] = std::make_unique<OpRegistration>(std::move(registration));
  return absl::OkStatus();
}

const OpRegistration* OpRegistry::LookUp(absl::string_view op) const {
  rill::MutexLock lock(&mu_);
  auto it = ops_.find(op);
  return it == ops_.end() ? nullptr : it->second.get();
}

absl::StatusOr<const OpRegistration*> OpRegistry::LookUpOrError(absl::string_view op) const {
  if (const OpRegistration* r = LookUp(op)) return r;
  return absl::NotFoundError(absl::StrCat(
      "Op type not registered '", op,
      "' in binary running on Rill. Make sure the Op and Kernel are registered in the binary "
      "running in this process."));
}

std::vector<std::string> OpRegistry::ListOps(bool include_internal) const {
  rill::MutexLock lock(&mu_);
  std::vector<std::string> names;
  for (const auto& [name, reg] : ops_) {
    if (include_internal || name.empty() || name[0] != '_') names.push_back(name);
  }
  return names;
}

absl::StatusOr<std::vector<DataType>> OutputTypesForNode(const NodeDef& node) {
  RILL_ASSIGN_OR_RETURN(const OpRegistration* reg, OpRegistry::Global()->LookUpOrError(node.op()));
  NodeDef filled = node;
  AddDefaultsToNodeDef(reg->op_def, &filled);
  DataTypeVector in, out;
  RILL_RETURN_IF_ERROR(InOutTypesForNode(filled, reg->op_def, &in, &out));
  return out;
}

namespace op_registry_internal {
OpRegistrar::OpRegistrar(const OpDefBuilder& builder) {
  absl::StatusOr<OpRegistration> reg = builder.Finalize();
  absl::Status s = reg.ok() ? OpRegistry::Global()->Register(*std::move(reg)) : reg.status();
  if (!s.ok()) ReportRegistrationError(s, "op");
}
}  // namespace op_registry_internal

}  // namespace rill
