#include <cstdint>

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

}  // namespace
}  // namespace rill
