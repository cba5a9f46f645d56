#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(TensorShape s, std::vector<double> v) { return MakeTensor(DT_FLOAT, s, v); }
const Tensor kX = F(TensorShape({2, 4}), {1, 2, 3, 4, 5, 6, 7, 8});

absl::StatusOr<std::vector<Tensor>> Split(const Tensor& x, int32_t dim, int64_t n) {
  OpTester t("Split");
  t.Attr("T", x.dtype()).Attr("num_split", n);
  t.Input(Tensor::Scalar<int32_t>(dim)).Input(x);
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> SplitV(const Tensor& x, std::vector<int64_t> sizes,
                                           int32_t dim) {
  OpTester t("SplitV");
  const int64_t n = static_cast<int64_t>(sizes.size());
  t.Attr("T", x.dtype()).Attr("num_split", n);
  t.Input(x).Input(Tensor::FromVector<int64_t>(sizes, TensorShape({n})));
  t.Input(Tensor::Scalar<int32_t>(dim));
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> Unpack(const Tensor& x, int64_t num, int64_t axis) {
  OpTester t("Unpack");
  t.Attr("T", x.dtype()).Attr("num", num).Attr("axis", axis).Input(x);
  return t.Run();
}

TEST(SplitOpTest, SplitEvenly) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Split(kX, 1, 2));
  ASSERT_EQ(out.size(), 2u);
  ExpectTensorEqual(out[0], F(TensorShape({2, 2}), {1, 2, 5, 6}));
  ExpectTensorEqual(out[1], F(TensorShape({2, 2}), {3, 4, 7, 8}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Split(kX, -2, 2));
  ExpectTensorEqual(out[0], F(TensorShape({1, 4}), {1, 2, 3, 4}));
  ExpectTensorEqual(out[1], F(TensorShape({1, 4}), {5, 6, 7, 8}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Split(kX, 0, 1));
  EXPECT_TRUE(out[0].SharesBufferWith(kX));
}

TEST(SplitOpTest, SplitErrorsAreTensorFlows) {
  EXPECT_THAT(Split(kX, 1, 3), StatusIs(absl::StatusCode::kInvalidArgument,
                                        "Number of ways to split should evenly divide the split "
                                        "dimension, but got "
                                        "split_dim 1 (size = 4) and num_split 3"));
  EXPECT_THAT(Split(kX, 2, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "-input rank(-2) <= split_dim < input rank (2), but got 2"));
  OpTester t("Split");
  t.Attr("T", DT_FLOAT).Attr("num_split", int64_t{2});
  t.Input(Tensor::FromVector<int32_t>({0}, TensorShape({1}))).Input(kX);
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "split_dim must be a scalar but has rank 1"));
}

TEST(SplitOpTest, SplitVWithSizesAndMinusOne) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, SplitV(kX, {1, -1, 0}, 1));
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], F(TensorShape({2, 1}), {1, 5}));
  ExpectTensorEqual(out[1], F(TensorShape({2, 3}), {2, 3, 4, 6, 7, 8}));
  ExpectTensorEqual(out[2], F(TensorShape({2, 0}), {}));
  const Tensor s = Tensor::FromVector<std::string>({"a", "b", "c"}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(out, SplitV(s, {2, 1}, 0));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<std::string>({"c"}, TensorShape({1})));
}

TEST(SplitOpTest, SplitVErrorsAreTensorFlows) {
  EXPECT_THAT(SplitV(kX, {1, 2}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Determined shape must either match input shape along "
                       "split_dim exactly if "
                       "fully specified, or be less than the size of the input "
                       "along split_dim if "
                       "not fully specified.  Got: 3"));
  EXPECT_THAT(SplitV(kX, {-1, -1}, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                                "There can only be one -1 in the input."));
  EXPECT_THAT(SplitV(kX, {6, -2}, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                               "Split size at index 1 must be >= 0. Got: -2"));
  EXPECT_THAT(SplitV(kX, {3}, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "If there is only one output, it must have the same "
                                           "size as the input. "
                                           "Input size: 4 output size: 3"));
}

TEST(SplitOpTest, UnpackAlongEachAxis) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Unpack(kX, 4, 1));
  ASSERT_EQ(out.size(), 4u);
  ExpectTensorEqual(out[2], F(TensorShape({2}), {3, 7}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Unpack(kX, 2, -2));
  ExpectTensorEqual(out[1], F(TensorShape({4}), {5, 6, 7, 8}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Unpack(F(TensorShape({2}), {1, 2}), 2, 0));
  ExpectTensorEqual(out[1], F(TensorShape({}), {2}));
}

TEST(SplitOpTest, UnpackErrorsAreTensorFlows) {
  EXPECT_THAT(Unpack(kX, 3, 0), StatusIs(absl::StatusCode::kInvalidArgument,
                                         "Input shape axis 0 must equal 3, got shape [2,4]"));
  EXPECT_THAT(Unpack(kX, 2, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "axis = 2 not in [-2, 2)"));
}

}  // namespace
}  // namespace rill
