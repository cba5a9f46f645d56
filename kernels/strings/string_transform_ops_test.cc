// Paths the TensorFlow-recorded conformance cases cannot express: case mapping of non-ASCII
// UTF-8 text (TensorFlow maps it with ICU; Rill refuses it rather than answer differently), and one
// RegexReplace / RegexFullMatch kernel run with changing patterns (it keeps the last one's RE2);
// and malformed rewrites, beside their conformance cases.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(StringTransformOpsTest, Utf8CaseMappingOfNonAsciiIsUnimplemented) {
  OpTester t("StringUpper");
  t.Attr("encoding", "utf-8");
  t.Input(Tensor::FromVector<std::string>({"ok", "h\xc3\xa9"}, TensorShape({2})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("non-ASCII")));
}

TEST(StringTransformOpsTest, Utf8CaseMappingOfAsciiWorks) {
  OpTester t("StringLower");
  t.Attr("encoding", "utf-8");
  t.Input(Tensor::FromVector<std::string>({"AbC"}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"abc"}, TensorShape({1})));
}

Tensor Scalar(const std::string& s) {
  return Tensor::FromVector<std::string>({s}, TensorShape({}));
}

TEST(StringTransformOpsTest, OneRegexReplaceKernelFollowsItsPatternInput) {
  OpTester t("RegexReplace");
  t.Attr("replace_global", true);
  t.Input(Tensor::FromVector<std::string>({"aab", "bba"}, TensorShape({2})))
      .Input(Scalar("a+"))
      .Input(Scalar("x"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"xb", "bbx"}, TensorShape({2})));
  t.SetInput(1, TensorValue(Scalar("b"), nullptr, nullptr));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"aax", "xxa"}, TensorShape({2})));
  t.SetInput(1, TensorValue(Scalar("("), nullptr, nullptr));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Invalid pattern: (")));
  t.SetInput(1, TensorValue(Scalar("a+"), nullptr, nullptr));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<std::string>({"xb", "bbx"}, TensorShape({2})));
}

// A malformed rewrite is no error (TensorFlow 2.21 calls RE2 without checking it); the strings
// are TensorFlow's.
TEST(StringTransformOpsTest, MalformedRewritesGiveRe2sResult) {
  struct Case {
    const char* pattern;
    const char* rewrite;
    bool global;
    std::vector<std::string> want;
  };
  for (const Case& c : std::vector<Case>{{"(b)", "<\\9>", true, {"abc", "xyz", "abcb"}},
                                         {"(b)", "<\\9>", false, {"abc", "xyz", "abcb"}},
                                         {"b", "\\1", true, {"abc", "xyz", "abcb"}},
                                         {"(b)", "x\\", true, {"axc", "xyz", "axcx"}},
                                         {"(b)", "x\\", false, {"abc", "xyz", "abcb"}},
                                         {"(b)", "\\a", true, {"ac", "xyz", "ac"}},
                                         {"(b)", "\\\\", false, {"a\\c", "xyz", "a\\cb"}}}) {
    for (const char* op : {"StaticRegexReplace", "RegexReplace"}) {
      OpTester t(op);
      t.Attr("replace_global", c.global);
      t.Input(Tensor::FromVector<std::string>({"abc", "xyz", "abcb"}, TensorShape({3})));
      if (std::string(op) == "RegexReplace") {
        t.Input(Scalar(c.pattern)).Input(Scalar(c.rewrite));
      } else {
        t.Attr("pattern", c.pattern).Attr("rewrite", c.rewrite);
      }
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], Tensor::FromVector<std::string>(c.want, TensorShape({3})));
    }
  }
}

TEST(StringTransformOpsTest, OneRegexFullMatchKernelFollowsItsPatternInput) {
  OpTester t("RegexFullMatch");
  t.Input(Tensor::FromVector<std::string>({"aa", "ab"}, TensorShape({2}))).Input(Scalar("a+"));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, false}, TensorShape({2})));
  t.SetInput(1, TensorValue(Scalar("a.*b"), nullptr, nullptr));
  RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({false, true}, TensorShape({2})));
}

TEST(SubstrOpTest, Utf8CharUnitsFollowTensorFlow) {
  // TensorFlow 2.21's outputs ("!" an InvalidArgument "pos P out of range for string at index 0")
  // for "héllo", "€", "" and a malformed "\x82\xac" "b" (a leading continuation run is one
  // character, as TensorFlow steps): a negative len takes nothing from pos >= 0 and is an error
  // from pos < 0 (-1 and -2^31 included, whose -pos - len overflows int32).
  const std::vector<std::string> strings = {"h\xc3\xa9llo", "\xe2\x82\xac", "",
                                            "\x82\xac"
                                            "b"};
  struct Row {
    int32_t pos, len;
    std::vector<std::string> want;
  };
  const int32_t min = std::numeric_limits<int32_t>::min();
  const int32_t max = std::numeric_limits<int32_t>::max();
  const std::vector<Row> rows = {
      {0, -1, {"", "", "", ""}},
      {1, 2, {"\xc3\xa9l", "", "!", "b"}},
      {2, 100, {"llo", "!", "!", ""}},
      {-2, 1, {"l", "!", "!", "\x82\xac"}},
      {-2,
       5,
       {"lo", "!", "!",
        "\x82\xac"
        "b"}},
      {-1, min, {"!", "!", "!", "!"}},
      {-6, 1, {"!", "!", "!", "!"}},
      {-5, 0, {"", "!", "!", "!"}},
      {5, 1, {"", "!", "!", "!"}},
      {6, 0, {"!", "!", "!", "!"}},
      {-3, -1, {"!", "!", "!", "!"}},
      {0, 0, {"", "", "", ""}},
      {max, 1, {"!", "!", "!", "!"}},
      {min, 1, {"!", "!", "!", "!"}},
  };
  for (const Row& row : rows) {
    for (size_t i = 0; i < strings.size(); ++i) {
      OpTester t("Substr");
      t.Attr("T", DT_INT32).Attr("unit", "UTF8_CHAR");
      t.Input(Tensor::FromVector<std::string>({strings[i]}, TensorShape({1})))
          .Input(Tensor::Scalar<int32_t>(row.pos))
          .Input(Tensor::Scalar<int32_t>(row.len));
      auto out = t.Run();
      SCOPED_TRACE(absl::StrCat("pos ", row.pos, " len ", row.len, " string ", i));
      if (row.want[i] == "!") {
        EXPECT_THAT(out.status(),
                    StatusIs(absl::StatusCode::kInvalidArgument,
                             HasSubstr(absl::StrCat("pos ", row.pos,
                                                    " out of range for string at index 0"))));
      } else {
        ASSERT_TRUE(out.ok()) << out.status();
        ExpectTensorEqual((*out)[0],
                          Tensor::FromVector<std::string>({row.want[i]}, TensorShape({1})));
      }
    }
  }
}

}  // namespace
}  // namespace rill
