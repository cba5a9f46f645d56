// Registers the reference-variable kernels (kernels/state/variable_ops.h) for the CPU.
#include "kernels/state/variable_ops.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/state/variable.h"

namespace rill {
namespace {

using variable_kernels::AssignOp;
using variable_kernels::AssignUpdateOp;
using variable_kernels::CpuDenseOps;
using variable_kernels::VariableOp;

REGISTER_KERNEL(
    KernelDefBuilder("VariableV2").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    VariableOp);
REGISTER_KERNEL(
    KernelDefBuilder("Variable").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    VariableOp);
REGISTER_KERNEL(KernelDefBuilder("Assign").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                AssignOp<CpuDenseOps>);
REGISTER_KERNEL(KernelDefBuilder("AssignAdd").Device(kDeviceCpu).TypeConstraint("T", NumberTypes()),
                AssignUpdateOp<DenseUpdate::kAdd, CpuDenseOps>);
REGISTER_KERNEL(KernelDefBuilder("AssignSub").Device(kDeviceCpu).TypeConstraint("T", NumberTypes()),
                AssignUpdateOp<DenseUpdate::kSub, CpuDenseOps>);

}  // namespace
}  // namespace rill
