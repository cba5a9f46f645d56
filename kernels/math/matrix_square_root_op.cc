// MatrixSquareRoot(input [..., n, n]) on the CPU, float and double: the principal square root of
// each matrix by Eigen's Schur method (unsupported/Eigen/MatrixFunctions), as TensorFlow's CPU
// kernel computes it; a matrix with a negative real eigenvalue (or a NaN or infinity) has no real
// square root and gives NaN in every element, as TensorFlow gives. Errors are TensorFlow's texts
// (InvalidArgument): "Input tensor 0 must have rank >= 2, got 1", "Input matrix must be square.".
//
// Kernels are immutable after construction; Compute is thread-safe.
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

// False for a matrix with a NaN or infinity or a negative real eigenvalue (a 1x1 block of its
// real Schur form below 0): Eigen's root takes the square root of that block (NaN, which its
// products spread to every element, as in TensorFlow's build) and asserts it is not negative.
template <typename T>
bool HasRealSquareRoot(const Mat<T>& m) {
  if (!m.allFinite()) return false;
  const Eigen::RealSchur<Mat<T>> schur(m);
  const Mat<T>& t = schur.matrixT();
  for (Eigen::Index i = 0; i < t.rows(); ++i) {
    if (i + 1 < t.rows() && t(i + 1, i) != T(0)) {
      ++i;  // a 2x2 block: a complex pair, which has a real root
    } else if (!(t(i, i) >= T(0))) {
      return false;
    }
  }
  return true;
}

class MatrixSquareRootOp final : public OpKernel {
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
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < count; ++b) {
        const Mat<T> m = Eigen::Map<const Mat<T>>(in.flat<T>().data() + b * n * n, n, n);
        Eigen::Map<Mat<T>> root(out->flat<T>().data() + b * n * n, n, n);
        if (HasRealSquareRoot(m)) {
          root = m.sqrt();
        } else {
          root.setConstant(std::numeric_limits<T>::quiet_NaN());
        }
      }
      return absl::OkStatus();
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("MatrixSquareRoot")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                MatrixSquareRootOp);

}  // namespace
}  // namespace rill
