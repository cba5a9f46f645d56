#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

absl::StatusOr<std::vector<Tensor>> Reverse(const Tensor& x, std::vector<int32_t> axes) {
  OpTester t("ReverseV2");
  const int64_t n = static_cast<int64_t>(axes.size());
  t.Attr("T", x.dtype()).Input(x).Input(I32(axes, TensorShape({n})));
  return t.Run();
}

TEST(ReverseOpTest, ReversesTheListedAxes) {
  const Tensor x = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reverse(x, {1}));
  ExpectTensorEqual(out[0], F({3, 2, 1, 6, 5, 4}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reverse(x, {0, -1}));
  ExpectTensorEqual(out[0], F({6, 5, 4, 3, 2, 1}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Reverse(Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2})), {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"b", "a"}, TensorShape({2})));
}

TEST(ReverseOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2}, TensorShape({2}));
  EXPECT_THAT(Reverse(x, {0, 0}), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("axis 0 specified more than once.")));
  EXPECT_THAT(Reverse(x, {1}), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("'axis'[0] = 1 is out of valid range [0, 0")));
}

// Reverse (V1): one bool flag per dim of x.
absl::StatusOr<std::vector<Tensor>> ReverseV1(const Tensor& x, std::vector<bool> flags,
                                              TensorShape flags_shape) {
  OpTester t("Reverse");
  Tensor dims(DT_BOOL, flags_shape);
  for (size_t i = 0; i < flags.size(); ++i) dims.flat<bool>()[i] = flags[i];
  t.Attr("T", x.dtype()).Input(x).Input(dims);
  return t.Run();
}

TEST(ReverseV1OpTest, ReversesTheFlaggedDims) {
  const Tensor x = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, ReverseV1(x, {false, true}, TensorShape({2})));
  ExpectTensorEqual(out[0], F({3, 2, 1, 6, 5, 4}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, ReverseV1(x, {true, true}, TensorShape({2})));
  ExpectTensorEqual(out[0], F({6, 5, 4, 3, 2, 1}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, ReverseV1(x, {false, false}, TensorShape({2})));
  ExpectTensorEqual(out[0], x);
  // A scalar is forwarded whatever the flags.
  RILL_ASSERT_OK_AND_ASSIGN(out, ReverseV1(F({7}, TensorShape({})), {true}, TensorShape({1})));
  ExpectTensorEqual(out[0], F({7}, TensorShape({})));
}

TEST(ReverseV1OpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2}, TensorShape({2}));
  EXPECT_THAT(
      ReverseV1(x, {true, false}, TensorShape({2})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'input' has 1'dims' has 2 values")));
  EXPECT_THAT(
      ReverseV1(x, {true}, TensorShape({1, 1})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'dims' must be 1-dimension, not 2")));
  EXPECT_THAT(ReverseV1(F({}, TensorShape({0, 2})), {true, false}, TensorShape({2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid input first dimension. Found 0.")));
  EXPECT_THAT(ReverseV1(F({1}, TensorShape({1, 1, 1, 1, 1, 1, 1, 1, 1})),
                        std::vector<bool>(9, true), TensorShape({9})),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("reverse is not implemented for tensors of rank > 8.")));
}

}  // namespace
}  // namespace rill
