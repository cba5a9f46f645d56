#include <cstdint>
#include <string>

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

TEST(TileOpTest, StringsAndComplexTileAsInTensorFlow) {
  using S = std::string;
  const Tensor words =
      Tensor::FromVector<S>({"a", "a string longer than inline"}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Run2("Tile", words, I({2})));
  ExpectTensorEqual(out[0], Tensor::FromVector<S>({"a", "a string longer than inline", "a",
                                                   "a string longer than inline"},
                                                  TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Run2("Tile", Tensor::FromVector<complex64>({{1, 2}}, TensorShape({1, 1})), I({2, 1})));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex64>({{1, 2}, {1, 2}}, TensorShape({2, 1})));
}

TEST(BroadcastToOpTest, StringsAndComplexBroadcastAsInTensorFlow) {
  using S = std::string;
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Run2("BroadcastTo", Tensor::FromVector<S>({"x", "yz"}, TensorShape({2})), I({2, 2})));
  ExpectTensorEqual(out[0], Tensor::FromVector<S>({"x", "yz", "x", "yz"}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Run2("BroadcastTo",
                Tensor::FromVector<complex128>({{7, -1}, {0, 3}}, TensorShape({2, 1})), I({2, 2})));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex128>({{7, -1}, {7, -1}, {0, 3}, {0, 3}},
                                                           TensorShape({2, 2})));
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

// Issue 26: sizes computed from input values are checked before they become a shape.
Tensor Multiples64(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int64_t>(v, TensorShape({n}));
}

absl::StatusOr<std::vector<Tensor>> Tile64(const Tensor& x, std::vector<int64_t> multiples) {
  OpTester t("Tile");
  t.Attr("T", x.dtype()).Attr("Tmultiples", DT_INT64).Input(x).Input(Multiples64(multiples));
  return t.Run();
}

TEST(TileOpTest, OverflowingOrHugeMultiplesAreErrorsNotCrashes) {
  // 3 * 6148914691236517208 wraps to 8 in int64: was an 8-element output written with 3 * 6e18.
  EXPECT_THAT(Tile64(F({1, 2, 3}, TensorShape({3})), {6148914691236517208}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Encountered overflow when multiplying dimension 0 of size 3 by "
                                 "multiples[0] = 6148914691236517208")));
  EXPECT_THAT(Tile64(F({1, 2, 3, 4}, TensorShape({2, 2})), {int64_t{1} << 40, int64_t{1} << 40}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  EXPECT_THAT(Tile64(F({1}, TensorShape({1})), {int64_t{1} << 59}),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("OOM when allocating")));
}

TEST(TileOpTest, BroadcastToOverflowingOrHugeShapesAreErrorsNotCrashes) {
  const Tensor x = F({1}, TensorShape({}));
  OpTester overflow("BroadcastTo");
  overflow.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT64).Input(x);
  overflow.Input(Multiples64({int64_t{1} << 62, 4}));
  EXPECT_THAT(overflow.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  OpTester huge("BroadcastTo");
  huge.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT64).Input(x).Input(Multiples64({int64_t{1} << 59}));
  EXPECT_THAT(huge.Run(),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("OOM when allocating")));
}

}  // namespace
}  // namespace rill
