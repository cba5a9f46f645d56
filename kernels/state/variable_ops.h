// The kernels of TF1 reference variables, for every device: VariableV2 / Variable, Assign,
// AssignAdd / AssignSub. The device-specific work (copying a value into a fresh buffer, updating
// in place) comes from `Ops`: CpuDenseOps here (host loops), the GPU's in kernels/gpu/ (enqueued on
// the compute stream). What each kernel does and its errors:
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
// UpdateRefInPlace holds AssignAdd's locking and checks for every in-place ref update (the scatter
// kernels of scatter_ops.cc use it too).
// A kernel that locks the ref reads it through input_value(0) only: ctx.input(0) would take the
// same mutex again.
// A validating Assign to an uninitialized variable compares the value with VariableV2's `shape`
// attr, as TensorFlow's (its uninitialized tensor carries that shape): a ref edge carries only
// (Tensor*, Mutex*), so Assign finds the Var under its input's node name in the default container
// and uses its declared_shape() when that Var's tensor is the one the ref points at (the usual
// TF1 graph: no shared_name, Assign fed by the VariableV2 itself). Variables reached otherwise
// (a shared_name, a container, through an Identity) accept any first shape.
#ifndef RILL_KERNELS_STATE_VARIABLE_OPS_H_
#define RILL_KERNELS_STATE_VARIABLE_OPS_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "kernels/framework/op_kernel.h"
#include "kernels/state/variable.h"
#include "ops/node_def_util.h"

namespace rill {
namespace variable_kernels {

// The CPU's copies and updates: host loops over the elements.
struct CpuDenseOps {
  static absl::Status CheckDevice(OpKernelConstruction&) { return absl::OkStatus(); }
  static absl::Status Copy(OpKernelContext&, const Tensor& from, Tensor* to) {
    CopyTensorElements(from, to);
    return absl::OkStatus();
  }
  static absl::Status Update(OpKernelContext&, DenseUpdate op, const Tensor& lhs, const Tensor& rhs,
                             Tensor* out) {
    return ApplyDenseUpdate(op, lhs, rhs, out);
  }
};

// The node name part of NodeDef input `i` ("v:0" -> "v").
inline std::string InputNodeName(const NodeDef& def, int i) {
  if (i >= def.input_size()) return "";
  absl::StatusOr<InputName> in = ParseInputName(def.input(i));
  return in.ok() ? in->node : def.input(i);
}

// Runs `update(Tensor& var)` on the value behind ref input 0 in place, then forwards the ref to
// output 0. With use_locking the variable's mutex is held exclusively for the whole
// read-modify-write; without it `update` works on a handle to the current buffer taken under the
// shared lock, so concurrent updates race as in TensorFlow. Internal when input 0 is not a ref;
// FailedPrecondition "Attempting to use uninitialized value <var_name>" before the first Assign.
template <typename Fn>
absl::Status UpdateRefInPlace(OpKernelContext& ctx, const OpKernel& kernel, bool use_locking,
                              const std::string& var_name, Fn update) {
  const TensorValue& ref = ctx.input_value(0);
  if (!ref.is_ref()) {
    return absl::InternalError(
        absl::StrCat(kernel.type_string(), " node ", kernel.name(), " got a non-ref input 0"));
  }
  auto checked = [&](Tensor& var) -> absl::Status {
    if (!var.IsInitialized()) {
      return absl::FailedPreconditionError(
          absl::StrCat("Attempting to use uninitialized value ", var_name));
    }
    return update(var);
  };
  if (use_locking) {
    rill::WriterMutexLock lock(ref.ref_mu);
    RILL_RETURN_IF_ERROR(checked(*ref.ref));
  } else {
    Tensor var;
    {
      rill::ReaderMutexLock lock(ref.ref_mu);
      var = *ref.ref;  // a handle on the current buffer; updated below without the lock
    }
    RILL_RETURN_IF_ERROR(checked(var));
  }
  ctx.forward_ref_input_to_ref_output(0, 0);
  return absl::OkStatus();
}

class VariableOp final : public OpKernel {
 public:
  explicit VariableOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("dtype", &dtype_));
    ctx.SetStatus(ctx.GetAttr("container", &container_));
    ctx.SetStatus(ctx.GetAttr("shared_name", &shared_name_));
    if (container_.empty()) container_ = kDefaultContainer;
    if (shared_name_.empty()) shared_name_ = ctx.def().name();
    TensorShapeProto proto;
    if (ctx.GetAttr("shape", &proto).ok()) {
      absl::StatusOr<PartialTensorShape> partial = PartialTensorShape::FromProto(proto);
      if (partial.ok() && partial->IsFullyDefined()) {
        absl::StatusOr<TensorShape> shape = TensorShape::FromDims(partial->dims());
        if (shape.ok()) declared_shape_ = *std::move(shape);
      }
    }
  }

