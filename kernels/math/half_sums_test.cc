#include "kernels/math/half_sums.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

std::vector<uint16_t> Bits(const std::vector<half>& v) {
  std::vector<uint16_t> out;
  for (half h : v) out.push_back(h.bits);
  return out;
}

// Expected bits recorded from TensorFlow 2.21 (tf.reduce_sum / tf.reduce_mean of these float16
// tensors, TF_ENABLE_ONEDNN_OPTS=0); adding in float and rounding once gives other bits (noted).
TEST(HalfSumsTest, RowSumIsTensorFlows) {
  std::vector<half> x;
  for (int i = 0; i < 37; ++i) x.push_back(half(static_cast<float>(std::sin(i) * 0.7)));
  EXPECT_EQ(half_sums::HalfRowSum(x.data(), 0, 37).bits, 13823);  // float sum rounds to 13824
}

TEST(HalfSumsTest, ColumnSumsAreTensorFlows) {
  std::vector<half> x;
  for (int i = 0; i < 20 * 9; ++i) x.push_back(half(static_cast<float>(std::cos(i * 0.37) * 0.9)));
  std::vector<half> out(9);
  half_sums::HalfColumnSums(x.data(), 1, 20, 9, out.data());
  // Float sums round to 15031, 14776, 14312, 12951, 44814, 46738, 47422, 47745, 47841.
  EXPECT_EQ(Bits(out),
            (std::vector<uint16_t>{15033, 14776, 14308, 12912, 44832, 46736, 47422, 47741, 47841}));
}

// bfloat16 products (TensorFlow 2.21's Prod): the same order, multiplying; multiplying in float
// and rounding once gives 16122.
TEST(HalfSumsTest, Bfloat16RowProductIsTensorFlows) {
  std::vector<bfloat16> x;
  for (int i = 0; i < 37; ++i) x.push_back(bfloat16(static_cast<float>(1 + std::sin(i) * 0.3)));
  EXPECT_EQ((half_sums::RowReduce<half_sums::Mul>(x.data(), 0, 37).bits), 16118);
}

TEST(HalfSumsTest, LongRowsSplitAtPacketBoundariesAndMatchAPlainSumOfSmallIntegers) {
  // Integers add exactly in half up to 2048, so every order gives the same sum.
  std::vector<half> x(20000, half(0.0f));
  for (int i = 0; i < 2000; ++i) x[i * 10] = half(1.0f);
  EXPECT_EQ(static_cast<float>(half_sums::HalfRowSum(x.data(), 0, 20000)), 2000.0f);
  EXPECT_EQ(static_cast<float>(half_sums::HalfRowSum(x.data(), 5, 9000)), 900.0f);  // offset 5
}

}  // namespace
}  // namespace rill
