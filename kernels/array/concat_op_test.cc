#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Concat(const std::vector<Tensor>& values, int64_t axis) {
  OpTester t("ConcatV2");
  t.Attr("T", values[0].dtype()).Attr("N", static_cast<int64_t>(values.size()));
  t.Attr("Tidx", DT_INT64);
  for (const Tensor& v : values) t.Input(v);
  t.Input(Tensor::Scalar<int64_t>(axis));
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> Pack(const std::vector<Tensor>& values, int64_t axis) {
  OpTester t("Pack");
  t.Attr("T", values[0].dtype()).Attr("N", static_cast<int64_t>(values.size()));
  t.Attr("axis", axis);
  for (const Tensor& v : values) t.Input(v);
  return t.Run();
}

Tensor F(TensorShape s, std::vector<double> v) { return MakeTensor(DT_FLOAT, s, v); }

TEST(ConcatOpTest, ConcatAlongEachAxis) {
  const Tensor a = F(TensorShape({2, 2}), {1, 2, 3, 4});
  const Tensor b = F(TensorShape({2, 1}), {5, 6});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Concat({a, b}, 1));
  ExpectTensorEqual(out[0], F(TensorShape({2, 3}), {1, 2, 5, 3, 4, 6}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Concat({a, b}, -1));
  ExpectTensorEqual(out[0], F(TensorShape({2, 3}), {1, 2, 5, 3, 4, 6}));
  const Tensor c = F(TensorShape({1, 2}), {7, 8});
  RILL_ASSERT_OK_AND_ASSIGN(out, Concat({a, c, F(TensorShape({0, 2}), {})}, 0));
  ExpectTensorEqual(out[0], F(TensorShape({3, 2}), {1, 2, 3, 4, 7, 8}));
}

TEST(ConcatOpTest, ConcatStringsAndComplex) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Concat({Tensor::FromVector<std::string>({"x", "y"}, TensorShape({2})),
              Tensor::FromVector<std::string>({"a string longer than inline"}, TensorShape({1}))},
             0));
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>(
                                {"x", "y", "a string longer than inline"}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Concat({MakeTensor(DT_COMPLEX128, TensorShape({1}), {1}),
                                         MakeTensor(DT_COMPLEX128, TensorShape({1}), {2})},
                                        0));
  ExpectTensorEqual(out[0], MakeTensor(DT_COMPLEX128, TensorShape({2}), {1, 2}));
}

