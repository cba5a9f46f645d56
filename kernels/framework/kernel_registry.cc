#include "kernels/framework/kernel_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/registration_errors.h"
#include "core/status_macros.h"
#include "core/types.h"

namespace rill {
namespace {

bool Matches(const KernelDef& def, const NodeDef& node) {
  for (const auto& constraint : def.type_constraints) {
    const auto& allowed = constraint.second;  // a plain reference: lambdas may capture it
    const AttrValue* v = FindNodeAttr(node, constraint.first);
    if (v == nullptr) return false;
    auto ok = [&](int t) {
      return std::find(allowed.begin(), allowed.end(), static_cast<DataType>(t)) != allowed.end();
    };
    if (v->value_case() == AttrValue::kType) {
      if (!ok(v->type())) return false;
    } else if (v->value_case() == AttrValue::kList) {
      for (int t : v->list().type()) {
        if (!ok(t)) return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string KernelDef::DebugString() const {
  std::string s = absl::StrCat("device='", device_type, "'");
  for (const auto& [attr, types] : type_constraints) {
    std::vector<std::string> names;
    for (DataType t : types) names.push_back(DataType_Name(t));
    absl::StrAppend(&s, "; ", attr, " in [", absl::StrJoin(names, ", "), "]");
  }
  return s;
}

KernelRegistry* KernelRegistry::Global() {
  static KernelRegistry* const registry = new KernelRegistry();
  return registry;
}

absl::Status KernelRegistry::Register(KernelDef def, KernelFactory factory) {
  rill::MutexLock lock(&mu_);
  auto range = kernels_.equal_range(def.op);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.def.device_type == def.device_type &&
        it->second.def.type_constraints == def.type_constraints) {
      return absl::AlreadyExistsError(absl::StrCat("Kernel for op '", def.op, "' (",
                                                   def.DebugString(), ") is registered twice"));
    }
  }
  std::string op = def.op;
  kernels_.emplace(op, Entry{std::move(def), std::move(factory)});
  return absl::OkStatus();
}

const KernelRegistry::Entry* KernelRegistry::Find(const NodeDef& node,
                                                  absl::string_view device_type,
                                                  bool cuda_kernels) const {
  rill::MutexLock lock(&mu_);
  // One descent of the tree (equal_range makes two), then the op's entries in order.
  for (auto it = kernels_.lower_bound(node.op()); it != kernels_.end() && it->first == node.op();
       ++it) {
    if (!cuda_kernels && it->second.def.needs_cuda) continue;
    if (it->second.def.device_type == device_type && Matches(it->second.def, node)) {
      return &it->second;
    }
  }
  return nullptr;
}

absl::StatusOr<const KernelDef*> KernelRegistry::FindKernelDef(
    const NodeDef& node, absl::string_view device_type) const {
  const Entry* e = Find(node, device_type);
  if (e == nullptr) {
    return absl::NotFoundError(absl::StrCat("No ", device_type, " kernel for op '", node.op(),
                                            "' of node '", node.name(), "'"));
  }
  return &e->def;
}

absl::StatusOr<std::unique_ptr<OpKernel>> KernelRegistry::CreateKernel(const NodeDef& node,
                                                                       const OpDef& op_def,
                                                                       Device* device) const {
  const Entry* e = Find(node, device->device_type());
  if (e == nullptr) return NoKernelError(node, {device->device_type()});
  DataTypeVector in, out;
  RILL_RETURN_IF_ERROR(InOutTypesForNode(node, op_def, &in, &out));
  OpKernelConstruction ctx(&node, &op_def, device, std::move(in), std::move(out));
  return e->factory(ctx);
}

absl::Status KernelRegistry::HostMemoryArgs(const NodeDef& node, const OpDef& op_def,
                                            absl::string_view device_type,
                                            std::vector<bool>* inputs,
                                            std::vector<bool>* outputs) const {
  DataTypeVector in, out;
  RILL_RETURN_IF_ERROR(InOutTypesForNode(node, op_def, &in, &out));
  inputs->assign(in.size(), device_type == kDeviceCpu);
  outputs->assign(out.size(), device_type == kDeviceCpu);
  if (device_type == kDeviceCpu) return absl::OkStatus();
  // Strings and resource handles are host objects on every device, kernel or not.
  for (size_t i = 0; i < in.size(); ++i) (*inputs)[i] = DataTypeAlwaysOnHost(in[i]);
  for (size_t i = 0; i < out.size(); ++i) (*outputs)[i] = DataTypeAlwaysOnHost(out[i]);
  const Entry* e = Find(node, device_type);
  if (e == nullptr) return absl::OkStatus();
  // Walk the OpDef's args to map arg names to flat input/output indices.
  auto mark = [&](const auto& args, const DataTypeVector& types, std::vector<bool>* flags) {
    size_t index = 0;
    for (const auto& arg : args) {
      DataTypeVector one;
      int64_t n = 1;
      if (!arg.number_attr().empty()) GetNodeAttr(node, arg.number_attr(), &n).IgnoreError();
      std::vector<DataType> list;
      if (!arg.type_list_attr().empty() && GetNodeAttr(node, arg.type_list_attr(), &list).ok()) {
        n = static_cast<int64_t>(list.size());
      }
      const bool host = std::find(e->def.host_memory_args.begin(), e->def.host_memory_args.end(),
                                  arg.name()) != e->def.host_memory_args.end();
      for (int64_t k = 0; k < n && index < types.size(); ++k, ++index) {
        // int32 tensors on a GPU always live on the host, as in TensorFlow.
        (*flags)[index] = host || (*flags)[index] || BaseType(types[index]) == DT_INT32;
      }
    }
  };
  mark(op_def.input_arg(), in, inputs);
  mark(op_def.output_arg(), out, outputs);
  return absl::OkStatus();
}

std::vector<std::string> KernelRegistry::SupportedDeviceTypes(
    const NodeDef& node, const std::vector<std::string>& device_types) const {
  std::vector<std::string> out;
  for (const std::string& type : device_types) {
    if (Find(node, type) != nullptr) out.push_back(type);
  }
  return out;
}

std::vector<std::string> KernelRegistry::WithoutCuda::SupportedDeviceTypes(
    const NodeDef& node, const std::vector<std::string>& device_types) const {
  std::vector<std::string> out;
  for (const std::string& type : device_types) {
    if (registry_->Find(node, type, /*cuda_kernels=*/false) != nullptr) out.push_back(type);
  }
  return out;
}

absl::Status KernelRegistry::NoKernelError(const NodeDef& node,
                                           const std::vector<std::string>& device_types) const {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& [k, v] : node.attr()) {
    if (!k.empty() && k[0] != '_') attrs.emplace_back(k, SummarizeAttrValue(v));
  }
  std::sort(attrs.begin(), attrs.end());
  std::vector<std::string> registered;
  {
    rill::MutexLock lock(&mu_);
    auto range = kernels_.equal_range(node.op());
    for (auto it = range.first; it != range.second; ++it) {
      registered.push_back(absl::StrCat("  ", it->second.def.DebugString()));
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "No OpKernel was registered to support Op '", node.op(), "' used by {{node ", node.name(),
      "}} with these attrs: [", absl::StrJoin(attrs, ", ", absl::PairFormatter("=")),
      "]\nRegistered devices: [", absl::StrJoin(device_types, ", "), "]\nRegistered kernels:\n",
      registered.empty() ? "  <no registered kernels>" : absl::StrJoin(registered, "\n"), "\n"));
}

std::vector<KernelDef> KernelRegistry::ListKernels() const {
  rill::MutexLock lock(&mu_);
  std::vector<KernelDef> out;
  for (const auto& [op, e] : kernels_) out.push_back(e.def);
  return out;
}

namespace kernel_registry_internal {
KernelRegistrar::KernelRegistrar(const KernelDefBuilder& builder, KernelFactory factory) {
  absl::Status s = KernelRegistry::Global()->Register(builder.Build(), std::move(factory));
  if (!s.ok()) ReportRegistrationError(s, "kernel");
}
}  // namespace kernel_registry_internal

}  // namespace rill
