// Gemm<T> against a plain triple loop, and its epilogue, on every route it takes: OpenBLAS for
// small float products and narrow outputs, oneDNN's sgemm from 2^20 multiply-adds, row bands for a
// row vector times a matrix on a pool, column/row blocks on a pool, gemv for m or n of 1,
// transposes, double.
#include "kernels/math_lib/gemm.h"

#include <cmath>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

template <typename T>
std::vector<T> Values(int64_t n, int seed) {
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>((i * 7 + seed * 11) % 19) / T(8) - T(1);
  return v;
}

template <typename T>
void ExpectLikeALoop(int64_t m, int64_t n, int64_t k, bool ta, bool tb, int threads) {
  const std::string what = "m=" + std::to_string(m) + " n=" + std::to_string(n) +
                           " k=" + std::to_string(k) + (ta ? " ta" : "") + (tb ? " tb" : "") +
                           " threads=" + std::to_string(threads);
  const std::vector<T> a = Values<T>(m * k, 1), b = Values<T>(k * n, 2);
  GemmDims d;
  d.m = m;
  d.n = n;
  d.k = k;
  d.lda = ta ? m : k;
  d.ldb = tb ? k : n;
  d.transpose_a = ta;
  d.transpose_b = tb;
  d.threads = threads;
  std::vector<T> c(m * n, T(-77));
  ASSERT_THAT(Gemm<T>(d, a.data(), b.data(), c.data()), IsOk()) << what;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t p = 0; p < k; ++p) {
        want += double{ta ? a[p * m + i] : a[i * k + p]} * (tb ? b[j * k + p] : b[p * n + j]);
      }
      ASSERT_NEAR(c[i * n + j], want, 1e-4 * (1 + std::fabs(want)) * std::sqrt(double(k)))
          << what << " at " << i << "," << j;
    }
  }
}

TEST(GemmTest, EveryRouteMatchesATripleLoop) {
  for (int p : {1, 2}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        ExpectLikeALoop<float>(5, 7, 3, ta, tb, p);        // OpenBLAS, small
        ExpectLikeALoop<float>(130, 140, 120, ta, tb, p);  // oneDNN (2.2M multiply-adds)
        ExpectLikeALoop<float>(200, 10, 600, ta, tb, p);   // narrow output: OpenBLAS
        ExpectLikeALoop<float>(1, 700, 1500, ta, tb, p);   // row vector: bands over the threads
        ExpectLikeALoop<float>(1, 33, 19, ta, tb, p);      // row vector: row streams
        ExpectLikeALoop<float>(1, 3, 20000, ta, tb, p);    // row streams past the kept rows
        ExpectLikeALoop<float>(1, 1, 20000, ta, tb, p);    // dot product: sgemv
        ExpectLikeALoop<float>(900, 1, 1200, ta, tb, p);   // column vector: gemv
        ExpectLikeALoop<double>(64, 80, 300, ta, tb, p);   // OpenBLAS dgemm
        ExpectLikeALoop<double>(1, 600, 1700, ta, tb, p);  // double row vector
      }
    }
  }
}

TEST(GemmTest, TheEpilogueSeesEveryElementOnceAfterItsProduct) {
  // Each route: one block, m-split blocks, n-split blocks, row bands, an empty sum.
  struct Shape {
    int64_t m, n, k;
  };
  for (const Shape& sh : {Shape{5, 7, 3}, Shape{300, 200, 100}, Shape{64, 512, 300},
                          Shape{1, 700, 1500}, Shape{4, 6, 0}}) {
    const std::vector<float> a = Values<float>(sh.m * sh.k, 1), b = Values<float>(sh.k * sh.n, 2);
    std::vector<float> c(sh.m * sh.n, -77.f), product(sh.m * sh.n);
    std::vector<int> visits(sh.m * sh.n, 0);
    std::mutex mu;
    GemmDims d;
    d.m = sh.m;
    d.n = sh.n;
    d.k = sh.k;
    d.lda = sh.k;
    d.ldb = sh.n;
    d.threads = 2;
    ASSERT_THAT(Gemm<float>(d, a.data(), b.data(), product.data()), IsOk());
    auto add_one = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
      std::lock_guard<std::mutex> lock(mu);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t col = c0; col < c1; ++col) {
          ++visits[r * sh.n + col];
          c[r * sh.n + col] += 1.f;  // the product must already be there
        }
      }
    };
    const GemmEpilogue epilogue(add_one);
    d.epilogue = &epilogue;
    ASSERT_THAT(Gemm<float>(d, a.data(), b.data(), c.data()), IsOk());
    for (size_t i = 0; i < c.size(); ++i) {
      ASSERT_EQ(visits[i], 1) << sh.m << "x" << sh.n << "x" << sh.k << " [" << i << "]";
      ASSERT_FLOAT_EQ(c[i], product[i] + 1.f) << sh.m << "x" << sh.n << "x" << sh.k;
    }
  }
}

