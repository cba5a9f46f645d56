// DynamicStitch on the CPU: merged[indices[m][i], ...] = data[m][i, ...] for every m and i (later
// m, then later i, win where indices repeat, as TensorFlow); merged's first dim is the largest
// index plus 1, its other dims data's after the indices' prefix. Rows never written are zero (empty
// for strings). Moves elements only: one path per element size (kernels/framework/layout_util.h).
// Errors are InvalidArgument with TensorFlow's texts: "data[1].shape = [3] does not start with
// indices[1].shape = [2]", "Need data[1].shape[1:] = [3] to match data[0].shape[1:] = [2]" (in
// its general form), "indices[0] = -1 is out of range".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/layout_util.h"
#include "kernels/framework/type_lists.h"

namespace rill {
namespace {

class DynamicStitchOp final : public OpKernel {
 public:
  explicit DynamicStitchOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const int n = ctx.num_inputs() / 2;
    std::vector<std::vector<int64_t>> indices(n);
    int64_t max_index = -1;
    std::vector<int64_t> row_dims;  // data[0].shape[indices[0].rank:]
    for (int m = 0; m < n; ++m) {
      const Tensor& idx = ctx.input(m);
      const Tensor& data = ctx.input(n + m);
      const TensorShape& is = idx.shape();
      const TensorShape& ds = data.shape();
      bool prefix = ds.rank() >= is.rank();
      for (int d = 0; prefix && d < is.rank(); ++d) prefix = ds.dim(d) == is.dim(d);
      if (!prefix) {
        return absl::InvalidArgumentError(absl::StrCat("data[", m, "].shape = ", ds.DebugString(),
                                                       " does not start with indices[", m,
                                                       "].shape = ", is.DebugString()));
      }
      std::vector<int64_t> rest(ds.dims().begin() + is.rank(), ds.dims().end());
      if (m == 0) {
        row_dims = rest;
      } else if (rest != row_dims) {
        return absl::InvalidArgumentError(
            absl::StrCat("Need data[", m, "].shape[", is.rank(),
                         ":] = ", TensorShape(*TensorShape::FromDims(rest)).DebugString(),
                         " to match data[0].shape[", ctx.input(0).shape().rank(),
                         ":] = ", TensorShape(*TensorShape::FromDims(row_dims)).DebugString()));
      }
      indices[m] = IndexValues(idx);
      for (int64_t v : indices[m]) {
        if (v < 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("indices[", m, "] = ", v, " is out of range"));
        }
        max_index = std::max(max_index, v);
      }
    }
    std::vector<int64_t> out_dims = {max_index + 1};
    out_dims.insert(out_dims.end(), row_dims.begin(), row_dims.end());
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    int64_t row = 1;
    for (int64_t d : row_dims) row *= d;
    return VisitElementType(out->dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      T* z = ElementsOf<T>(*out);
      std::fill(z, z + out->NumElements(), T{});
      for (int m = 0; m < n; ++m) {
        const T* src = ElementsOf<T>(ctx.input(n + m));
        for (size_t i = 0; i < indices[m].size(); ++i) {
          std::copy(src + i * row, src + (i + 1) * row, z + indices[m][i] * row);
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(
    KernelDefBuilder("DynamicStitch").Device(kDeviceCpu).TypeConstraint("T", StorableTypes()),
    DynamicStitchOp);

}  // namespace
}  // namespace rill
