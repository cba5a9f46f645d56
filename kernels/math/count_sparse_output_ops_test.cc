// Dense/Sparse/RaggedCountSparseOutput: counts, weights, binary output, maxlength and minlength,
// the 1-D forms and TensorFlow 2.21's first error for inputs with several faults. Every dtype and
// the other texts are in the recorded cases
// (tests/conformance/data/{Dense,Sparse,Ragged}CountSparseOutput.pbtxt.gz).
#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor I64(std::vector<int64_t> v, TensorShape shape) {
  return Tensor::FromVector<int64_t>(v, std::move(shape));
}
Tensor I32(std::vector<int32_t> v, TensorShape shape) {
  return Tensor::FromVector<int32_t>(v, std::move(shape));
}
Tensor F32(std::vector<float> v, TensorShape shape) {
  return Tensor::FromVector<float>(v, std::move(shape));
}

void Attrs(OpTester& t, DataType out, bool binary, int64_t minlength = -1, int64_t maxlength = -1) {
  t.Attr("T", DT_INT32)
      .Attr("output_type", out)
      .Attr("binary_output", binary)
      .Attr("minlength", minlength)
      .Attr("maxlength", maxlength);
}

TEST(DenseCountSparseOutputTest, CountsPerRowWithinMaxlength) {
  OpTester t("DenseCountSparseOutput");
  Attrs(t, DT_FLOAT, false, -1, 5);
  t.Input(I32({1, 2, 2, 7, 4, 0}, TensorShape({2, 3}))).Input(F32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], I64({0, 1, 0, 2, 1, 0, 1, 4}, TensorShape({4, 2})));
  ExpectTensorEqual(out[1], F32({1, 2, 1, 1}, TensorShape({4})));
  ExpectTensorEqual(out[2], I64({2, 5}, TensorShape({2})));
}

