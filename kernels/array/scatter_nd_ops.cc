// ScatterNd and TensorScatterUpdate / Add / Sub / Max / Min on the CPU.
//
// indices [..., K] picks N = prod(indices.shape[:-1]) slices of the target (shape[:K] indexes,
// each slice is shape[K:]); updates has shape indices.shape[:-1] + shape[K:]. ScatterNd adds the
// updates into zeros of `shape` (bool: logical or); TensorScatterUpdate assigns them into a copy
// of `tensor` (the last of duplicate indices wins), Add / Sub / Max / Min combine. Integers wrap
// on overflow; half is combined in float. bad_indices_policy "IGNORE" skips indices outside the
// target; "", "DEFAULT" and "ERROR" report them.
//
// Errors (TensorFlow's texts): InvalidArgument "Shape must be a vector", "Indices shape must have
// rank at least one. Found:[]", "Dimension -4 must be >= 0", "Dimensions [0,1) of
// indices[shape=[2,1]] must match dimensions [0,1) of updates[shape=[3]]", "Dimensions [1,1) of
// input[shape=[4]] must match dimensions [1,2) of updates[shape=[2,1]]", "Indices and updates
// specified for empty output.  indices shape: [2,1]", "Outer dimensions of indices and update
// must match. Indices shape: [2,1], updates shape:[3]", "Inner dimensions of output shape must
// match inner dimensions of updates shape. Output: [] updates: [2]", "Indices and updates
// specified for empty output shape", "Only indices.shape[-1] values between 1 and 5 are currently
// supported.  Requested rank: 0", "indices[1] = [2, 3] does not index into shape [3,3,2]" (the
// last bad index, as TensorFlow reports it).
//
// Thread safety: Compute is const and keeps no state; concurrent steps are safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/state/scatter_combine.h"

namespace rill {
namespace {

std::string DimsString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

class ScatterNdOp final : public OpKernel {
 public:
  explicit ScatterNdOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    const std::string& op = ctx.def().op();
    tensor_input_ = op != "ScatterNd";
    mode_ = op == "ScatterNd"             ? ScatterOp::kAdd
            : op == "TensorScatterUpdate" ? ScatterOp::kUpdate
            : op == "TensorScatterAdd"    ? ScatterOp::kAdd
            : op == "TensorScatterSub"    ? ScatterOp::kSub
            : op == "TensorScatterMax"    ? ScatterOp::kMax
                                          : ScatterOp::kMin;
    std::string policy;
    if (ctx.GetAttr("bad_indices_policy", &policy).ok()) {
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
    const Tensor& indices = ctx.input(tensor_input_ ? 1 : 0);
    const Tensor& updates = ctx.input(tensor_input_ ? 2 : 1);
    std::vector<int64_t> target;
    if (tensor_input_) {
      const auto d = ctx.input(0).shape().dims();
      target.assign(d.begin(), d.end());
    } else {
      const Tensor& shape = ctx.input(2);
      if (shape.shape().rank() != 1) return absl::InvalidArgumentError("Shape must be a vector");
      target = IndexValues(shape);
    }
    const TensorShape& is = indices.shape();
    const TensorShape& us = updates.shape();
    if (is.rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Indices shape must have rank at least one. Found:", is.DebugString()));
    }
    if (!tensor_input_) {
      for (int64_t d : target) {
        if (d < 0)
          return absl::InvalidArgumentError(absl::StrCat("Dimension ", d, " must be >= 0"));
      }
    }
    const int batch_dim = is.rank() - 1;
    const int64_t k = is.dim(batch_dim);
    const int64_t target_rank = static_cast<int64_t>(target.size());
    RILL_RETURN_IF_ERROR(CheckShapes(is, us, target, batch_dim, k));
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(target));
    int64_t n = 1;
    for (int d = 0; d < batch_dim; ++d) n *= is.dim(d);
    if (out_shape.num_elements() == 0) {
      if (!tensor_input_ && indices.NumElements() > 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Indices and updates specified for empty output.  indices shape: ", is.DebugString()));
      }
      if (tensor_input_ && n > 0) {
        return absl::InvalidArgumentError("Indices and updates specified for empty output shape");
      }
      RILL_RETURN_IF_ERROR(ctx.allocate_output(0, out_shape).status());
      return absl::OkStatus();
    }
    if (k == 0) {
      return absl::InvalidArgumentError(
          n > 0 ? std::string("Indices and updates specified for empty output shape")
                : absl::StrCat("Only indices.shape[-1] values between 1 and 5 are currently "
                               "supported.  Requested rank: ",
                               k));
    }
    // The flat offset of each update's slice; -1 for an ignored bad index.
    std::vector<int64_t> strides(static_cast<size_t>(target_rank), 1);
    for (int64_t d = target_rank - 2; d >= 0; --d) strides[d] = strides[d + 1] * target[d + 1];
    const int64_t slice = strides[k - 1];  // elements of target[k:]
    const std::vector<int64_t> idx = IndexValues(indices);
    std::vector<int64_t> offsets(static_cast<size_t>(n));
    int64_t bad = -1;
    for (int64_t i = 0; i < n; ++i) {
      int64_t off = 0;
      for (int64_t j = 0; j < k; ++j) {
        const int64_t v = idx[i * k + j];
        if (v < 0 || v >= target[j]) {
          off = -1;
          break;
        }
        off += v * strides[j];
      }
      offsets[i] = off;
      if (off < 0) bad = i;
    }
    if (bad >= 0 && !ignore_bad_) {
      const auto first = idx.begin() + bad * k;
      return absl::InvalidArgumentError(
          absl::StrCat("indices[", bad, "] = [", absl::StrJoin(first, first + k, ", "),
                       "] does not index into shape ", DimsString(target)));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitKernelTypes<float, double, half, int32_t, int64_t, uint8_t, int8_t, int16_t, bool>(
        *this, updates.dtype(), [&](auto tag) {
          using T = typename decltype(tag)::type;
          T* o = out->flat<T>().data();
          if (tensor_input_) {
            const T* t = ctx.input(0).flat<T>().data();
            std::copy_n(t, out->NumElements(), o);
          } else {
            std::fill_n(o, out->NumElements(), static_cast<T>(0.0f));
          }
          const T* u = updates.flat<T>().data();
          for (int64_t i = 0; i < n; ++i) {
            if (offsets[i] < 0) continue;
            T* dst = o + offsets[i];
            const T* src = u + i * slice;
            for (int64_t t = 0; t < slice; ++t) dst[t] = ScatterCombine<T>(mode_, dst[t], src[t]);
          }
          return absl::OkStatus();
        });
  }

