#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor S(std::vector<std::string> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<std::string>(v, TensorShape({n}));
}

TEST(StringOpsTest, StringJoinBroadcastsScalars) {
  OpTester t("StringJoin");
  t.Attr("N", int64_t{2}).Attr("separator", ":");
  t.Input(Tensor::Scalar<std::string>("pre")).Input(S({"a", "b"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], S({"pre:a", "pre:b"}));
  OpTester bad("StringJoin");
  bad.Attr("N", int64_t{2}).Input(S({"a"})).Input(S({"b", "c"}));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("Input shapes do not match: [1] vs. [2]")));
}

TEST(StringOpsTest, AsStringUsesPrintfConversions) {
  OpTester f("AsString");
  f.Attr("T", DT_FLOAT).Attr("precision", int64_t{2});
  f.Input(Tensor::FromVector<float>({1.5f, -0.125f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, f.Run());
  ExpectTensorEqual(out[0], S({"1.50", "-0.12"}));
  OpTester i("AsString");
  i.Attr("T", DT_INT32).Attr("width", int64_t{4}).Attr("fill", "0");
  i.Input(Tensor::FromVector<int32_t>({7, -3}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, i.Run());
  ExpectTensorEqual(out[0], S({"0007", "-003"}));
  OpTester bad("AsString");
  bad.Attr("T", DT_INT32).Attr("scientific", true).Input(Tensor::Scalar<int32_t>(1));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("scientific not supported for type int32")));
}

// Issue 26: `fill` never reaches a printf format. Only TensorFlow's flags ' +-0#' are accepted;
// `n` (was "%n5d", a write through a garbage pointer), `s`, `%` and `*` are InvalidArgument.
TEST(StringOpsTest, AsStringRejectsFillOutsideTensorFlowsFlags) {
  for (const char* fill : {"n", "s", "%", "*", "x", "1", "\\"}) {
    for (int64_t width : {int64_t{-1}, int64_t{5}}) {
      OpTester t("AsString");
      t.Attr("T", DT_INT32).Attr("width", width).Attr("fill", fill);
      t.Input(Tensor::FromVector<int32_t>({7}, TensorShape({1})));
      EXPECT_THAT(t.Run(),
                  StatusIs(absl::StatusCode::kInvalidArgument,
                           HasSubstr(absl::StrCat("Fill argument not supported: \"", fill, "\""))))
          << fill;
    }
  }
}

TEST(StringOpsTest, AsStringFillFlagsMatchTensorFlow) {
  struct Case {
    const char* fill;
    int64_t width;
    std::vector<std::string> want;
  };
  for (const Case& c : std::vector<Case>{{" ", 4, {"   7", "  -3"}},
                                         {"+", 4, {"  +7", "  -3"}},
                                         {"-", 4, {"7   ", "-3  "}},
                                         {"0", 4, {"0007", "-003"}},
                                         {"#", 4, {"   7", "  -3"}},
                                         {"+", -1, {"+7", "-3"}},
                                         {" ", -1, {" 7", "-3"}}}) {
    OpTester t("AsString");
    t.Attr("T", DT_INT64).Attr("width", c.width).Attr("fill", c.fill);
    t.Input(Tensor::FromVector<int64_t>({7, -3}, TensorShape({2})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[0], S(c.want));
  }
  OpTester f("AsString");
  f.Attr("T", DT_DOUBLE).Attr("width", int64_t{8}).Attr("precision", int64_t{1}).Attr("fill", "-");
  f.Input(Tensor::FromVector<double>({2.25, -1.0}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, f.Run());
  ExpectTensorEqual(out[0], S({"2.2     ", "-1.0    "}));
}

// TensorFlow 2.21's strings (tf.strings.as_string): "(re,im)", each part formatted and padded
// on its own.
TEST(StringOpsTest, AsStringFormatsComplexAsParenthesizedParts) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<complex64> values = {{1.5f, 2.25f}, {-0.1f, -3e10f}, {NAN, inf}};
  struct Case {
    int64_t width, precision;
    bool scientific, shortest;
    const char* fill;
    std::vector<std::string> want;
  };
  for (const Case& c : std::vector<Case>{
           {-1,
            -1,
            false,
            false,
            "",
            {"(1.500000,2.250000)", "(-0.100000,-30000001024.000000)", "(nan,inf)"}},
           {-1, 2, false, false, "", {"(1.50,2.25)", "(-0.10,-30000001024.00)", "(nan,inf)"}},
           {-1, -1, false, true, "", {"(1.5,2.25)", "(-0.1,-3e+10)", "(nan,inf)"}},
           {15,
            3,
            true,
            false,
            "",
            {"(      1.500e+00,      2.250e+00)", "(     -1.000e-01,     -3.000e+10)",
             "(            nan,            inf)"}},
           {12,
            -1,
            false,
            false,
            "0",
            {"(00001.500000,00002.250000)", "(-0000.100000,-30000001024.000000)",
             "(         nan,         inf)"}},
           {6,
            -1,
            false,
            false,
            " ",
            {"( 1.500000, 2.250000)", "(-0.100000,-30000001024.000000)", "(   nan,   inf)"}}}) {
    for (DataType dtype : {DT_COMPLEX64, DT_COMPLEX128}) {
      OpTester t("AsString");
      t.Attr("T", dtype).Attr("width", c.width).Attr("precision", c.precision);
      t.Attr("scientific", c.scientific).Attr("shortest", c.shortest).Attr("fill", c.fill);
      if (dtype == DT_COMPLEX64) {
        t.Input(Tensor::FromVector<complex64>(values, TensorShape({3})));
      } else {
        t.Input(Tensor::FromVector<complex128>(
            {complex128(values[0]), complex128(values[1]), complex128(values[2])},
            TensorShape({3})));
      }
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], S(c.want));
    }
  }
  OpTester bad("AsString");
  bad.Attr("T", DT_COMPLEX64).Attr("fill", "x");
  bad.Input(Tensor::FromVector<complex64>({{1, 2}}, TensorShape({1})));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("Fill argument not supported: \"x\"")));
}

