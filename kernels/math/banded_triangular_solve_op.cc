// BandedTriangularSolve(matrix [..., num_bands, M], rhs [..., M, K]) on the CPU, float and double:
// solves A x = rhs (A^T x = rhs when adjoint) for a triangular A given in TensorFlow's band
// storage: lower, row t of column i holds A[i, i - t] (row 0 the diagonal); upper, row
// num_bands - 1 - t of column k holds A[k, k + t] (the last row the diagonal). Batch dims
// broadcast, right-aligned. Substitution runs row by row in TensorFlow's order. As TensorFlow's
// kernel, only the first batch matrix's diagonal is checked ("Input matrix is not invertible." for
// a zero there); a zero diagonal elsewhere gives inf / NaN. Errors are TensorFlow's texts
// (InvalidArgument): "In[0] ndims must be >= 2: 1", "In[0] and In[1] must have compatible batch
// dimensions: [2,2,3] vs. [3,3,1]", "In[0] mismatch In[1] shape: 3 vs. 2: [2,3] [2,1] 1 0".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// x (m x k) for one band matrix a (nb x m) and right-hand sides r (m x k).
template <typename T>
void SolveBanded(const T* a, const T* r, T* x, int64_t nb, int64_t m, int64_t k, bool lower,
                 bool adjoint) {
  auto A = [&](int64_t row, int64_t col) { return a[row * m + col]; };
  auto X = [&](int64_t row) { return x + row * k; };
  auto R = [&](int64_t row) { return r + row * k; };
  if (lower && !adjoint) {
    for (int64_t i = 0; i < m; ++i) {
      const int64_t len = std::min(i, nb - 1);
      for (int64_t j = 0; j < k; ++j) {
        T sum = 0;
        for (int64_t t = len; t >= 1; --t) sum += A(t, i) * X(i - t)[j];
        X(i)[j] = (R(i)[j] - sum) / A(0, i);
      }
    }
  } else if (lower) {
    for (int64_t i = m - 1; i >= 0; --i) {
      for (int64_t j = 0; j < k; ++j) X(i)[j] = R(i)[j];
      for (int64_t c = i + 1; c < std::min(m, i + nb); ++c) {
        const T f = A(c - i, c);
        for (int64_t j = 0; j < k; ++j) X(i)[j] -= f * X(c)[j];
      }
      for (int64_t j = 0; j < k; ++j) X(i)[j] /= A(0, i);
    }
  } else if (!adjoint) {
    for (int64_t s = 0; s < m; ++s) {
      const int64_t row = m - 1 - s;
      const int64_t len = std::min(s, nb - 1);
      for (int64_t j = 0; j < k; ++j) {
        T sum = 0;
        for (int64_t t = len; t >= 1; --t) sum += A(nb - 1 - t, row) * X(row + t)[j];
        X(row)[j] = (R(row)[j] - sum) / A(nb - 1, row);
      }
    }
  } else {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < k; ++j) X(i)[j] = R(i)[j];
      for (int64_t c = std::max<int64_t>(0, i - (nb - 1)); c < i; ++c) {
        const T f = A(nb - 1 - (i - c), c);
        for (int64_t j = 0; j < k; ++j) X(i)[j] -= f * X(c)[j];
      }
      for (int64_t j = 0; j < k; ++j) X(i)[j] /= A(nb - 1, i);
    }
  }
}

class BandedTriangularSolveOp final : public OpKernel {
 public:
  explicit BandedTriangularSolveOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("lower", &lower_));
    ctx.SetStatus(ctx.GetAttr("adjoint", &adjoint_));
  }
  bool IsExpensive() const override { return true; }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& r = ctx.input(1);
    const TensorShape& as = a.shape();
    const TensorShape& rs = r.shape();
    for (int i = 0; i < 2; ++i) {
      const Tensor& t = ctx.input(i);
      if (t.shape().rank() < 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("In[", i, "] ndims must be >= 2: ", t.shape().rank()));
      }
      if (t.NumElements() == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("In[", i, "] must not be an empty tensor: ", t.DebugString()));
      }
    }
    const int ab = as.rank() - 2, rb = rs.rank() - 2, nbatch = std::max(ab, rb);
    std::vector<int64_t> batch(nbatch), a_stride(nbatch, 0), r_stride(nbatch, 0);
    int64_t a_acc = 1, r_acc = 1;
    for (int i = nbatch - 1; i >= 0; --i) {
      const int ai = i - (nbatch - ab), ri = i - (nbatch - rb);
      const int64_t ad = ai >= 0 ? as.dim(ai) : 1, rd = ri >= 0 ? rs.dim(ri) : 1;
      if (ad != rd && ad != 1 && rd != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "In[0] and In[1] must have compatible batch dimensions: ", as.DebugString(), " vs. ",
            rs.DebugString()));
      }
      batch[i] = ad == 1 ? rd : ad;
      a_stride[i] = ad == 1 ? 0 : a_acc;
      r_stride[i] = rd == 1 ? 0 : r_acc;
      a_acc *= ad;
      r_acc *= rd;
    }
    const int64_t nb = as.dim(as.rank() - 2), m = as.dim(as.rank() - 1);
    const int64_t m_right = rs.dim(rs.rank() - 2), k = rs.dim(rs.rank() - 1);
    if (m != m_right) {
      return absl::InvalidArgumentError(
          absl::StrCat("In[0] mismatch In[1] shape: ", m, " vs. ", m_right, ": ", as.DebugString(),
                       " ", rs.DebugString(), " ", lower_ ? 1 : 0, " ", adjoint_ ? 1 : 0));
    }
    std::vector<int64_t> out_dims = batch;
    out_dims.push_back(m);
    out_dims.push_back(k);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(out_dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t count = out->NumElements() / (m * k);
    return VisitKernelTypes<float, double>(*this, a.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      const T* ax = a.flat<T>().data();
      const T* rx = r.flat<T>().data();
      T* y = out->flat<T>().data();
      // TensorFlow checks the diagonal of the first matrix only.
      const T* diagonal = ax + (lower_ ? 0 : (nb - 1) * m);
      for (int64_t c = 0; c < m; ++c) {
        if (!(std::abs(diagonal[c]) > T(0))) {
          return absl::InvalidArgumentError("Input matrix is not invertible.");
        }
      }
      for (int64_t i = 0; i < count; ++i) {
        int64_t ao = 0, ro = 0;
        for (int64_t d = nbatch - 1, rem = i; d >= 0; --d) {
          const int64_t idx = rem % batch[d];
          rem /= batch[d];
          ao += idx * a_stride[d];
          ro += idx * r_stride[d];
        }
        SolveBanded(ax + ao * nb * m, rx + ro * m * k, y + i * m * k, nb, m, k, lower_, adjoint_);
      }
      return absl::OkStatus();
    });
  }

 private:
  bool lower_ = true;
  bool adjoint_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("BandedTriangularSolve")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                BandedTriangularSolveOp);

}  // namespace
}  // namespace rill
