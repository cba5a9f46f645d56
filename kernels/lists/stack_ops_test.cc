#include <string>
#include <vector>

#include "core/resource_mgr.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

class StackTest : public ::testing::Test {
 protected:
  Tensor NewStack(int max_size) {
    OpTester t("StackV2");
    t.Attr("elem_type", DT_FLOAT).Attr("stack_name", "s").Input(Tensor::Scalar<int32_t>(max_size));
    t.SetStepResources(&step_);
    absl::StatusOr<std::vector<Tensor>> out = t.Run();
    EXPECT_THAT(out.status(), IsOk());
    return (*out)[0];
  }
  absl::Status Push(const Tensor& h, float v) {
    OpTester t("StackPushV2");
    t.Attr("T", DT_FLOAT).Input(h).Input(Tensor::Scalar<float>(v));
    t.SetStepResources(&step_);
    return t.Run().status();
  }
  absl::StatusOr<float> Pop(const Tensor& h) {
    OpTester t("StackPopV2");
    t.Attr("elem_type", DT_FLOAT).Input(h);
    t.SetStepResources(&step_);
    absl::StatusOr<std::vector<Tensor>> out = t.Run();
    if (!out.ok()) return out.status();
    return (*out)[0].flat<float>()[0];
  }
  ResourceMgr step_;
};

TEST_F(StackTest, LastInFirstOutThenEmpty) {
  Tensor h = NewStack(-1);
  ASSERT_THAT(Push(h, 1), IsOk());
  ASSERT_THAT(Push(h, 2), IsOk());
  EXPECT_THAT(Pop(h), IsOkAndHolds(2.f));
  EXPECT_THAT(Pop(h), IsOkAndHolds(1.f));
  absl::Status empty = Pop(h).status();
  EXPECT_EQ(empty.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(empty.message()),
              MatchesRegex("Stack\\[s_[0-9]+\\] is empty when calling Pop\\(\\)\\."));
}

TEST_F(StackTest, MaxSizeIsEnforced) {
  Tensor h = NewStack(1);
  ASSERT_THAT(Push(h, 1), IsOk());
  EXPECT_THAT(Push(h, 2), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("overflowed its max_size (1)")));
}

TEST_F(StackTest, CloseChecksTheHandle) {
  Tensor h = NewStack(-1);
  OpTester close("StackCloseV2");
  close.Input(h);
  close.SetStepResources(&step_);
  EXPECT_THAT(close.Run().status(), IsOk());
}

}  // namespace
}  // namespace rill