  // InvalidArgument when (container, shared_name) holds another resource type or a Var of
  // another dtype.
  absl::Status Compute(OpKernelContext& ctx) const override {
    const DataType dtype = dtype_;
    const std::optional<TensorShape>& declared = declared_shape_;
    absl::StatusOr<std::shared_ptr<Var>> var =
        ctx.device()->resource_manager()->LookupOrCreate<Var>(
            container_, shared_name_, [dtype, &declared] {
              auto v = std::make_shared<Var>(dtype);
              if (declared) v->set_declared_shape(*declared);
              return v;
            });
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
  std::optional<TensorShape> declared_shape_;  // the `shape` attr when fully defined
};

template <typename Ops>
class AssignOp final : public OpKernel {
 public:
  explicit AssignOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Ops::CheckDevice(ctx));
    ctx.SetStatus(ctx.GetAttr("validate_shape", &validate_shape_));
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
    var_name_ = InputNodeName(ctx.def(), 0);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const TensorValue& ref = ctx.input_value(0);
    if (!ref.is_ref()) {
      return absl::InternalError(absl::StrCat("Assign node ", name(), " got a non-ref input 0"));
    }
    const Tensor& value = ctx.input(1);
    absl::StatusOr<Tensor> copy = ctx.allocate_temp(value.dtype(), value.shape());
    if (!copy.ok()) return copy.status();
    if (use_locking_) {
      rill::WriterMutexLock lock(ref.ref_mu);
      RILL_RETURN_IF_ERROR(Ops::Copy(ctx, value, &*copy));
      RILL_RETURN_IF_ERROR(CheckShape(ctx, ref, value));
      *ref.ref = *std::move(copy);
    } else {
      RILL_RETURN_IF_ERROR(Ops::Copy(ctx, value, &*copy));
      rill::WriterMutexLock lock(ref.ref_mu);  // only to make the handle swap itself race-free
      RILL_RETURN_IF_ERROR(CheckShape(ctx, ref, value));
      *ref.ref = *std::move(copy);
    }
    ctx.forward_ref_input_to_ref_output(0, 0);
    return absl::OkStatus();
  }

 private:
  // REQUIRES: ref.ref_mu held.
  absl::Status CheckShape(OpKernelContext& ctx, const TensorValue& ref, const Tensor& value) const {
    if (!validate_shape_) return absl::OkStatus();
    const Tensor& old_value = *ref.ref;
    const TensorShape* lhs = old_value.IsInitialized() ? &old_value.shape() : nullptr;
    std::shared_ptr<Var> var;  // keeps *lhs alive when it is the Var's declared shape
    if (lhs == nullptr && ctx.device() != nullptr) {
      absl::StatusOr<std::shared_ptr<Var>> found =
          ctx.device()->resource_manager()->Lookup<Var>(kDefaultContainer, var_name_);
      if (found.ok() && (*found)->tensor() == ref.ref && (*found)->declared_shape()) {
        var = *std::move(found);
        lhs = &*var->declared_shape();
      }
    }
    if (lhs != nullptr && *lhs != value.shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Assign requires shapes of both tensors to match. lhs shape= ", lhs->DebugString(),
          " rhs shape= ", value.shape().DebugString()));
    }
    return absl::OkStatus();
  }

  bool validate_shape_ = true;
  bool use_locking_ = true;
  std::string var_name_;  // input 0's node name: the VariableV2 in a usual TF1 graph
};

template <DenseUpdate kOp, typename Ops>
class AssignUpdateOp final : public OpKernel {
 public:
  explicit AssignUpdateOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(Ops::CheckDevice(ctx));
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
    var_name_ = InputNodeName(ctx.def(), 0);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& value = ctx.input(1);
    return UpdateRefInPlace(ctx, *this, use_locking_, var_name_, [&](Tensor& var) {
      if (var.shape() != value.shape()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Parameters and update must be the same size. lhs shape= ", var.shape().DebugString(),
            " rhs shape= ", value.shape().DebugString()));
      }
      return Ops::Update(ctx, kOp, var, value, &var);
    });
  }

 private:
  bool use_locking_ = false;
  std::string var_name_;
};

}  // namespace variable_kernels
}  // namespace rill

#endif  // RILL_KERNELS_STATE_VARIABLE_OPS_H_
