// Dense linear algebra on the CPU, float and double, batched over the leading dims (each op
// works on the matrices in the last two dims; a batch's matrices are spread over the intra-op
// threads), with Eigen's decompositions; matrices of at least kLapackMinSize rows and columns run
// on OpenBLAS's LAPACK instead (kernels/math_lib/lapack.h: ?potrf, ?getrf with ?getri / ?getrs,
// ?trsm, ?geqrf + ?orgqr, ?gesdd), single-threaded per matrix as Gemm's OpenBLAS calls are.
// Results of the two paths agree to rounding; singular vectors are unique only up to sign, and
// the two may pick different signs.
//
//   MatrixDeterminant(input): det of each square matrix (partial-pivot LU); 1 for 0x0.
//   LogMatrixDeterminant(input): sign (-1, 0, 1) and log |det|; singular matrices give sign 0 and
//     log |det| -inf.
//   MatrixInverse(input, adjoint): the inverse (of the transpose when adjoint); InvalidArgument
//     "Input is not invertible." when an LU pivot is 0.
//   Cholesky(input): the lower factor L of L L^T from the lower triangle; a matrix that is not
//     positive definite gives NaN in the lower triangle (as TensorFlow's CPU kernel does) and 0
//     above it.
//   Qr(input, full_matrices): Householder QR; q [m, p], r [p, n] with p = min(m, n), or m when
//     full_matrices.
//   Svd(input, compute_uv, full_matrices): singular values in descending order, and u, v (thin or
//     full); without compute_uv, u and v are scalar zeros. A matrix with a NaN or infinity gives
//     NaN values and vectors.
//   MatrixTriangularSolve(matrix, rhs, lower, adjoint): solves with the lower (upper) triangle
//     of matrix, or its transpose when adjoint; batch dims broadcast; a zero pivot gives inf/NaN.
//   MatrixSolve(matrix, rhs, adjoint): partial-pivot LU solve (with the conjugate transpose when
//     adjoint); batch dims must be equal; InvalidArgument "Input matrix is not invertible." for a
//     zero pivot. Also complex64 and complex128, on Eigen only.
//
// Shape errors are InvalidArgument with TensorFlow's texts: "Input tensor 0 must have rank >= 2,
// got 1", "Input matrix must be square.", "First input (lhs) must be a square matrix.", "Input
// matrix and rhs are incompatible.", "All input tensors must have the same outer dimensions.",
// "In[0] ndims must be >= 2: 1", "In[0] and In[1] must have compatible batch dimensions: [2,3,3]
// vs. [3,3,1]", "In[0] matrices in the last dimensions must be square (3 =/= 2)", "In[0]
// mismatch In[1] shape: 3 vs. 2: [3,3] [2,1] 1 0".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdint>
#include <eigen3/Eigen/Dense>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_math.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/lapack.h"

namespace rill {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Matrices of at most kSmallSize rows and columns, held without heap allocation.
constexpr int kSmallSize = 4;
template <typename T>
using SmallMat =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, kSmallSize, kSmallSize>;
template <typename T>
using ConstMap = Eigen::Map<const RowMat<T>>;
template <typename T>
using MutMap = Eigen::Map<RowMat<T>>;

// A batch of matrices: the batch dims, the count, and the rows and cols of each.
struct MatrixBatch {
  std::vector<int64_t> batch;
  int64_t count = 1;
  int64_t rows = 0;
  int64_t cols = 0;
};

absl::StatusOr<MatrixBatch> SplitBatch(const Tensor& t, int index) {
  const TensorShape& s = t.shape();
  if (s.rank() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Input tensor ", index, " must have rank >= 2, got ", s.rank()));
  }
  MatrixBatch b;
  for (int i = 0; i + 2 < s.rank(); ++i) {
    b.batch.push_back(s.dim(i));
    b.count *= s.dim(i);
  }
  b.rows = s.dim(s.rank() - 2);
  b.cols = s.dim(s.rank() - 1);
  return b;
}

absl::StatusOr<TensorShape> BatchShape(const std::vector<int64_t>& batch,
                                       std::initializer_list<int64_t> tail) {
  std::vector<int64_t> dims = batch;
  dims.insert(dims.end(), tail.begin(), tail.end());
  return TensorShape::FromDims(dims);
}

// Calls fn(i) for each matrix i < count of a batch, the matrices spread over the intra-op threads
// (each about `cost` units of work). fn writes only its own matrix's outputs.
template <typename Fn>
void ForEachMatrix(OpKernelContext& ctx, int64_t count, int64_t cost, Fn&& fn) {
  ctx.ParallelFor(count, std::max<int64_t>(cost, 1), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(i);
  });
}

