// XlaDynamicUpdateSlice: output = input with `update` written at `indices`, XLA's
// DynamicUpdateSlice, which TensorFlow's CPU kernel compiles on demand. Keras 3's
// ops.slice_update freezes to it on the TensorFlow backend (Swin's shifted-window attention mask,
// key/value caches). Each start index is clamped to [0, input_dim - update_dim] so the update
// always fits, as XLA clamps; negative and too-large indices are not errors.
//
// Errors (InvalidArgument, TensorFlow's texts): "index must be a vector with length equal to the
// number of input dimensions", "input and update must have the same rank, input shape is [3,4];
// update shape is [2]", and XLA's shape check "Update dim size 4 greater than dynamic slice
// dimension: 3.".
//
// Thread safety: Compute is const and keeps no state; concurrent steps are safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"

namespace rill {
namespace {

class XlaDynamicUpdateSliceOp final : public OpKernel {
 public:
  explicit XlaDynamicUpdateSliceOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& update = ctx.input(1);
    const Tensor& indices = ctx.input(2);
    const TensorShape& in_shape = input.shape();
    const TensorShape& up_shape = update.shape();
    const int rank = in_shape.rank();
    if (indices.shape().rank() != 1 || indices.NumElements() != rank) {
      return absl::InvalidArgumentError(
          "index must be a vector with length equal to the number of input dimensions");
    }
    if (up_shape.rank() != rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("input and update must have the same rank, input shape is ",
                       in_shape.DebugString(), "; update shape is ", up_shape.DebugString()));
    }
    for (int d = 0; d < rank; ++d) {
      if (up_shape.dim(d) > in_shape.dim(d)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Update dim size ", up_shape.dim(d),
                         " greater than dynamic slice dimension: ", in_shape.dim(d), "."));
      }
    }
    std::vector<int64_t> start = IndexValues(indices);
    for (int d = 0; d < rank; ++d) {
      start[d] = std::clamp<int64_t>(start[d], 0, in_shape.dim(d) - up_shape.dim(d));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in_shape));
    RILL_RETURN_IF_ERROR(CopyElements(input, 0, out, 0, input.NumElements()));
    if (update.NumElements() == 0) return absl::OkStatus();
    if (rank == 0) return CopyElements(update, 0, out, 0, 1);
    // Copy the update one run of its last dimension at a time.
    const std::vector<int64_t> out_strides = RowMajorStrides(in_shape.dims());
    const int64_t run = up_shape.dim(rank - 1);
    const int64_t runs = update.NumElements() / run;
    std::vector<int64_t> pos(rank, 0);  // position of the run in the update, last dim 0
    for (int64_t r = 0; r < runs; ++r) {
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += (start[d] + pos[d]) * out_strides[d];
      RILL_RETURN_IF_ERROR(CopyElements(update, r * run, out, offset, run));
      for (int d = rank - 2; d >= 0; --d) {
        if (++pos[d] < up_shape.dim(d)) break;
        pos[d] = 0;
      }
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("XlaDynamicUpdateSlice")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T",
                                    {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, DT_INT64, DT_UINT8,
                                     DT_INT8, DT_INT16, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128})
                    .TypeConstraint("Tindices", {DT_INT32, DT_INT64}),
                XlaDynamicUpdateSliceOp);

}  // namespace
}  // namespace rill
