// Tridiagonal matrices on the CPU, float and double, batched over the leading dims (which must be
// equal for every input, as TensorFlow's LinearAlgebraOp requires):
//   TridiagonalMatMul(superdiag, maindiag, subdiag [..., 1, M], rhs [..., M, N]): row i of the
//     product is subdiag[i] rhs[i-1] + maindiag[i] rhs[i] + superdiag[i] rhs[i+1] (subdiag[0]
//     and superdiag[M-1] unused).
//   TridiagonalSolve(diagonals [..., 3, M] = (superdiag, maindiag, subdiag), rhs [..., M, K]):
//     x with A x = rhs, by TensorFlow's methods: Gaussian elimination with partial pivoting
//     (LAPACK's gtsv order; the default), the Thomas algorithm (partial_pivoting = false), or the
//     pivoted elimination that perturbs tiny pivots (perturb_singular, after LAPACK's lagtf /
//     lagts). A zero pivot gives a matrix of NaN, as TensorFlow's kernel gives (it only logs).
// Errors are TensorFlow's texts (InvalidArgument): "Input tensor 0 must have rank >= 2, got 1",
// "All input tensors must have the same rank.", "All input tensors must have the same outer
// dimensions.", "Invalid superdiagonal shape." (main diagonal, subdiagonal), "Expected diagonals
// to be provided as a matrix with 3 rows, got 2 rows.", "Expected the same number of left-hand
// sides and right-hand sides, got 4 and 3.", "Setting perturb_singular requires also setting
// partial_pivoting.".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// TensorFlow's LinearAlgebraOp input checks; the number of matrices in the batch.
absl::StatusOr<int64_t> CheckBatch(OpKernelContext& ctx, int num_inputs) {
  const TensorShape& first = ctx.input(0).shape();
  for (int i = 0; i < num_inputs; ++i) {
    const TensorShape& s = ctx.input(i).shape();
    if (s.rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input tensor ", i, " must have rank >= 2, got ", s.rank()));
    }
    if (i == 0) continue;
    if (s.rank() != first.rank()) {
      return absl::InvalidArgumentError("All input tensors must have the same rank.");
    }
    for (int d = 0; d + 2 < s.rank(); ++d) {
      if (s.dim(d) != first.dim(d)) {
        return absl::InvalidArgumentError("All input tensors must have the same outer dimensions.");
      }
    }
  }
  int64_t batch = 1;
  for (int d = 0; d + 2 < first.rank(); ++d) batch *= first.dim(d);
  return batch;
}

// Row i of the diagonals of x y^T (x, y: m x n, row-major): *up = sum_j x[i, j] y[i+1, j] (0 for
// the last row), *mid = sum_j x[i, j] y[i, j], *down = sum_j x[i, j] y[i-1, j] (0 for the first).
template <typename T>
void TridiagonalOfProductRow(const T* x, const T* y, int64_t m, int64_t n, int64_t i, T* up, T* mid,
                             T* down) {
  T u = 0, c = 0, d = 0;
  for (int64_t j = 0; j < n; ++j) {
    const T xij = x[i * n + j];
    if (i + 1 < m) u += xij * y[(i + 1) * n + j];
    c += xij * y[i * n + j];
    if (i > 0) d += xij * y[(i - 1) * n + j];
  }
  *up = u;
  *mid = c;
  *down = d;
}

class TridiagonalMatMulOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const int64_t batch, CheckBatch(ctx, 4));
    const TensorShape& rs = ctx.input(3).shape();
    const int64_t m = rs.dim(rs.rank() - 2), n = rs.dim(rs.rank() - 1);
    const char* names[3] = {"superdiagonal", "main diagonal", "subdiagonal"};
    for (int i = 0; i < 3; ++i) {
      const TensorShape& s = ctx.input(i).shape();
      if (s.dim(s.rank() - 2) != 1 || s.dim(s.rank() - 1) != m) {
        return absl::InvalidArgumentError(absl::StrCat("Invalid ", names[i], " shape."));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, rs));
    return VisitKernelTypes<float, double>(*this, ctx.input(3).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < batch; ++b) {
        const T* sup = ctx.input(0).flat<T>().data() + b * m;
        const T* main = ctx.input(1).flat<T>().data() + b * m;
        const T* sub = ctx.input(2).flat<T>().data() + b * m;
        const T* x = ctx.input(3).flat<T>().data() + b * m * n;
        T* y = out->flat<T>().data() + b * m * n;
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            T v = main[i] * x[i * n + j];
            if (i > 0) v += sub[i] * x[(i - 1) * n + j];
            if (i + 1 < m) v += sup[i] * x[(i + 1) * n + j];
            y[i * n + j] = v;
          }
        }
      }
      return absl::OkStatus();
    });
  }
};

