#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// Expected values are TensorFlow 2.21's outputs for the same inputs.

// Log probabilities 0.9 and 0.05 as float: [time 3, batch 1, classes 3], blank = class 2.
// Steps pick class 0, blank, class 0: the best prefix is "0 0" (two 0s separated by a blank).
constexpr float kHi = -0.10536051541566849f;
constexpr float kLo = -2.995732307434082f;
const Tensor kRepeat = Tensor::FromVector<float>({kHi, kLo, kLo, kLo, kLo, kHi, kHi, kLo, kLo},
                                                 TensorShape({3, 1, 3}));

std::vector<Tensor> Decode(const Tensor& inputs, std::vector<int32_t> lengths, int64_t beam_width,
                           int64_t top_paths, bool merge_repeated) {
  OpTester t("CTCBeamSearchDecoder");
  t.Attr("T", DT_FLOAT)
      .Attr("beam_width", beam_width)
      .Attr("top_paths", top_paths)
      .Attr("merge_repeated", merge_repeated)
      .Input(inputs)
      .Input(Tensor::FromVector<int32_t>(lengths, TensorShape({int64_t(lengths.size())})));
  auto out = t.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<Tensor>();
}

TEST(CTCBeamSearchDecoderOpTest, MergeRepeatedMergesTheReturnedSequenceOnly) {
  // The same three prefixes and probabilities either way; merging only shortens "0 0" to "0".
  for (bool merge : {true, false}) {
    SCOPED_TRACE(merge);
    std::vector<Tensor> out = Decode(kRepeat, {3}, 4, 3, merge);
    ASSERT_EQ(out.size(), 10u);
    ExpectTensorEqual(out[3], merge ? Tensor::FromVector<int64_t>({0}, TensorShape({1}))
                                    : Tensor::FromVector<int64_t>({0, 0}, TensorShape({2})));
    ExpectTensorEqual(out[6], merge ? Tensor::FromVector<int64_t>({1, 1}, TensorShape({2}))
                                    : Tensor::FromVector<int64_t>({1, 2}, TensorShape({2})));
    ExpectTensorEqual(out[4], Tensor::FromVector<int64_t>({0}, TensorShape({1})));
    ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({0, 0}, TensorShape({1, 2})));
    ExpectTensorEqual(out[5], Tensor::FromVector<int64_t>({0, 1}, TensorShape({2})));
    ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({0, 0, 0, 1}, TensorShape({2, 2})));
    ExpectTensorEqual(out[9], Tensor::FromVector<float>(
                                  {-0.3160816729068756f, -2.070481777191162f, -3.0496606826782227f},
                                  TensorShape({1, 3})));
  }
}

TEST(CTCBeamSearchDecoderOpTest, EqualScoresComeInTensorFlowsOrder) {
  // Uniform logits: prefixes of one length tie. TensorFlow's beam (a heap once full) gives the
  // 3-step entry "1", "0", "0 1", "1 0", "" and the 2-step entry "0", "1", "", "0 1", "1 0".
  std::vector<Tensor> out =
      Decode(Tensor::FromVector<float>(std::vector<float>(18, 0.f), TensorShape({3, 2, 3})), {3, 2},
             5, 5, true);
  ASSERT_EQ(out.size(), 16u);
  const std::vector<std::vector<int64_t>> values = {{1, 0}, {0, 1}, {0, 1}, {1, 0, 0, 1}, {1, 0}};
  for (int p = 0; p < 5; ++p) {
    SCOPED_TRACE(p);
    ExpectTensorEqual(out[5 + p], Tensor::FromVector<int64_t>(
                                      values[p], TensorShape({int64_t(values[p].size())})));
  }
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({0, 0, 0, 1}, TensorShape({2, 2})));
  ExpectTensorEqual(out[12], Tensor::FromVector<int64_t>({2, 2}, TensorShape({2})));
  ExpectTensorEqual(out[15], Tensor::FromVector<float>(
                                 {-1.504077434539795f, -1.504077434539795f, -1.686398983001709f,
                                  -1.686398983001709f, -3.295836925506592f, -1.0986123085021973f,
                                  -1.0986123085021973f, -2.1972246170043945f, -2.1972246170043945f,
                                  -2.1972246170043945f},
                                 TensorShape({2, 5})));
}

TEST(CTCBeamSearchDecoderOpTest, ZeroLengthDecodesTheEmptySequence) {
  std::vector<Tensor> out = Decode(kRepeat, {0}, 3, 1, true);
  ASSERT_EQ(out.size(), 4u);
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({}, TensorShape({0})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({1, 0}, TensorShape({2})));
  ExpectTensorEqual(out[3], Tensor::FromVector<float>({0.f}, TensorShape({1, 1})));
}

absl::Status RunError(const Tensor& inputs, const Tensor& lengths, int64_t beam_width,
                      int64_t top_paths) {
  OpTester t("CTCBeamSearchDecoder");
  t.Attr("T", DT_FLOAT)
      .Attr("beam_width", beam_width)
      .Attr("top_paths", top_paths)
      .Input(inputs)
      .Input(lengths);
  return t.Run().status();
}

TEST(CTCBeamSearchDecoderOpTest, ErrorsAreTensorFlows) {
  const Tensor three = Tensor::FromVector<int32_t>({3}, TensorShape({1}));
  EXPECT_THAT(RunError(kRepeat, three, 2, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("requested more paths than the beam width.")));
  // Before any step the beam holds only the empty prefix.
  EXPECT_THAT(RunError(kRepeat, Tensor::FromVector<int32_t>({0}, TensorShape({1})), 3, 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Less leaves in the beam search than requested.")));
  EXPECT_THAT(
      RunError(kRepeat, Tensor::FromVector<int32_t>({4}, TensorShape({1})), 3, 1),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("sequence_length(0) <= 3")));
  EXPECT_THAT(RunError(kRepeat, Tensor::FromVector<int32_t>({3, 3}, TensorShape({2})), 3, 1),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("len(sequence_length) != batch_size.  len(sequence_length):  2 "
                                 "batch_size: 1")));
  EXPECT_THAT(RunError(Tensor::FromVector<float>({}, TensorShape({3, 1, 0})), three, 3, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("inputs must not be empty")));
  EXPECT_THAT(RunError(Tensor::FromVector<float>({0.f, 0.f}, TensorShape({1, 2})), three, 3, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("inputs is not a 3-Tensor")));
  EXPECT_THAT(
      RunError(kRepeat, Tensor::FromVector<int32_t>({3}, TensorShape({1, 1})), 3, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sequence_length is not a vector")));
}

}  // namespace
}  // namespace rill
