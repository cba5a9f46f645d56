#include <cmath>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Arg(const std::string& op, const Tensor& x, int32_t axis,
                                        DataType out = DT_INT64) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Attr("output_type", out).Input(x).Input(Tensor::Scalar<int32_t>(axis));
  return t.Run();
}

const Tensor kX = F({1, 9, 3, 7, 2, 9}, TensorShape({2, 3}));

TEST(ArgMinMaxOpTest, AlongEachAxisWithTiesToTheFirst) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Arg("ArgMax", kX, 1));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({1, 2}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Arg("ArgMin", kX, 0, DT_INT32));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 1, 0}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Arg("ArgMax", kX, -2));
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({1, 0, 1}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Arg("ArgMax", F({9, 9, 9}, TensorShape({3})), 0));
  ExpectTensorEqual(out[0], Tensor::Scalar<int64_t>(0));
}

TEST(ArgMinMaxOpTest, NanIsSkipped) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Arg("ArgMax", F({NAN, 1, 3, NAN}, TensorShape({4})), 0));
  ExpectTensorEqual(out[0], Tensor::Scalar<int64_t>(2));
  RILL_ASSERT_OK_AND_ASSIGN(out, Arg("ArgMin", F({2, NAN, 1}, TensorShape({3})), 0));
  ExpectTensorEqual(out[0], Tensor::Scalar<int64_t>(2));
}

TEST(ArgMinMaxOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(Arg("ArgMax", kX, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected dimension in the range [-2, 2), but got 2")));
  EXPECT_THAT(Arg("ArgMin", Tensor(DT_FLOAT, TensorShape({0, 3})), 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Reduction axis 0 is empty in shape [0,3]")));
}

}  // namespace
}  // namespace rill