// _RillTridiagonalMatMulGrad(superdiag, maindiag, subdiag, rhs, grad): TensorFlow's gradient of
// TridiagonalMatMul: d superdiag[i] = sum_j grad[i, j] rhs[i+1, j] (0 for the last),
// d maindiag[i] = sum_j grad[i, j] rhs[i, j], d subdiag[i] = sum_j grad[i, j] rhs[i-1, j] (0 for
// the first), d rhs[k] = superdiag[k-1] grad[k-1] + maindiag[k] grad[k] + subdiag[k+1] grad[k+1].
class TridiagonalMatMulGradOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const int64_t batch, CheckBatch(ctx, 5));
    const TensorShape& rs = ctx.input(3).shape();
    if (ctx.input(4).shape() != rs) {
      return absl::InvalidArgumentError(absl::StrCat("grad has shape ",
                                                     ctx.input(4).shape().DebugString(),
                                                     " but rhs has ", rs.DebugString()));
    }
    const int64_t m = rs.dim(rs.rank() - 2), n = rs.dim(rs.rank() - 1);
    const char* names[3] = {"superdiagonal", "main diagonal", "subdiagonal"};
    for (int i = 0; i < 3; ++i) {
      const TensorShape& s = ctx.input(i).shape();
      if (s.dim(s.rank() - 2) != 1 || s.dim(s.rank() - 1) != m) {
        return absl::InvalidArgumentError(absl::StrCat("Invalid ", names[i], " shape."));
      }
    }
    Tensor* outs[4];
    for (int i = 0; i < 4; ++i) {
      RILL_ASSIGN_OR_RETURN(outs[i], ctx.allocate_output(i, ctx.input(i).shape()));
    }
    return VisitKernelTypes<float, double>(*this, ctx.input(3).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < batch; ++b) {
        const T* sup = ctx.input(0).flat<T>().data() + b * m;
        const T* main = ctx.input(1).flat<T>().data() + b * m;
        const T* sub = ctx.input(2).flat<T>().data() + b * m;
        const T* x = ctx.input(3).flat<T>().data() + b * m * n;
        const T* g = ctx.input(4).flat<T>().data() + b * m * n;
        T* dsup = outs[0]->flat<T>().data() + b * m;
        T* dmain = outs[1]->flat<T>().data() + b * m;
        T* dsub = outs[2]->flat<T>().data() + b * m;
        T* dx = outs[3]->flat<T>().data() + b * m * n;
        for (int64_t i = 0; i < m; ++i) {
          TridiagonalOfProductRow(g, x, m, n, i, &dsup[i], &dmain[i], &dsub[i]);
          for (int64_t j = 0; j < n; ++j) {
            T v = main[i] * g[i * n + j];
            if (i > 0) v += sup[i - 1] * g[(i - 1) * n + j];
            if (i + 1 < m) v += sub[i + 1] * g[(i + 1) * n + j];
            dx[i * n + j] = v;
          }
        }
      }
      return absl::OkStatus();
    });
  }
};

// _RillTridiagonalTranspose(diagonals [..., 3, M]): the transpose's diagonals: superdiagonal
// i is subdiag[i+1], subdiagonal i is superdiag[i-1] (0 where there is none), the main one kept.
class TridiagonalTransposeOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const int64_t batch, CheckBatch(ctx, 1));
    const TensorShape& s = ctx.input(0).shape();
    const int64_t rows = s.dim(s.rank() - 2), m = s.dim(s.rank() - 1);
    if (rows != 3) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected diagonals to be provided as a matrix with 3 rows, got ", rows, " rows."));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, s));
    return VisitKernelTypes<float, double>(*this, ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < batch; ++b) {
        const T* d = ctx.input(0).flat<T>().data() + b * 3 * m;
        T* t = out->flat<T>().data() + b * 3 * m;
        for (int64_t i = 0; i < m; ++i) {
          t[i] = i + 1 < m ? d[2 * m + i + 1] : T(0);
          t[m + i] = d[m + i];
          t[2 * m + i] = i > 0 ? d[i - 1] : T(0);
        }
      }
      return absl::OkStatus();
    });
  }
};

