// TF_GetAllRegisteredKernels and TF_GetRegisteredKernelsForOp: Rill's kernel registry as
// TensorFlow's serialized KernelList.
#include <string>

#include "c/c_api_internal.h"
#include "c/kernel_def.pb.h"
#include "kernels/framework/kernel_registry.h"

namespace rill_c {
namespace {

TF_Buffer* KernelsFor(const char* op, TF_Status* status) {
  rill::c_api::KernelList list;
  for (const rill::KernelDef& k : rill::KernelRegistry::Global()->ListKernels()) {
    if (op != nullptr && k.op != op) continue;
    rill::c_api::KernelDef* def = list.add_kernel();
    def->set_op(k.op);
    def->set_device_type(k.device_type);
    for (const auto& [attr, types] : k.type_constraints) {
      rill::c_api::KernelDef::AttrConstraint* c = def->add_constraint();
      c->set_name(attr);
      rill::AttrValue::ListValue* allowed = c->mutable_allowed_values()->mutable_list();
      for (rill::DataType t : types) allowed->add_type(t);
    }
    for (const std::string& arg : k.host_memory_args) def->add_host_memory_arg(arg);
  }
  TF_Buffer* buffer = TF_NewBuffer();
  SetStatus(status, SerializeToBuffer(list, buffer));
  return buffer;
}

}  // namespace
}  // namespace rill_c

extern "C" {

TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status) {
  return rill_c::KernelsFor(nullptr, status);
}

TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  if (name == nullptr) {
    rill_c::SetStatus(status, absl::InvalidArgumentError("The op name is null"));
    return nullptr;
  }
  return rill_c::KernelsFor(name, status);
}

}  // extern "C"