// The smallest matrices (rows and columns) handed to LAPACK: from about 32 rows its routines are
// faster than Eigen's (docs/performance.md); smaller ones, where a call's fixed cost dominates,
// stay on Eigen. Larger than kLapackMaxSize (LAPACK's int sizes and workspaces) stays on Eigen.
constexpr int64_t kLapackMinSize = 32;
constexpr int64_t kLapackMaxSize = std::numeric_limits<int>::max() / 64;

bool UseLapack(int64_t rows, int64_t cols) {
  return std::min(rows, cols) >= kLapackMinSize && std::max(rows, cols) <= kLapackMaxSize;
}

absl::Status NotSquare() { return absl::InvalidArgumentError("Input matrix must be square."); }

// --- determinants --------------------------------------------------------------------------

class DeterminantOp final : public OpKernel {
 public:
  explicit DeterminantOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), log_(ctx.def().op() == "LogMatrixDeterminant") {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(MatrixBatch b, SplitBatch(in, 0));
    if (b.rows != b.cols) return NotSquare();
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, BatchShape(b.batch, {}));
    RILL_ASSIGN_OR_RETURN(Tensor * out0, ctx.allocate_output(0, out_shape));
    Tensor* out1 = nullptr;
    if (log_) {
      RILL_ASSIGN_OR_RETURN(out1, ctx.allocate_output(1, out_shape));
    }
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const int64_t n = b.rows;
      const T* x = in.flat<T>().data();
      ForEachMatrix(ctx, b.count, 2 * n * n * n / 3 + 10 * n, [&](int64_t i) {
        T sign = 1;
        T log_abs = 0;
        if (UseLapack(n, n)) {
          std::vector<T> lu(x + i * n * n, x + (i + 1) * n * n);
          LapackLogDeterminant(lu.data(), n, &sign, &log_abs);
        } else if (n > 0) {
          Eigen::PartialPivLU<RowMat<T>> lu(ConstMap<T>(x + i * n * n, n, n));
          const auto& m = lu.matrixLU();
          sign = static_cast<T>(lu.permutationP().determinant());
          for (int64_t k = 0; k < n; ++k) {
            const T d = m(k, k);
            if (d < 0) sign = -sign;
            if (d == 0) sign = 0;
            if (std::isnan(d)) sign = d;
            log_abs += std::log(std::abs(d));
          }
        }
        if (log_) {
          out0->flat<T>()[i] = sign;
          out1->flat<T>()[i] = log_abs;
        } else {
          out0->flat<T>()[i] = sign * std::exp(log_abs);
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  const bool log_;
};

// --- inverse and Cholesky ------------------------------------------------------------------

class InverseOp final : public OpKernel {
 public:
  explicit InverseOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("adjoint", &adjoint_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(MatrixBatch b, SplitBatch(in, 0));
    if (b.rows != b.cols) return NotSquare();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const int64_t n = b.rows;
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      if (n == 0) return absl::OkStatus();
      std::atomic<bool> singular{false};
      ForEachMatrix(ctx, b.count, n * n * n, [&](int64_t i) {
        ConstMap<T> a(x + i * n * n, n, n);
        if (UseLapack(n, n)) {
          MutMap<T> inv(y + i * n * n, n, n);
          if (adjoint_) {
            inv = a.transpose();
          } else {
            inv = a;
          }
          if (!LapackInverse(inv.data(), n)) singular = true;
          return;
        }
        Eigen::PartialPivLU<RowMat<T>> lu;
        if (adjoint_) {
          lu.compute(a.transpose());
        } else {
          lu.compute(a);
        }
        if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0))) {
          singular = true;
          return;
        }
        MutMap<T>(y + i * n * n, n, n) = lu.inverse();
      });
      if (singular) return absl::InvalidArgumentError("Input is not invertible.");
      return absl::OkStatus();
    });
  }

 private:
  bool adjoint_ = false;
};

