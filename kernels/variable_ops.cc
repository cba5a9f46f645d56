// TF1 reference variables on the CPU: VariableV2/Variable output a ref to a Var kept in the
// device's ResourceMgr (container attr, shared_name or the node name); Assign copies a value in
// (validate_shape, use_locking); AssignAdd/AssignSub update in place holding the variable's lock
// for the whole read-modify-write when use_locking is set.
#include "absl/strings/str_cat.h"
#include "kernels/kernel_registry.h"
#include "kernels/variable.h"

namespace rill {
namespace {

class VariableOp final : public OpKernel {
 public:
  explicit VariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
    if (ctx.status().ok()) ctx.SetStatus(ctx.GetAttr("container", &container_));
    if (ctx.status().ok()) ctx.SetStatus(ctx.GetAttr("shared_name", &shared_name_));
    if (shared_name_.empty()) shared_name_ = ctx.def().name();
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType dtype = dtype_;
    absl::StatusOr<std::shared_ptr<Var>> var =
        ctx.device()->resource_manager()->LookupOrCreate<Var>(
            container_, shared_name_, [dtype] { return std::make_shared<Var>(dtype); });
    if (!var.ok()) return var.status();
    // The Var lives as long as the ResourceMgr (the session), so the raw pointers stay valid.
    ctx.set_output_ref(0, &(*var)->mu, &(*var)->tensor);
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  DataType dtype_ = DT_INVALID;
  std::string container_, shared_name_;
};

class AssignOp final : public OpKernel {
 public:
  explicit AssignOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("validate_shape", &validate_shape_));
    if (ctx.status().ok()) ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorValue& ref = ctx.input_value(0);
    if (!ref.is_ref()) return absl::InternalError("Assign needs a ref input");
    const Tensor value = ctx.input(1);
    absl::StatusOr<Tensor> copy = value.DeepCopy();  // the variable owns its buffer
    if (!copy.ok()) return copy.status();
    {
      absl::MutexLock lock(ref.ref_mu);  // Assign always swaps under the lock (cheap)
      if (validate_shape_ && ref.ref->IsInitialized() && ref.ref->shape() != value.shape()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Assign requires shapes of both tensors to match. lhs shape= ",
            ref.ref->shape().DebugString(), " rhs shape= ", value.shape().DebugString()));
      }
      *ref.ref = *std::move(copy);
    }
    ctx.forward_ref_input_to_ref_output(0, 0);
    return absl::OkStatus();
  }

 private:
  bool validate_shape_ = true;
  bool use_locking_ = true;
};

template <bool kAdd>
class AssignUpdateOp final : public OpKernel {
 public:
  explicit AssignUpdateOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorValue& ref = ctx.input_value(0);
    if (!ref.is_ref()) return absl::InternalError("AssignAdd/AssignSub needs a ref input");
    const Tensor value = ctx.input(1);
    std::unique_ptr<absl::MutexLock> lock;
    if (use_locking_) lock = std::make_unique<absl::MutexLock>(ref.ref_mu);
    Tensor var = *ref.ref;
    if (!var.IsInitialized()) {
      return absl::FailedPreconditionError(
          absl::StrCat("Attempting to use uninitialized value ", def().input(0)));
    }
    if (var.shape() != value.shape()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Must have the same shape: ", var.shape().DebugString(), " vs. ",
                       value.shape().DebugString()));
    }
    absl::Status s = VisitDataType(var.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        return absl::InvalidArgumentError("cannot update a variable of " +
                                          DataTypeString(var.dtype()));
      } else {
        auto v = var.flat<T>();
        auto d = value.flat<T>();
        for (size_t i = 0; i < v.size(); ++i) {
          if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
            const float x = static_cast<float>(v[i]), y = static_cast<float>(d[i]);
            v[i] = T(kAdd ? x + y : x - y);
          } else {
            v[i] = kAdd ? v[i] + d[i] : v[i] - d[i];
          }
        }
        return absl::OkStatus();
      }
    });
    if (!s.ok()) return s;
    ctx.forward_ref_input_to_ref_output(0, 0);
    return absl::OkStatus();
  }

 private:
  bool use_locking_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("VariableV2").Device(kDeviceCpu), VariableOp);
REGISTER_KERNEL(KernelDefBuilder("Variable").Device(kDeviceCpu), VariableOp);
REGISTER_KERNEL(KernelDefBuilder("Assign").Device(kDeviceCpu), AssignOp);
REGISTER_KERNEL(KernelDefBuilder("AssignAdd").Device(kDeviceCpu), AssignUpdateOp<true>);
REGISTER_KERNEL(KernelDefBuilder("AssignSub").Device(kDeviceCpu), AssignUpdateOp<false>);

}  // namespace
}  // namespace rill
