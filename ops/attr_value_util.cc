#include "ops/attr_value_util.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/types.h"

namespace rill {
namespace {

std::string ListKind(const AttrValue::ListValue& l) {
  if (l.s_size()) return "list(string)";
  if (l.i_size()) return "list(int)";
  if (l.f_size()) return "list(float)";
  if (l.b_size()) return "list(bool)";
  if (l.type_size()) return "list(type)";
  if (l.shape_size()) return "list(shape)";
  if (l.tensor_size()) return "list(tensor)";
  if (l.func_size()) return "list(func)";
  return "list(?)";
}

std::string ShapeString(const TensorShapeProto& s) {
  if (s.unknown_rank()) return "<unknown>";
  return absl::StrCat("[",
                      absl::StrJoin(s.dim(), ",",
                                    [](std::string* out, const auto& d) {
                                      absl::StrAppend(out,
                                                      d.size() < 0 ? "?" : absl::StrCat(d.size()));
                                    }),
                      "]");
}

absl::Status Missing(const NodeDef& node, absl::string_view name) {
  return absl::InvalidArgumentError(
      absl::StrCat("No attr named '", name, "' in NodeDef: {{node ", node.name(), "}}"));
}

absl::Status WrongType(const NodeDef& node, absl::string_view name, const AttrValue& v,
                       absl::string_view want) {
  return absl::InvalidArgumentError(
      absl::StrCat("AttrValue had value with type '", AttrValueTypeName(v), "' when '", want,
                   "' expected\n\t for attr '", name, "' of node '", node.name(), "'"));
}

// Looks up `name` and checks its kind; on success stores the value in *v.
absl::Status Lookup(const NodeDef& node, absl::string_view name, absl::string_view want,
                    const AttrValue** v) {
  *v = FindNodeAttr(node, name);
  if (*v == nullptr) return Missing(node, name);
  if (!AttrValueHasType(**v, want)) return WrongType(node, name, **v, want);
  return absl::OkStatus();
}

}  // namespace

std::string AttrValueTypeName(const AttrValue& v) {
  switch (v.value_case()) {
    case AttrValue::kS:
      return "string";
    case AttrValue::kI:
      return "int";
    case AttrValue::kF:
      return "float";
    case AttrValue::kB:
      return "bool";
    case AttrValue::kType:
      return "type";
    case AttrValue::kShape:
      return "shape";
    case AttrValue::kTensor:
      return "tensor";
    case AttrValue::kFunc:
      return "func";
    case AttrValue::kPlaceholder:
      return "placeholder";
    case AttrValue::kList:
      return ListKind(v.list());
    default:
      return "";
  }
}

bool AttrValueHasType(const AttrValue& v, absl::string_view type) {
  const std::string got = AttrValueTypeName(v);
  if (got == type) return true;
  return got == "list(?)" && absl::StartsWith(type, "list(");
}

std::string SummarizeAttrValue(const AttrValue& v) {
  switch (v.value_case()) {
    case AttrValue::kS:
      return absl::StrCat("\"", v.s(), "\"");
    case AttrValue::kI:
      return absl::StrCat(v.i());
    case AttrValue::kF:
      return absl::StrCat(v.f());
    case AttrValue::kB:
      return v.b() ? "true" : "false";
    case AttrValue::kType:
      return DataType_Name(v.type());
    case AttrValue::kShape:
      return ShapeString(v.shape());
    case AttrValue::kTensor:
      return absl::StrCat("<tensor ", DataTypeString(v.tensor().dtype()), " ",
                          ShapeString(v.tensor().tensor_shape()), ">");
    case AttrValue::kFunc:
      return v.func().name();
    case AttrValue::kPlaceholder:
      return absl::StrCat("$", v.placeholder());
    case AttrValue::kList: {
      const auto& l = v.list();
      std::vector<std::string> parts;
      for (const auto& s : l.s()) parts.push_back(absl::StrCat("\"", s, "\""));
      for (auto i : l.i()) parts.push_back(absl::StrCat(i));
      for (auto f : l.f()) parts.push_back(absl::StrCat(f));
      for (auto b : l.b()) parts.push_back(b ? "true" : "false");
      for (auto t : l.type()) parts.push_back(DataType_Name(static_cast<DataType>(t)));
      for (const auto& s : l.shape()) parts.push_back(ShapeString(s));
      for (const auto& f : l.func()) parts.push_back(f.name());
      return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
    }
    default:
      return "<Unknown AttrValue type>";
  }
}

const AttrValue* FindNodeAttr(const NodeDef& node, absl::string_view name) {
  auto it = node.attr().find(std::string(name));
  return it == node.attr().end() ? nullptr : &it->second;
}

absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::string* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "string", &v);
  if (s.ok()) *out = v->s();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, int64_t* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "int", &v);
  if (s.ok()) *out = v->i();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, int32_t* out) {
  int64_t v;
  absl::Status s = GetNodeAttr(node, name, &v);
  if (s.ok()) {
    if (v < INT32_MIN || v > INT32_MAX) {
      return absl::InvalidArgumentError(absl::StrCat("Attr '", name, "' of node '", node.name(),
                                                     "' has value ", v, " out of range for int32"));
    }
    *out = static_cast<int32_t>(v);
  }
  return s;
}
absl::Status CheckInt32Attr(absl::string_view name, int64_t v) {
  if (v >= INT32_MIN && v <= INT32_MAX) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Attr ", name, " has value ", v, " out of range for an int32"));
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, float* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "float", &v);
  if (s.ok()) *out = v->f();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, bool* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "bool", &v);
  if (s.ok()) *out = v->b();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, DataType* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "type", &v);
  if (s.ok()) *out = v->type();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, TensorShapeProto* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "shape", &v);
  if (s.ok()) *out = v->shape();
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::vector<DataType>* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "list(type)", &v);
  if (s.ok()) {
    out->clear();
    for (int t : v->list().type()) out->push_back(static_cast<DataType>(t));
  }
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name,
                         std::vector<std::string>* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "list(string)", &v);
  if (s.ok()) out->assign(v->list().s().begin(), v->list().s().end());
  return s;
}
absl::Status GetNodeAttr(const NodeDef& node, absl::string_view name, std::vector<int64_t>* out) {
  const AttrValue* v;
  absl::Status s = Lookup(node, name, "list(int)", &v);
  if (s.ok()) out->assign(v->list().i().begin(), v->list().i().end());
  return s;
}