class CholeskyOp final : public OpKernel {
 public:
  explicit CholeskyOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(MatrixBatch b, SplitBatch(in, 0));
    if (b.rows != b.cols) return NotSquare();
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in.shape()));
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const int64_t n = b.rows;
      const T* x = in.flat<T>().data();
      T* y = out->flat<T>().data();
      if (n == 0) return absl::OkStatus();
      ForEachMatrix(ctx, b.count, n * n * n / 3, [&](int64_t i) {
        MutMap<T> l(y + i * n * n, n, n);
        if (UseLapack(n, n)) {
          l = ConstMap<T>(x + i * n * n, n, n);
          if (LapackCholesky(l.data(), n)) return;
          l.setZero();
          l.template triangularView<Eigen::Lower>().setConstant(
              std::numeric_limits<T>::quiet_NaN());
          return;
        }
        Eigen::LLT<RowMat<T>, Eigen::Lower> llt(ConstMap<T>(x + i * n * n, n, n));
        if (llt.info() == Eigen::Success) {
          l = llt.matrixL();
        } else {
          l.setZero();
          l.template triangularView<Eigen::Lower>().setConstant(
              std::numeric_limits<T>::quiet_NaN());
        }
      });
      return absl::OkStatus();
    });
  }
};

// --- QR and SVD ----------------------------------------------------------------------------

// Householder QR of a row-major m x n matrix with m, n <= kSmallSize, in registers-sized arrays:
// Eigen's HouseholderQR step by step (each column's reflector from makeHouseholder: beta =
// -sign(c0) |x|, tau = (beta - c0) / beta, essential part x / (c0 - beta), none when the column's
// tail is 0; applied to the columns right of it, then the sequence applied to the identity for
// q), without the general code's per-call overhead. q [m, p], r [p, n].
template <typename T>
void SmallQr(const T* x, int64_t m, int64_t n, int64_t p, T* q, T* r) {
  T a[kSmallSize][kSmallSize];
  T tau[kSmallSize];
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) a[i][j] = x[i * n + j];
  }
  const int64_t size = std::min(m, n);
  // Applies H = I - tau v v^T (v = (1, a[k+1..m-1][k])) to the columns [c0, c1) of rows k.. of
  // the m-row matrix b.
  auto reflect = [&](T(*b)[kSmallSize], int64_t k, T t, int64_t c0, int64_t c1) {
    if (t == T(0)) return;
    for (int64_t j = c0; j < c1; ++j) {
      T dot = 0;
      for (int64_t i = k + 1; i < m; ++i) dot += a[i][k] * b[i][j];
      dot += b[k][j];
      b[k][j] -= t * dot;
      for (int64_t i = k + 1; i < m; ++i) b[i][j] -= t * a[i][k] * dot;
    }
  };
  for (int64_t k = 0; k < size; ++k) {
    T tail = 0;
    for (int64_t i = k + 1; i < m; ++i) tail += a[i][k] * a[i][k];
    const T c0 = a[k][k];
    if (tail <= std::numeric_limits<T>::min()) {
      tau[k] = 0;
      for (int64_t i = k + 1; i < m; ++i) a[i][k] = 0;
      continue;
    }
    T beta = std::sqrt(c0 * c0 + tail);
    if (c0 >= 0) beta = -beta;
    for (int64_t i = k + 1; i < m; ++i) a[i][k] /= c0 - beta;
    tau[k] = (beta - c0) / beta;
    a[k][k] = beta;
    reflect(a, k, tau[k], k + 1, n);
  }
  for (int64_t i = 0; i < p; ++i) {
    for (int64_t j = 0; j < n; ++j) r[i * n + j] = i <= j && i < size ? a[i][j] : T(0);
  }
  T e[kSmallSize][kSmallSize];
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) e[i][j] = i == j ? T(1) : T(0);
  }
  for (int64_t k = size - 1; k >= 0; --k) reflect(e, k, tau[k], 0, p);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) q[i * p + j] = e[i][j];
  }
}

