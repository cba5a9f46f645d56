// The reference-variable scatter kernels on the CPU: ScatterUpdate / Add / Sub / Mul / Div / Max /
// Min (rows picked by `indices`) and ScatterNdUpdate / Add / Sub (slices picked by index tuples).
// Each updates the variable behind its ref input in place (UpdateRefInPlace: use_locking holds the
// variable's mutex for the whole update; without it concurrent updates race as in TensorFlow) and
// forwards the ref. The arithmetic and TensorFlow's error texts are in scatter_update.h;
// FailedPrecondition "Attempting to use uninitialized value v" before the variable's first Assign.
//
// Thread safety: Compute is const and keeps no state.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/state/scatter_update.h"
#include "kernels/state/variable_ops.h"

namespace rill {
namespace {

using variable_kernels::InputNodeName;
using variable_kernels::UpdateRefInPlace;

template <ScatterOp kOp, bool kNd>
class RefScatterOp final : public OpKernel {
 public:
  explicit RefScatterOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("use_locking", &use_locking_));
    var_name_ = InputNodeName(ctx.def(), 0);
    std::string policy;
    if (kNd && ctx.GetAttr("bad_indices_policy", &policy).ok()) {
      if (policy == "IGNORE") {
        ignore_bad_ = true;
      } else if (!policy.empty() && policy != "DEFAULT" && policy != "ERROR") {
        ctx.SetStatus(absl::InvalidArgumentError(
            absl::StrCat("Unknown bad_indices_policy: ", policy,
                         ", expected one of \"\", DEFAULT, ERROR, IGNORE")));
      }
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& indices = ctx.input(1);
    const Tensor& updates = ctx.input(2);
    return UpdateRefInPlace(ctx, *this, use_locking_, var_name_, [&](Tensor& var) {
      if (kNd) return ApplyScatterNd(kOp, indices, updates, ignore_bad_, &var);
      RILL_RETURN_IF_ERROR(ValidateScatter(var, indices, updates));
      return ApplyScatter(kOp, indices, updates, &var);
    });
  }

 private:
  bool use_locking_ = false;
  bool ignore_bad_ = false;
  std::string var_name_;
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

#define RILL_REGISTER_REF_SCATTER(name, op, nd, types)                   \
  REGISTER_KERNEL(KernelDefBuilder(name)                                 \
                      .Device(kDeviceCpu)                                \
                      .TypeConstraint("T", types())                      \
                      .TypeConstraint("Tindices", {DT_INT32, DT_INT64}), \
                  RefScatterOp<ScatterOp::op, nd>)

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

#undef RILL_REGISTER_REF_SCATTER

}  // namespace
}  // namespace rill
