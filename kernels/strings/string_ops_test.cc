#include <string>
#include <vector>

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

}  // namespace
}  // namespace rill
