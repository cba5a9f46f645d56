#include "graph/gradients/grad_registry.h"

#include <cstdlib>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "ops/attr_value_util.h"

namespace rill {
namespace {

absl::Status MissingAttr(const GradOp& op, absl::string_view attr, absl::string_view kind) {
  return absl::InvalidArgumentError(
      absl::StrCat("Node '", op.name(), "' (", op.type(), ") has no ", kind, " attr '", attr, "'"));
}

}  // namespace

absl::StatusOr<bool> GradOp::GetBool(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || v->value_case() != AttrValue::kB) return MissingAttr(*this, attr, "bool");
  return v->b();
}

absl::StatusOr<int64_t> GradOp::GetInt(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || v->value_case() != AttrValue::kI) return MissingAttr(*this, attr, "int");
  return v->i();
}

absl::StatusOr<float> GradOp::GetFloat(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || v->value_case() != AttrValue::kF) return MissingAttr(*this, attr, "float");
  return v->f();
}

absl::StatusOr<std::string> GradOp::GetString(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || v->value_case() != AttrValue::kS) return MissingAttr(*this, attr, "string");
  return v->s();
}

absl::StatusOr<DataType> GradOp::GetType(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || v->value_case() != AttrValue::kType) return MissingAttr(*this, attr, "type");
  return v->type();
}

absl::StatusOr<std::vector<int64_t>> GradOp::GetInts(absl::string_view attr) const {
  const AttrValue* v = FindNodeAttr(node, attr);
  if (v == nullptr || (v->value_case() != AttrValue::kList && v->value_case() != 0)) {
    return MissingAttr(*this, attr, "list(int)");
  }
  return std::vector<int64_t>(v->list().i().begin(), v->list().i().end());
}

bool GradOp::BoolOr(absl::string_view attr, bool fallback) const {
  absl::StatusOr<bool> v = GetBool(attr);
  return v.ok() ? *v : fallback;
}

GradRegistry* GradRegistry::Global() {
  static GradRegistry* registry = new GradRegistry;
  return registry;
}

void GradRegistry::Register(absl::string_view op, GradFunc fn) {
  if (!entries_.emplace(std::string(op), Entry{std::move(fn)}).second) {
    std::cerr << "Rill: gradient of op '" << op << "' registered twice\n";
    std::abort();
  }
}

void GradRegistry::RegisterNoGradient(absl::string_view op) { Register(op, GradFunc()); }

const GradFunc* GradRegistry::Find(absl::string_view op, bool* no_gradient) const {
  auto it = entries_.find(op);
  *no_gradient = it != entries_.end() && !it->second.fn;
  if (it == entries_.end() || !it->second.fn) return nullptr;
  return &it->second.fn;
}

std::vector<std::string> GradRegistry::OpsWithGradient() const {
  std::vector<std::string> ops;
  for (const auto& [op, entry] : entries_) {
    if (entry.fn) ops.push_back(op);
  }
  return ops;
}

std::vector<std::string> GradRegistry::OpsWithoutGradient() const {
  std::vector<std::string> ops;
  for (const auto& [op, entry] : entries_) {
    if (!entry.fn) ops.push_back(op);
  }
  return ops;
}

}  // namespace rill