// _RillTridiagonalOfProduct(x, y [..., M, N]): the diagonals [..., 3, M] of x y^T: superdiagonal
// i = sum_j x[i, j] y[i+1, j] (0 for the last), main i = sum_j x[i, j] y[i, j], subdiagonal i =
// sum_j x[i, j] y[i-1, j] (0 for the first).
class TridiagonalOfProductOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const int64_t batch, CheckBatch(ctx, 2));
    const TensorShape& xs = ctx.input(0).shape();
    if (ctx.input(1).shape() != xs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "x has shape ", xs.DebugString(), " but y has ", ctx.input(1).shape().DebugString()));
    }
    const int64_t m = xs.dim(xs.rank() - 2), n = xs.dim(xs.rank() - 1);
    std::vector<int64_t> dims(xs.dims().begin(), xs.dims().end() - 2);
    dims.push_back(3);
    dims.push_back(m);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    return VisitKernelTypes<float, double>(*this, ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < batch; ++b) {
        const T* x = ctx.input(0).flat<T>().data() + b * m * n;
        const T* y = ctx.input(1).flat<T>().data() + b * m * n;
        T* d = out->flat<T>().data() + b * 3 * m;
        for (int64_t i = 0; i < m; ++i) {
          TridiagonalOfProductRow(x, y, m, n, i, &d[i], &d[m + i], &d[2 * m + i]);
        }
      }
      return absl::OkStatus();
    });
  }
};

// One system: diagonals d (3 x n, row-major), right-hand sides r (n x k), solution x (n x k).
template <typename T>
class TridiagonalSystem {
 public:
  TridiagonalSystem(const T* d, const T* r, T* x, int64_t n, int64_t k)
      : sup_(d), diag_(d + n), sub_(d + 2 * n), r_(r), x_(x), n_(n), k_(k) {}

  void FillNaN() { std::fill(x_, x_ + n_ * k_, std::numeric_limits<T>::quiet_NaN()); }
  T* X(int64_t i) { return x_ + i * k_; }
  const T* R(int64_t i) const { return r_ + i * k_; }

  // Gaussian elimination with partial pivoting (TensorFlow's order of operations).
  void SolvePivoting() {
    const int64_t n = n_;
    if (n == 1) return SolveScalar();
    std::vector<T> u0(n), u1(n), u2(n);
    u0[0] = diag_[0];
    u1[0] = sup_[0];
    std::copy(R(0), R(0) + k_, X(0));
    for (int64_t i = 0; i < n - 1; ++i) {
      if (std::abs(u0[i]) >= std::abs(sub_[i + 1])) {
        if (u0[i] == T(0)) return FillNaN();
        const T factor = sub_[i + 1] / u0[i];
        u0[i + 1] = diag_[i + 1] - factor * u1[i];
        for (int64_t j = 0; j < k_; ++j) X(i + 1)[j] = R(i + 1)[j] - factor * X(i)[j];
        if (i != n - 2) {
          u1[i + 1] = sup_[i + 1];
          u2[i] = 0;
        }
      } else {
        const T factor = u0[i] / sub_[i + 1];
        u0[i] = sub_[i + 1];
        u0[i + 1] = u1[i] - factor * diag_[i + 1];
        u1[i] = diag_[i + 1];
        for (int64_t j = 0; j < k_; ++j) {
          X(i + 1)[j] = X(i)[j] - factor * R(i + 1)[j];
          X(i)[j] = R(i + 1)[j];
        }
        if (i != n - 2) {
          u2[i] = sup_[i + 1];
          u1[i + 1] = -factor * sup_[i + 1];
        }
      }
    }
    if (u0[n - 1] == T(0)) return FillNaN();
    for (int64_t j = 0; j < k_; ++j) {
      X(n - 1)[j] /= u0[n - 1];
      X(n - 2)[j] = (X(n - 2)[j] - u1[n - 2] * X(n - 1)[j]) / u0[n - 2];
    }
    for (int64_t i = n - 3; i >= 0; --i) {
      for (int64_t j = 0; j < k_; ++j) {
        X(i)[j] = (X(i)[j] - u1[i] * X(i + 1)[j] - u2[i] * X(i + 2)[j]) / u0[i];
      }
    }
  }

