// RaggedGather and RaggedRange on inputs where TensorFlow's kernels abort or read past their
// inputs: Rill fails with an InvalidArgument instead. Values and TensorFlow's own error texts
// are covered by the recorded cases (tests/conformance/data/RaggedGather.pbtxt.gz,
// RaggedRange.pbtxt.gz, RaggedTensorToSparse.pbtxt.gz).
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Vec64(std::vector<int64_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int64_t>(v, TensorShape({n}));
}

void ExpectInvalid(const absl::StatusOr<std::vector<Tensor>>& out, const char* phrase) {
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr(phrase));
}

OpTester& Gather(OpTester& t, int params_rank, int output_rank) {
  return t.Attr("Tvalues", DT_FLOAT)
      .Attr("Tindices", DT_INT64)
      .Attr("Tsplits", DT_INT64)
      .Attr("PARAMS_RAGGED_RANK", int64_t{params_rank})
      .Attr("OUTPUT_RAGGED_RANK", int64_t{output_rank});
}

TEST(RaggedGatherTest, OutputRaggedRankThatDisagreesWithIndicesIsAnError) {
  // TensorFlow 2.21 aborts: "Check failed: dtype() == expected_dtype".
  OpTester t("RaggedGather");
  Gather(t, 1, 2);
  t.Input(Vec64({0, 2, 5}));
  t.Input(Tensor::FromVector<float>({1, 2, 3, 4, 5}, TensorShape({5})));
  t.Input(Vec64({1}));
  ExpectInvalid(t.Run(), "OUTPUT_RAGGED_RANK (2) must be PARAMS_RAGGED_RANK (1)");
}

TEST(RaggedGatherTest, OuterSplitsPastTheInnerRowsAreAnError) {
  // TensorFlow 2.21 reads past the inner splits and returns garbage values.
  OpTester t("RaggedGather");
  Gather(t, 2, 2);
  t.Input(Vec64({0, 2, 3}));  // ends at inner row 3...
  t.Input(Vec64({0, 1, 3}));  // ...of inner splits that have 2 rows
  t.Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})));
  t.Input(Vec64({1}));
  ExpectInvalid(t.Run(), "Ragged splits must not point past values");
}

TEST(RaggedGatherTest, ScalarIndexGathersOneRow) {
  OpTester t("RaggedGather");
  Gather(t, 1, 0);
  t.Input(Vec64({0, 2, 5}));
  t.Input(Tensor::FromVector<float>({1, 2, 3, 4, 5}, TensorShape({5})));
  t.Input(Tensor::Scalar<int64_t>(1));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out.size(), 1u);
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({3, 4, 5}, TensorShape({3})));
}

TEST(RaggedRangeTest, TotalPastInt32SplitsIsAnError) {
  OpTester t("RaggedRange");
  t.Attr("T", DT_INT64).Attr("Tsplits", DT_INT32);
  t.Input(Vec64({0, 0}));
  t.Input(Vec64({std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max()}));
  t.Input(Tensor::Scalar<int64_t>(1));
  ExpectInvalid(t.Run(), "total number of values exceeds 2147483647");
}

TEST(RaggedRangeTest, IntegerRowEndingAtTheTypeLimitDoesNotOverflow) {
  OpTester t("RaggedRange");
  t.Attr("T", DT_INT32).Attr("Tsplits", DT_INT64);
  t.Input(Tensor::Scalar<int32_t>(std::numeric_limits<int32_t>::max() - 2));
  t.Input(Tensor::Scalar<int32_t>(std::numeric_limits<int32_t>::max()));
  t.Input(Tensor::Scalar<int32_t>(1));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Vec64({0, 2}));
  ExpectTensorEqual(out[1], Tensor::FromVector<int32_t>({std::numeric_limits<int32_t>::max() - 2,
                                                         std::numeric_limits<int32_t>::max() - 1},
                                                        TensorShape({2})));
}

}  // namespace
}  // namespace rill
