#include "kernels/math_lib/gemm.h"

#include <cblas.h>
#include <dnnl.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/blas_threads.h"
#include "kernels/math_lib/half_convert.h"
#include "kernels/math_lib/sparse_row_gemv.h"

namespace rill {
namespace {

// Accumulation type and arithmetic of the loop path (half and bfloat16 take GemmViaFloat; their
// entries only let the loop compile for them).
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
void LoopGemm(const GemmDims& d, const T* a, const T* b, T* c, int64_t ldc) {
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
    for (int64_t j = 0; j < d.n; ++j) c[i * ldc + j] = M::Store(row[j]);
  }
}

template <typename T>
void Gemv(CBLAS_TRANSPOSE trans, int rows, int cols, const T* matrix, int ld, const T* x, int incx,
          T* y, int incy) {
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemv(CblasRowMajor, trans, rows, cols, 1.0f, matrix, ld, x, incx, 0.0f, y, incy);
  } else {
    cblas_dgemv(CblasRowMajor, trans, rows, cols, 1.0, matrix, ld, x, incx, 0.0, y, incy);
  }
}

// C = op(A) op(B) when m == 1 or n == 1, as one gemv over the matrix operand (row-major storage:
// A is m x k, or k x m when transposed; B is k x n, or n x k when transposed).
template <typename T>
void BlasGemv(const GemmDims& d, const T* a, const T* b, T* c, int ldc) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const int lda = static_cast<int>(d.lda), ldb = static_cast<int>(d.ldb);
  if (m == 1) {
    // c[0, :] = op(B)^T-style product with a's one row (stride 1, or lda when A is k x 1).
    const int incx = d.transpose_a ? lda : 1;
    if (d.transpose_b) {
      Gemv<T>(CblasNoTrans, n, k, b, ldb, a, incx, c, 1);  // B stored n x k
    } else {
      Gemv<T>(CblasTrans, k, n, b, ldb, a, incx, c, 1);  // B stored k x n
    }
  } else {
    // n == 1: c[:, 0] (stride ldc) = op(A) times b's one column (stride ldb, or 1 when B is 1 x k).
    const int incx = d.transpose_b ? 1 : ldb;
    if (d.transpose_a) {
      Gemv<T>(CblasTrans, k, m, a, lda, b, incx, c, ldc);  // A stored k x m
    } else {
      Gemv<T>(CblasNoTrans, m, k, a, lda, b, incx, c, ldc);  // A stored m x k
    }
  }
}

// A row vector times a matrix of at least this many elements (256 KiB of floats) is split into
// row bands: reading the matrix is the cost, and from here two threads read it faster than one
// (MLP batch 1: the 784x512 and 512x512 layers).
constexpr int64_t kMinBandedMatrixElements = 64 << 10;

// Products of at least this many multiply-adds (m * n * k) go to oneDNN's sgemm.
constexpr double kOneDnnMinVolume = 1 << 20;

template <typename T>
absl::Status BlasGemm(const GemmDims& d, const T* a, const T* b, T* c, int64_t ldc_64) {
  UseSingleThreadedBlas();
  const int ldc = static_cast<int>(ldc_64);
  const CBLAS_TRANSPOSE ta = d.transpose_a ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE tb = d.transpose_b ? CblasTrans : CblasNoTrans;
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const int lda = static_cast<int>(d.lda), ldb = static_cast<int>(d.ldb);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (m == 1 || n == 1) {
      // A matrix-vector product (a batch-1 dense layer): gemv streams the matrix once, where gemm
      // would first pack it.
      BlasGemv(d, a, b, c, ldc);
      return absl::OkStatus();
    }
  }
  // Small float products stay on OpenBLAS: below about 100^3 multiply-adds, and for narrow
  // outputs, its small-matrix kernels are faster than oneDNN's sgemm, whose per-call overhead
  // dominates there.
  if constexpr (std::is_same_v<T, float>) {
    if (static_cast<double>(m) * n * k < kOneDnnMinVolume || n < 16) {
      cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
      return absl::OkStatus();
    }
    // oneDNN's sgemm, faster than OpenBLAS's on larger products. One OpenMP thread: Gemm's blocks
    // are the parallelism (the thread's OpenMP count is set per call, as oneDNN convolutions on
    // this thread may have raised it). The thread's own count is put back after: later OpenMP
    // users on it keep theirs.
    const int previous_threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const dnnl_status_t status = dnnl_sgemm(d.transpose_a ? 'T' : 'N', d.transpose_b ? 'T' : 'N', m,
                                            n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
    omp_set_num_threads(previous_threads);
    if (status != dnnl_success)
      return absl::InternalError(absl::StrCat("oneDNN sgemm failed with status ",
                                              static_cast<int>(status), " for m=", m, " n=", n,
                                              " k=", k));
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  } else if constexpr (std::is_same_v<T, complex64>) {
    const complex64 one(1.0f, 0.0f), zero(0.0f, 0.0f);
    cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  } else {
    static_assert(std::is_same_v<T, complex128>);
    const complex128 one(1.0, 0.0), zero(0.0, 0.0);
    cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
  return absl::OkStatus();
}

}  // namespace

