// The kernels of resource variables, for every device (the device-specific copies and updates
// come from `Ops`, as in kernels/state/variable_ops.h: CpuDenseOps on the CPU, the GPU's in
// kernels/gpu/). Every update writes a fresh buffer under the variable's mutex, so values returned
// by ReadVariableOp are stable snapshots (see kernels/state/variable.h for the Var and the
// handles).
//   VarHandleOp          outputs the handle "<container or localhost>/<shared_name or node name>"
//                        (a scalar string tensor standing for DT_RESOURCE), built once. Creates
//                        nothing. Cheap.
//   ReadVariableOp       the value. FailedPrecondition with TensorFlow's text "Error while reading
//                        resource variable v from Container: localhost. This could mean that the
//                        variable was uninitialized. ..." when it does not exist or was never
//                        assigned; InvalidArgument "Trying to read variable with wrong dtype.
//                        Expected float got int32". Cheap.
//   AssignVariableOp     creates the Var if needed and stores a copy of the value. InvalidArgument
//                        for a dtype mismatch, and with validate_shape for a shape change.
//   AssignAddVariableOp  var = var + value (AssignSubVariableOp: var - value) under the lock.
//                        FailedPrecondition as ReadVariableOp when missing or uninitialized;
//                        InvalidArgument "Cannot update variable with shape [2] using a Tensor with
//                        shape [3], shapes must be equal."
//   VariableShape        the value's shape as an int32 / int64 vector. NotFound "Resource
//                        localhost/v does not exist." before the first AssignVariableOp; an int32
//                        output refuses dims past 2^31 - 1 (InvalidArgument). Cheap.
//   DestroyResourceOp    drops the variable from the ResourceMgr (values already read stay valid);
//                        NotFound "Resource localhost/v does not exist." for a missing one
//                        unless ignore_lookup_error (the default). Cheap.
//   VarIsInitializedOp   scalar bool: the variable exists and has been assigned. Cheap.
#ifndef RILL_KERNELS_STATE_RESOURCE_VARIABLE_OPS_H_
#define RILL_KERNELS_STATE_RESOURCE_VARIABLE_OPS_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/state/variable.h"

namespace rill {
namespace variable_kernels {

// The Var behind input 0 (FailedPrecondition, as UninitializedVariableError, when there is none).
inline absl::StatusOr<std::shared_ptr<Var>> LookupVar(OpKernelContext& ctx,
                                                      ResourceHandle* handle) {
  return LookupResourceVar(*ctx.device()->resource_manager(), ctx.input(0), handle);
}

class VarHandleOp final : public OpKernel {
 public:
  explicit VarHandleOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::string container, shared_name;
    ctx.SetStatus(ctx.GetAttr("container", &container));
    ctx.SetStatus(ctx.GetAttr("shared_name", &shared_name));
    if (container.empty()) container = kDefaultContainer;
    if (shared_name.empty()) shared_name = ctx.def().name();
    if (container.find('/') != std::string::npos) {
      ctx.SetStatus(absl::InvalidArgumentError(
          absl::StrCat("VarHandleOp node ", ctx.def().name(), ": container '", container,
                       "' contains '/', which Rill's resource handles cannot hold")));
    }
    handle_ = MakeResourceHandleTensor(container, shared_name);
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ctx.set_output(0, handle_);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  Tensor handle_;  // Immutable after construction.
};

class ReadVariableOp final : public OpKernel {
 public:
  explicit ReadVariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ResourceHandle handle;
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, LookupVar(ctx, &handle));
    rill::ReaderMutexLock lock(var->mu());
    if (!var->is_initialized()) return UninitializedVariableError(handle, absl::OkStatus());
    if (var->tensor()->dtype() != dtype_) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to read variable with wrong dtype. Expected ",
                       DataTypeString(dtype_), " got ", DataTypeString(var->tensor()->dtype())));
    }
    ctx.set_output(0, *var->tensor());
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
};

