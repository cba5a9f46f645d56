#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Cumsum(const Tensor& x, int32_t axis, bool exclusive = false,
                                           bool reverse = false) {
  OpTester t("Cumsum");
  t.Attr("T", x.dtype()).Attr("exclusive", exclusive).Attr("reverse", reverse);
  t.Input(x).Input(Tensor::Scalar<int32_t>(axis));
  return t.Run();
}

const Tensor kX = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));

TEST(CumsumOpTest, AlongEachAxis) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cumsum(kX, 1));
  ExpectTensorEqual(out[0], F({1, 3, 6, 4, 9, 15}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Cumsum(kX, -2));
  ExpectTensorEqual(out[0], F({1, 2, 3, 5, 7, 9}, TensorShape({2, 3})));
}

TEST(CumsumOpTest, ExclusiveAndReverse) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cumsum(kX, 1, /*exclusive=*/true));
  ExpectTensorEqual(out[0], F({0, 1, 3, 0, 4, 9}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Cumsum(kX, 1, false, /*reverse=*/true));
  ExpectTensorEqual(out[0], F({6, 5, 3, 15, 11, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Cumsum(kX, 1, true, true));
  ExpectTensorEqual(out[0], F({5, 3, 0, 11, 6, 0}, TensorShape({2, 3})));
}

TEST(CumsumOpTest, IntegersWrap) {
  const Tensor x = Tensor::FromVector<int8_t>({100, 100}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cumsum(x, 0));
  ExpectTensorEqual(out[0], Tensor::FromVector<int8_t>({100, -56}, TensorShape({2})));
}

TEST(CumsumOpTest, AxisErrorsAreTensorFlows) {
  EXPECT_THAT(Cumsum(kX, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("ScanOp: Expected scan axis in the range [-2, 2), but got 2")));
  EXPECT_THAT(Cumsum(kX, -3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("ScanOp: Expected scan axis in the range [-2, 2), but got -1")));
}

// TensorFlow 2.21's results (tf.math.cumulative_logsumexp on its CPU kernel): a NaN element
// compares false both ways, so its running result keeps the previous one (-inf at the start,
// the previous plus log 2 after a finite one); an inf running result before it gives NaN.
TEST(CumulativeLogsumexpOpTest, NaNElementsAreReadAsTensorFlowReadsThem) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  auto run = [&](std::vector<float> x, bool exclusive, bool reverse) {
    OpTester t("CumulativeLogsumexp");
    t.Attr("T", DT_FLOAT).Attr("exclusive", exclusive).Attr("reverse", reverse);
    const int64_t n = static_cast<int64_t>(x.size());
    t.Input(F(std::move(x), TensorShape({n}))).Input(Tensor::Scalar<int32_t>(0));
    return t.Run();
  };
  auto expect = [&](const Tensor& got, std::vector<float> want) {
    ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const float g = got.flat<float>()[i];
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(g)) << "element " << i << ": " << g;
      } else {
        EXPECT_FLOAT_EQ(g, want[i]) << "element " << i;
      }
    }
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto a, run({0.5f, nan, 1, 2}, false, false));
  expect(a[0], {0.5f, 1.1931472f, 1.7943767f, 2.5956113f});
  RILL_ASSERT_OK_AND_ASSIGN(auto b, run({nan, 1, 2}, false, false));
  expect(b[0], {-inf, 1, 2.3132617f});
  RILL_ASSERT_OK_AND_ASSIGN(auto c, run({1, 2, nan}, false, true));
  expect(c[0], {2.3132617f, 2, -inf});
  RILL_ASSERT_OK_AND_ASSIGN(auto d, run({inf, nan, 1}, false, false));
  expect(d[0], {inf, nan, nan});
  RILL_ASSERT_OK_AND_ASSIGN(auto e, run({inf, nan, 1}, true, false));
  expect(e[0], {-inf, inf, nan});
  RILL_ASSERT_OK_AND_ASSIGN(auto f, run({-inf, nan, 1}, false, true));
  expect(f[0], {1.6931472f, 1.6931472f, 1});
}

// Bits recorded from TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0): a bfloat16 Cumsum rounds every
// running sum to bfloat16; summing in float and rounding each output gives 16203, 15866, 48534,
// 16070 at indices 4-7.
TEST(CumsumOpTest, Bfloat16RoundsEveryStep) {
  std::vector<bfloat16> v;
  for (int i = 0; i < 12; ++i) v.push_back(bfloat16(static_cast<float>(std::sin(i) * 0.7)));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            Cumsum(Tensor::FromVector<bfloat16>(v, TensorShape({12})), 0));
  std::vector<uint16_t> bits;
  for (bfloat16 b : out[0].flat<bfloat16>()) bits.push_back(b.bits);
  EXPECT_EQ(bits, (std::vector<uint16_t>{0, 16151, 16285, 16298, 16204, 15872, 48528, 16071, 16266,
                                         16303, 16252, 16018}));
}

TEST(CumsumOpTest, UnsignedWraps) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Cumsum(Tensor::FromVector<uint64_t>({18446744073709551615ull, 2, 3}, TensorShape({3})), 0));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<uint64_t>({18446744073709551615ull, 1, 4}, TensorShape({3})));
}

TEST(CumsumOpTest, ComplexSumsAndProducts) {
  const Tensor x = Tensor::FromVector<complex64>({{1, 2}, {3, -4}, {0, 1}}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cumsum(x, 0, /*exclusive=*/false, /*reverse=*/true));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<complex64>({{4, -1}, {3, -3}, {0, 1}}, TensorShape({3})));
  OpTester t("Cumprod");
  t.Attr("T", DT_COMPLEX128).Attr("exclusive", true).Attr("reverse", false);
  t.Input(Tensor::FromVector<complex128>({{1, 2}, {3, -4}, {0, 1}}, TensorShape({3})))
      .Input(Tensor::Scalar<int32_t>(0));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<complex128>({{1, 0}, {1, 2}, {11, 2}}, TensorShape({3})));
}

}  // namespace
}  // namespace rill
