#include "kernels/math_lib/sparse_row_gemv.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

// x (every `stride`-th element, k of them) times w (k x n, row stride ldw), in double.
std::vector<double> Reference(int64_t k, int64_t n, const std::vector<float>& x, int64_t stride,
                              const std::vector<float>& w, int64_t ldw) {
  std::vector<double> y(n, 0.0);
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < n; ++j) y[j] += double{x[i * stride]} * w[i * ldw + j];
  }
  return y;
}

struct Case {
  int64_t k, n, ldw, stride;
  double zero_fraction;
  int threads;
};

class SparseRowGemvTest : public ::testing::TestWithParam<Case> {};

TEST_P(SparseRowGemvTest, MatchesTheDenseProduct) {
  const Case c = GetParam();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<float> x(c.k * c.stride, 99.0f), w(c.k * c.ldw, 99.0f);
  for (int64_t i = 0; i < c.k; ++i)
    x[i * c.stride] = coin(rng) < c.zero_fraction ? 0.0f : value(rng);
  for (int64_t i = 0; i < c.k; ++i) {
    for (int64_t j = 0; j < c.n; ++j) w[i * c.ldw + j] = value(rng);
  }
  std::vector<float> y(c.n + 1, -5.0f);  // one guard element past the end
  ASSERT_TRUE(SparseRowGemv(c.k, c.n, x.data(), c.stride, w.data(), c.ldw, y.data(), c.threads));
  const std::vector<double> expected = Reference(c.k, c.n, x, c.stride, w, c.ldw);
  for (int64_t j = 0; j < c.n; ++j) ASSERT_NEAR(y[j], expected[j], 1e-4) << "column " << j;
  EXPECT_EQ(y[c.n], -5.0f);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SparseRowGemvTest,
    ::testing::Values(Case{3136, 1024, 1024, 1, 0.34, 1},  // the small CNN's dense layer
                      Case{512, 512, 512, 1, 0.5, 2},      // the MLP's hidden layer, 2 threads
                      Case{37, 333, 340, 3, 0.5, 1},       // odd sizes, strided x, padded rows
                      Case{37, 333, 340, 1, 0.9, 2},       // too few rows to split
                      Case{301, 333, 340, 2, 0.3, 2},      // odd rows and columns in 2 bands
                      Case{1000, 4096, 4096, 1, 0.25, 3}));

TEST(SparseRowGemvTest, DeclinesWhenFewElementsAreZero) {
  std::vector<float> x(64, 1.0f), w(64 * 32, 1.0f), y(32, -1.0f);
  for (int i = 0; i < 7; ++i) x[i * 9] = 0.0f;  // 7 of 64 zeros: under 1/8
  EXPECT_FALSE(SparseRowGemv(64, 32, x.data(), 1, w.data(), 32, y.data(), 1));
  EXPECT_EQ(y[0], -1.0f);  // nothing written
  x[63] = 0.0f;            // 8 of 64
  EXPECT_TRUE(SparseRowGemv(64, 32, x.data(), 1, w.data(), 32, y.data(), 1));
  EXPECT_EQ(y[0], 56.0f);
}

TEST(SparseRowGemvTest, NanInTheVectorReachesTheOutput) {
  std::vector<float> x(16, 0.0f), w(16 * 8, 1.0f), y(8, 0.0f);
  x[3] = std::numeric_limits<float>::quiet_NaN();
  ASSERT_TRUE(SparseRowGemv(16, 8, x.data(), 1, w.data(), 8, y.data(), 1));
  for (float v : y) EXPECT_TRUE(std::isnan(v));
}

// The dense product over every row: small integers, so every order of the sums is exact and
// the result is asserted exactly; one and two threads (two bands from 128 rows), strided x,
// padded rows, a guard element past y.
TEST(RowVectorTimesMatrixTest, EqualsTheExactProduct) {
  struct Shape {
    int64_t k, n, ldw, stride;
    int threads;
  };
  for (const Shape& c : {Shape{1, 1, 1, 1, 1}, Shape{3, 5, 7, 2, 1}, Shape{37, 333, 340, 3, 1},
                         Shape{384, 768, 768, 1, 1}, Shape{384, 768, 768, 1, 2},
                         Shape{301, 333, 340, 2, 2}, Shape{1000, 96, 100, 1, 3}}) {
    std::vector<float> x(c.k * c.stride, 99.0f), w(c.k * c.ldw, 99.0f);
    for (int64_t i = 0; i < c.k; ++i) x[i * c.stride] = static_cast<float>(i % 7) - 3.0f;
    for (int64_t i = 0; i < c.k; ++i) {
      for (int64_t j = 0; j < c.n; ++j) w[i * c.ldw + j] = static_cast<float>((i + 2 * j) % 5) - 2;
    }
    std::vector<float> y(c.n + 1, -5.0f);
    RowVectorTimesMatrix(c.k, c.n, x.data(), c.stride, w.data(), c.ldw, y.data(), c.threads);
    const std::vector<double> want = Reference(c.k, c.n, x, c.stride, w, c.ldw);
    for (int64_t j = 0; j < c.n; ++j) {
      ASSERT_EQ(y[j], static_cast<float>(want[j])) << "k=" << c.k << " n=" << c.n << " col " << j;
    }
    EXPECT_EQ(y[c.n], -5.0f);
  }
}

// Every row is read, so a zero of x times an infinity of W is NaN in that column (as in BLAS's
// sum; SparseRowGemv is only used for finite W), an infinity reaches its column, a NaN of x
// every column, and an empty sum is zeros.
TEST(RowVectorTimesMatrixTest, NonFiniteValuesPropagateAndEmptySumsAreZeros) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int threads : {1, 2}) {
    std::vector<float> x(200, 1.0f), w(200 * 4, 0.5f), y(4, -1.0f);
    x[10] = 0.0f;
    w[10 * 4 + 1] = inf;    // under the zero: 0 * inf = NaN
    w[150 * 4 + 2] = -inf;  // under a one: -inf
    RowVectorTimesMatrix(200, 4, x.data(), 1, w.data(), 4, y.data(), threads);
    EXPECT_EQ(y[0], 99.5f);
    EXPECT_TRUE(std::isnan(y[1]));
    EXPECT_EQ(y[2], -inf);
    EXPECT_EQ(y[3], 99.5f);
    x[7] = std::numeric_limits<float>::quiet_NaN();
    RowVectorTimesMatrix(200, 4, x.data(), 1, w.data(), 4, y.data(), threads);
    for (float v : y) EXPECT_TRUE(std::isnan(v));
  }
  std::vector<float> y(3, -1.0f);
  RowVectorTimesMatrix(0, 3, nullptr, 1, nullptr, 3, y.data(), 1);
  for (float v : y) EXPECT_EQ(v, 0.0f);
}

TEST(FiniteWeightsCacheTest, ScansEachBufferOnceAndSeesInfAndNan) {
  FiniteWeightsCache cache;
  std::vector<float> w(100, 1.0f);
  EXPECT_TRUE(cache.IsFinite(w.data(), 100));
  std::vector<float> bad = w;
  bad[42] = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(cache.IsFinite(bad.data(), 100));
  bad[42] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(cache.IsFinite(bad.data(), 99));  // another count: scanned again
  EXPECT_TRUE(cache.IsFinite(w.data(), 100));
}

}  // namespace
}  // namespace rill
