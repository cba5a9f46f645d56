#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Assert(bool cond, int64_t summarize) {
  OpTester t("Assert");
  t.Attr("T", std::vector<DataType>{DT_STRING, DT_INT32}).Attr("summarize", summarize);
  t.Input(Tensor::Scalar<bool>(cond)).Input(Tensor::Scalar<std::string>("x is"));
  t.Input(Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({4})));
  return t.Run();
}

TEST(AssertOpTest, PassesOrReportsTheSummarizedData) {
  RILL_EXPECT_OK(Assert(true, 3).status());
  EXPECT_THAT(Assert(false, 2), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("assertion failed: [x is] [1 2...]")));
}

}  // namespace
}  // namespace rill
