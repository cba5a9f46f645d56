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

TEST(UniqueOpTest, FirstAppearanceOrderAndIndices) {
  OpTester t("Unique");
  t.Attr("T", DT_FLOAT).Input(F({3, 1, 3, -0.0f, 0, 1}, TensorShape({6})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 1, -0.0f}, TensorShape({3})));
  ExpectTensorEqual(out[1], I32({0, 1, 0, 2, 2, 1}, TensorShape({6})));
}

TEST(UniqueOpTest, WithCountsCountsEachValue) {
  OpTester t("UniqueWithCounts");
  t.Attr("T", DT_FLOAT).Attr("out_idx", DT_INT64).Input(F({3, 1, 3, 3, 2}, TensorShape({5})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 1, 2}, TensorShape({3})));
  ExpectTensorEqual(out[1], I64({0, 1, 0, 0, 2}, TensorShape({5})));
  ExpectTensorEqual(out[2], I64({3, 1, 1}, TensorShape({3})));
}

TEST(UniqueOpTest, MatrixIsTensorFlowsError) {
  OpTester t("Unique");
  t.Attr("T", DT_FLOAT).Input(F({1, 2}, TensorShape({1, 2})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("unique expects a 1D vector.")));
}

TEST(UniqueV2OpTest, RowsAlongAxisZero) {
  OpTester t("UniqueV2");
  t.Attr("T", DT_FLOAT)
      .Attr("Taxis", DT_INT64)
      .Input(F({1, 2, 3, 0, 1, 2, 3, 1}, TensorShape({4, 2})))
      .Input(I64({0}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({1, 2, 3, 0, 3, 1}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], I32({0, 1, 0, 2}, TensorShape({4})));
}

TEST(UniqueV2OpTest, MiddleAxisOfRank3ComparesWholeSlices) {
  // x[o, k, i]: slices k = 0 and 2 agree in both o; slice 1 differs in o = 1.
  OpTester t("UniqueV2");
  t.Attr("T", DT_FLOAT)
      .Attr("Taxis", DT_INT32)
      .Attr("out_idx", DT_INT64)
      .Input(F({1, 2, 1, 2, 1, 2, 5, 6, 5, 7, 5, 6}, TensorShape({2, 3, 2})))
      .Input(I32({-2}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({1, 2, 1, 2, 5, 6, 5, 7}, TensorShape({2, 2, 2})));
  ExpectTensorEqual(out[1], I64({0, 1, 0}, TensorShape({3})));
}

TEST(UniqueV2OpTest, EmptyAxisIsUniquesOneDimensionalForm) {
  OpTester t("UniqueV2");
  t.Attr("T", DT_FLOAT)
      .Attr("Taxis", DT_INT64)
      .Input(F({3, 1, 3}, TensorShape({3})))
      .Input(I64({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 1}, TensorShape({2})));
  ExpectTensorEqual(out[1], I32({0, 1, 0}, TensorShape({3})));
}

TEST(UniqueV2OpTest, BadAxesAreTensorFlowsErrors) {
  struct Case {
    Tensor x, axis;
    const char* message;
  };
  const std::vector<Case> cases = {
      {F({1, 2}, TensorShape({1, 2})), I64({2}, TensorShape({1})), "axis has to be between [0, 2)"},
      {F({1, 2}, TensorShape({1, 2})), I64({}, TensorShape({0})), "unique expects a 1D vector."},
      {F({1, 2}, TensorShape({1, 2})), I64({0, 1}, TensorShape({2})),
       "axis does not support input tensors larger than 1 elements"},
      {F({1, 2}, TensorShape({1, 2})), I64({0}, TensorShape({})), "axis expects a 1D vector."},
  };
  for (const Case& c : cases) {
    OpTester t("UniqueV2");
    t.Attr("T", DT_FLOAT).Attr("Taxis", DT_INT64).Input(c.x).Input(c.axis);
    EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)));
  }
}

}  // namespace
}  // namespace rill
