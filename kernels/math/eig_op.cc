// Eig on the CPU (tf.linalg.eig / eigvals), batched over the leading dims: the eigenvalues of
// each square matrix and, with compute_v, its unit eigenvectors as columns, complex64 for float
// and complex64 input, complex128 for double and complex128, as TensorFlow 2.21's kernel gives
// them: real matrices through Eigen's EigenSolver (real Schur form; eigenvalues in its order,
// conjugate pairs together), complex ones through ComplexEigenSolver (eigenvalues by increasing
// magnitude). Without compute_v, v is a scalar 0. Errors are InvalidArgument with TensorFlow's
// texts: "Input tensor 0 must have rank >= 2, got 1", "Input matrix must be square.", "Eigen
// decomposition was not successful. The input might not be valid." where the solver fails.
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <eigen3/Eigen/Dense>
#include <type_traits>
#include <vector>

#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/square_matrices.h"

namespace rill {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One matrix: false where the solver fails.
template <typename In, typename Out>
bool Decompose(const In* a, int64_t n, bool compute_v, Out* e, Out* v) {
  const RowMat<In> m = Eigen::Map<const RowMat<In>>(a, n, n);
  if constexpr (std::is_floating_point_v<In>) {
    Eigen::EigenSolver<RowMat<In>> es(m, compute_v);
    if (es.info() != Eigen::Success) return false;
    Eigen::Map<Eigen::Matrix<Out, Eigen::Dynamic, 1>>(e, n) = es.eigenvalues();
    if (compute_v) Eigen::Map<RowMat<Out>>(v, n, n) = es.eigenvectors();
  } else {
    Eigen::ComplexEigenSolver<RowMat<In>> es(m, compute_v);
    if (es.info() != Eigen::Success) return false;
    Eigen::Map<Eigen::Matrix<Out, Eigen::Dynamic, 1>>(e, n) = es.eigenvalues();
    if (compute_v) Eigen::Map<RowMat<Out>>(v, n, n) = es.eigenvectors();
  }
  return true;
}

class EigOp final : public OpKernel {
 public:
  explicit EigOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("compute_v", &compute_v_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& s = in.shape();
    RILL_ASSIGN_OR_RETURN(const SquareMatrices batch, SplitSquareMatrices(s, 0));
    const int64_t n = batch.n;
    std::vector<int64_t> e_dims(s.dims().begin(), s.dims().end() - 1);
    RILL_ASSIGN_OR_RETURN(TensorShape e_shape, TensorShape::FromDims(e_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * e_out, ctx.allocate_output(0, e_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * v_out, ctx.allocate_output(1, compute_v_ ? s : TensorShape()));
    const int64_t count = n == 0 ? 0 : batch.count;
    std::atomic<bool> failed{false};
    auto run = [&](auto in_tag, auto out_tag) {
      using In = typename decltype(in_tag)::type;
      using Out = typename decltype(out_tag)::type;
      if (!compute_v_) v_out->flat<Out>()[0] = Out(0);
      const In* x = in.flat<In>().data();
      Out* e = e_out->flat<Out>().data();
      Out* v = compute_v_ ? v_out->flat<Out>().data() : nullptr;
      ctx.ParallelFor(count, std::max<int64_t>(20 * n * n * n, 1), [&](int64_t b, int64_t end) {
        for (int64_t i = b; i < end; ++i) {
          if (!Decompose<In, Out>(x + i * n * n, n, compute_v_, e + i * n,
                                  compute_v_ ? v + i * n * n : nullptr)) {
            failed = true;
          }
        }
      });
    };
    switch (in.dtype()) {
      case DT_FLOAT:
        run(TypeTag<float>{}, TypeTag<complex64>{});
        break;
      case DT_DOUBLE:
        run(TypeTag<double>{}, TypeTag<complex128>{});
        break;
      case DT_COMPLEX64:
        run(TypeTag<complex64>{}, TypeTag<complex64>{});
        break;
      default:
        run(TypeTag<complex128>{}, TypeTag<complex128>{});
        break;
    }
    if (failed) {
      return absl::InvalidArgumentError(
          "Eigen decomposition was not successful. The input might not be valid.");
    }
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return true; }

 private:
  bool compute_v_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("Eig")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_COMPLEX64})
                    .TypeConstraint("Tout", {DT_COMPLEX64}),
                EigOp);
REGISTER_KERNEL(KernelDefBuilder("Eig")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_DOUBLE, DT_COMPLEX128})
                    .TypeConstraint("Tout", {DT_COMPLEX128}),
                EigOp);

}  // namespace
}  // namespace rill