 private:
  // updates must be indices.shape[:-1] + target[k:].
  absl::Status CheckShapes(const TensorShape& is, const TensorShape& us,
                           const std::vector<int64_t>& target, int batch_dim, int64_t k) const {
    const int64_t target_rank = static_cast<int64_t>(target.size());
    bool outer_ok = us.rank() >= batch_dim;
    for (int d = 0; outer_ok && d < batch_dim; ++d) outer_ok = is.dim(d) == us.dim(d);
    bool inner_ok = k <= target_rank && us.rank() - batch_dim == target_rank - k;
    for (int64_t d = 0; inner_ok && d < us.rank() - batch_dim; ++d) {
      inner_ok = us.dim(static_cast<int>(batch_dim + d)) == target[k + d];
    }
    if (tensor_input_) {
      if (!outer_ok) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Outer dimensions of indices and update must match. Indices shape: ", is.DebugString(),
            ", updates shape:", us.DebugString()));
      }
      if (!inner_ok) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Inner dimensions of output shape must match inner dimensions of updates shape. "
            "Output: ",
            DimsString(target), " updates: ", us.DebugString()));
      }
      return absl::OkStatus();
    }
    return CheckScatterNdShapes(is, us, target);
  }

  bool tensor_input_ = false;
  ScatterOp mode_ = ScatterOp::kAdd;
  bool ignore_bad_ = false;
};

std::vector<DataType> WithBool() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16, DT_BOOL};
}
std::vector<DataType> Numbers() {
  return {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64, DT_UINT8, DT_INT8, DT_INT16};
}

REGISTER_KERNEL(KernelDefBuilder("ScatterNd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithBool())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64})
                    .HostMemory("shape"),
                ScatterNdOp);
REGISTER_KERNEL(KernelDefBuilder("TensorScatterUpdate")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", WithBool())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                ScatterNdOp);
REGISTER_KERNEL(KernelDefBuilder("TensorScatterAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", Numbers())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                ScatterNdOp);
REGISTER_KERNEL(KernelDefBuilder("TensorScatterSub")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", Numbers())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                ScatterNdOp);
REGISTER_KERNEL(KernelDefBuilder("TensorScatterMax")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", Numbers())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                ScatterNdOp);
REGISTER_KERNEL(KernelDefBuilder("TensorScatterMin")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", Numbers())
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                ScatterNdOp);

}  // namespace
}  // namespace rill
