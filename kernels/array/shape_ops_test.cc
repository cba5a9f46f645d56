#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int32_t>(v, TensorShape({n}));
}

TEST(ShapeOpsTest, ShapeSizeRank) {
  OpTester shape("Shape");
  shape.Attr("T", DT_FLOAT)
      .Attr("out_type", DT_INT64)
      .Input(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, shape.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({2, 3}, TensorShape({2})));
  OpTester size("Size");
  size.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, size.Run());
  ExpectTensorEqual(out[0], Tensor::Scalar<int32_t>(6));
  OpTester rank("Rank");
  rank.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, rank.Run());
  ExpectTensorEqual(out[0], Tensor::Scalar<int32_t>(2));
}

TEST(ShapeOpsTest, ShapeNGivesEachInputsShape) {
  OpTester t("ShapeN");
  t.Attr("T", DT_FLOAT).Attr("N", int64_t{3}).Attr("out_type", DT_INT64);
  t.Input(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}))).Input(Tensor::Scalar<float>(1));
  t.Input(F({}, TensorShape({0, 4, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({2, 3}, TensorShape({2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({}, TensorShape({0})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({0, 4, 1}, TensorShape({3})));
  OpTester s("ShapeN");
  s.Attr("T", DT_STRING).Attr("N", int64_t{1});
  s.Input(Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, s.Run());
  ExpectTensorEqual(out[0], I({2}));
}

TEST(ShapeOpsTest, ReshapeInfersMinusOneAndSharesTheBuffer) {
  const Tensor in = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  OpTester t("Reshape");
  t.Attr("T", DT_FLOAT).Input(in).Input(I({3, -1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})));
  EXPECT_TRUE(out[0].SharesBufferWith(in));
}

TEST(ShapeOpsTest, ReshapeErrorsAreTensorFlows) {
  OpTester t("Reshape");
  t.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({6}))).Input(I({4}));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "Input to reshape is a tensor with 6 values, but the requested "
                                "shape has 4"));
  OpTester u("Reshape");
  u.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({6}))).Input(I({-1, 4}));
  EXPECT_THAT(u.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "Input to reshape is a tensor with 6 values, but the requested "
                                "shape requires a multiple of 4"));
  OpTester v("Reshape");
  v.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({6}))).Input(I({-1, -1}));
  EXPECT_THAT(v.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "Only one input size may be -1, not both 0 and 1"));
}

// A -1 beside a 0: inferred from the non-zero sizes and the input's non-zero dims, as
// TensorFlow 2.21 does (tf.reshape printed these shapes); it was "requires a multiple of 0".
TEST(ShapeOpsTest, ReshapeInfersMinusOneBesideAZero) {
  struct Case {
    std::vector<int64_t> in, sizes, want;
  };
  for (const Case& c : std::vector<Case>{{{0}, {-1, 0}, {1, 0}},
                                         {{2, 0, 3}, {-1, 0}, {6, 0}},
                                         {{0, 3}, {0, -1, 2}, {0, 1, 2}},
                                         {{2, 0}, {-1, 0, 5}, {0, 0, 5}}}) {
    OpTester t("Reshape");
    std::vector<int32_t> sizes(c.sizes.begin(), c.sizes.end());
    t.Attr("T", DT_FLOAT)
        .Input(Tensor(DT_FLOAT, TensorShape::FromDims(c.in).value()))
        .Input(I(sizes));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    EXPECT_EQ(out[0].shape(), TensorShape::FromDims(c.want).value());
  }
  OpTester t("Reshape");
  t.Attr("T", DT_FLOAT).Input(F({1, 2, 3, 4}, TensorShape({4}))).Input(I({-1, 0}));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "Input to reshape is a tensor with 4 values, but the requested "
                                "shape has 0"));
}

// TensorFlow's Reshape refuses 254 sizes and more, one below TensorShape's limit (tf.reshape's
// text); 253 ones reshape.
TEST(ShapeOpsTest, ReshapeTo254DimsIsTensorFlowsError) {
  OpTester t("Reshape");
  t.Attr("T", DT_FLOAT).Input(F({1}, TensorShape({1}))).Input(I(std::vector<int32_t>(254, 1)));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "too many dimensions: must be < 254, but received 254"));
  OpTester u("Reshape");
  u.Attr("T", DT_FLOAT).Input(F({1}, TensorShape({1}))).Input(I(std::vector<int32_t>(253, 1)));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, u.Run());
  EXPECT_EQ(out[0].shape().rank(), 253);
}

TEST(ShapeOpsTest, ExpandDimsAndSqueeze) {
  OpTester e("ExpandDims");
  e.Attr("T", DT_FLOAT).Input(F({1, 2}, TensorShape({2}))).Input(Tensor::Scalar<int32_t>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, e.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({2, 1}));
  OpTester bad("ExpandDims");
  bad.Attr("T", DT_FLOAT).Input(F({1, 2}, TensorShape({2}))).Input(Tensor::Scalar<int32_t>(3));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "Tried to expand dim index 3 for tensor with 1 dimensions."));
  OpTester s("Squeeze");
  s.Attr("T", DT_FLOAT).Input(F({1, 2}, TensorShape({1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, s.Run());
  EXPECT_EQ(out[0].shape(), TensorShape({2}));
  OpTester s2("Squeeze");
  AttrValue squeeze_dims;
  squeeze_dims.mutable_list()->add_i(1);
  s2.Attr("T", DT_FLOAT).Attr("squeeze_dims", squeeze_dims);
  s2.Input(F({1, 2}, TensorShape({1, 2, 1})));
  EXPECT_THAT(s2.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                 "Can not squeeze dim[1], expected a dimension of 1, got 2"));
}

TEST(ShapeOpsTest, FillZerosLikeOnesLike) {
  OpTester f("Fill");
  f.Attr("T", DT_FLOAT).Input(I({2, 2})).Input(Tensor::Scalar<float>(7));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, f.Run());
  ExpectTensorEqual(out[0], F({7, 7, 7, 7}, TensorShape({2, 2})));
  OpTester bad("Fill");
  bad.Attr("T", DT_FLOAT).Input(I({2})).Input(F({1, 2}, TensorShape({2})));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "value must be a scalar, got shape [2]"));
  OpTester z("ZerosLike");
  z.Attr("T", DT_INT32).Input(I({5, 6}));
  RILL_ASSERT_OK_AND_ASSIGN(out, z.Run());
  ExpectTensorEqual(out[0], I({0, 0}));
  OpTester o("OnesLike");
  o.Attr("T", DT_BOOL).Input(Tensor::FromVector<bool>({false, false}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, o.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, true}, TensorShape({2})));
}

