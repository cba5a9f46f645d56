// Lu and MatrixSolveLs on the CPU, float and double, batched over the leading dims, with Eigen's
// decompositions as TensorFlow's CPU kernels use them:
//   Lu(input [..., n, n]): the packed factors of partial-pivot LU (L's unit diagonal implied) and
//     p [..., n] (int32 or int64), the input row at each factor row: LU = input[p]. A zero (or
//     NaN) pivot is InvalidArgument "Input is not invertible.".
//   MatrixSolveLs(matrix [..., m, n], rhs [..., m, k], l2_regularizer): the least-squares (m >= n,
//     normal equations (A^T A + l2 I) X = A^T rhs) or minimum-norm (m < n, X = A^T (A A^T + l2
//     I)^-1 rhs) solution by Cholesky when fast, else by complete orthogonal decomposition (l2
//     ignored, as TensorFlow ignores it); a failed Cholesky is InvalidArgument "Input matrix was
//     rank deficient or ill-conditioned. Try setting fast=False or provide a larger l2_regularizer
//     > 0.". An empty matrix or rhs gives zeros.
// Shape errors are TensorFlow's texts: "Input tensor must have rank >= 2, got 1" (Lu), "Input
// matrix must be square.", "Input tensor 0 must have rank >= 2, got 1", "All input tensors must
// have the same rank.", "All input tensors must have the same outer dimensions.", "Input matrix
// and rhs are incompatible.", "l2_regularizer must be scalar, got shape [1]".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
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
template <typename T>
using ConstMap = Eigen::Map<const RowMat<T>>;
template <typename T>
using MutMap = Eigen::Map<RowMat<T>>;

class LuOp final : public OpKernel {
 public:
  explicit LuOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("output_idx_type", &idx_type_));
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    const TensorShape& s = in.shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input tensor must have rank >= 2, got ", s.rank()));
    }
    const int64_t n = s.dim(s.rank() - 1);
    if (s.dim(s.rank() - 2) != n) return absl::InvalidArgumentError("Input matrix must be square.");
    std::vector<int64_t> p_dims(s.dims().begin(), s.dims().end() - 1);
    RILL_ASSIGN_OR_RETURN(const TensorShape p_shape, TensorShape::FromDims(p_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * lu, ctx.allocate_output(0, s));
    RILL_ASSIGN_OR_RETURN(Tensor * p, ctx.allocate_output(1, p_shape));
    if (in.NumElements() == 0) return absl::OkStatus();
    const int64_t count = in.NumElements() / (n * n);
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < count; ++b) {
        const Eigen::PartialPivLU<RowMat<T>> lu_b(
            ConstMap<T>(in.flat<T>().data() + b * n * n, n, n));
        const RowMat<T>& packed = lu_b.matrixLU();
        for (int64_t i = 0; i < n; ++i) {
          if (!(std::abs(packed(i, i)) > T(0))) {
            return absl::InvalidArgumentError("Input is not invertible.");
          }
        }
        MutMap<T>(lu->flat<T>().data() + b * n * n, n, n) = packed;
        // Row i of P * input is input row perm[i]: P applied to 0, 1, ..., n - 1.
        Eigen::VectorXi iota(n);
        for (int64_t i = 0; i < n; ++i) iota[i] = static_cast<int>(i);
        const Eigen::VectorXi perm = lu_b.permutationP() * iota;
        for (int64_t i = 0; i < n; ++i) {
          if (idx_type_ == DT_INT32) {
            p->flat<int32_t>()[b * n + i] = perm[i];
          } else {
            p->flat<int64_t>()[b * n + i] = perm[i];
          }
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  DataType idx_type_ = DT_INT32;
};

class MatrixSolveLsOp final : public OpKernel {
 public:
  explicit MatrixSolveLsOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("fast", &fast_));
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& r = ctx.input(1);
    const Tensor& l2_t = ctx.input(2);
    for (int i = 0; i < 2; ++i) {
      const TensorShape& s = ctx.input(i).shape();
      if (s.rank() < 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input tensor ", i, " must have rank >= 2, got ", s.rank()));
      }
    }
    if (a.shape().rank() != r.shape().rank()) {
      return absl::InvalidArgumentError("All input tensors must have the same rank.");
    }
    const int rank = a.shape().rank();
    int64_t count = 1;
    for (int d = 0; d + 2 < rank; ++d) {
      if (a.shape().dim(d) != r.shape().dim(d)) {
        return absl::InvalidArgumentError("All input tensors must have the same outer dimensions.");
      }
      count *= a.shape().dim(d);
    }
    const int64_t m = a.shape().dim(rank - 2), n = a.shape().dim(rank - 1);
    const int64_t k = r.shape().dim(rank - 1);
    if (r.shape().dim(rank - 2) != m) {
      return absl::InvalidArgumentError("Input matrix and rhs are incompatible.");
    }
    if (l2_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("l2_regularizer must be scalar, got shape ", l2_t.shape().DebugString()));
    }
    const double l2 = l2_t.flat<double>()[0];
    std::vector<int64_t> out_dims(a.shape().dims().begin(), a.shape().dims().end() - 2);
    out_dims.push_back(n);
    out_dims.push_back(k);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitKernelTypes<float, double>(*this, a.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < count; ++b) {
        MutMap<T> x(out->flat<T>().data() + b * n * k, n, k);
        if (m == 0 || n == 0 || k == 0) {
          x.setZero();
          continue;
        }
        const ConstMap<T> A(a.flat<T>().data() + b * m * n, m, n);
        const ConstMap<T> rhs(r.flat<T>().data() + b * m * k, m, k);
        if (!fast_) {
          x = A.completeOrthogonalDecomposition().solve(rhs);
          continue;
        }
        const int64_t g = m >= n ? n : m;
        RowMat<T> gramian(g, g);
        if (m >= n) {
          gramian.template triangularView<Eigen::Lower>() = A.transpose() * A;
        } else {
          gramian.template triangularView<Eigen::Lower>() = A * A.transpose();
        }
        if (l2 > 0) gramian.diagonal().array() += static_cast<T>(l2);
        const Eigen::LLT<RowMat<T>, Eigen::Lower> llt(gramian);
        if (llt.info() != Eigen::Success) {
          return absl::InvalidArgumentError(
              "Input matrix was rank deficient or ill-conditioned. Try setting fast=False or "
              "provide a larger l2_regularizer > 0.");
        }
        if (m >= n) {
          x = A.transpose() * rhs;
          llt.solveInPlace(x);
        } else {
          x = A.transpose() * llt.solve(rhs);
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  bool fast_ = true;
};

REGISTER_KERNEL(KernelDefBuilder("Lu")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .TypeConstraint("output_idx_type", {DT_INT32, DT_INT64}),
                LuOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixSolveLs")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                MatrixSolveLsOp);

}  // namespace
}  // namespace rill
