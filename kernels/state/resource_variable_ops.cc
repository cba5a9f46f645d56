// Registers the resource-variable kernels (kernels/state/resource_variable_ops.h) for the CPU.
#include "kernels/state/resource_variable_ops.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/type_lists.h"
#include "kernels/state/variable.h"
#include "kernels/state/variable_ops.h"

namespace rill {
namespace {

using variable_kernels::AssignUpdateVariableOp;
using variable_kernels::AssignVariableOp;
using variable_kernels::CpuDenseOps;
using variable_kernels::DestroyResourceOp;
using variable_kernels::ReadVariableOp;
using variable_kernels::VarHandleOp;
using variable_kernels::VariableShapeOp;
using variable_kernels::VarIsInitializedOp;

REGISTER_KERNEL(
    KernelDefBuilder("VarHandleOp").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    VarHandleOp);
REGISTER_KERNEL(
    KernelDefBuilder("ReadVariableOp").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    ReadVariableOp);
REGISTER_KERNEL(KernelDefBuilder("AssignVariableOp")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", StorableTypes()),
                AssignVariableOp<CpuDenseOps>);
REGISTER_KERNEL(KernelDefBuilder("AssignAddVariableOp")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", NumberTypes()),
                AssignUpdateVariableOp<DenseUpdate::kAdd, CpuDenseOps>);
REGISTER_KERNEL(KernelDefBuilder("AssignSubVariableOp")
                    .Device(kDeviceCpu)
                    .TypeConstraint("dtype", NumberTypes()),
                AssignUpdateVariableOp<DenseUpdate::kSub, CpuDenseOps>);
REGISTER_KERNEL(KernelDefBuilder("VariableShape")
                    .Device(kDeviceCpu)
                    .TypeConstraint("out_type", {DT_INT32, DT_INT64})
                    .HostMemory("output"),
                VariableShapeOp);
REGISTER_KERNEL(KernelDefBuilder("DestroyResourceOp").Device(kDeviceCpu), DestroyResourceOp);
REGISTER_KERNEL(KernelDefBuilder("VarIsInitializedOp").Device(kDeviceCpu), VarIsInitializedOp);

}  // namespace
}  // namespace rill