TEST(ShapeOpsTest, SnapshotCopiesAndStopGradientForwards) {
  const Tensor in = F({1, 2}, TensorShape({2}));
  OpTester s("Snapshot");
  s.Attr("T", DT_FLOAT).Input(in);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, s.Run());
  ExpectTensorEqual(out[0], in);
  EXPECT_FALSE(out[0].SharesBufferWith(in));
  OpTester g("StopGradient");
  g.Attr("T", DT_FLOAT).Input(in);
  RILL_ASSERT_OK_AND_ASSIGN(out, g.Run());
  EXPECT_TRUE(out[0].SharesBufferWith(in));
}

TEST(ShapeOpsTest, EmptyIsZeroFilled) {
  OpTester t("Empty");
  t.Attr("dtype", DT_FLOAT).Input(Tensor::FromVector<int32_t>({2, 1}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({0, 0}, TensorShape({2, 1})));
  OpTester bad("Empty");
  bad.Attr("dtype", DT_FLOAT).Input(Tensor::Scalar<int32_t>(2));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  "shape must be a vector of int32, got shape []"));
}

TEST(ShapeOpsTest, EnsureShapeForwardsAFittingInput) {
  const Tensor in = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  OpTester ok("EnsureShape");
  ok.Attr("T", DT_FLOAT).ShapeAttr("shape", {-1, 3}).Input(in, "x");
  RILL_ASSERT_OK_AND_ASSIGN(auto out, ok.Run());
  EXPECT_TRUE(out[0].SharesBufferWith(in));
  OpTester any("EnsureShape");
  any.Attr("T", DT_FLOAT).ShapeAttr("shape", {}, /*unknown_rank=*/true).Input(in, "x");
  RILL_EXPECT_OK(any.Run().status());
  OpTester bad("EnsureShape");
  bad.Attr("T", DT_FLOAT).ShapeAttr("shape", {3, -1}).Input(in, "x");
  EXPECT_THAT(bad.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape of tensor x [2,3] is not compatible with expected shape [3,?]."));
}

TEST(ShapeOpsTest, ZerosLikeOnEveryDtype) {
  OpTester s("ZerosLike");
  s.Attr("T", DT_STRING).Input(Tensor::FromVector<std::string>({"a", "b"}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, s.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"", ""}, TensorShape({2})));
  OpTester c("ZerosLike");
  Tensor z(DT_COMPLEX64, TensorShape({1}));
  z.flat<complex64>()[0] = complex64(1, 2);
  c.Attr("T", DT_COMPLEX64).Input(z);
  RILL_ASSERT_OK_AND_ASSIGN(out, c.Run());
  EXPECT_EQ(out[0].flat<complex64>()[0], complex64(0, 0));
  OpTester u("ZerosLike");
  u.Attr("T", DT_UINT64).Input(Tensor::FromVector<uint64_t>({7}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, u.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<uint64_t>({0}, TensorShape({1})));
}

// Issue 26: shapes read from input values are checked (negative, overflow) before they become a
// TensorShape, and a shape too large for memory is the allocator's ResourceExhausted.
Tensor I64(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int64_t>(v, TensorShape({n}));
}

TEST(ShapeOpsTest, ReshapeOverflowingSizesAreInvalidArgument) {
  OpTester t("Reshape");
  t.Attr("T", DT_FLOAT).Attr("Tshape", DT_INT64).Input(F({1, 2, 3, 4, 5, 6}, TensorShape({6})));
  // 3 * 6148914691236517208 wraps to 8 in int64.
  t.Input(I64({-1, 3, 6148914691236517208}));
  EXPECT_THAT(t.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("Input to reshape is a tensor with 6 values, but "
                                            "the requested shape [-1,3,6148914691236517208] "
                                            "has more than 9223372036854775807")));
}

TEST(ShapeOpsTest, FillNegativeOverflowingOrHugeDimsAreErrorsNotCrashes) {
  const auto fill = [](Tensor dims) {
    OpTester t("Fill");
    t.Attr("T", DT_FLOAT).Attr("index_type", DT_INT64).Input(dims);
    t.Input(Tensor::Scalar<float>(7));
    return t.Run();
  };
  EXPECT_THAT(fill(I64({2, -1})), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "dims must be non-negative, got [2,-1]"));
  EXPECT_THAT(fill(I64({int64_t{1} << 62, 4})), StatusIs(absl::StatusCode::kInvalidArgument,
                                                         ::testing::HasSubstr("overflows int64")));
  EXPECT_THAT(fill(I64({int64_t{1} << 59})), StatusIs(absl::StatusCode::kResourceExhausted,
                                                      ::testing::HasSubstr("OOM when allocating")));
}

}  // namespace
}  // namespace rill
