#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor Strings(std::vector<std::string> v) {
  const int64_t n = v.size();
  return Tensor::FromVector<std::string>(std::move(v), TensorShape({n}));
}

// Expected values printed by TensorFlow 2.21 (tf.raw_ops).
TEST(UnsortedSegmentJoinOpTest, JoinsInInputOrderWithoutLeadingSeparators) {
  OpTester t("UnsortedSegmentJoin");
  t.Attr("Tindices", DT_INT32)
      .Attr("Tnumsegments", DT_INT32)
      .Attr("separator", std::string("-"))
      .Input(Strings({"", "a", "", "b"}))
      .Input(Tensor::FromVector<int32_t>({0, 0, 1, 0}, TensorShape({4})))
      .Input(Tensor::Scalar<int32_t>(3));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Strings({"a-b", "", ""}));
}

TEST(UnsortedSegmentJoinOpTest, OutOfRangeIdIsTensorFlowsError) {
  OpTester t("UnsortedSegmentJoin");
  t.Attr("Tindices", DT_INT32)
      .Attr("Tnumsegments", DT_INT32)
      .Input(Strings({"a", "b"}))
      .Input(Tensor::FromVector<int32_t>({0, 2}, TensorShape({2})))
      .Input(Tensor::Scalar<int32_t>(2));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "segment_ids are not allowed to exceed num_segments or to have negative "
                       "values."));
}

absl::StatusOr<std::vector<Tensor>> NGrams(std::vector<int64_t> splits, int64_t width,
                                           int64_t pad_width, bool preserve) {
  OpTester t("StringNGrams");
  AttrValue widths;
  widths.mutable_list()->add_i(width);
  const int64_t n = splits.size();
  t.Attr("Tsplits", DT_INT64)
      .Attr("separator", std::string(" "))
      .Attr("ngram_widths", widths)
      .Attr("left_pad", std::string("<"))
      .Attr("right_pad", std::string(">"))
      .Attr("pad_width", pad_width)
      .Attr("preserve_short_sequences", preserve)
      .Input(Strings({"a", "b", "c", "d", "e"}))
      .Input(Tensor::FromVector<int64_t>(std::move(splits), TensorShape({n})));
  return t.Run();
}

TEST(StringNGramsOpTest, PaddedAndPreservedShortRows) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, NGrams({0, 1, 5}, 4, 1, true));
  ExpectTensorEqual(out[0], Strings({"< a >", "< b c d", "b c d e", "c d e >"}));
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({0, 1, 4}, TensorShape({3})));
}

TEST(StringNGramsOpTest, BadSplitsAreTensorFlowsError) {
  EXPECT_THAT(NGrams({0, 3, 4}, 2, 0, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Last split value must be data size. Expected 5, got 4"));
}

absl::StatusOr<std::vector<Tensor>> HugeNGrams(int64_t width, int64_t pad_width, bool preserve) {
  OpTester t("StringNGrams");
  AttrValue widths;
  widths.mutable_list()->add_i(width);
  t.Attr("Tsplits", DT_INT64)
      .Attr("separator", std::string(" "))
      .Attr("ngram_widths", widths)
      .Attr("left_pad", std::string("L"))
      .Attr("right_pad", std::string("R"))
      .Attr("pad_width", pad_width)
      .Attr("preserve_short_sequences", preserve)
      .Input(Strings({"a", "b"}))
      .Input(Tensor::FromVector<int64_t>({0, 2}, TensorShape({2})));
  return t.Run();
}

// Widths and pad widths near 2^31 and 2^63 ask for n-grams past any memory: ResourceExhausted
// before anything is built (the strings were built until std::bad_alloc aborted the process).
TEST(StringNGramsOpTest, HugeWidthsAndPadsAreResourceExhausted) {
  EXPECT_THAT(HugeNGrams(2147483647, 2147483647, false).status(),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       testing::HasSubstr("OOM when allocating StringNGrams's output")));
  EXPECT_THAT(HugeNGrams(9223372036854775807, -1, false).status(),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       testing::HasSubstr("OOM when allocating StringNGrams's output")));
  // A row too short for any n-gram, preserved as one n-gram padded by 2^62 - 2 on each side.
  EXPECT_THAT(HugeNGrams(9223372036854775807, 4611686018427387902, true).status(),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       testing::HasSubstr("1 n-grams taking more than 2^64 bytes")));
  EXPECT_THAT(HugeNGrams(2000000000, 2000000000, false).status(),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       testing::HasSubstr("OOM when allocating StringNGrams's output")));
}

// Wide n-grams that fit still come out as TensorFlow 2.21 makes them.
TEST(StringNGramsOpTest, WidePaddedNgramsAreBuilt) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, HugeNGrams(4, 3, false));
  ExpectTensorEqual(out[0], Strings({"L L L a", "L L a b", "L a b R", "a b R R", "b R R R"}));
  RILL_ASSERT_OK_AND_ASSIGN(out, HugeNGrams(7, 2, true));
  ExpectTensorEqual(out[0], Strings({"L L a b R R"}));
}

}  // namespace
}  // namespace rill
