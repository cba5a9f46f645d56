// SparseMatMul on the CPU: product = op(a) * op(b) in float, a and b each float or bfloat16
// (bfloat16 widened exactly). The "sparse" flags are hints in TensorFlow, but they change results
// where the other operand holds Inf or NaN, so this kernel keeps TensorFlow's rule: with
// a_is_sparse the zeros (either sign) of a contribute nothing (0 * Inf is not NaN there); with
// only b_is_sparse the zeros of b do; with neither, every product is taken (plain GEMM).
// Errors are InvalidArgument with TensorFlow's texts:
//   a is not a matrix / b is not a matrix
//   Matrix size incompatible: a: [2,3], b: [2,2]
// An output with a zero dimension is empty; a zero inner dimension gives zeros.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/bfloat16.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/gemm.h"

namespace rill {
namespace {

// t's elements as float, in t's own (possibly transposed) layout.
std::vector<float> Widened(const Tensor& t) {
  std::vector<float> out(t.NumElements());
  if (t.dtype() == DT_FLOAT) {
    const float* p = t.flat<float>().data();
    out.assign(p, p + out.size());
  } else {
    const bfloat16* p = t.flat<bfloat16>().data();
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(p[i]);
  }
  return out;
}

// op(x) as a row-major rows x cols matrix.
std::vector<float> Oriented(std::vector<float> x, int64_t rows, int64_t cols, bool transposed) {
  if (!transposed) return x;
  std::vector<float> out(x.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) out[i * cols + j] = x[j * rows + i];
  }
  return out;
}

class SparseMatMulOp final : public OpKernel {
 public:
  explicit SparseMatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
    ctx.SetStatus(ctx.GetAttr("a_is_sparse", &a_is_sparse_));
    ctx.SetStatus(ctx.GetAttr("b_is_sparse", &b_is_sparse_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (a.shape().rank() != 2) return absl::InvalidArgumentError("a is not a matrix");
    if (b.shape().rank() != 2) return absl::InvalidArgumentError("b is not a matrix");
    const int64_t m = a.shape().dim(transpose_a_ ? 1 : 0);
    const int64_t k = a.shape().dim(transpose_a_ ? 0 : 1);
    const int64_t k2 = b.shape().dim(transpose_b_ ? 1 : 0);
    const int64_t n = b.shape().dim(transpose_b_ ? 0 : 1);
    if (k != k2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Matrix size incompatible: a: ", a.shape().DebugString(),
                       ", b: ", b.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims({m, n}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    float* c = out->flat<float>().data();
    if (m == 0 || n == 0) return absl::OkStatus();
    std::fill(c, c + m * n, 0.0f);
    if (k == 0) return absl::OkStatus();
    if (!a_is_sparse_ && !b_is_sparse_) {
      GemmDims d;
      d.threads = ctx.intra_op_threads();
      d.transpose_a = transpose_a_;
      d.transpose_b = transpose_b_;
      d.m = m;
      d.k = k;
      d.n = n;
      d.lda = a.shape().dim(1);
      d.ldb = b.shape().dim(1);
      const std::vector<float> wa = Widened(a), wb = Widened(b);
      return Gemm<float>(d, wa.data(), wb.data(), c);
    }
    const std::vector<float> x = Oriented(Widened(a), m, k, transpose_a_);
    const std::vector<float> y = Oriented(Widened(b), k, n, transpose_b_);
    if (a_is_sparse_) {
      // Row i of the product: the rows of y under a's nonzeros in row i.
      for (int64_t i = 0; i < m; ++i) {
        float* row = c + i * n;
        for (int64_t p = 0; p < k; ++p) {
          const float v = x[i * k + p];
          if (v == 0.0f) continue;
          const float* yr = y.data() + p * n;
          for (int64_t j = 0; j < n; ++j) row[j] += v * yr[j];
        }
      }
      return absl::OkStatus();
    }
    // Only b is sparse: each nonzero y[p][j] adds x[:, p] * y[p][j] to column j.
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t j = 0; j < n; ++j) {
        const float v = y[p * n + j];
        if (v == 0.0f) continue;
        for (int64_t i = 0; i < m; ++i) c[i * n + j] += x[i * k + p] * v;
      }
    }
    return absl::OkStatus();
  }

 private:
  bool transpose_a_ = false;
  bool transpose_b_ = false;
  bool a_is_sparse_ = false;
  bool b_is_sparse_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("SparseMatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Ta", {DT_FLOAT, DT_BFLOAT16})
                    .TypeConstraint("Tb", {DT_FLOAT, DT_BFLOAT16}),
                SparseMatMulOp);

}  // namespace
}  // namespace rill
