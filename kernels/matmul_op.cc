// MatMul on the CPU: product = op(a) * op(b), op() transposing when transpose_a / transpose_b.
// float, double, complex64 and complex128 go through OpenBLAS (cblas_?gemm, row-major); half,
// bfloat16 (accumulated in float), int32 and int64 (wrapping on overflow, as TensorFlow's Eigen
// kernels do) through a plain loop. Errors are InvalidArgument with TensorFlow's text:
//   In[0] is not a matrix. Instead it has shape [2,3,4]
//   Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]
// An output with a zero dimension is empty; a zero inner dimension gives zeros.
#include <cblas.h>

#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/kernel_registry.h"

namespace rill {
namespace {

struct GemmDims {
  int64_t m, n, k;
  int64_t lda, ldb;  // row strides of a and b as stored
  bool transpose_a, transpose_b;
};

// Accumulation type and arithmetic of the loop path.
template <typename T>
struct LoopMath {
  using Acc = T;
  static Acc Load(const T& x) { return x; }
  static Acc MulAdd(Acc acc, Acc x, Acc y) { return acc + x * y; }
  static T Store(Acc x) { return x; }
};
template <>
struct LoopMath<half> {
  using Acc = float;
  static float Load(const half& x) { return static_cast<float>(x); }
  static float MulAdd(float acc, float x, float y) { return acc + x * y; }
  static half Store(float x) { return half(x); }
};
template <>
struct LoopMath<bfloat16> {
  using Acc = float;
  static float Load(const bfloat16& x) { return static_cast<float>(x); }
  static float MulAdd(float acc, float x, float y) { return acc + x * y; }
  static bfloat16 Store(float x) { return bfloat16(x); }
};
template <typename T>
struct WrappingMath {  // signed integers: two's-complement wrap instead of UB
  using Acc = std::make_unsigned_t<T>;
  static Acc Load(const T& x) { return static_cast<Acc>(x); }
  static Acc MulAdd(Acc acc, Acc x, Acc y) { return static_cast<Acc>(acc + x * y); }
  static T Store(Acc x) { return static_cast<T>(x); }
};
template <>
struct LoopMath<int32_t> : WrappingMath<int32_t> {};
template <>
struct LoopMath<int64_t> : WrappingMath<int64_t> {};

// C[m,n] = op(A) * op(B), i-p-j order so the inner loop walks rows of B and C.
template <typename T>
void LoopGemm(const GemmDims& d, const T* a, const T* b, T* c) {
  using M = LoopMath<T>;
  using Acc = typename M::Acc;
  std::vector<Acc> row(d.n);
  for (int64_t i = 0; i < d.m; ++i) {
    std::fill(row.begin(), row.end(), Acc());
    for (int64_t p = 0; p < d.k; ++p) {
      const Acc x = M::Load(d.transpose_a ? a[p * d.lda + i] : a[i * d.lda + p]);
      if (d.transpose_b) {
        for (int64_t j = 0; j < d.n; ++j) row[j] = M::MulAdd(row[j], x, M::Load(b[j * d.ldb + p]));
      } else {
        const T* brow = b + p * d.ldb;
        for (int64_t j = 0; j < d.n; ++j) row[j] = M::MulAdd(row[j], x, M::Load(brow[j]));
      }
    }
    for (int64_t j = 0; j < d.n; ++j) c[i * d.n + j] = M::Store(row[j]);
  }
}

template <typename T>
void BlasGemm(const GemmDims& d, const T* a, const T* b, T* c) {
  const CBLAS_TRANSPOSE ta = d.transpose_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = d.transpose_b ? CblasTrans : CblasNoTrans;
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const int lda = static_cast<int>(d.lda), ldb = static_cast<int>(d.ldb);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, n);
  } else if constexpr (std::is_same_v<T, complex64>) {
    const complex64 one(1.0f, 0.0f), zero(0.0f, 0.0f);
    cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, n);
  } else {
    static_assert(std::is_same_v<T, complex128>);
    const complex128 one(1.0, 0.0), zero(0.0, 0.0);
    cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, n);
  }
}

class MatMulOp final : public OpKernel {
 public:
  explicit MatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("transpose_a", &transpose_a_));
    ctx.SetStatus(ctx.GetAttr("transpose_b", &transpose_b_));
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor a = ctx.input(0);
    const Tensor b = ctx.input(1);
    if (a.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("In[0] is not a matrix. Instead it has shape ", a.shape().DebugString()));
    }
    if (b.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("In[1] is not a matrix. Instead it has shape ", b.shape().DebugString()));
    }
    GemmDims d;
    d.transpose_a = transpose_a_;
    d.transpose_b = transpose_b_;
    d.m = a.shape().dim(transpose_a_ ? 1 : 0);
    d.k = a.shape().dim(transpose_a_ ? 0 : 1);
    d.n = b.shape().dim(transpose_b_ ? 0 : 1);
    d.lda = a.shape().dim(1);
    d.ldb = b.shape().dim(1);
    if (b.shape().dim(transpose_b_ ? 1 : 0) != d.k) {
      return absl::InvalidArgumentError(
          absl::StrCat("Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                       ", In[1]: ", b.shape().DebugString()));
    }
    absl::StatusOr<Tensor*> out = ctx.allocate_output(0, TensorShape({d.m, d.n}));
    if (!out.ok()) return out.status();
    Tensor* c = *out;
    if (d.m == 0 || d.n == 0) return absl::OkStatus();
    if (d.k == 0) {  // an empty sum: zeros (outputs are uninitialized)
      if (c->TotalBytes() > 0) std::memset(c->raw_data(), 0, c->TotalBytes());
      return absl::OkStatus();
    }
    switch (a.dtype()) {
      case DT_FLOAT:
        return Gemm<float>(d, a, b, c);
      case DT_DOUBLE:
        return Gemm<double>(d, a, b, c);
      case DT_COMPLEX64:
        return Gemm<complex64>(d, a, b, c);
      case DT_COMPLEX128:
        return Gemm<complex128>(d, a, b, c);
      case DT_HALF:
        return Gemm<half>(d, a, b, c);
      case DT_BFLOAT16:
        return Gemm<bfloat16>(d, a, b, c);
      case DT_INT32:
        return Gemm<int32_t>(d, a, b, c);
      case DT_INT64:
        return Gemm<int64_t>(d, a, b, c);
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "MatMul node ", name(), " has no CPU implementation for ", DataTypeString(a.dtype())));
    }
  }

 private:
  template <typename T>
  static absl::Status Gemm(const GemmDims& d, const Tensor& a, const Tensor& b, Tensor* c) {
    const T* pa = a.flat<T>().data();
    const T* pb = b.flat<T>().data();
    T* pc = c->flat<T>().data();
    constexpr bool kBlas = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                           std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
    if constexpr (kBlas) {
      for (int64_t v : {d.m, d.n, d.k, d.lda, d.ldb}) {
        if (v > INT_MAX) {
          return absl::InvalidArgumentError(
              absl::StrCat("MatMul dimension ", v, " exceeds the BLAS limit of ", INT_MAX));
        }
      }
      BlasGemm<T>(d, pa, pb, pc);
    } else {
      LoopGemm<T>(d, pa, pb, pc);
    }
    return absl::OkStatus();
  }

  bool transpose_a_ = false;
  bool transpose_b_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("MatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32,
                                          DT_INT64, DT_COMPLEX64, DT_COMPLEX128}),
                MatMulOp);

}  // namespace
}  // namespace rill