// Below this many flops a product runs on the calling thread: splitting costs waking the OpenMP
// team (tens of microseconds when its threads sleep, as under OMP_WAIT_POLICY=PASSIVE), which is
// what a product this small takes whole (a recurrent step's [16,256] x [256,256], 2 Mflop).
constexpr double kMinParallelFlops = 8e6;

// Gemm's blocks run on the OpenMP team oneDNN's convolutions use (OpenMpRunBlocks), so a graph
// mixing convolutions and products keeps one set of threads hot instead of two competing for the
// cores.

// c[0, :] = a[0, :] * B for B stored k x n, as `bands` row bands of B on an OpenMP team, each
// band's partial row summed into c, by gemv on each band: double only (a float row vector streams
// B's rows through RowVectorTimesMatrix, bands included).
template <typename T>
absl::Status RowVectorTimesMatrixByBands(const GemmDims& d, const T* a, const T* b, T* c,
                                         int64_t bands) {
  UseSingleThreadedBlas();
  std::vector<T> partial(static_cast<size_t>((bands - 1) * d.n));
  OpenMpRunBlocks(bands, [&](int64_t band) {
    const int64_t begin = d.k * band / bands, end = d.k * (band + 1) / bands;
    GemmDims bd = d;
    bd.k = end - begin;
    const T* band_a = a + (d.transpose_a ? begin * d.lda : begin);
    T* out = band == 0 ? c : partial.data() + (band - 1) * d.n;
    BlasGemv(bd, band_a, b + begin * d.ldb, out, static_cast<int>(d.n));
  });
  for (int64_t band = 1; band < bands; ++band) {
    const T* p = partial.data() + (band - 1) * d.n;
    for (int64_t j = 0; j < d.n; ++j) c[j] += p[j];
  }
  if (d.epilogue != nullptr) (*d.epilogue)(0, 1, 0, d.n);
  return absl::OkStatus();
}

namespace {

// The rows * ld elements a stored operand spans, the last row's tail excluded.
int64_t StoredSpan(int64_t rows, int64_t cols, int64_t ld) { return (rows - 1) * ld + cols; }

template <typename T>
void ToFloat(const T* src, int64_t n, float* dst) {
  if constexpr (std::is_same_v<T, half>) {
    HalfToFloat(src, n, dst);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
  }
}

template <typename T>
void FromFloat(const float* src, int64_t n, T* dst) {
  if constexpr (std::is_same_v<T, half>) {
    FloatToHalf(src, n, dst);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = T(src[i]);
  }
}

// half and bfloat16: both operands are widened to float (exactly), multiplied by the float Gemm
// (OpenBLAS / oneDNN, accumulating in float), and each element of C is rounded once, block by
// block on the thread that computed it, before the caller's epilogue sees the block.
template <typename T>
absl::Status GemmViaFloat(const GemmDims& d, const T* a, const T* b, T* c) {
  const int64_t a_span = d.transpose_a ? StoredSpan(d.k, d.m, d.lda) : StoredSpan(d.m, d.k, d.lda);
  const int64_t b_span = d.transpose_b ? StoredSpan(d.n, d.k, d.ldb) : StoredSpan(d.k, d.n, d.ldb);
  std::vector<float> af(static_cast<size_t>(a_span)), bf(static_cast<size_t>(b_span));
  std::vector<float> cf(static_cast<size_t>(d.m * d.n));
  ToFloat(a, a_span, af.data());
  ToFloat(b, b_span, bf.data());
  auto round_block = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    for (int64_t r = r0; r < r1; ++r) {
      FromFloat(cf.data() + r * d.n + c0, c1 - c0, c + r * d.n + c0);
    }
    if (d.epilogue != nullptr) (*d.epilogue)(r0, r1, c0, c1);
  };
  const GemmEpilogue epilogue(round_block);
  GemmDims fd = d;
  fd.epilogue = &epilogue;
  return Gemm<float>(fd, af.data(), bf.data(), cf.data());
}

}  // namespace

