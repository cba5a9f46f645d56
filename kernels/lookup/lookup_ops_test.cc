#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(LookupOpsTest, TableHandleNamesTheSharedNameOrTheNode) {
  OpTester named("HashTableV2");
  named.Attr("key_dtype", DT_STRING).Attr("value_dtype", DT_INT64).Attr("shared_name", "vocab");
  RILL_ASSERT_OK_AND_ASSIGN(auto a, named.Run());
  EXPECT_EQ(a[0].flat<std::string>()[0], "localhost/vocab");
  OpTester anonymous("MutableHashTableV2");
  anonymous.Attr("key_dtype", DT_INT64).Attr("value_dtype", DT_FLOAT).Attr("container", "c");
  RILL_ASSERT_OK_AND_ASSIGN(auto b, anonymous.Run());
  EXPECT_THAT(b[0].flat<std::string>()[0], ::testing::StartsWith("c/"));
}

TEST(LookupOpsTest, FindOnAHandleNoTableOpMadeIsNotFound) {
  OpTester find("LookupTableFindV2");
  find.Attr("Tin", DT_STRING).Attr("Tout", DT_INT64);
  find.Input(Tensor::FromVector<std::string>({"localhost/missing"}, TensorShape({})));
  find.Input(Tensor::FromVector<std::string>({"a"}, TensorShape({1})));
  find.Input(Tensor::FromVector<int64_t>({-1}, TensorShape({})));
  EXPECT_THAT(find.Run(), StatusIs(absl::StatusCode::kNotFound,
                                   HasSubstr("Resource localhost/missing does not exist.")));
}

}  // namespace
}  // namespace rill