class QrOp final : public OpKernel {
 public:
  explicit QrOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("full_matrices", &full_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(MatrixBatch b, SplitBatch(in, 0));
    const int64_t m = b.rows;
    const int64_t n = b.cols;
    const int64_t p = full_ ? m : std::min(m, n);
    RILL_ASSIGN_OR_RETURN(TensorShape q_shape, BatchShape(b.batch, {m, p}));
    RILL_ASSIGN_OR_RETURN(TensorShape r_shape, BatchShape(b.batch, {p, n}));
    RILL_ASSIGN_OR_RETURN(Tensor * q_out, ctx.allocate_output(0, q_shape));
    RILL_ASSIGN_OR_RETURN(Tensor * r_out, ctx.allocate_output(1, r_shape));
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      ForEachMatrix(ctx, b.count, 4 * m * n * std::max(m, n), [&](int64_t i) {
        MutMap<T> q(q_out->flat<T>().data() + i * m * p, m, p);
        MutMap<T> r(r_out->flat<T>().data() + i * p * n, p, n);
        if (m == 0 || n == 0) {
          q.setIdentity();
          r.setZero();
          return;
        }
        if (UseLapack(m, n)) {
          if (LapackQr(x + i * m * n, m, n, full_, q.data(), r.data())) return;
        }
        if (std::max(m, n) <= kSmallSize) {
          SmallQr(x + i * m * n, m, n, p, q.data(), r.data());
          return;
        }
        Eigen::HouseholderQR<RowMat<T>> qr(ConstMap<T>(x + i * m * n, m, n));
        q = qr.householderQ() * RowMat<T>::Identity(m, p);
        r = qr.matrixQR().topRows(p).template triangularView<Eigen::Upper>();
      });
      return absl::OkStatus();
    });
  }

 private:
  bool full_ = false;
};

