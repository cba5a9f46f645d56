// NthElement on the CPU: per row of the last dim, the value that would stand at position n of the
// sorted row (ascending; with `reverse`, position n from the largest). Output: the input's shape
// without its last dim. Errors are InvalidArgument with TensorFlow's texts: "N must be scalar but
// has rank 1", "n must be non-negative but is -1", "Input must be >= 1-D but is 0-D", "Input must
// have last dimension > n = 3".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

#define RILL_NTH_ELEMENT_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t

class NthElementOp final : public OpKernel {
 public:
  explicit NthElementOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("reverse", &reverse_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& n_in = ctx.input(1);
    if (n_in.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("N must be scalar but has rank ", n_in.shape().rank()));
    }
    int64_t n = n_in.flat<int32_t>()[0];
    if (n < 0) return absl::InvalidArgumentError(absl::StrCat("n must be non-negative but is ", n));
    const Tensor& in = ctx.input(0);
    const int rank = in.shape().rank();
    if (rank < 1) {
      return absl::InvalidArgumentError(absl::StrCat("Input must be >= 1-D but is ", rank, "-D"));
    }
    const int64_t cols = in.shape().dim(rank - 1);
    if (cols <= n) {
      return absl::InvalidArgumentError(absl::StrCat("Input must have last dimension > n = ", n));
    }
    if (reverse_) n = cols - n - 1;
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape,
                          TensorShape::FromDims(in.shape().dims().subspan(0, rank - 1)));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t rows = out->NumElements();
    return VisitKernelTypes<RILL_NTH_ELEMENT_TYPES>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = decltype(cwise_internal::Load(T()));
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      std::vector<C> row(cols);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t j = 0; j < cols; ++j) row[j] = cwise_internal::Load(x[r * cols + j]);
        std::nth_element(row.begin(), row.begin() + n, row.end());
        y[r] = static_cast<T>(row[n]);
      }
      return absl::OkStatus();
    });
  }

 private:
  bool reverse_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("NthElement")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_NTH_ELEMENT_TYPES>())
                    .HostMemory("n"),
                NthElementOp);

}  // namespace
}  // namespace rill
