// OneDnnPackedWeights::MaxOutputAbsSum (columns, rows, non-finite weights, another tensor) and
// ReluPostOpIsExact (finite, NaN, infinite and huge inputs and biases against the bound).
#include "kernels/math_lib/onednn_common.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(OneDnnPackedWeightsTest, MaxOutputAbsSumOverColumnsOrRows) {
  // [[1, -2, 3], [-4, 5, 0.5]]: column sums 5, 7, 3.5; row sums 6, 9.5.
  const Tensor w = Tensor::FromVector<float>({1, -2, 3, -4, 5, 0.5f}, TensorShape({2, 3}));
  OneDnnPackedWeights packed;
  packed.Hold(w);
  const float* data = w.flat<float>().data();
  EXPECT_EQ(packed.MaxOutputAbsSum(data, 2, 3, false), 7.0);
  EXPECT_EQ(packed.MaxOutputAbsSum(data, 2, 3, true), 9.5);
  EXPECT_EQ(packed.MaxOutputAbsSum(data, 2, 3, false), 7.0);   // the view changed back
  EXPECT_EQ(packed.MaxOutputAbsSum(data, 3, 3, false), kInf);  // not the held tensor's size
  const std::vector<float> other = {1, 1, 1, 1, 1, 1};
  EXPECT_EQ(packed.MaxOutputAbsSum(other.data(), 2, 3, false), kInf);  // not the held data
  OneDnnPackedWeights empty;
  EXPECT_EQ(empty.MaxOutputAbsSum(data, 2, 3, false), kInf);
}

TEST(OneDnnPackedWeightsTest, MaxOutputAbsSumIsInfiniteForNonFiniteWeights) {
  for (float bad : {std::nanf(""), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity()}) {
    const Tensor w = Tensor::FromVector<float>({1, 2, bad, 4}, TensorShape({2, 2}));
    OneDnnPackedWeights packed;
    packed.Hold(w);
    EXPECT_EQ(packed.MaxOutputAbsSum(w.flat<float>().data(), 2, 2, false), kInf) << bad;
  }
  // A new tensor replaces the held one and its cached sum.
  const Tensor w = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}));
  const Tensor v = Tensor::FromVector<float>({10, 2, 3, 4}, TensorShape({2, 2}));
  OneDnnPackedWeights packed;
  packed.Hold(w);
  EXPECT_EQ(packed.MaxOutputAbsSum(w.flat<float>().data(), 2, 2, false), 6.0);
  packed.Hold(v);
  EXPECT_EQ(packed.MaxOutputAbsSum(v.flat<float>().data(), 2, 2, false), 13.0);
}

TEST(ReluPostOpIsExactTest, FiniteInputsUnderTheBound) {
  std::vector<float> x(10000, 0.5f);
  x[1234] = -1e30f;
  const std::vector<float> bias = {1, -2, 3};
  for (int threads : {1, 2}) {
    EXPECT_TRUE(ReluPostOpIsExact(threads, x.data(), x.size(), 100.0, bias.data(), 3));
    EXPECT_TRUE(ReluPostOpIsExact(threads, x.data(), x.size(), 0.0, nullptr, 0));
    // 1e30 * 1e8 is past a quarter of FLT_MAX (8.5e37).
    EXPECT_FALSE(ReluPostOpIsExact(threads, x.data(), x.size(), 1e8, bias.data(), 3));
  }
  EXPECT_TRUE(ReluPostOpIsExact(1, x.data(), 0, 1.0, nullptr, 0));  // nothing to read
}

TEST(ReluPostOpIsExactTest, NaNInfiniteAndHugeElementsAnywhere) {
  const float inf = std::numeric_limits<float>::infinity();
  for (float bad : {std::nanf(""), inf, -inf, std::numeric_limits<float>::max(), -3e38f}) {
    for (int64_t at : {0, 4095, 4096, 9999}) {  // both sides of a scan block's edge, the last
      std::vector<float> x(10000, 1.f);
      x[at] = bad;
      for (int threads : {1, 2}) {
        EXPECT_FALSE(ReluPostOpIsExact(threads, x.data(), x.size(), 1.0, nullptr, 0))
            << bad << " at " << at << ", " << threads << " threads";
      }
    }
  }
}

TEST(ReluPostOpIsExactTest, BiasAndWeightBound) {
  const std::vector<float> x(64, 1.f);
  const float inf = std::numeric_limits<float>::infinity();
  for (float bad : {std::nanf(""), inf, -inf, 1e38f}) {
    const std::vector<float> bias = {0, bad};
    EXPECT_FALSE(ReluPostOpIsExact(1, x.data(), x.size(), 1.0, bias.data(), 2)) << bad;
  }
  EXPECT_FALSE(ReluPostOpIsExact(1, x.data(), x.size(), kInf, nullptr, 0));
  EXPECT_FALSE(ReluPostOpIsExact(1, x.data(), x.size(), std::nan(""), nullptr, 0));
  EXPECT_FALSE(ReluPostOpIsExact(1, x.data(), x.size(), 1e38, nullptr, 0));
}

}  // namespace
}  // namespace rill
