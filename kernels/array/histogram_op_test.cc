#include <cmath>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Histogram(const Tensor& values, const Tensor& range,
                                              int32_t nbins) {
  OpTester t("HistogramFixedWidth");
  t.Attr("T", values.dtype())
      .Attr("dtype", DT_INT32)
      .Input(values)
      .Input(range)
      .Input(Tensor::Scalar<int32_t>(nbins));
  return t.Run();
}

TEST(HistogramFixedWidthOpTest, OutOfRangeValuesGoToTheEndBins) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Histogram(Tensor::FromVector<float>({-1, 0, 1, 2, 3, 4, 5, 9, 10, 11}, TensorShape({10})),
                Tensor::FromVector<float>({0, 10}, TensorShape({2})), 5));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({3, 2, 2, 0, 3}, TensorShape({5})));
}

TEST(HistogramFixedWidthOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(Histogram(Tensor::FromVector<int32_t>({1}, TensorShape({1})),
                        Tensor::FromVector<int32_t>({1, 0}, TensorShape({2})), 2)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "value_range should satisfy value_range[0] < value_range[1], but got "
                       "'[1, 0]'"));
  EXPECT_THAT(Histogram(Tensor::FromVector<float>({1}, TensorShape({1})),
                        Tensor::FromVector<float>({0, 1}, TensorShape({2})), 0)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "nbins should be a positive number, but got '0'"));
}

TEST(HistogramFixedWidthOpTest, NanValuesAreRefusedAsInTensorFlow) {
  EXPECT_THAT(
      Histogram(Tensor::FromVector<float>({1, std::nanf(""), 2}, TensorShape({3})),
                Tensor::FromVector<float>({0, 5}, TensorShape({2})), 5)
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Histogram values must not contain NaN"));
}

// Where TensorFlow's bin arithmetic is undefined (an integer range wider than T, an infinite
// range), every value still lands in a bin.
TEST(HistogramFixedWidthOpTest, ExtremeRangesStayInsideTheBins) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  RILL_ASSERT_OK_AND_ASSIGN(
      auto ints, Histogram(Tensor::FromVector<int32_t>({kMax, kMin, 0}, TensorShape({3})),
                           Tensor::FromVector<int32_t>({kMin, kMax}, TensorShape({2})), 4));
  ExpectTensorEqual(ints[0], Tensor::FromVector<int32_t>({1, 0, 1, 1}, TensorShape({4})));
  constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
  RILL_ASSERT_OK_AND_ASSIGN(
      auto longs, Histogram(Tensor::FromVector<int64_t>({kMax64, kMin64, 0, -1}, TensorShape({4})),
                            Tensor::FromVector<int64_t>({kMin64, kMax64}, TensorShape({2})), 2));
  ExpectTensorEqual(longs[0], Tensor::FromVector<int32_t>({1, 3}, TensorShape({2})));
  const float inf = std::numeric_limits<float>::infinity();
  RILL_ASSERT_OK_AND_ASSIGN(
      auto floats, Histogram(Tensor::FromVector<float>({1, inf, -inf, 3e38f}, TensorShape({4})),
                             Tensor::FromVector<float>({-inf, inf}, TensorShape({2})), 3));
  ExpectTensorEqual(floats[0], Tensor::FromVector<int32_t>({0, 0, 4}, TensorShape({3})));
}

}  // namespace
}  // namespace rill
