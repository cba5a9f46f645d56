#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Strings(std::vector<std::string> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<std::string>(v, TensorShape({n}));
}

TEST(EncodeOpsTest, Base64RoundTripsWebSafeWithOptionalPadding) {
  OpTester enc("EncodeBase64");
  enc.Attr("pad", true).Input(Strings({"", "a", "ab", "abc", "\xff\xfe?>"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto e, enc.Run());
  ExpectTensorEqual(e[0], Strings({"", "YQ==", "YWI=", "YWJj", "__4_Pg=="}));
  OpTester dec("DecodeBase64");
  dec.Input(Strings({"", "YQ", "YWI=", "YWJj", "__4_Pg"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto d, dec.Run());
  ExpectTensorEqual(d[0], Strings({"", "a", "ab", "abc", "\xff\xfe?>"}));
}

TEST(EncodeOpsTest, Base64ErrorsAreTensorFlows) {
  for (const char* bad : {"YQ=", "====", "a+b/", "YQ==YWJj"}) {
    OpTester dec("DecodeBase64");
    dec.Input(Strings({bad}));
    EXPECT_THAT(dec.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("Invalid character found in base64.")))
        << bad;
  }
  OpTester one("DecodeBase64");
  one.Input(Strings({"YWJjY"}));
  EXPECT_THAT(one.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("Base64 string length cannot be 1 modulo 4.")));
}

TEST(EncodeOpsTest, DecodeRawBothEndiannesses) {
  const std::string bytes("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  for (bool little : {true, false}) {
    OpTester t("DecodeRaw");
    t.Attr("out_type", DT_INT32).Attr("little_endian", little).Input(Strings({bytes}));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(
        out[0], little ? Tensor::FromVector<int32_t>({1, 2}, TensorShape({1, 2}))
                       : Tensor::FromVector<int32_t>({16777216, 33554432}, TensorShape({1, 2})));
  }
  OpTester mismatch("DecodeRaw");
  mismatch.Attr("out_type", DT_INT32).Attr("little_endian", true);
  mismatch.Input(Strings({"abcd", "12345678"}));
  EXPECT_THAT(mismatch.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("but element 1 has size 4 != 8")));
  OpTester odd("DecodeRaw");
  odd.Attr("out_type", DT_INT32).Attr("little_endian", true).Input(Strings({"abc"}));
  EXPECT_THAT(odd.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("length 3 that is not a multiple of 4, the size of "
                                            "int32")));
}

}  // namespace
}  // namespace rill
