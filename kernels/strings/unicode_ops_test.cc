// UnicodeDecodeWithOffsets with int32 row splits (TensorFlow 2.21's kernel aborts the process
// there, so no case is recorded) and an encoding ICU knows that Rill does not decode. Values
// and TensorFlow's error texts are covered by the recorded cases
// (tests/conformance/data/Unicode*.pbtxt.gz).
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

TEST(UnicodeDecodeWithOffsetsTest, Int32SplitsAndInt64Offsets) {
  OpTester t("UnicodeDecodeWithOffsets");
  t.Attr("input_encoding", std::string("UTF-8"))
      .Attr("errors", std::string("replace"))
      .Attr("replacement_char", int64_t{65533})
      .Attr("replace_control_characters", false)
      .Attr("Tsplits", DT_INT32);
  t.Input(Tensor::FromVector<std::string>({"h\xc3\xa9", "", "\xff!"}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 2, 2, 4}, TensorShape({4})));
  ExpectTensorEqual(out[1], Tensor::FromVector<int32_t>({104, 233, 65533, 33}, TensorShape({4})));
  ExpectTensorEqual(out[2], Tensor::FromVector<int64_t>({0, 1, 0, 1}, TensorShape({4})));
}

TEST(UnicodeDecodeTest, EncodingRillDoesNotDecodeIsNamed) {
  OpTester t("UnicodeDecode");
  t.Attr("input_encoding", std::string("Shift_JIS"))
      .Attr("errors", std::string("replace"))
      .Attr("replacement_char", int64_t{65533})
      .Attr("replace_control_characters", false)
      .Attr("Tsplits", DT_INT64);
  t.Input(Tensor::FromVector<std::string>({"a"}, TensorShape({1})));
  absl::Status s = t.Init();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Could not create converter for input encoding: Shift_JIS"));
  EXPECT_THAT(s.message(), HasSubstr("Rill decodes UTF-8, UTF-16BE"));
}

}  // namespace
}  // namespace rill
