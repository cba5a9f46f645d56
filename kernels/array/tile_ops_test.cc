#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int32_t>(v, TensorShape({n}));
}

absl::StatusOr<std::vector<Tensor>> Run2(const std::string& op, const Tensor& x, const Tensor& y) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Input(x).Input(y);
  return t.Run();
}

TEST(TileOpTest, RepeatsEveryDimension) {
  const Tensor x = F({1, 2, 3, 4}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Run2("Tile", x, I({2, 3})));
  ExpectTensorEqual(out[0], F({1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                               1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4},
                              TensorShape({4, 6})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Run2("Tile", x, I({0, 1})));
  ExpectTensorEqual(out[0], F({}, TensorShape({0, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Run2("Tile", Tensor::Scalar<float>(7), I({})));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(7));
}

TEST(TileOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4}, TensorShape({2, 2}));
  EXPECT_THAT(Run2("Tile", x, I({1, 2, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected multiples argument to be a vector of length 2 but got "
                                 "length 3")));
  EXPECT_THAT(Run2("Tile", x, I({1, -1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected multiples[1] >= 0, but got -1")));
}

TEST(BroadcastToOpTest, AddsAndRepeatsDims) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            Run2("BroadcastTo", F({1, 2, 3}, TensorShape({3})), I({2, 3})));
  ExpectTensorEqual(out[0], F({1, 2, 3, 1, 2, 3}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Run2("BroadcastTo", F({1, 2}, TensorShape({2, 1})), I({2, 3})));
  ExpectTensorEqual(out[0], F({1, 1, 1, 2, 2, 2}, TensorShape({2, 3})));
  const Tensor same = F({1, 2}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Run2("BroadcastTo", same, I({2})));
  EXPECT_TRUE(out[0].SharesBufferWith(same));
}

TEST(BroadcastToOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(
      Run2("BroadcastTo", F({1, 2}, TensorShape({2})), I({3})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Incompatible shapes: [2] vs. [3]")));
  EXPECT_THAT(Run2("BroadcastTo", F({1, 2}, TensorShape({1, 2})), I({2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Rank of input (2) must be no greater than rank of output shape "
                                 "(1).")));
  EXPECT_THAT(Run2("BroadcastTo", F({1, 2}, TensorShape({2})), I({1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unable to broadcast tensor of shape [2] to tensor of shape "
                                 "[1]")));
}

}  // namespace
}  // namespace rill
