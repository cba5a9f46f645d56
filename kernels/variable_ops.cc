// TF1 reference variables on the CPU (see kernels/variable.h for the Var and its locking):
//   VariableV2 / Variable  output a ref (set_output_ref) to the Var at (container or "localhost",
//                          shared_name or the node name) in the device's ResourceMgr, creating it
//                          uninitialized on first use. Cheap.
//   Assign                 puts a copy of `value` in the variable (a fresh buffer); validate_shape
//                          (once initialized) fails with InvalidArgument "Assign requires shapes of
//                          both tensors to match. lhs shape= [2] rhs shape= [3]"; use_locking holds
//                          the variable's mutex for the whole check-copy-swap (without it, only for
//                          the swap). Forwards the ref.
//   AssignAdd / AssignSub  update in place; use_locking holds the mutex for the whole
//                          read-modify-write (exact under concurrency), without it updates race as
//                          in TensorFlow. FailedPrecondition "Attempting to use uninitialized value
//                          <var>" before the first Assign; InvalidArgument when shapes differ.
//                          Forwards the ref.
// A kernel that locks the ref reads it through input_value(0) only: ctx.input(0) would take the
// same mutex again.
// TODO(kernels): TensorFlow also checks the *first* Assign against VariableV2's `shape` attr (its
// uninitialized tensor carries that shape); a Rill ref edge carries only (Tensor*, Mutex*), so an
// uninitialized variable accepts any shape here and the check is left to shape inference.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/kernel_registry.h"
#include "kernels/type_lists.h"
#include "kernels/variable.h"

namespace rill {
namespace {

// The node name part of NodeDef input `i` ("v:0" -> "v").
std::string InputNodeName(const NodeDef& def, int i) {
  if (i >= def.input_size()) return "";
  absl::StatusOr<InputName> in = ParseInputName(def.input(i));
  return in.ok() ? in->node : def.input(i);
}

class VariableOp final : public OpKernel {
 public:
  explicit VariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
    ctx.SetStatus(ctx.GetAttr("container", &container_));
    ctx.SetStatus(ctx.GetAttr("shared_name", &shared_name_));
    if (container_.empty()) container_ = kDefaultContainer;
    if (shared_name_.empty()) shared_name_ = ctx.def().name();
  }

  // InvalidArgument when (container, shared_name) holds another resource type or a Var of
  // another dtype.
  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType dtype = dtype_;
    absl::StatusOr<std::shared_ptr<Var>> var =
        ctx.device()->resource_manager()->LookupOrCreate<Var>(
            container_, shared_name_, [dtype] { return std::make_shared<Var>(dtype); });
    if (!var.ok()) return var.status();
    if ((*var)->dtype() != dtype_) {
      return absl::InvalidArgumentError(absl::StrCat("Variable ", container_, "/", shared_name_,
                                                     " was created with dtype ",
                                                     DataTypeString((*var)->dtype()), " but node ",
                                                     name(), " asks for ", DataTypeString(dtype_)));
    }
    // The Var lives in the device's ResourceMgr for the session's life (outliving every step
    // that uses this ref), so the raw pointers stay valid.
    ctx.set_output_ref(0, (*var)->mu(), (*var)->tensor());
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
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorValue& ref = ctx.input_value(0);
    if (!ref.is_ref()) {
      return absl::InternalError(absl::StrCat("Assign node ", name(), " got a non-ref input 0"));
    }
    const Tensor value = ctx.input(1);
    absl::StatusOr<Tensor> copy = ctx.allocate_temp(value.dtype(), value.shape());
    if (!copy.ok()) return copy.status();
    if (use_locking_) {
      rill::WriterMutexLock lock(ref.ref_mu);
      CopyTensorElements(value, &*copy);
      RILL_RETURN_IF_ERROR(CheckShape(*ref.ref, value));
      *ref.ref = *std::move(copy);
    } else {
      CopyTensorElements(value, &*copy);
      rill::WriterMutexLock lock(ref.ref_mu);  // only to make the handle swap itself race-free
      RILL_RETURN_IF_ERROR(CheckShape(*ref.ref, value));
      *ref.ref = *std::move(copy);
    }
    ctx.forward_ref_input_to_ref_output(0, 0);
    return absl::OkStatus();
  }

 private:
  absl::Status CheckShape(const Tensor& old_value, const Tensor& value) const {
    if (validate_shape_ && old_value.IsInitialized() && old_value.shape() != value.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Assign requires shapes of both tensors to match. lhs shape= ",
          old_value.shape().DebugString(), " rhs shape= ", value.shape().DebugString()));
    }
    return absl::OkStatus();
  }

  bool validate_shape_ = true;
  bool use_locking_ = true;
};

template <DenseUpdate kOp>
class AssignUpdateOp final : public OpKernel {
 public:
  explicit AssignUpdateOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
    var_name_ = InputNodeName(ctx.def(), 0);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorValue& ref = ctx.input_value(0);
    if (!ref.is_ref()) {
      return absl::InternalError(
          absl::StrCat(type_string(), " node ", name(), " got a non-ref input 0"));
    }
    const Tensor value = ctx.input(1);
    if (use_locking_) {
      rill::WriterMutexLock lock(ref.ref_mu);
      RILL_RETURN_IF_ERROR(Update(*ref.ref, value));
    } else {
      Tensor var;
      {
        rill::ReaderMutexLock lock(ref.ref_mu);
        var = *ref.ref;  // a handle on the current buffer; updated below without the lock
      }
      RILL_RETURN_IF_ERROR(Update(var, value));
    }
    ctx.forward_ref_input_to_ref_output(0, 0);
    return absl::OkStatus();
  }

 private:
  absl::Status Update(Tensor& var, const Tensor& value) const {
    if (!var.IsInitialized()) {
      return absl::FailedPreconditionError(
          absl::StrCat("Attempting to use uninitialized value ", var_name_));
    }
    if (var.shape() != value.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Parameters and update must be the same size. lhs shape= ", var.shape().DebugString(),
          " rhs shape= ", value.shape().DebugString()));
    }
    return ApplyDenseUpdate(kOp, var, value, &var);
  }

  bool use_locking_ = false;
  std::string var_name_;
};

REGISTER_KERNEL(
    KernelDefBuilder("VariableV2").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    VariableOp);
REGISTER_KERNEL(
    KernelDefBuilder("Variable").Device(kDeviceCpu).TypeConstraint("dtype", StorableTypes()),
    VariableOp);
REGISTER_KERNEL(KernelDefBuilder("Assign").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
                AssignOp);
REGISTER_KERNEL(KernelDefBuilder("AssignAdd").Device(kDeviceCpu).TypeConstraint("T", NumberTypes()),
                AssignUpdateOp<DenseUpdate::kAdd>);
REGISTER_KERNEL(KernelDefBuilder("AssignSub").Device(kDeviceCpu).TypeConstraint("T", NumberTypes()),
                AssignUpdateOp<DenseUpdate::kSub>);

}  // namespace
}  // namespace rill