class SvdOp final : public OpKernel {
 public:
  explicit SvdOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("compute_uv", &compute_uv_));
    ctx.SetStatus(ctx.GetAttr("full_matrices", &full_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(MatrixBatch b, SplitBatch(in, 0));
    const int64_t m = b.rows;
    const int64_t n = b.cols;
    const int64_t p = std::min(m, n);
    RILL_ASSIGN_OR_RETURN(TensorShape s_shape, BatchShape(b.batch, {p}));
    RILL_ASSIGN_OR_RETURN(Tensor * s_out, ctx.allocate_output(0, s_shape));
    const int64_t uc = full_ ? m : p;
    const int64_t vc = full_ ? n : p;
    Tensor* u_out = nullptr;
    Tensor* v_out = nullptr;
    if (compute_uv_) {
      RILL_ASSIGN_OR_RETURN(TensorShape u_shape, BatchShape(b.batch, {m, uc}));
      RILL_ASSIGN_OR_RETURN(TensorShape v_shape, BatchShape(b.batch, {n, vc}));
      RILL_ASSIGN_OR_RETURN(u_out, ctx.allocate_output(1, u_shape));
      RILL_ASSIGN_OR_RETURN(v_out, ctx.allocate_output(2, v_shape));
    } else {
      RILL_ASSIGN_OR_RETURN(u_out, ctx.allocate_output(1, TensorShape()));
      RILL_ASSIGN_OR_RETURN(v_out, ctx.allocate_output(2, TensorShape()));
    }
    return VisitKernelTypes<float, double>(*this, in.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = in.flat<T>().data();
      if (!compute_uv_) {
        u_out->flat<T>()[0] = T(0);
        v_out->flat<T>()[0] = T(0);
      }
      int options = 0;
      if (compute_uv_) {
        options = full_ ? (Eigen::ComputeFullU | Eigen::ComputeFullV)
                        : (Eigen::ComputeThinU | Eigen::ComputeThinV);
      }
      ForEachMatrix(ctx, b.count, 20 * m * n * std::max(m, n), [&](int64_t i) {
        Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> s(s_out->flat<T>().data() + i * p, p);
        if (p == 0) {
          if (compute_uv_) {
            MutMap<T>(u_out->flat<T>().data() + i * m * uc, m, uc).setIdentity();
            MutMap<T>(v_out->flat<T>().data() + i * n * vc, n, vc).setIdentity();
          }
          return;
        }
        ConstMap<T> a(x + i * m * n, m, n);
        if (!a.allFinite()) {  // NaN everywhere, as TensorFlow's kernel gives
          const T nan = std::numeric_limits<T>::quiet_NaN();
          s.setConstant(nan);
          if (compute_uv_) {
            MutMap<T>(u_out->flat<T>().data() + i * m * uc, m, uc).setConstant(nan);
            MutMap<T>(v_out->flat<T>().data() + i * n * vc, n, vc).setConstant(nan);
          }
          return;
        }
        if (UseLapack(m, n)) {
          std::vector<T> work(a.data(), a.data() + m * n);
          T* u = compute_uv_ ? u_out->flat<T>().data() + i * m * uc : nullptr;
          T* v = compute_uv_ ? v_out->flat<T>().data() + i * n * vc : nullptr;
          if (LapackSvd(work.data(), m, n, compute_uv_, full_, s.data(), u, v)) return;
        }
        if (std::max(m, n) <= kSmallSize) {
          // BDCSVD hands matrices this small to JacobiSVD; one of bounded size allocates nothing.
          Eigen::JacobiSVD<SmallMat<T>> svd(SmallMat<T>(a), options);
          s = svd.singularValues();
          if (compute_uv_) {
            MutMap<T>(u_out->flat<T>().data() + i * m * uc, m, uc) = svd.matrixU();
            MutMap<T>(v_out->flat<T>().data() + i * n * vc, n, vc) = svd.matrixV();
          }
          return;
        }
        Eigen::BDCSVD<RowMat<T>> svd(a, options);
        s = svd.singularValues();
        if (compute_uv_) {
          MutMap<T>(u_out->flat<T>().data() + i * m * uc, m, uc) = svd.matrixU();
          MutMap<T>(v_out->flat<T>().data() + i * n * vc, n, vc) = svd.matrixV();
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  bool compute_uv_ = true;
  bool full_ = false;
};

// --- solves --------------------------------------------------------------------------------

class TriangularSolveOp final : public OpKernel {
 public:
  explicit TriangularSolveOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("lower", &lower_));
    ctx.SetStatus(ctx.GetAttr("adjoint", &adjoint_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& r = ctx.input(1);
    const TensorShape& as = a.shape();
    const TensorShape& rs = r.shape();
    if (as.rank() < 2) {
      return absl::InvalidArgumentError(absl::StrCat("In[0] ndims must be >= 2: ", as.rank()));
    }
    if (rs.rank() < 2) {
      return absl::InvalidArgumentError(absl::StrCat("In[1] ndims must be >= 2: ", rs.rank()));
    }
    // Broadcast the batch dims, right-aligned.
    const int ab = as.rank() - 2;
    const int rb = rs.rank() - 2;
    const int nb = std::max(ab, rb);
    std::vector<int64_t> batch(nb);
    std::vector<int64_t> a_stride(nb, 0);
    std::vector<int64_t> r_stride(nb, 0);
    int64_t as_acc = 1;
    int64_t rs_acc = 1;
    for (int i = nb - 1; i >= 0; --i) {
      const int ai = i - (nb - ab);
      const int ri = i - (nb - rb);
      const int64_t ad = ai >= 0 ? as.dim(ai) : 1;
      const int64_t rd = ri >= 0 ? rs.dim(ri) : 1;
      if (ad != rd && ad != 1 && rd != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "In[0] and In[1] must have compatible batch dimensions: ", as.DebugString(), " vs. ",
            rs.DebugString()));
      }
      batch[i] = ad == 1 ? rd : ad;
      a_stride[i] = ad == 1 ? 0 : as_acc;
      r_stride[i] = rd == 1 ? 0 : rs_acc;
      as_acc *= ad;
      rs_acc *= rd;
    }
    const int64_t d0 = as.dim(as.rank() - 2);
    const int64_t d1 = as.dim(as.rank() - 1);
    const int64_t d2 = rs.dim(rs.rank() - 2);
    if (d0 != d1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "In[0] matrices in the last dimensions must be square (", d1, " =/= ", d0, ")"));
    }
    if (d1 != d2) {
      return absl::InvalidArgumentError(
          absl::StrCat("In[0] mismatch In[1] shape: ", d1, " vs. ", d2, ": ", as.DebugString(), " ",
                       rs.DebugString(), " ", lower_ ? 1 : 0, " ", adjoint_ ? 1 : 0));
    }
    const int64_t n = d0;
    const int64_t k = rs.dim(rs.rank() - 1);
    std::vector<int64_t> out_dims = batch;
    out_dims.push_back(n);
    out_dims.push_back(k);
    RILL_ASSIGN_OR_RETURN(TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    const int64_t count = out_shape.num_elements() / std::max<int64_t>(1, n * k);
    if (out_shape.num_elements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double>(*this, a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* ax = a.flat<T>().data();
      const T* rx = r.flat<T>().data();
      T* y = out->flat<T>().data();
      ForEachMatrix(ctx, count, n * n * k + n * k, [&](int64_t i) {
        int64_t ao = 0;
        int64_t ro = 0;
        for (int64_t d = nb - 1, rem = i; d >= 0; --d) {
          const int64_t idx = rem % batch[d];
          rem /= batch[d];
          ao += idx * a_stride[d];
          ro += idx * r_stride[d];
        }
        ConstMap<T> m(ax + ao * n * n, n, n);
        MutMap<T> x(y + i * n * k, n, k);
        x = ConstMap<T>(rx + ro * n * k, n, k);
        if (UseLapack(n, n) && k <= kLapackMaxSize) {
          LapackTriangularSolve(m.data(), n, k, lower_, adjoint_, x.data());
          return;
        }
        if (lower_ && !adjoint_) {
          m.template triangularView<Eigen::Lower>().solveInPlace(x);
        } else if (lower_) {
          m.transpose().template triangularView<Eigen::Upper>().solveInPlace(x);
        } else if (!adjoint_) {
          m.template triangularView<Eigen::Upper>().solveInPlace(x);
        } else {
          m.transpose().template triangularView<Eigen::Lower>().solveInPlace(x);
        }
      });
      return absl::OkStatus();
    });
  }

 private:
  bool lower_ = true;
  bool adjoint_ = false;
};

class SolveOp final : public OpKernel {
 public:
  explicit SolveOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("adjoint", &adjoint_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& r = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(MatrixBatch ab, SplitBatch(a, 0));
    RILL_ASSIGN_OR_RETURN(MatrixBatch rb, SplitBatch(r, 1));
    if (ab.batch != rb.batch) {
      return absl::InvalidArgumentError("All input tensors must have the same outer dimensions.");
    }
    if (ab.rows != ab.cols) {
      return absl::InvalidArgumentError("First input (lhs) must be a square matrix.");
    }
    if (rb.rows != ab.rows) {
      return absl::InvalidArgumentError("Input matrix and rhs are incompatible.");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, r.shape()));
    const int64_t n = ab.rows;
    const int64_t k = rb.cols;
    if (r.NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double, complex64, complex128>(*this, a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* ax = a.flat<T>().data();
      const T* rx = r.flat<T>().data();
      T* y = out->flat<T>().data();
      std::atomic<bool> singular{false};
      ForEachMatrix(ctx, ab.count, 2 * n * n * n / 3 + 2 * n * n * k, [&](int64_t i) {
        if (n == 0) return;
        if constexpr (!cwise_math::kIsComplex<T>) {
          if (UseLapack(n, n) && k <= kLapackMaxSize) {
            std::vector<T> lu(ax + i * n * n, ax + (i + 1) * n * n);
            if (!LapackSolve(lu.data(), rx + i * n * k, n, k, adjoint_, y + i * n * k)) {
              singular = true;
            }
            return;
          }
        }
        ConstMap<T> m(ax + i * n * n, n, n);
        Eigen::PartialPivLU<RowMat<T>> lu;
        if (adjoint_) {
          lu.compute(m.adjoint());
        } else {
          lu.compute(m);
        }
        if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > 0)) {
          singular = true;
          return;
        }
        MutMap<T>(y + i * n * k, n, k) = lu.solve(ConstMap<T>(rx + i * n * k, n, k));
      });
      if (singular) return absl::InvalidArgumentError("Input matrix is not invertible.");
      return absl::OkStatus();
    });
  }

 private:
  bool adjoint_ = false;
};

#define RILL_LINALG_KERNEL(name, cls)                                                              \
  REGISTER_KERNEL(                                                                                 \
      KernelDefBuilder(name).Device(kDeviceCpu).TypeConstraint("T", DataTypesOf<float, double>()), \
      cls)

RILL_LINALG_KERNEL("MatrixDeterminant", DeterminantOp);
RILL_LINALG_KERNEL("LogMatrixDeterminant", DeterminantOp);
RILL_LINALG_KERNEL("MatrixInverse", InverseOp);
RILL_LINALG_KERNEL("Cholesky", CholeskyOp);
RILL_LINALG_KERNEL("Qr", QrOp);
RILL_LINALG_KERNEL("Svd", SvdOp);
RILL_LINALG_KERNEL("MatrixTriangularSolve", TriangularSolveOp);
REGISTER_KERNEL(KernelDefBuilder("MatrixSolve")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double, complex64, complex128>()),
                SolveOp);

}  // namespace
}  // namespace rill