// maxlength 0 is a limit, as in TensorFlow 2.21: nothing is counted and the size is 0 whatever
// minlength says; -1 is none (size max(largest + 1, minlength)).
TEST(DenseCountSparseOutputTest, MaxlengthZeroCountsNothing) {
  for (int64_t minlength : {-1, 0, 4}) {
    SCOPED_TRACE(minlength);
    OpTester t("DenseCountSparseOutput");
    Attrs(t, DT_FLOAT, false, minlength, 0);
    t.Input(I32({1, 2, 3, 0, 5, 1}, TensorShape({2, 3}))).Input(F32({}, TensorShape({0})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[0], I64({}, TensorShape({0, 2})));
    ExpectTensorEqual(out[1], F32({}, TensorShape({0})));
    ExpectTensorEqual(out[2], I64({2, 0}, TensorShape({2})));
  }
  OpTester none("DenseCountSparseOutput");
  Attrs(none, DT_FLOAT, false, 4, -1);
  none.Input(I32({1, 2, 3, 0, 5, 1}, TensorShape({2, 3}))).Input(F32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto all, none.Run());
  ExpectTensorEqual(all[2], I64({2, 6}, TensorShape({2})));
  OpTester ragged("RaggedCountSparseOutput");
  Attrs(ragged, DT_FLOAT, false, -1, 0);
  ragged.Input(I64({0, 3, 5}, TensorShape({3})))
      .Input(I32({1, 2, 1, 4, 4}, TensorShape({5})))
      .Input(F32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto r, ragged.Run());
  ExpectTensorEqual(r[0], I64({}, TensorShape({0, 2})));
  ExpectTensorEqual(r[2], I64({2, 0}, TensorShape({2})));
}

TEST(DenseCountSparseOutputTest, WeightsSumAndBinaryOutputIsOne) {
  const Tensor values = I32({3, 1, 3}, TensorShape({3}));
  const Tensor weights = F32({0.5f, 2, 0.25f}, TensorShape({3}));
  OpTester t("DenseCountSparseOutput");
  Attrs(t, DT_FLOAT, false, 6);
  t.Input(values).Input(weights);
  RILL_ASSERT_OK_AND_ASSIGN(auto sum, t.Run());
  ExpectTensorEqual(sum[0], I64({1, 3}, TensorShape({2, 1})));
  ExpectTensorEqual(sum[1], F32({2, 0.75f}, TensorShape({2})));
  ExpectTensorEqual(sum[2], I64({6}, TensorShape({1})));
  OpTester b("DenseCountSparseOutput");
  Attrs(b, DT_FLOAT, true);
  b.Input(values).Input(weights);
  RILL_ASSERT_OK_AND_ASSIGN(auto binary, b.Run());
  ExpectTensorEqual(binary[1], F32({1, 1}, TensorShape({2})));
  ExpectTensorEqual(binary[2], I64({4}, TensorShape({1})));
}

// TensorFlow 2.21 checks negative values before the weights' shape.
TEST(DenseCountSparseOutputTest, NegativeValuesBeforeWeights) {
  OpTester t("DenseCountSparseOutput");
  Attrs(t, DT_FLOAT, false);
  t.Input(I32({1, -2}, TensorShape({2}))).Input(F32({1, 2, 3}, TensorShape({3})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("Input values must all be non-negative")));
}

TEST(SparseCountSparseOutputTest, RowsFromTheFirstIndexAndIndexErrors) {
  OpTester t("SparseCountSparseOutput");
  Attrs(t, DT_INT32, false);
  t.Input(I64({0, 0, 0, 1, 2, 0}, TensorShape({3, 2})))
      .Input(I32({4, 4, 1}, TensorShape({3})))
      .Input(I64({3, 2}, TensorShape({2})))
      .Input(I32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], I64({0, 4, 2, 1}, TensorShape({2, 2})));
  ExpectTensorEqual(out[1], I32({2, 1}, TensorShape({2})));
  ExpectTensorEqual(out[2], I64({3, 5}, TensorShape({2})));
  OpTester bad("SparseCountSparseOutput");
  Attrs(bad, DT_INT32, false);
  bad.Input(I64({0, 7}, TensorShape({1, 2})))
      .Input(I32({-4}, TensorShape({1})))
      .Input(I64({3, 2}, TensorShape({2})))
      .Input(I32({}, TensorShape({0})));
  EXPECT_THAT(bad.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid index value at 0: dimension 1 has value 7 which is not "
                                 "in [0, 2) (as given by dense shape Tensor<type: int64 shape: "
                                 "[2] values: 3 2>")));
}

// Splits read as TensorFlow's walk reads them: [0, 6, 5] puts every value in row 0.
TEST(RaggedCountSparseOutputTest, RowsFromTheSplits) {
  OpTester t("RaggedCountSparseOutput");
  Attrs(t, DT_FLOAT, false);
  t.Input(I64({0, 3, 5}, TensorShape({3})))
      .Input(I32({1, 2, 1, 4, 4}, TensorShape({5})))
      .Input(F32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], I64({0, 1, 0, 2, 1, 4}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], F32({2, 1, 2}, TensorShape({3})));
  ExpectTensorEqual(out[2], I64({2, 5}, TensorShape({2})));
  OpTester odd("RaggedCountSparseOutput");
  Attrs(odd, DT_FLOAT, false);
  odd.Input(I64({0, 6, 5}, TensorShape({3})))
      .Input(I32({1, 2, 3, 4, 5}, TensorShape({5})))
      .Input(F32({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto all_row0, odd.Run());
  ExpectTensorEqual(all_row0[0], I64({0, 1, 0, 2, 0, 3, 0, 4, 0, 5}, TensorShape({5, 2})));
  OpTester bad("RaggedCountSparseOutput");
  Attrs(bad, DT_FLOAT, false);
  bad.Input(I64({1, 3, 5}, TensorShape({3})))
      .Input(I32({1, -2, 3, 4, 5}, TensorShape({5})))
      .Input(F32({}, TensorShape({0})));
  EXPECT_THAT(bad.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("Splits must start with 0, not with 1")));
}

}  // namespace
}  // namespace rill
