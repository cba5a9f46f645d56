// SelfAdjointEigV2 on the CPU (tf.linalg.eigh / eigvalsh), float and double, batched over the
// leading dims: the eigenvalues of each square matrix in ascending order and, with compute_v,
// the eigenvectors as columns, from Eigen's SelfAdjointEigenSolver as TensorFlow's kernel
// computes them (it reads the lower triangle only). Eigenvectors are unique only up to sign.
// Without compute_v, v is a scalar 0.
//
// Errors are InvalidArgument with TensorFlow's texts: "Input tensor 0 must have rank >= 2, got
// 1", "Input matrix must be square.", and "Self-adjoint eigen decomposition was not successful.
// The input might not be valid." where the solver fails (a NaN in the lower triangle).
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <eigen3/Eigen/Dense>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

class SelfAdjointEigV2Op final : public OpKernel {
 public:
  explicit SelfAdjointEigV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("compute_v", &compute_v_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& s = in.shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input tensor 0 must have rank >= 2, got ", s.rank()));
    }
    const int64_t n = s.dim(s.rank() - 1);
    if (s.dim(s.rank() - 2) != n) {
      return absl::InvalidArgumentError("Input matrix must be square.");
    }
    std::vector<int64_t> batch(s.dims().begin(), s.dims().end() - 2);
    int64_t count = 1;
    for (int64_t d : batch) count *= d;
    std::vector<int64_t> e_dims = batch;
    e_dims.push_back(n);
    RILL_ASSIGN_OR_RETURN(TensorShape e_shape, TensorShape::FromDims(e_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * e_out, ctx.allocate_output(0, e_shape));
    Tensor* v_out = nullptr;
    if (compute_v_) {
      RILL_ASSIGN_OR_RETURN(v_out, ctx.allocate_output(1, s));
    } else {
      RILL_ASSIGN_OR_RETURN(v_out, ctx.allocate_output(1, TensorShape()));
    }
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if (!compute_v_) v_out->flat<T>()[0] = T(0);
      if (n == 0) return absl::OkStatus();
      const T* x = in.flat<T>().data();
      std::atomic<bool> failed{false};
      const int options = compute_v_ ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly;
      ctx.ParallelFor(count, std::max<int64_t>(10 * n * n * n, 1), [&](int64_t b, int64_t end) {
        for (int64_t i = b; i < end; ++i) {
          Eigen::Map<const RowMat<T>> a(x + i * n * n, n, n);
          Eigen::SelfAdjointEigenSolver<RowMat<T>> eig(a, options);
          if (eig.info() != Eigen::Success) {
            failed = true;
            continue;
          }
          Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(e_out->flat<T>().data() + i * n, n) =
              eig.eigenvalues();
          if (compute_v_) {
            Eigen::Map<RowMat<T>>(v_out->flat<T>().data() + i * n * n, n, n) = eig.eigenvectors();
          }
        }
      });
      if (failed) {
        return absl::InvalidArgumentError(
            "Self-adjoint eigen decomposition was not successful. The input might not be valid.");
      }
      return absl::OkStatus();
    });
  }

 private:
  bool compute_v_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("SelfAdjointEigV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE}),
                SelfAdjointEigV2Op);

}  // namespace
}  // namespace rill
