#include <cmath>
#include <limits>
#include <vector>

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

TEST(TopKOpTest, LargestFirstTiesByLowerIndex) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT).Input(F({1, 3, 3, 2, 9, 8, 7, 9}, TensorShape({2, 4})));
  t.Input(Tensor::Scalar<int32_t>(2));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 3, 9, 9}, TensorShape({2, 2})));
  ExpectTensorEqual(out[1], I32({1, 2, 0, 3}, TensorShape({2, 2})));
}

// TopK (TF1 graphs before GraphDef version 7) takes k as an attr and selects as TopKV2 does.
// TensorFlow 2.21 registers its kernel under a constraint the op cannot meet, so no case is
// recorded for it; this is its test.
TEST(TopKOpTest, TopKWithKAttrSelectsAsTopKV2) {
  OpTester t("TopK");
  t.Attr("T", DT_FLOAT)
      .Attr("k", int64_t{3})
      .Input(F({1, 3, 3, 2, 9, 8, 7, 9}, TensorShape({2, 4})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 3, 2, 9, 9, 8}, TensorShape({2, 3})));
  ExpectTensorEqual(out[1], I32({1, 2, 3, 0, 3, 1}, TensorShape({2, 3})));
  OpTester too_many("TopK");
  too_many.Attr("T", DT_FLOAT).Attr("k", int64_t{5}).Input(F({1, 2}, TensorShape({2})));
  EXPECT_THAT(too_many.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("input must have at least k columns. Had 2, needed 5")));
}

// Values equal `want` element for element, NaN where `want` has NaN.
void ExpectValuesWithNaN(const Tensor& got, const std::vector<float>& want) {
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const float g = got.flat<float>()[i];
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i << ": " << g;
    } else {
      EXPECT_EQ(g, want[i]) << "element " << i;
    }
  }
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// TensorFlow 2.21's results (tf.math.top_k on its CPU kernel): NaN compares as neither greater
// nor less, and lands where TensorFlow's sort puts it.
TEST(TopKOpTest, WholeRowWithNaNIsTensorFlowsOrder) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT)
      .Input(F({0.3f, -1, kNaN, 2, 0.5f, -0.2f, 1, 0.1f, kNaN, 1, kNaN, -kInf, 1, 0, kInf, kNaN},
               TensorShape({2, 8})));
  t.Input(Tensor::Scalar<int32_t>(8));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[1],
                    I32({3, 0, 1, 2, 6, 4, 7, 5, 0, 1, 2, 6, 4, 5, 3, 7}, TensorShape({2, 8})));
  ExpectValuesWithNaN(
      out[0], {2, 0.3f, -1, kNaN, 1, 0.5f, 0.1f, -0.2f, kNaN, 1, kNaN, kInf, 1, 0, -kInf, kNaN});
}

TEST(TopKOpTest, PartOfRowWithNaNIsTensorFlowsOrder) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT)
      .Input(F({-3, -1, kInf, -3, kNaN, 4, -2, 1, 2, -5, -2, -2, kNaN, kInf, 1, 0},
               TensorShape({16})));
  t.Input(Tensor::Scalar<int32_t>(5));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[1], I32({2, 13, 1, 3, 4}, TensorShape({5})));
  ExpectValuesWithNaN(out[0], {kInf, kInf, -1, -3, kNaN});

  OpTester u("TopKV2");
  u.Attr("T", DT_FLOAT)
      .Input(F({0.3f, -1, 2, 0.5f, kNaN, -0.2f, 1, 0.1f, 3, 4, 5, 6}, TensorShape({12})));
  u.Input(Tensor::Scalar<int32_t>(4));
  RILL_ASSERT_OK_AND_ASSIGN(auto out4, u.Run());
  ExpectTensorEqual(out4[1], I32({11, 10, 9, 8}, TensorShape({4})));
}

// k near half the columns, every third element NaN (TensorFlow 2.21's indices): the bounded
// heap's replacements decide where NaN lands.
TEST(TopKOpTest, HalfOfRowWithManyNaNIsTensorFlowsOrder) {
  struct Case {
    int64_t cols, k;
    std::vector<int32_t> indices;
  };
  const std::vector<Case> cases = {
      {33, 16, {1, 4, 11, 5, 15, 9, 3, 7, 14, 8, 2, 12, 13, 6, 0, 10}},
      {64, 30, {1,  4,  7,  11, 5,  27, 15, 9,  26, 3,  14, 8,  2, 10, 13,
                16, 19, 21, 32, 20, 28, 30, 24, 18, 25, 12, 29, 6, 17, 22}}};
  for (const Case& c : cases) {
    std::vector<float> row(c.cols);
    for (int64_t i = 0; i < c.cols; ++i) {
      row[i] = i % 3 == 1 ? kNaN : static_cast<float>((i * 37) % 17 - 8);
    }
    OpTester t("TopKV2");
    t.Attr("T", DT_FLOAT).Input(F(row, TensorShape({c.cols})));
    t.Input(Tensor::Scalar<int32_t>(static_cast<int32_t>(c.k)));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[1], I32(c.indices, TensorShape({c.k})));
  }
}

// k == 1 (TensorFlow 2.21's results): its Eigen maximum skips NaN inside whole 8-float vectors
// and keeps a NaN left last in the tail, whose index is then 0.
TEST(TopKOpTest, TopOneWithNaNIsTensorFlows) {
  struct Case {
    std::vector<float> row;
    int32_t index;
  };
  const std::vector<Case> cases = {
      {{1, -1, 4, kNaN, 0}, 4},                                      // the 0 drops the NaN
      {{0, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, kNaN}, 0},      // NaN last in the tail
      {{kNaN, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f}, 7},         // NaN in a vector
      {{0.3f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, kNaN, 0.1f}, 6}};  // the same, then a tail
  for (const Case& c : cases) {
    OpTester t("TopKV2");
    const int64_t n = static_cast<int64_t>(c.row.size());
    t.Attr("T", DT_FLOAT).Input(F(c.row, TensorShape({n}))).Input(Tensor::Scalar<int32_t>(1));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[1], I32({c.index}, TensorShape({1})));
    EXPECT_EQ(out[0].flat<float>()[0], c.row[c.index]);
  }
}

TEST(TopKOpTest, KTooLargeIsTensorFlowsError) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT).Input(F({1, 2, 3}, TensorShape({3}))).Input(Tensor::Scalar<int32_t>(4));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("input must have at least k columns. Had 3, needed 4")));
}

}  // namespace
}  // namespace rill
