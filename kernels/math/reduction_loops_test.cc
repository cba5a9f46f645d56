#include "kernels/math/reduction_loops.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace reduction_loops {
namespace {

struct Sum {
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return acc + x;
  }
};

// A reducer whose partial results merge by addition while elements combine squared.
struct SumOfSquares {
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A x) {
    return acc + x * x;
  }
  template <typename A>
  static A Merge(A a, A b) {
    return a + b;
  }
};

TEST(ReduceRowsTest, PartialResultsMergeWithTheReducersMerge) {
  std::vector<int64_t> x(3 * kChunk + 40);
  int64_t want = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<int64_t>(i % 11) - 5;
    want += x[i] * x[i];
  }
  int64_t out;
  ReduceRows<SumOfSquares, int64_t>(x.data(), static_cast<int64_t>(x.size()), 0, 1, &out);
  EXPECT_EQ(out, want);
}

TEST(CollapseReductionTest, MergesNeighboursOfOneKindAndDropsOnes) {
  const std::vector<CollapsedDim> dims =
      CollapseReduction(TensorShape({8, 1, 64, 256, 3}), {false, true, false, true, true});
  ASSERT_EQ(dims.size(), 2u);
  EXPECT_EQ(dims[0].size, 8 * 64);
  EXPECT_FALSE(dims[0].reduced);
  EXPECT_EQ(dims[1].size, 256 * 3);
  EXPECT_TRUE(dims[1].reduced);
  EXPECT_TRUE(CollapseReduction(TensorShape({1, 1}), {true, false}).empty());
}

TEST(ReduceRowsTest, EveryRowLengthAroundTheLanesAndChunks) {
  for (int64_t k : {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{16}, int64_t{17}, int64_t{1000},
                    kChunk - 1, kChunk, kChunk + 17, 3 * kChunk + 5}) {
    std::vector<int64_t> x(2 * k);
    for (int64_t i = 0; i < 2 * k; ++i) x[i] = i % 7 - 3 + (i >> 10);
    int64_t out[2];
    ReduceRows<Sum, int64_t>(x.data(), k, 0, 2, out);
    for (int r = 0; r < 2; ++r) {
      int64_t want = 0;
      for (int64_t i = 0; i < k; ++i) want += x[r * k + i];
      EXPECT_EQ(out[r], want) << "k=" << k << " row " << r;
    }
  }
}

// Floats: the lanes are summed pairwise, so 16 large values and small ones in between round as a
// tree: the result is the exact sum here, where left-to-right summation would lose the 1s.
TEST(ReduceRowsTest, FloatLanesRoundAsATree) {
  std::vector<float> x(32, 1.0f);
  x[0] = 1e8f;
  x[16] = -1e8f;
  float out;
  ReduceRows<Sum, float>(x.data(), 32, 0, 1, &out);
  EXPECT_EQ(out, 30.0f);
}

TEST(ReduceColumnsTest, OuterRowsAndAColumnRange) {
  // x[o][r][j] = 100 o + 10 r + j for outer 2, k 3, inner 5; columns [1, 4) only.
  std::vector<int32_t> x;
  for (int o = 0; o < 2; ++o)
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 5; ++j) x.push_back(100 * o + 10 * r + j);
  std::vector<int32_t> acc(10, -7);
  ReduceColumns<Sum, int32_t>(x.data(), 2, 3, 5, 1, 4, acc.data());
  EXPECT_EQ(acc, (std::vector<int32_t>{-7, 33, 36, 39, -7, -7, 333, 336, 339, -7}));
}

}  // namespace
}  // namespace reduction_loops
}  // namespace rill