  // The Thomas algorithm (no pivoting).
  void SolveThomas() {
    const int64_t n = n_;
    if (n == 1) return SolveScalar();
    std::vector<T> u(n);
    if (diag_[0] == T(0)) return FillNaN();
    u[0] = sup_[0] / diag_[0];
    for (int64_t j = 0; j < k_; ++j) X(0)[j] = R(0)[j] / diag_[0];
    for (int64_t i = 1; i < n; ++i) {
      const T denom = diag_[i] - sub_[i] * u[i - 1];
      if (denom == T(0)) return FillNaN();
      u[i] = sup_[i] / denom;
      for (int64_t j = 0; j < k_; ++j) X(i)[j] = (R(i)[j] - sub_[i] * X(i - 1)[j]) / denom;
    }
    for (int64_t i = n - 2; i >= 0; --i) {
      for (int64_t j = 0; j < k_; ++j) X(i)[j] -= u[i] * X(i + 1)[j];
    }
  }

  // Pivoted elimination scaled by row sums, perturbing tiny pivots on the back substitution.
  void SolvePerturbSingular() {
    const int64_t n = n_;
    const T eps = std::numeric_limits<T>::epsilon();
    std::vector<T> row(k_);
    if (n == 1) {
      T denom = diag_[0];
      std::copy(R(0), R(0) + k_, row.begin());
      MaybePerturbPivot(eps * std::abs(denom), denom, row);
      for (int64_t j = 0; j < k_; ++j) X(0)[j] = row[j] * (T(1) / denom);
      return;
    }
    std::vector<T> u0(n), u1(n), u2(n);
    u0[0] = diag_[0];
    u1[0] = sup_[0];
    T max_abs_u = std::max(std::abs(u0[0]), std::abs(u1[0]));
    T scale1 = std::abs(u0[0]) + std::abs(u1[0]);
    std::copy(R(0), R(0) + k_, X(0));
    for (int64_t i = 0; i < n - 1; ++i) {
      u0[i + 1] = diag_[i + 1];
      T scale2 = std::abs(sub_[i + 1]) + std::abs(u0[i + 1]);
      if (i < n - 2) scale2 += std::abs(sup_[i + 1]);
      if (sub_[i + 1] == T(0)) {
        scale1 = scale2;
        u1[i + 1] = sup_[i + 1];
        u2[i] = 0;
        std::copy(R(i + 1), R(i + 1) + k_, X(i + 1));
      } else {
        const T piv1 = u0[i] == T(0) ? T(0) : std::abs(u0[i]) / scale1;
        const T piv2 = std::abs(sub_[i + 1]) / scale2;
        if (piv2 <= piv1) {
          scale1 = scale2;
          const T factor = sub_[i + 1] / u0[i];
          u0[i + 1] = diag_[i + 1] - factor * u1[i];
          u1[i + 1] = sup_[i + 1];
          u2[i] = 0;
          for (int64_t j = 0; j < k_; ++j) X(i + 1)[j] = R(i + 1)[j] - factor * X(i)[j];
        } else {
          const T factor = u0[i] / sub_[i + 1];
          u0[i] = sub_[i + 1];
          u0[i + 1] = u1[i] - factor * diag_[i + 1];
          u1[i] = diag_[i + 1];
          if (i < n - 2) {
            u2[i] = sup_[i + 1];
            u1[i + 1] = -factor * sup_[i + 1];
          }
          for (int64_t j = 0; j < k_; ++j) {
            X(i + 1)[j] = X(i)[j] - factor * R(i + 1)[j];
            X(i)[j] = R(i + 1)[j];
          }
        }
      }
      if (i < n - 2) {
        max_abs_u = std::max({max_abs_u, std::abs(u0[i]), std::abs(u1[i]), std::abs(u2[i])});
      }
    }
    max_abs_u = std::max(max_abs_u, std::abs(u0[n - 1]));
    const T tol = eps * max_abs_u;
    T denom = u0[n - 1];
    std::copy(X(n - 1), X(n - 1) + k_, row.begin());
    MaybePerturbPivot(tol, denom, row);
    for (int64_t j = 0; j < k_; ++j) X(n - 1)[j] = row[j] * (T(1) / denom);
    denom = u0[n - 2];
    for (int64_t j = 0; j < k_; ++j) row[j] = X(n - 2)[j] - u1[n - 2] * X(n - 1)[j];
    MaybePerturbPivot(std::copysign(tol, denom), denom, row);
    for (int64_t j = 0; j < k_; ++j) X(n - 2)[j] = row[j] * (T(1) / denom);
    for (int64_t i = n - 3; i >= 0; --i) {
      for (int64_t j = 0; j < k_; ++j) {
        row[j] = X(i)[j] - u1[i] * X(i + 1)[j] - u2[i] * X(i + 2)[j];
      }
      denom = u0[i];
      MaybePerturbPivot(std::copysign(tol, denom), denom, row);
      for (int64_t j = 0; j < k_; ++j) X(i)[j] = row[j] * (T(1) / denom);
    }
  }

