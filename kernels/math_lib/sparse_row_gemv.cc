#include "kernels/math_lib/sparse_row_gemv.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/openmp_parallel_for.h"

namespace rill {
namespace {

// y[j0, j1) += sum over the listed rows r of x_r * w_r[j0, j1), four rows per pass over y (one
// load and store of y per four rows; the four row streams are what the prefetchers follow).
// Inlined into the per-ISA entry points below, which the compiler vectorizes for their target.
__attribute__((always_inline)) inline void AccumulateRows(const int32_t* rows, int64_t count,
                                                          const float* x, int64_t x_stride,
                                                          const float* w, int64_t ldw, float* y,
                                                          int64_t j0, int64_t j1) {
  int64_t r = 0;
  for (; r + 4 <= count; r += 4) {
    const float x0 = x[rows[r] * x_stride], x1 = x[rows[r + 1] * x_stride];
    const float x2 = x[rows[r + 2] * x_stride], x3 = x[rows[r + 3] * x_stride];
    const float* __restrict w0 = w + rows[r] * ldw;
    const float* __restrict w1 = w + rows[r + 1] * ldw;
    const float* __restrict w2 = w + rows[r + 2] * ldw;
    const float* __restrict w3 = w + rows[r + 3] * ldw;
    float* __restrict out = y;
    for (int64_t j = j0; j < j1; ++j) {
      out[j] += x0 * w0[j] + x1 * w1[j] + x2 * w2[j] + x3 * w3[j];
    }
  }
  for (; r < count; ++r) {
    const float xr = x[rows[r] * x_stride];
    const float* __restrict wr = w + rows[r] * ldw;
    float* __restrict out = y;
    for (int64_t j = j0; j < j1; ++j) out[j] += xr * wr[j];
  }
}

using AccumulateFn = void (*)(const int32_t*, int64_t, const float*, int64_t, const float*, int64_t,
                              float*, int64_t, int64_t);

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void AccumulateAvx512(const int32_t* rows, int64_t count,
                                                         const float* x, int64_t x_stride,
                                                         const float* w, int64_t ldw, float* y,
                                                         int64_t j0, int64_t j1) {
  AccumulateRows(rows, count, x, x_stride, w, ldw, y, j0, j1);
}
__attribute__((target("avx2,fma"))) void AccumulateAvx2(const int32_t* rows, int64_t count,
                                                        const float* x, int64_t x_stride,
                                                        const float* w, int64_t ldw, float* y,
                                                        int64_t j0, int64_t j1) {
  AccumulateRows(rows, count, x, x_stride, w, ldw, y, j0, j1);
}
#endif
void AccumulatePlain(const int32_t* rows, int64_t count, const float* x, int64_t x_stride,
                     const float* w, int64_t ldw, float* y, int64_t j0, int64_t j1) {
  AccumulateRows(rows, count, x, x_stride, w, ldw, y, j0, j1);
}

AccumulateFn ChooseAccumulate() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return AccumulateAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return AccumulateAvx2;
#endif
  return AccumulatePlain;
}

// Rows per thread below which splitting the rows does not pay.
constexpr int64_t kMinRowsPerThread = 64;

// y = sum over the `count` listed rows r of x_r * w_r, on up to `threads` threads.
void StreamRows(const int32_t* row_list, int64_t count, int64_t n, const float* x, int64_t x_stride,
                const float* w, int64_t ldw, float* y, int threads) {
  static const AccumulateFn accumulate = ChooseAccumulate();
  if (threads <= 1 || count < 2 * kMinRowsPerThread) {
    std::memset(y, 0, sizeof(float) * static_cast<size_t>(n));
    accumulate(row_list, count, x, x_stride, w, ldw, y, 0, n);
    return;
  }
  // Row bands: each thread streams whole rows of its share of the listed rows (contiguous reads
  // the prefetchers follow) into its own partial row; the partial rows are summed after. This is
  // faster than column halves (each thread half of every row), whose shorter runs the prefetchers
  // follow less well.
  const int64_t blocks = std::min<int64_t>(threads, count / kMinRowsPerThread);
  thread_local std::vector<float> partial;
  partial.assign(static_cast<size_t>((blocks - 1) * n), 0.0f);
  float* partial_rows = partial.data();
  OpenMpRunBlocks(blocks, [&](int64_t block) {
    const int64_t r0 = count * block / blocks, r1 = count * (block + 1) / blocks;
    float* out = block == 0 ? y : partial_rows + (block - 1) * n;
    if (block == 0) std::memset(y, 0, sizeof(float) * static_cast<size_t>(n));
    accumulate(row_list + r0, r1 - r0, x, x_stride, w, ldw, out, 0, n);
  });
  for (int64_t b = 1; b < blocks; ++b) {
    const float* p = partial_rows + (b - 1) * n;
    for (int64_t j = 0; j < n; ++j) y[j] += p[j];
  }
}

}  // namespace

bool SparseRowGemv(int64_t k, int64_t n, const float* x, int64_t x_stride, const float* w,
                   int64_t ldw, float* y, int threads) {
  if (k <= 0 || n <= 0 || k > INT32_MAX) return false;
  // The rows to read: those under a nonzero (NaN included) element of x.
  thread_local std::vector<int32_t> rows;
  rows.clear();
  rows.reserve(static_cast<size_t>(k));
  for (int64_t i = 0; i < k; ++i) {
    if (x[i * x_stride] != 0.0f) rows.push_back(static_cast<int32_t>(i));  // NaN != 0
  }
  const int64_t count = static_cast<int64_t>(rows.size());
  if (k - count < k / 8 || k - count == 0) return false;
  StreamRows(rows.data(), count, n, x, x_stride, w, ldw, y, threads);
  return true;
}

void RowVectorTimesMatrix(int64_t k, int64_t n, const float* x, int64_t x_stride, const float* w,
                          int64_t ldw, float* y, int threads) {
  if (n <= 0) return;
  if (k <= 0) {
    std::memset(y, 0, sizeof(float) * static_cast<size_t>(n));
    return;
  }
  // Row numbers 0..k-1: kept by the thread up to kKeptRowNumbers (64 KiB), made per call past
  // it, so a huge k leaves no memory behind on the thread.
  constexpr int64_t kKeptRowNumbers = 16384;
  thread_local std::vector<int32_t> kept;
  std::vector<int32_t> local;
  std::vector<int32_t>& rows = k <= kKeptRowNumbers ? kept : local;
  if (static_cast<int64_t>(rows.size()) < k) {
    const int64_t have = static_cast<int64_t>(rows.size());
    rows.resize(static_cast<size_t>(k));
    for (int64_t i = have; i < k; ++i) rows[i] = static_cast<int32_t>(i);
  }
  StreamRows(rows.data(), k, n, x, x_stride, w, ldw, y, threads);
}

bool FiniteWeightsCache::IsFinite(const float* data, int64_t count) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (data != checked_ || count != checked_count_) {
    bool finite = true;
    for (int64_t i = 0; i < count && finite; ++i) finite = std::isfinite(data[i]);
    checked_ = data;
    checked_count_ = count;
    finite_ = finite;
  }
  return finite_;
}

}  // namespace rill
