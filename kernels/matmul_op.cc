// MatMul on the CPU: float and double through OpenBLAS (cblas_sgemm / cblas_dgemm, the one GEMM
// path), other dtypes by a plain triple loop. transpose_a/transpose_b as in TensorFlow; shape
// errors are InvalidArgument with TensorFlow's "Matrix size-incompatible" text.
#include <cblas.h>

#include "absl/strings/str_cat.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

class MatMulOp final : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    if (ctx.status().ok()) ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor a = ctx.input(0);
    const Tensor b = ctx.input(1);
    if (a.shape().rank() != 2 || b.shape().rank() != 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "In[0] and In[1] has to be matrices: In[0]: ", a.shape().DebugString(),
          ", In[1]: ", b.shape().DebugString()));
    }
    const int64_t m = a.shape().dim(transpose_a_ ? 1 : 0);
    const int64_t k = a.shape().dim(transpose_a_ ? 0 : 1);
    const int64_t k2 = b.shape().dim(transpose_b_ ? 1 : 0);
    const int64_t n = b.shape().dim(transpose_b_ ? 0 : 1);
    if (k != k2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                       ", In[1]: ", b.shape().DebugString()));
    }
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, TensorShape({m, n}));
    if (!out.ok()) return out.status();
    if (m == 0 || n == 0 || k == 0) return absl::OkStatus();  // zeros already
    const CBLAS_TRANSPOSE ta = transpose_a_ ? CblasTrans : CblasNoTrans;
    const CBLAS_TRANSPOSE tb = transpose_b_ ? CblasTrans : CblasNoTrans;
    const int lda = static_cast<int>(a.shape().dim(1)), ldb = static_cast<int>(b.shape().dim(1));
    switch (a.dtype()) {
      case DT_FLOAT:
        cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a.flat<float>().data(), lda,
                    b.flat<float>().data(), ldb, 0.0f, (*out)->flat<float>().data(), n);
        return absl::OkStatus();
      case DT_DOUBLE:
        cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a.flat<double>().data(), lda,
                    b.flat<double>().data(), ldb, 0.0, (*out)->flat<double>().data(), n);
        return absl::OkStatus();
      default:
        return VisitDataType(a.dtype(), [&](auto tag) -> absl::Status {
          using T = typename decltype(tag)::type;
          if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool>) {
            return absl::InvalidArgumentError("MatMul of " + DataTypeString(a.dtype()));
          } else {
            auto A = a.flat<T>();
            auto B = b.flat<T>();
            auto C = (*out)->flat<T>();
            using Acc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>,
                                           float, T>;
            for (int64_t i = 0; i < m; ++i) {
              for (int64_t j = 0; j < n; ++j) {
                Acc sum = Acc();
                for (int64_t p = 0; p < k; ++p) {
                  const T& x = transpose_a_ ? A[p * lda + i] : A[i * lda + p];
                  const T& y = transpose_b_ ? B[j * ldb + p] : B[p * ldb + j];
                  sum += static_cast<Acc>(x) * static_cast<Acc>(y);
                }
                C[i * n + j] = static_cast<T>(sum);
              }
            }
            return absl::OkStatus();
          }
        });
    }
  }

 private:
  bool transpose_a_ = false;
  bool transpose_b_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("MatMul").Device(kDeviceCpu).TypeConstraint(
                    "T", {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16, DT_INT32, DT_INT64,
                          DT_COMPLEX64, DT_COMPLEX128}),
                MatMulOp);

}  // namespace
}  // namespace rill
