// TopKV2 on the CPU: the k largest entries of each last-dim row, values and their indices,
// sorted descending; equal values keep the lower index first (as TensorFlow). The `sorted` attr
// is honoured by always sorting. half compares as float.
// Errors are InvalidArgument with TensorFlow's texts: "k must be 0-D, got shape [2]", "Need k >=
// 0, got -1", "input must be >= 1-D, got shape []", "input must have at least k columns. Had 3,
// needed 4".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_TOPK_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class TopKOp final : public OpKernel {
 public:
  explicit TopKOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const Tensor& k_t = ctx.input(1);
    if (k_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("k must be 0-D, got shape ", k_t.shape().DebugString()));
    }
    const int64_t k = IndexValues(k_t)[0];
    if (k < 0) return absl::InvalidArgumentError(absl::StrCat("Need k >= 0, got ", k));
    const TensorShape& shape = in.shape();
    if (shape.rank() < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be >= 1-D, got shape ", shape.DebugString()));
    }
    const int64_t cols = shape.dim(shape.rank() - 1);
    if (cols < k) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must have at least k columns. Had ", cols, ", needed ", k));
    }
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    dims.back() = k;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * values, ctx.allocate_output(0, out_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * indices, ctx.allocate_output(1, out_shape));
    if (values->NumElements() == 0) return absl::OkStatus();
    const int64_t rows = in.NumElements() / cols;
    return VisitKernelTypes<RILL_TOPK_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using cwise_internal::Load;
      const T* x = in.flat<T>().data();
      T* v = values->flat<T>().data();
      std::vector<int64_t> order(cols);
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * cols;
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
          const auto va = Load(row[a]), vb = Load(row[b]);
          return va > vb || (!(vb > va) && a < b);
        });
        for (int64_t j = 0; j < k; ++j) {
          v[r * k + j] = row[order[j]];
          if (indices->dtype() == DT_INT32) {
            indices->flat<int32_t>()[r * k + j] = static_cast<int32_t>(order[j]);
          } else {
            indices->flat<int64_t>()[r * k + j] = order[j];
          }
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("TopKV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_TOPK_TYPES>())
                    .TypeConstraint("Tk", {DT_INT32, DT_INT64})
                    .TypeConstraint("index_type", {DT_INT32, DT_INT64})
                    .HostMemory("k"),
                TopKOp);

}  // namespace
}  // namespace rill
