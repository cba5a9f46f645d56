// RaggedBincount and SparseBincount on inputs where TensorFlow's kernels read or write outside
// their buffers (weights of another length than values, a negative value of a 2-D sparse input):
// Rill refuses them. Values and TensorFlow's own error texts are covered by the recorded cases
// (tests/conformance/data/RaggedBincount.pbtxt.gz, SparseBincount.pbtxt.gz).
#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Empty() { return Tensor(DT_FLOAT, TensorShape({0})); }

TEST(RaggedBincountTest, WeightsOfAnotherLengthAreAnError) {
  OpTester t("RaggedBincount");
  t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT32).Attr("binary_output", false);
  t.Input(Tensor::FromVector<int64_t>({0, 2, 5}, TensorShape({3})));
  t.Input(Tensor::FromVector<int32_t>({1, 1, 3, 0, 7}, TensorShape({5})));
  t.Input(Tensor::Scalar<int32_t>(4));
  t.Input(Tensor::FromVector<float>({1, 2}, TensorShape({2})));
  auto out = t.Run();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(),
              HasSubstr("`weights` must be the same shape as `values` or a length-0 `Tensor`"));
  EXPECT_THAT(out.status().message(), HasSubstr("Received [2] for values of shape [5]"));
}

TEST(RaggedBincountTest, CountsRowsAndDropsValuesPastSize) {
  OpTester t("RaggedBincount");
  t.Attr("T", DT_INT64).Attr("Tidx", DT_INT64).Attr("binary_output", false);
  t.Input(Tensor::FromVector<int64_t>({0, 2, 2, 5}, TensorShape({4})));
  t.Input(Tensor::FromVector<int64_t>({1, 1, 3, 0, 7}, TensorShape({5})));
  t.Input(Tensor::Scalar<int64_t>(4));
  t.Input(Tensor(DT_INT64, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({0, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1},
                                                        TensorShape({3, 4})));
}

TEST(RaggedBincountTest, HugeSizeIsAnErrorNotACrash) {
  OpTester t("RaggedBincount");
  t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT64).Attr("binary_output", false);
  t.Input(Tensor::FromVector<int64_t>({0, 1, 2, 3}, TensorShape({4})));
  t.Input(Tensor::FromVector<int64_t>({1, 1, 1}, TensorShape({3})));
  t.Input(Tensor::Scalar<int64_t>(int64_t{1} << 62));
  t.Input(Empty());
  EXPECT_FALSE(t.Run().ok());
}

OpTester& SparseInputs(OpTester& t, std::vector<int32_t> values, Tensor weights) {
  t.Attr("T", DT_FLOAT).Attr("Tidx", DT_INT32).Attr("binary_output", false);
  t.Input(Tensor::FromVector<int64_t>({0, 0, 1, 2}, TensorShape({2, 2})));
  t.Input(Tensor::FromVector<int32_t>(values, TensorShape({2})));
  t.Input(Tensor::FromVector<int64_t>({3, 4}, TensorShape({2})));
  t.Input(Tensor::Scalar<int32_t>(4));
  t.Input(weights);
  return t;
}

TEST(SparseBincountTest, NegativeValueOfAMatrixIsAnError) {
  OpTester t("SparseBincount");
  auto out = SparseInputs(t, {1, -1}, Empty()).Run();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr("Input arr must be non-negative!"));
}

TEST(SparseBincountTest, WeightsOfAnotherLengthAreAnError) {
  OpTester t("SparseBincount");
  auto out = SparseInputs(t, {1, 2}, Tensor::FromVector<float>({1}, TensorShape({1}))).Run();
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr("Received [1] for values of shape [2]"));
}

TEST(SparseBincountTest, WeightedRows) {
  OpTester t("SparseBincount");
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      SparseInputs(t, {1, 3}, Tensor::FromVector<float>({0.5f, 2}, TensorShape({2}))).Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({0, 0.5f, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0},
                                                      TensorShape({3, 4})));
}

}  // namespace
}  // namespace rill
