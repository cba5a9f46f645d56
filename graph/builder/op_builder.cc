#include "graph/builder/op_builder.h"

#include <utility>

namespace rill {

OpBuilder::OpBuilder(const Scope& scope, absl::string_view op_type, absl::string_view default_name)
    : scope_(scope), op_type_(op_type), default_name_(default_name) {}

OpBuilder& OpBuilder::Input(const Output& input) {
  inputs_.push_back({input});
  return *this;
}

OpBuilder& OpBuilder::Input(const ::rill::Input& input) {
  inputs_.push_back({input.ToOutput(scope_)});
  return *this;
}

OpBuilder& OpBuilder::InputList(absl::Span<const Output> inputs) {
  inputs_.emplace_back(inputs.begin(), inputs.end());
  return *this;
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const AttrValue& value) {
  (*attrs_.mutable_attr())[std::string(name)] = value;
  return *this;
}

OpBuilder& OpBuilder::Attr(absl::string_view name, bool value) {
  AttrValue v;
  v.set_b(value);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, int value) {
  return Attr(name, static_cast<int64_t>(value));
}

OpBuilder& OpBuilder::Attr(absl::string_view name, int64_t value) {
  AttrValue v;
  v.set_i(value);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, float value) {
  AttrValue v;
  v.set_f(value);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, DataType value) {
  AttrValue v;
  v.set_type(value);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, absl::string_view value) {
  AttrValue v;
  v.set_s(std::string(value));
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const char* value) {
  return Attr(name, absl::string_view(value));
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const std::string& value) {
  return Attr(name, absl::string_view(value));
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const PartialTensorShape& value) {
  AttrValue v;
  value.AsProto(v.mutable_shape());
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const TensorShape& value) {
  AttrValue v;
  value.AsProto(v.mutable_shape());
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const TensorProto& value) {
  AttrValue v;
  *v.mutable_tensor() = value;
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const std::vector<DataType>& value) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (DataType t : value) list->add_type(t);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const std::vector<std::string>& value) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (const std::string& s : value) list->add_s(s);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Attr(absl::string_view name, const std::vector<int64_t>& value) {
  AttrValue v;
  auto* list = v.mutable_list();
  for (int64_t i : value) list->add_i(i);
  return Attr(name, v);
}

OpBuilder& OpBuilder::Fail(const absl::Status& status) {
  if (error_.ok()) error_ = status;
  return *this;
}

Operation OpBuilder::Finalize() { return scope_.AddNode(*this); }

}  // namespace rill
