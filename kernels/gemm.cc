#include "kernels/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rill {
namespace {

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

}  // namespace

template <typename T>
absl::Status Gemm(const GemmDims& d, const T* a, const T* b, T* c) {
  if (d.m == 0 || d.n == 0) return absl::OkStatus();
  if (d.k == 0) {  // an empty sum: zeros
    std::fill(c, c + d.m * d.n, T());
    return absl::OkStatus();
  }
  constexpr bool kBlas = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                         std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
  if constexpr (kBlas) {
    for (int64_t v : {d.m, d.n, d.k, d.lda, d.ldb}) {
      if (v > INT_MAX) {
        return absl::InvalidArgumentError(
            absl::StrCat("MatMul dimension ", v, " exceeds the BLAS limit of ", INT_MAX));
      }
    }
    BlasGemm<T>(d, a, b, c);
  } else {
    LoopGemm<T>(d, a, b, c);
  }
  return absl::OkStatus();
}

bool GemmSupports(DataType dtype) {
  switch (dtype) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_HALF:
    case DT_BFLOAT16:
    case DT_INT32:
    case DT_INT64:
    case DT_COMPLEX64:
    case DT_COMPLEX128:
      return true;
    default:
      return false;
  }
}

template absl::Status Gemm<float>(const GemmDims&, const float*, const float*, float*);
template absl::Status Gemm<double>(const GemmDims&, const double*, const double*, double*);
template absl::Status Gemm<half>(const GemmDims&, const half*, const half*, half*);
template absl::Status Gemm<bfloat16>(const GemmDims&, const bfloat16*, const bfloat16*,
                                     bfloat16*);
template absl::Status Gemm<int32_t>(const GemmDims&, const int32_t*, const int32_t*, int32_t*);
template absl::Status Gemm<int64_t>(const GemmDims&, const int64_t*, const int64_t*, int64_t*);
template absl::Status Gemm<complex64>(const GemmDims&, const complex64*, const complex64*,
                                      complex64*);
template absl::Status Gemm<complex128>(const GemmDims&, const complex128*, const complex128*,
                                       complex128*);

}  // namespace rill
