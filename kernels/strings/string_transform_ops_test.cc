// Paths the TensorFlow-recorded conformance cases cannot express: case mapping of non-ASCII
// UTF-8 text (TensorFlow maps it with ICU; Rill refuses it rather than answer differently).
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

}  // namespace
}  // namespace rill