template <typename Ops>
class AssignVariableOp final : public OpKernel {
 public:
  explicit AssignVariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Ops::CheckDevice(ctx));
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
    ctx.SetStatus(ctx.GetAttr("validate_shape", &validate_shape_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResourceHandle handle, ResourceHandleFromTensor(ctx.input(0)));
    const DataType dtype = dtype_;
    RILL_ASSIGN_OR_RETURN(
        std::shared_ptr<Var> var,
        ctx.device()->resource_manager()->LookupOrCreate<Var>(
            handle.container, handle.name, [dtype] { return std::make_shared<Var>(dtype); }));
    const Tensor& value = ctx.input(1);
    if (var->dtype() != value.dtype()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to assign variable with wrong dtype. Expected ",
                       DataTypeString(var->dtype()), " got ", DataTypeString(value.dtype())));
    }
    RILL_ASSIGN_OR_RETURN(Tensor copy, ctx.allocate_temp(value.dtype(), value.shape()));
    RILL_RETURN_IF_ERROR(Ops::Copy(ctx, value, &copy));
    rill::WriterMutexLock lock(var->mu());
    if (validate_shape_ && var->is_initialized() && var->tensor()->shape() != value.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to assign to variable with tensor with wrong shape. Expected ",
                       var->tensor()->shape().DebugString(), " got ", value.shape().DebugString()));
    }
    *var->tensor() = std::move(copy);
    return absl::OkStatus();
  }

 private:
  DataType dtype_ = DT_INVALID;
  bool validate_shape_ = false;
};

template <DenseUpdate kOp, typename Ops>
class AssignUpdateVariableOp final : public OpKernel {
 public:
  explicit AssignUpdateVariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Ops::CheckDevice(ctx));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ResourceHandle handle;
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, LookupVar(ctx, &handle));
    const Tensor& value = ctx.input(1);
    rill::WriterMutexLock lock(var->mu());
    if (!var->is_initialized()) return UninitializedVariableError(handle, absl::OkStatus());
    const Tensor old_value = *var->tensor();
    if (old_value.dtype() != value.dtype()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Trying to update variable with wrong dtype. Expected ",
                       DataTypeString(old_value.dtype()), " got ", DataTypeString(value.dtype())));
    }
    if (old_value.shape() != value.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Cannot update variable with shape ", old_value.shape().DebugString(),
          " using a Tensor with shape ", value.shape().DebugString(), ", shapes must be equal."));
    }
    RILL_ASSIGN_OR_RETURN(Tensor updated, ctx.allocate_temp(value.dtype(), value.shape()));
    RILL_RETURN_IF_ERROR(Ops::Update(ctx, kOp, old_value, value, &updated));
    *var->tensor() = std::move(updated);
    return absl::OkStatus();
  }
};

class VariableShapeOp final : public OpKernel {
 public:
  explicit VariableShapeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("out_type", &out_type_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    ResourceHandle handle;
    RILL_ASSIGN_OR_RETURN(Tensor value, SnapshotResourceVar(*ctx.device()->resource_manager(),
                                                            ctx.input(0), &handle));
    const TensorShape& shape = value.shape();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape({shape.rank()})));
    for (int d = 0; d < shape.rank(); ++d) {
      if (out_type_ == DT_INT32) {
        if (shape.dim(d) > std::numeric_limits<int32_t>::max()) {
          return absl::InvalidArgumentError(
              absl::StrCat("VariableShape node ", name(), ": dimension ", d, " of the variable (",
                           shape.dim(d), ") does not fit out_type int32; ask for int64"));
        }
        out->flat<int32_t>()[d] = static_cast<int32_t>(shape.dim(d));
      } else {
        out->flat<int64_t>()[d] = shape.dim(d);
      }
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType out_type_ = DT_INT32;
};

class DestroyResourceOp final : public OpKernel {
 public:
  explicit DestroyResourceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("ignore_lookup_error", &ignore_lookup_error_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResourceHandle handle, ResourceHandleFromTensor(ctx.input(0)));
    const absl::Status deleted =
        ctx.device()->resource_manager()->Delete(handle.container, handle.name);
    if (ignore_lookup_error_ && absl::IsNotFound(deleted)) return absl::OkStatus();
    return deleted;
  }
  bool IsExpensive() const override { return false; }

 private:
  bool ignore_lookup_error_ = true;
};

class VarIsInitializedOp final : public OpKernel {
 public:
  explicit VarIsInitializedOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResourceHandle handle, ResourceHandleFromTensor(ctx.input(0)));
    absl::StatusOr<std::shared_ptr<Var>> var =
        ctx.device()->resource_manager()->Lookup<Var>(handle.container, handle.name);
    bool initialized = false;
    if (var.ok()) {
      rill::ReaderMutexLock lock((*var)->mu());
      initialized = (*var)->is_initialized();
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, TensorShape()));
    out->flat<bool>()[0] = initialized;
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

}  // namespace variable_kernels
}  // namespace rill

#endif  // RILL_KERNELS_STATE_RESOURCE_VARIABLE_OPS_H_