TEST(StringOpsTest, AsStringWidthAndPrecisionMustFitInt32) {
  OpTester w("AsString");
  w.Attr("T", DT_INT32).Attr("width", int64_t{1} << 32);
  w.Input(Tensor::FromVector<int32_t>({7}, TensorShape({1})));
  EXPECT_THAT(w.Run(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr width has value 4294967296 out of range for an int32")));
  OpTester p("AsString");
  p.Attr("T", DT_FLOAT).Attr("precision", -(int64_t{1} << 40));
  p.Input(Tensor::FromVector<float>({7}, TensorShape({1})));
  EXPECT_THAT(p.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("Attr precision has value -1099511627776 out of range "
                                          "for an int32")));
}

// Issue 26 (found by graph_modes_fuzzer): each result was a std::string sized by `width`, so
// 4096 elements of width 2^31 - 1 (8 TiB) ended in std::bad_alloc; the total is checked first.
TEST(StringOpsTest, AsStringOutputBeyondMemoryIsResourceExhausted) {
  OpTester t("AsString");
  t.Attr("T", DT_INT32).Attr("width", int64_t{2147483647});
  t.Input(Tensor::FromVector<int32_t>(std::vector<int32_t>(4096, 7), TensorShape({4096})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kResourceExhausted,
                                HasSubstr("OOM when allocating AsString's output: 4096 strings of "
                                          "2147483647 bytes (width 2147483647, precision -1)")));
}

TEST(StringOpsTest, AsStringStringsWithoutWidthPassThrough) {
  OpTester t("AsString");
  t.Attr("T", DT_STRING);
  t.Input(Tensor::FromVector<std::string>({std::string("a\0b%n", 5), "%s"}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], S({std::string("a\0b%n", 5), "%s"}));
  OpTester w("AsString");
  w.Attr("T", DT_STRING).Attr("width", int64_t{4});
  w.Input(Tensor::FromVector<std::string>({"%n", "abcdef"}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, w.Run());
  ExpectTensorEqual(out[0], S({"  %n", "abcdef"}));
}

// Issue 26 item 5: regular expressions run in linear time (RE2). With a backtracking engine
// `(a*)*b` on 28 'a's never ended and `(a|b)*` on 20,000 characters overflowed the stack.
TEST(StringOpsTest, StaticRegexFullMatchIsLinearOnPatternsThatBacktrack) {
  const std::string long_ab = std::string(10000, 'a') + std::string(10000, 'b');
  OpTester alternation("StaticRegexFullMatch");
  alternation.Attr("pattern", "(a|b)*").Input(S({long_ab, long_ab + "c"}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, alternation.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, false}, TensorShape({2})));
  OpTester nested("StaticRegexFullMatch");
  nested.Attr("pattern", "(a*)*b")
      .Input(S({std::string(28, 'a'), std::string(100000, 'a'), std::string(28, 'a') + "b"}));
  RILL_ASSERT_OK_AND_ASSIGN(out, nested.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({false, false, true}, TensorShape({3})));
}

TEST(StringOpsTest, StaticRegexFullMatchRejectsPatternsRe2Rejects) {
  OpTester bad("StaticRegexFullMatch");
  bad.Attr("pattern", "a(b").Input(S({"ab"}));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("Invalid pattern: a(b, error: missing )")));
  // Backreferences are not RE2 syntax (TensorFlow refuses them too).
  OpTester backref("StaticRegexFullMatch");
  backref.Attr("pattern", "(a)\\1").Input(S({"aa"}));
  EXPECT_THAT(backref.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("Invalid pattern: (a)\\1, error: invalid escape")));
}

}  // namespace
}  // namespace rill