TEST(ConcatOpTest, ConcatErrorsAreTensorFlows) {
  const Tensor a = F(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  EXPECT_THAT(Concat({a, F(TensorShape({2, 2}), {1, 2, 3, 4})}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ConcatOp : Dimension 1 in both shapes must be equal: "
                       "shape[0] = [2,3] vs. "
                       "shape[1] = [2,2]"));
  EXPECT_THAT(Concat({a, a}, 2), StatusIs(absl::StatusCode::kInvalidArgument,
                                          "ConcatOp : Expected concatenating dimensions in the "
                                          "range [-2, 2), but "
                                          "got 2"));
  EXPECT_THAT(Concat({a, F(TensorShape({3}), {1, 2, 3})}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "ConcatOp : Ranks of all input tensors should match: "
                       "shape[0] = [2,3] vs. "
                       "shape[1] = [3]"));
  OpTester t("ConcatV2");
  t.Attr("T", DT_FLOAT).Attr("N", int64_t{2}).Input(a).Input(a);
  t.Input(Tensor::FromVector<int32_t>({0, 1}, TensorShape({2})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                "axis tensor should be a scalar integer, but got shape [2]"));
}

TEST(ConcatOpTest, PackAlongEachAxis) {
  const Tensor a = F(TensorShape({2}), {1, 2});
  const Tensor b = F(TensorShape({2}), {3, 4});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Pack({a, b}, 0));
  ExpectTensorEqual(out[0], F(TensorShape({2, 2}), {1, 2, 3, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Pack({a, b}, -1));
  ExpectTensorEqual(out[0], F(TensorShape({2, 2}), {1, 3, 2, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            Pack({Tensor::Scalar<bool>(true), Tensor::Scalar<bool>(false)}, 0));
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, false}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Pack({a}, 1));
  ExpectTensorEqual(out[0], F(TensorShape({2, 1}), {1, 2}));
  EXPECT_TRUE(out[0].SharesBufferWith(a));
}

TEST(ConcatOpTest, PackErrorsAreTensorFlows) {
  EXPECT_THAT(
      Pack({F(TensorShape({2, 3}), {1, 2, 3, 4, 5, 6}), F(TensorShape({3, 2}), {1, 2, 3, 4, 5, 6})},
           0),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Shapes of all inputs must match: values[0].shape = [2,3] != "
               "values[1].shape = [3,2]"));
  EXPECT_THAT(Pack({F(TensorShape({2}), {1, 2}), F(TensorShape({2}), {1, 2})}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, "axis = 2 not in [-2, 2)"));
}

// Concat (V1): concat_dim, an int32 scalar or `concat_dim_shape`, before the values.
absl::StatusOr<std::vector<Tensor>> ConcatV1(const std::vector<Tensor>& values, int32_t concat_dim,
                                             TensorShape concat_dim_shape = TensorShape({})) {
  OpTester t("Concat");
  t.Attr("T", values[0].dtype()).Attr("N", static_cast<int64_t>(values.size()));
  t.Input(Tensor::FromVector<int32_t>({concat_dim}, concat_dim_shape));
  for (const Tensor& v : values) t.Input(v);
  return t.Run();
}

TEST(ConcatV1OpTest, ConcatDimComesFirst) {
  const Tensor a = F(TensorShape({2, 2}), {1, 2, 3, 4});
  const Tensor b = F(TensorShape({2, 1}), {5, 6});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, ConcatV1({a, b}, 1));
  ExpectTensorEqual(out[0], F(TensorShape({2, 3}), {1, 2, 5, 3, 4, 6}));
  RILL_ASSERT_OK_AND_ASSIGN(out, ConcatV1({a, F(TensorShape({1, 2}), {7, 8})}, -2));
  ExpectTensorEqual(out[0], F(TensorShape({3, 2}), {1, 2, 3, 4, 7, 8}));
}

TEST(ConcatV1OpTest, ErrorsNameConcatDim) {
  const Tensor a = F(TensorShape({2, 2}), {1, 2, 3, 4});
  EXPECT_THAT(ConcatV1({a, a}, 0, TensorShape({1, 1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "concat_dim tensor should be a scalar integer, but got shape [1,1]"));
  EXPECT_THAT(ConcatV1({a, a}, 2), StatusIs(absl::StatusCode::kInvalidArgument,
                                            "ConcatOp : Expected concatenating dimensions in the "
                                            "range [-2, 2), but got 2"));
}

absl::StatusOr<std::vector<Tensor>> ConcatOffset(int32_t dim,
                                                 const std::vector<std::vector<int32_t>>& shapes) {
  OpTester t("ConcatOffset");
  t.Attr("N", static_cast<int64_t>(shapes.size())).Attr("shape_type", DT_INT32);
  t.Input(Tensor::Scalar<int32_t>(dim));
  for (const auto& s : shapes) {
    t.Input(Tensor::FromVector<int32_t>(s, TensorShape({static_cast<int64_t>(s.size())})));
  }
  return t.Run();
}

TEST(ConcatOffsetOpTest, OffsetsAlongTheConcatDim) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, ConcatOffset(1, {{2, 3, 5}, {2, 7, 5}, {2, 1, 5}}));
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 0, 0}, TensorShape({3})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int32_t>({0, 3, 0}, TensorShape({3})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int32_t>({0, 10, 0}, TensorShape({3})));
}

TEST(ConcatOffsetOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(ConcatOffset(-3, {{2, 3}, {2, 3}}),
              StatusIs(absl::StatusCode::kInvalidArgument, "Concat dim is out of range: -3 vs. 2"));
  EXPECT_THAT(ConcatOffset(0, {{2, 3}, {2, 4}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "All dimensions except 0 must match. Input 1 has shape [2 4] and doesn't "
                       "match input 0 with shape [2 3]."));
}

}  // namespace
}  // namespace rill
