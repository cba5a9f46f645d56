#include "kernels/math/half_gemm.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

std::vector<half> Halves(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// A 2x2 times 2x17 product, every column of b the same: columns 0-15 are packet lanes (each
// product rounded to half before the addition), column 16 a scalar column (one float
// multiply-add per step). TensorFlow 2.21's Einsum gives these values.
TEST(HalfMatMulTest, PacketColumnsRoundProductsAndScalarColumnsFuseThem) {
  const int64_t m = 2, k = 2, n = 17;
  const std::vector<half> a = Halves({-3.47265625f, 2.04296875f, 2.03125f, 3.384765625f});
  std::vector<float> bf(k * n);
  for (int64_t j = 0; j < n; ++j) {
    bf[j] = 1.6923828125f;
    bf[n + j] = -3.005859375f;
  }
  const std::vector<half> b = Halves(bf);
  std::vector<half> c(m * n);
  HalfMatMul(HalfMatMulPath::kBlockPanel, m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), 0);
  for (int64_t j = 0; j < 16; ++j) {
    EXPECT_EQ(static_cast<float>(c[j]), -12.015625f) << j;
    EXPECT_EQ(static_cast<float>(c[n + j]), -6.734375f) << j;
  }
  EXPECT_EQ(static_cast<float>(c[16]), -12.0234375f);
  EXPECT_EQ(static_cast<float>(c[n + 16]), -6.73828125f);
}

// Sums whose order shows (TensorFlow's values): a first product of 2048, then seven products of
// 1. A packet lane or a scalar column adds each 1 to 2048 (a tie, kept at 2048); a split lane
// sums the odd products apart (4) and then adds them: 2052.
TEST(HalfMatMulTest, SplitLanesAddOddProductsApart) {
  const int64_t m = 4, k = 8, n = 9;  // columns 0-7 split lanes for rows 0-3, column 8 scalar
  std::vector<float> af(m * k, 1.0f);
  std::vector<float> bf(k * n, 1.0f);
  for (int64_t j = 0; j < n; ++j) bf[j] = 2048.0f;  // p = 0: 2048
  const std::vector<half> a = Halves(af), b = Halves(bf);
  std::vector<half> c(m * n);
  HalfMatMul(HalfMatMulPath::kBlockPanel, m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < 8; ++j) {
      // even p: 2048 + 1 + 1 + 1 = 2048 (each +1 a tie to even); odd p: 4; 2048 + 4 = 2052.
      EXPECT_EQ(static_cast<float>(c[i * n + j]), 2052.0f) << i << "," << j;
    }
    EXPECT_EQ(static_cast<float>(c[i * n + 8]), 2048.0f) << i;  // 2048 + 1 seven times
  }
  // With 5 rows, row 4 is past the last multiple of 4: its columns 0-7 are packet lanes.
  const int64_t m5 = 5;
  std::vector<float> af5(m5 * k, 1.0f);
  const std::vector<half> a5 = Halves(af5);
  std::vector<half> c5(m5 * n);
  HalfMatMul(HalfMatMulPath::kBlockPanel, m5, n, k, a5.data(), k, 1, b.data(), n, 1, c5.data(), 0);
  EXPECT_EQ(static_cast<float>(c5[4 * n + 0]), 2048.0f);
  EXPECT_EQ(static_cast<float>(c5[3 * n + 0]), 2052.0f);
}

// TensorFlow's paths by shape: large matrix-vector products are not reproduced; one batch or
// large products take the block-panel kernel, small batched ones and small vector products
// Eigen's coefficient-wise product.
TEST(HalfMatMulTest, PathsFollowTensorFlowsBatchMatMulLauncher) {
  EXPECT_EQ(TensorFlowHalfMatMulPath(4, 1, 30, 8, false, false), HalfMatMulPath::kFloat);
  EXPECT_EQ(TensorFlowHalfMatMulPath(1, 1, 9, 4, false, false), HalfMatMulPath::kLazy);
  EXPECT_EQ(TensorFlowHalfMatMulPath(2, 5, 5, 1, false, false), HalfMatMulPath::kFloat);
  EXPECT_EQ(TensorFlowHalfMatMulPath(1, 3, 4, 5, false, false), HalfMatMulPath::kBlockPanel);
  EXPECT_EQ(TensorFlowHalfMatMulPath(2, 7, 20, 9, false, true), HalfMatMulPath::kBlockPanel);
  EXPECT_EQ(TensorFlowHalfMatMulPath(2, 200, 200, 2, false, false), HalfMatMulPath::kBlockPanel);
  EXPECT_EQ(TensorFlowHalfMatMulPath(2, 3, 5, 4, false, false), HalfMatMulPath::kLazy);
  EXPECT_EQ(TensorFlowHalfMatMulPath(2, 3, 5, 4, false, true), HalfMatMulPath::kHalfDot);
}

// kLazy: in a row of 12 starting at index 12 of the product, columns 4-11 are the aligned packet
// (one float multiply-add per step), 0-3 half steps. The same sums as the first test.
TEST(HalfMatMulTest, LazyPacketsStartAtTheAlignedColumn) {
  const int64_t m = 1, k = 2, n = 12;
  const std::vector<half> a = Halves({-3.47265625f, 2.04296875f});
  std::vector<float> bf(k * n);
  for (int64_t j = 0; j < n; ++j) {
    bf[j] = 1.6923828125f;
    bf[n + j] = -3.005859375f;
  }
  const std::vector<half> b = Halves(bf);
  std::vector<half> c(m * n);
  HalfMatMul(HalfMatMulPath::kLazy, m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), 12);
  for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(static_cast<float>(c[j]), -12.015625f) << j;
  for (int64_t j = 4; j < 12; ++j) EXPECT_EQ(static_cast<float>(c[j]), -12.0234375f) << j;
  HalfMatMul(HalfMatMulPath::kHalfDot, m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), 12);
  for (int64_t j = 0; j < 12; ++j) EXPECT_EQ(static_cast<float>(c[j]), -12.015625f) << j;
}

// Transposed operands read through the strides give the same product.
TEST(HalfMatMulTest, StridesReadTransposedOperands) {
  const int64_t m = 3, k = 5, n = 4;
  std::vector<float> af(m * k), bf(k * n);
  for (int64_t i = 0; i < m * k; ++i) af[i] = 0.25f * static_cast<float>(i % 7) - 0.5f;
  for (int64_t i = 0; i < k * n; ++i) bf[i] = 0.125f * static_cast<float>(i % 5) + 0.75f;
  std::vector<float> at(k * m), bt(n * k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) at[p * m + i] = af[i * k + p];
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j) bt[j * k + p] = bf[p * n + j];
  const std::vector<half> a = Halves(af), b = Halves(bf), a_t = Halves(at), b_t = Halves(bt);
  std::vector<half> c(m * n), c_t(m * n);
  HalfMatMul(HalfMatMulPath::kBlockPanel, m, n, k, a.data(), k, 1, b.data(), n, 1, c.data(), 0);
  HalfMatMul(HalfMatMulPath::kBlockPanel, m, n, k, a_t.data(), 1, m, b_t.data(), 1, k, c_t.data(),
             0);
  for (int64_t i = 0; i < m * n; ++i) {
    EXPECT_EQ(static_cast<float>(c[i]), static_cast<float>(c_t[i])) << i;
  }
}

}  // namespace
}  // namespace rill
