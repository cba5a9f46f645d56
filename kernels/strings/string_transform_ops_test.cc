// Paths the TensorFlow-recorded conformance cases cannot express: case mapping of non-ASCII
// UTF-8 text (TensorFlow maps it with ICU; Rill refuses it rather than answer differently), and one
// RegexReplace / RegexFullMatch kernel run with changing patterns (it keeps the last one's RE2);
// and malformed rewrites, beside their conformance cases.
#include <string>
#include <vector>

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

}  // namespace
}  // namespace rill
