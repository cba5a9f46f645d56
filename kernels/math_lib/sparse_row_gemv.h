// A row vector times a matrix by row streams: RowVectorTimesMatrix reads every row,
// SparseRowGemv skips the matrix's rows where the vector is zero.
//
// A batch-1 dense layer (y[0, :] = x[0, :] * W, W stored k x n) is bound by reading W: every
// row of W is streamed once to be scaled by one element of x. After a ReLU, x is often a third to
// a half zeros (the small CNN's flattened features, for one), and a row under a zero adds
// nothing, so skipping it skips its bytes:
//
//   if (!SparseRowGemv(k, n, x, /*x_stride=*/1, w, /*ldw=*/n, y, /*threads=*/1)) {
//     ... the dense gemv ...
//   }
//
// Exact when W is finite: a skipped row adds +-0 to every sum (the sums are taken in another
// order than BLAS's, as any two BLAS builds do). With an Inf or NaN in W, 0 * Inf is NaN and
// skipping would hide it, so callers only use this for weights known to be finite
// (FiniteWeightsCache). Returns false, writing nothing, when under 1/8 of x is zero: then the
// BLAS gemv is as fast and the caller uses it. `threads` > 1 splits the listed rows into bands
// on an OpenMP team (core/openmp_parallel_for.h), each summed into its own partial row. Vectorized
// for AVX-512 or AVX2 when the CPU has them (chosen once at run time), plain C++ otherwise.
// Thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_SPARSE_ROW_GEMV_H_
#define RILL_KERNELS_MATH_LIB_SPARSE_ROW_GEMV_H_

#include <cstdint>
#include <mutex>

namespace rill {

bool SparseRowGemv(int64_t k, int64_t n, const float* x, int64_t x_stride, const float* w,
                   int64_t ldw, float* y, int threads);

// y[0, n) = x * W over every row of W (k x n, row stride ldw; x's elements x_stride apart), by
// the same row streams, on up to `threads` threads: the dense batch-1 product (any W, non-finite
// values propagate as in any sum). OpenBLAS's sgemv (row-major, transposed), which Gemm called for
// it, reads W at half this speed or less on AVX-512 (384 x 768: 92 against 47 us from the L3;
// 128 x 256: 8.8 against 2.3 us from the L2). REQUIRES: k <= INT32_MAX.
void RowVectorTimesMatrix(int64_t k, int64_t n, const float* x, int64_t x_stride, const float* w,
                          int64_t ldw, float* y, int threads);

// Remembers whether the one constant weights buffer a kernel sees (a Const's tensor, the same
// buffer every run) holds only finite values: scanned once, on first use; a different buffer is
// scanned again. Thread-safe.
class FiniteWeightsCache {
 public:
  // True when the `count` floats at `data` are all finite.
  bool IsFinite(const float* data, int64_t count) const;

 private:
  mutable std::mutex mu_;
  mutable const float* checked_ = nullptr;  // guarded by mu_
  mutable int64_t checked_count_ = 0;       // guarded by mu_
  mutable bool finite_ = false;             // guarded by mu_
};

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SPARSE_ROW_GEMV_H_
