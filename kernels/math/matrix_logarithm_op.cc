// MatrixLogarithm(input [..., n, n]) on the CPU, complex64 and complex128 (TensorFlow's only
// registrations): the principal logarithm of each matrix by Eigen's Schur-Parlett method
// (unsupported/Eigen/MatrixFunctions), as TensorFlow's CPU kernel computes it. Errors are
// TensorFlow's texts (InvalidArgument): "Input tensor 0 must have rank >= 2, got 1", "Input matrix
// must be square.". A matrix with a NaN or infinite entry gives NaN in every entry, as TensorFlow
// 2.21 returns it (Eigen's Schur-Parlett method is not run on it: its checks abort on such input).
// Kernels are immutable after construction; Compute is thread-safe.
#include <complex>
#include <cstdint>
#include <eigen3/Eigen/Dense>
#include <eigen3/unsupported/Eigen/MatrixFunctions>
#include <limits>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/square_matrices.h"

namespace rill {
namespace {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class MatrixLogarithmOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(const SquareMatrices batch, SplitSquareMatrices(in.shape(), 0));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    if (in.NumElements() == 0) return absl::OkStatus();
    const int64_t count = batch.count;
    const int64_t n = batch.n;
    return VisitKernelTypes<complex64, complex128>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < count; ++b) {
        const Mat<T> m = Eigen::Map<const Mat<T>>(in.flat<T>().data() + b * n * n, n, n);
        Eigen::Map<Mat<T>> result(out->flat<T>().data() + b * n * n, n, n);
        if (m.allFinite()) {
          result = m.log();
        } else {
          using Real = typename T::value_type;
          const Real nan = std::numeric_limits<Real>::quiet_NaN();
          result.setConstant(T(nan, nan));
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("MatrixLogarithm")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<complex64, complex128>()),
                MatrixLogarithmOp);

}  // namespace
}  // namespace rill