template <typename T>
absl::Status Gemm(const GemmDims& d, const T* a, const T* b, T* c) {
  if (d.m == 0 || d.n == 0) return absl::OkStatus();
  if (d.k == 0) {  // an empty sum: zeros
    std::fill(c, c + d.m * d.n, T());
    if (d.epilogue != nullptr) (*d.epilogue)(0, d.m, 0, d.n);
    return absl::OkStatus();
  }
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    return GemmViaFloat(d, a, b, c);
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
  }
  if constexpr (std::is_same_v<T, float>) {
    // A row vector after a ReLU times finite weights: B's rows under zeros are not read
    // (kernels/math_lib/sparse_row_gemv.h; a batch-1 dense layer after a ReLU, as in the small
    // CNN of docs/performance.md).
    if (d.m == 1 && !d.transpose_b && d.b_known_finite && d.n * d.k >= kMinBandedMatrixElements &&
        SparseRowGemv(d.k, d.n, a, d.transpose_a ? d.lda : 1, b, d.ldb, c, d.threads)) {
      if (d.epilogue != nullptr) (*d.epilogue)(0, 1, 0, d.n);
      return absl::OkStatus();
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    // Otherwise a float row vector times a k x n matrix with n > 1 streams all of B's rows the
    // same way (faster than OpenBLAS's sgemv at the sizes measured), in row bands over the
    // threads from kMinBandedMatrixElements on. A dot product (n == 1) stays with sgemv, which
    // was 1.14-1.42x faster there (k 1,024 to 65,536).
    if (d.m == 1 && !d.transpose_b && d.n > 1) {
      RowVectorTimesMatrix(d.k, d.n, a, d.transpose_a ? d.lda : 1, b, d.ldb, c,
                           d.n * d.k >= kMinBandedMatrixElements ? d.threads : 1);
      if (d.epilogue != nullptr) (*d.epilogue)(0, 1, 0, d.n);
      return absl::OkStatus();
    }
  }
  if constexpr (std::is_same_v<T, double>) {
    // A row vector times a k x n matrix (a batch-1 dense layer) reads the matrix once and is
    // bound by memory: split along k, so each thread streams a contiguous band of rows, and sum
    // the partial rows. Column halves would have each thread read part of every row, which the
    // prefetchers follow less well and which gains little over one thread.
    const int threads = d.threads;
    if (d.m == 1 && !d.transpose_b && threads > 1 && d.n * d.k >= kMinBandedMatrixElements) {
      return RowVectorTimesMatrixByBands(d, a, b, c, std::min<int64_t>(threads, d.k));
    }
  }
  // Split along the longer of m and n into one block per intra-op thread (when the product is
  // worth it); each block is an independent single-threaded product into its part of C.
  const int threads = d.threads;
  const double flops = 2.0 * d.m * d.n * d.k;
  const bool split_m = d.m >= d.n;
  const int64_t extent = split_m ? d.m : d.n;
  const int64_t blocks =
      threads > 1 && flops >= kMinParallelFlops ? std::min<int64_t>(threads, extent) : 1;
  std::atomic<bool> failed{false};
  absl::Status first_error;
  std::mutex error_mu;
  auto run_block = [&](int64_t blk) {
    const int64_t begin = extent * blk / blocks, end = extent * (blk + 1) / blocks;
    GemmDims bd = d;
    const T* ba = a;
    const T* bb = b;
    T* bc = c;
    if (split_m) {
      bd.m = end - begin;
      ba += d.transpose_a ? begin : begin * d.lda;
      bc += begin * d.n;
    } else {
      bd.n = end - begin;
      bb += d.transpose_b ? begin * d.ldb : begin;
      bc += begin;
    }
    if constexpr (kBlas) {
      absl::Status s = BlasGemm<T>(bd, ba, bb, bc, d.n);
      if (!s.ok() && !failed.exchange(true)) {
        std::lock_guard<std::mutex> lock(error_mu);
        first_error = s;
      }
    } else {
      LoopGemm<T>(bd, ba, bb, bc, d.n);
    }
    if (d.epilogue != nullptr) {
      if (split_m) {
        (*d.epilogue)(begin, end, 0, d.n);
      } else {
        (*d.epilogue)(0, d.m, begin, end);
      }
    }
  };
  if (blocks == 1) {
    run_block(0);
  } else {
    OpenMpRunBlocks(blocks, run_block);
  }
  return first_error;
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
template absl::Status Gemm<bfloat16>(const GemmDims&, const bfloat16*, const bfloat16*, bfloat16*);
template absl::Status Gemm<int32_t>(const GemmDims&, const int32_t*, const int32_t*, int32_t*);
template absl::Status Gemm<int64_t>(const GemmDims&, const int64_t*, const int64_t*, int64_t*);
template absl::Status Gemm<complex64>(const GemmDims&, const complex64*, const complex64*,
                                      complex64*);
template absl::Status Gemm<complex128>(const GemmDims&, const complex128*, const complex128*,
                                       complex128*);

}  // namespace rill
