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

}  // namespace
}  // namespace rill
