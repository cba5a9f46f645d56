// The variable scatter kernels on the CPU: ScatterUpdate / Add / Sub / Mul / Div / Max / Min (rows
// picked by `indices`) and ScatterNdUpdate / Add / Sub (slices picked by index tuples), and their
// resource forms ResourceScatter* and ResourceScatterNdUpdate / Add. A ref form updates the
// variable behind its ref input in place (UpdateRefInPlace: use_locking holds the variable's mutex
// for the whole update; without it concurrent updates race as in TensorFlow) and forwards the ref;
// a resource form swaps an updated copy in under the lock (NotFound "Resource localhost/v does not
// exist." for a variable never assigned, as TensorFlow's NotFound). The arithmetic and TensorFlow's
// error texts are in scatter_update.h; FailedPrecondition "Attempting to use uninitialized value v"
// before the variable's first Assign.
//
// Thread safety: Compute is const and keeps no state.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/state/scatter_update.h"
#include "kernels/state/variable.h"
#include "kernels/state/variable_ops.h"

namespace rill {
namespace {

using variable_kernels::InputNodeName;
using variable_kernels::UpdateRefInPlace;

// bad_indices_policy (the Nd ops): "IGNORE" skips indices outside the variable; "", "DEFAULT" and
// "ERROR" report them.
absl::Status ParseBadIndicesPolicy(OpKernelConstruction& ctx, bool* ignore_bad) {
  std::string policy;
  if (!ctx.GetAttr("bad_indices_policy", &policy).ok()) return absl::OkStatus();
  *ignore_bad = policy == "IGNORE";
  if (!*ignore_bad && !policy.empty() && policy != "DEFAULT" && policy != "ERROR") {
    return absl::InvalidArgumentError(absl::StrCat(
        "Unknown bad_indices_policy: ", policy, ", expected one of \"\", DEFAULT, ERROR, IGNORE"));
  }
  return absl::OkStatus();
}

// The update both forms make to the variable's value.
template <ScatterOp kOp, bool kNd>
absl::Status Scatter(const Tensor& indices, const Tensor& updates, bool ignore_bad, Tensor& var) {
  if (kNd) return ApplyScatterNd(kOp, indices, updates, ignore_bad, &var);
  RILL_RETURN_IF_ERROR(ValidateScatter(var, indices, updates));
  return ApplyScatter(kOp, indices, updates, &var);
}

// ScatterAdd & co.: in place on the variable behind the ref input.
template <ScatterOp kOp, bool kNd>
class RefScatterOp final : public OpKernel {
 public:
  explicit RefScatterOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
    ctx.SetStatus(ParseBadIndicesPolicy(ctx, &ignore_bad_));
    var_name_ = InputNodeName(ctx.def(), 0);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(1);
    const Tensor& updates = ctx.input(2);
    return UpdateRefInPlace(ctx, *this, use_locking_, var_name_, [&](Tensor& var) {
      return Scatter<kOp, kNd>(indices, updates, ignore_bad_, var);
    });
  }

 private:
  bool use_locking_ = false;
  bool ignore_bad_ = false;
  std::string var_name_;
};

// ResourceScatterAdd & co.: the variable's value copied into a fresh buffer, updated and swapped
// in under the variable's lock (earlier ReadVariableOp values stay as they were; nothing changes
// on error).
template <ScatterOp kOp, bool kNd>
class ResourceScatterOp final : public OpKernel {
 public:
  explicit ResourceScatterOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ParseBadIndicesPolicy(ctx, &ignore_bad_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(ResourceHandle handle, ResourceHandleFromTensor(ctx.input(0)));
    RILL_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, ctx.device()->resource_manager()->Lookup<Var>(
                                                        handle.container, handle.name));
    const Tensor& indices = ctx.input(1);
    const Tensor& updates = ctx.input(2);
    rill::WriterMutexLock lock(var->mu());
    if (!var->is_initialized()) return UninitializedVariableError(handle, absl::OkStatus());
    const Tensor& old_value = *var->tensor();
    if (old_value.dtype() != updates.dtype()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Trying to update variable with wrong dtype. Expected ",
          DataTypeString(old_value.dtype()), " got ", DataTypeString(updates.dtype())));
    }
    RILL_ASSIGN_OR_RETURN(Tensor value, ctx.allocate_temp(old_value.dtype(), old_value.shape()));
    CopyTensorElements(old_value, &value);
    RILL_RETURN_IF_ERROR((Scatter<kOp, kNd>(indices, updates, ignore_bad_, value)));
    *var->tensor() = std::move(value);
    return absl::OkStatus();
  }

 private:
  bool ignore_bad_ = false;
};