static AttrValue& Slot(NodeDef* node, absl::string_view name) {
  return (*node->mutable_attr())[std::string(name)];
}
void SetAttr(NodeDef* n, absl::string_view name, const std::string& v) { Slot(n, name).set_s(v); }
void SetAttr(NodeDef* n, absl::string_view name, const char* v) { Slot(n, name).set_s(v); }
void SetAttr(NodeDef* n, absl::string_view name, int64_t v) { Slot(n, name).set_i(v); }
void SetAttr(NodeDef* n, absl::string_view name, int v) { Slot(n, name).set_i(v); }
void SetAttr(NodeDef* n, absl::string_view name, float v) { Slot(n, name).set_f(v); }
void SetAttr(NodeDef* n, absl::string_view name, bool v) { Slot(n, name).set_b(v); }
void SetAttr(NodeDef* n, absl::string_view name, DataType v) { Slot(n, name).set_type(v); }
void SetAttr(NodeDef* n, absl::string_view name, const std::vector<DataType>& v) {
  auto* l = Slot(n, name).mutable_list();
  l->Clear();
  for (DataType t : v) l->add_type(t);
}
void SetAttr(NodeDef* n, absl::string_view name, const std::vector<std::string>& v) {
  auto* l = Slot(n, name).mutable_list();
  l->Clear();
  for (const auto& s : v) l->add_s(s);
}
void SetAttr(NodeDef* n, absl::string_view name, const std::vector<int64_t>& v) {
  auto* l = Slot(n, name).mutable_list();
  l->Clear();
  for (int64_t i : v) l->add_i(i);
}
void SetAttr(NodeDef* n, absl::string_view name, const TensorShapeProto& v) {
  *Slot(n, name).mutable_shape() = v;
}

}  // namespace rill
