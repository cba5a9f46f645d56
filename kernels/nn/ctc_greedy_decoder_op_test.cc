#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

// [time 3, batch 2, classes 3], blank = class 2: batch 0 picks 1, 1, 0; batch 1 picks 2, 0, 0.
const Tensor kInputs = Tensor::FromVector<float>(
    {0.f, 1.f, -1.f, 0.f, 0.f, 3.f, 0.f, 2.f, 0.f, 1.f, 0.f, 0.f, 4.f, 0.f, 0.f, 0.5f, 0.f, 0.f},
    TensorShape({3, 2, 3}));

TEST(CTCGreedyDecoderOpTest, DropsBlanksAndMergesRepeats) {
  OpTester t("CTCGreedyDecoder");
  t.Attr("T", DT_FLOAT)
      .Attr("merge_repeated", true)
      .Input(kInputs)
      .Input(Tensor::FromVector<int32_t>({3, 3}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int64_t>({0, 0, 0, 1, 1, 0}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({1, 0, 0}, TensorShape({3})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({2, 2}, TensorShape({2})));
  ExpectTensorEqual(out[3], Tensor::FromVector<float>({-7.f, -4.5f}, TensorShape({2, 1})));
}

TEST(CTCGreedyDecoderOpTest, WithoutMergingAndShorterSequences) {
  OpTester t("CTCGreedyDecoder");
  t.Attr("T", DT_FLOAT).Input(kInputs).Input(Tensor::FromVector<int32_t>({2, 0}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({1, 1}, TensorShape({2})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({2, 2}, TensorShape({2})));
  ExpectTensorEqual(out[3], Tensor::FromVector<float>({-3.f, 0.f}, TensorShape({2, 1})));
}

TEST(CTCGreedyDecoderOpTest, ErrorsAreTensorFlows) {
  OpTester t("CTCGreedyDecoder");
  t.Attr("T", DT_FLOAT).Input(kInputs).Input(Tensor::FromVector<int32_t>({4, 3}, TensorShape({2})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kFailedPrecondition, "sequence_length(0) <= 3"));
  OpTester u("CTCGreedyDecoder");
  u.Attr("T", DT_FLOAT)
      .Attr("blank_index", int64_t{3})
      .Input(kInputs)
      .Input(Tensor::FromVector<int32_t>({3, 3}, TensorShape({2})));
  EXPECT_THAT(u.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         "blank_index expected to be between -3 and 2 but was 3"));
  // No classes (or no steps, or no batch): nothing to pick a class from.
  for (const TensorShape& shape : {TensorShape({3, 2, 0}), TensorShape({0, 2, 3})}) {
    OpTester e("CTCGreedyDecoder");
    e.Attr("T", DT_FLOAT)
        .Input(Tensor::FromVector<float>({}, shape))
        .Input(Tensor::FromVector<int32_t>({0, 0}, TensorShape({2})));
    EXPECT_THAT(e.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument, "inputs must not be empty"));
  }
}

}  // namespace
}  // namespace rill