// The dtypes the conformance recorder covers: TensorFlow's numbertype without bfloat16 and the
// unsigned 16/32/64-bit types.
std::vector<DataType> Numbers() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF,  DT_INT32,     DT_INT64,
          DT_UINT8, DT_INT8,   DT_INT16, DT_COMPLEX64, DT_COMPLEX128};
}
std::vector<DataType> NumbersAndBool() {
  std::vector<DataType> out = Numbers();
  out.push_back(DT_BOOL);
  return out;
}
std::vector<DataType> Reals() { return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64}; }

#define RILL_REGISTER_SCATTER(name, op, nd, types, kernel, dtype_attr)   \
  REGISTER_KERNEL(KernelDefBuilder(name)                                 \
                      .Device(kDeviceCpu)                                \
                      .TypeConstraint(dtype_attr, types())               \
                      .TypeConstraint("Tindices", {DT_INT32, DT_INT64}), \
                  kernel<ScatterOp::op, nd>)
#define RILL_REGISTER_REF_SCATTER(name, op, nd, types) \
  RILL_REGISTER_SCATTER(name, op, nd, types, RefScatterOp, "T")
// The resource forms' dtype attr: "dtype", "T" for the Nd ones.
#define RILL_REGISTER_RESOURCE_SCATTER(name, op, nd, types) \
  RILL_REGISTER_SCATTER(name, op, nd, types, ResourceScatterOp, nd ? "T" : "dtype")

RILL_REGISTER_REF_SCATTER("ScatterUpdate", kUpdate, false, NumbersAndBool);
RILL_REGISTER_REF_SCATTER("ScatterAdd", kAdd, false, Numbers);
RILL_REGISTER_REF_SCATTER("ScatterSub", kSub, false, Numbers);
RILL_REGISTER_REF_SCATTER("ScatterMul", kMul, false, Numbers);
RILL_REGISTER_REF_SCATTER("ScatterDiv", kDiv, false, Numbers);
RILL_REGISTER_REF_SCATTER("ScatterMax", kMax, false, Reals);
RILL_REGISTER_REF_SCATTER("ScatterMin", kMin, false, Reals);
RILL_REGISTER_REF_SCATTER("ScatterNdUpdate", kUpdate, true, NumbersAndBool);
RILL_REGISTER_REF_SCATTER("ScatterNdAdd", kAdd, true, Numbers);
RILL_REGISTER_REF_SCATTER("ScatterNdSub", kSub, true, Numbers);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterUpdate", kUpdate, false, NumbersAndBool);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterAdd", kAdd, false, Numbers);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterSub", kSub, false, Numbers);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterMul", kMul, false, Numbers);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterDiv", kDiv, false, Numbers);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterMax", kMax, false, Reals);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterMin", kMin, false, Reals);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterNdUpdate", kUpdate, true, NumbersAndBool);
RILL_REGISTER_RESOURCE_SCATTER("ResourceScatterNdAdd", kAdd, true, Numbers);

#undef RILL_REGISTER_RESOURCE_SCATTER
#undef RILL_REGISTER_REF_SCATTER
#undef RILL_REGISTER_SCATTER

}  // namespace
}  // namespace rill