 private:
  void SolveScalar() {
    if (diag_[0] == T(0)) return FillNaN();
    for (int64_t j = 0; j < k_; ++j) X(0)[j] = R(0)[j] / diag_[0];
  }

  // Moves a pivot below 1 away from zero (by a growing perturbation of its sign) until neither
  // the row divided by it nor its reciprocal overflows, or scales both up (LAPACK's lagts).
  static void MaybePerturbPivot(T perturb, T& pivot, std::vector<T>& row) {
    const T tiny = std::numeric_limits<T>::min();
    const T small = T(1) / std::numeric_limits<T>::max();
    const T safemin = small < tiny ? tiny : (T(1) + std::numeric_limits<T>::epsilon()) * small;
    const T bignum = T(1) / safemin;
    T abs_pivot = std::abs(pivot);
    if (abs_pivot >= T(1)) return;
    perturb = std::copysign(std::max(std::abs(perturb), safemin), pivot);
    T max_factor = 0;
    for (T v : row) max_factor = std::max(max_factor, std::abs(v));
    bool stop = false;
    while (abs_pivot < T(1) && !stop) {
      if (abs_pivot < safemin) {
        if (abs_pivot == T(0) || max_factor * safemin > abs_pivot) {
          pivot += perturb;
          perturb *= 2;
        } else {
          pivot *= bignum;
          for (T& v : row) v *= bignum;
          stop = true;
        }
      } else if (max_factor > abs_pivot * bignum) {
        pivot += perturb;
        perturb *= 2;
      } else {
        stop = true;
      }
      abs_pivot = std::abs(pivot);
    }
  }

  const T *sup_, *diag_, *sub_, *r_;
  T* x_;
  const int64_t n_, k_;
};

class TridiagonalSolveOp final : public OpKernel {
 public:
  explicit TridiagonalSolveOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("partial_pivoting", &pivoting_));
    if (ctx.def().attr().count("perturb_singular") > 0) {
      ctx.SetStatus(ctx.GetAttr("perturb_singular", &perturb_singular_));
    }
    if (!pivoting_ && perturb_singular_) {
      ctx.SetStatus(absl::InvalidArgumentError(
          "Setting perturb_singular requires also setting partial_pivoting."));
    }
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const int64_t batch, CheckBatch(ctx, 2));
    const TensorShape& ds = ctx.input(0).shape();
    const TensorShape& rs = ctx.input(1).shape();
    const int64_t rows = ds.dim(ds.rank() - 2), n = ds.dim(ds.rank() - 1);
    if (rows != 3) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected diagonals to be provided as a matrix with 3 rows, got ", rows, " rows."));
    }
    const int64_t n_right = rs.dim(rs.rank() - 2), k = rs.dim(rs.rank() - 1);
    if (n != n_right) {
      return absl::InvalidArgumentError(
          absl::StrCat("Expected the same number of left-hand sides and right-hand sides, got ", n,
                       " and ", n_right, "."));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, rs));
    if (n == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double>(*this, ctx.input(0).dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (int64_t b = 0; b < batch; ++b) {
        TridiagonalSystem<T> system(ctx.input(0).flat<T>().data() + b * 3 * n,
                                    ctx.input(1).flat<T>().data() + b * n * k,
                                    out->flat<T>().data() + b * n * k, n, k);
        if (pivoting_ && perturb_singular_) {
          system.SolvePerturbSingular();
        } else if (pivoting_) {
          system.SolvePivoting();
        } else {
          system.SolveThomas();
        }
      }
      return absl::OkStatus();
    });
  }

 private:
  bool pivoting_ = true;
  bool perturb_singular_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("TridiagonalMatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                TridiagonalMatMulOp);
REGISTER_KERNEL(KernelDefBuilder("_RillTridiagonalMatMulGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                TridiagonalMatMulGradOp);
REGISTER_KERNEL(KernelDefBuilder("_RillTridiagonalTranspose")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                TridiagonalTransposeOp);
REGISTER_KERNEL(KernelDefBuilder("_RillTridiagonalOfProduct")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                TridiagonalOfProductOp);
REGISTER_KERNEL(KernelDefBuilder("TridiagonalSolve")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                TridiagonalSolveOp);

}  // namespace
}  // namespace rill