// half and bfloat16 are multiplied in float and rounded once: with operands in 1/8 steps every
// partial sum is exact in float, so each element is the exact sum rounded to the type (a sum
// rounded per step, or kept in half, would differ). Transposes, leading dimensions wider than the
// rows, the threaded split, and an epilogue that must see the rounded block.
template <typename T>
void ExpectExactSumRoundedOnce(int64_t m, int64_t n, int64_t k, bool ta, bool tb, int threads) {
  const int64_t lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 2;
  const std::vector<float> af = Values<float>((ta ? k : m) * lda, 1);
  const std::vector<float> bf = Values<float>((tb ? n : k) * ldb, 2);
  std::vector<T> a(af.size()), b(bf.size());
  for (size_t i = 0; i < af.size(); ++i) a[i] = T(af[i]);
  for (size_t i = 0; i < bf.size(); ++i) b[i] = T(bf[i]);
  GemmDims d;
  d.m = m;
  d.n = n;
  d.k = k;
  d.lda = lda;
  d.ldb = ldb;
  d.transpose_a = ta;
  d.transpose_b = tb;
  d.threads = threads;
  std::vector<T> c(m * n, T(-77.f));
  std::vector<float> seen(m * n, -1.f);
  auto record = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t j = c0; j < c1; ++j) seen[r * n + j] = static_cast<float>(c[r * n + j]);
    }
  };
  const GemmEpilogue epilogue(record);
  d.epilogue = &epilogue;
  ASSERT_THAT(Gemm<T>(d, a.data(), b.data(), c.data()), IsOk());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        sum += double{ta ? af[p * lda + i] : af[i * lda + p]} *
               (tb ? bf[j * ldb + p] : bf[p * ldb + j]);
      }
      const float want = static_cast<float>(T(static_cast<float>(sum)));
      ASSERT_EQ(static_cast<float>(c[i * n + j]), want)
          << m << "x" << n << "x" << k << " at " << i << "," << j << " ta=" << ta << " tb=" << tb;
      ASSERT_EQ(seen[i * n + j], want) << "epilogue at " << i << "," << j;
    }
  }
}

TEST(GemmTest, HalfAndBfloat16AreTheExactSumRoundedOnce) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      ExpectExactSumRoundedOnce<half>(5, 7, 3, ta, tb, 1);
      ExpectExactSumRoundedOnce<half>(130, 140, 300, ta, tb, 2);  // blocks over two threads
      ExpectExactSumRoundedOnce<half>(1, 300, 257, ta, tb, 2);    // a row vector
      ExpectExactSumRoundedOnce<bfloat16>(40, 33, 200, ta, tb, 2);
    }
  }
}

TEST(GemmTest, EmptySumsAreZeros) {
  GemmDims d;
  d.m = 2;
  d.n = 3;
  d.k = 0;
  std::vector<float> c(6, 5.f);
  ASSERT_THAT(Gemm<float>(d, nullptr, nullptr, c.data()), IsOk());
  for (float v : c) EXPECT_EQ(v, 0.f);
}

TEST(GemmTest, DimensionsPastTheBlasLimitAreInvalidArgument) {
  GemmDims d;
  d.m = 1;
  d.n = 1;
  d.k = int64_t{1} << 32;
  d.lda = d.k;
  d.ldb = 1;
  float x = 0;
  EXPECT_THAT(Gemm<float>(d, &x, &x, &x),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("MatMul dimension 4294967296 exceeds the BLAS limit "
                                            "of 2147483647")));
}

}  // namespace
}  // namespace rill
