#include "core/status_macros.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::Status FailIfNegative(int x) {
  if (x < 0) return absl::InvalidArgumentError("negative");
  return absl::OkStatus();
}

absl::StatusOr<int> Half(int x) {
  if (x % 2) return absl::InvalidArgumentError("odd");
  return x / 2;
}

absl::Status UseBoth(int x, int* out) {
  RILL_RETURN_IF_ERROR(FailIfNegative(x));
  RILL_ASSIGN_OR_RETURN(int h, Half(x));
  *out = h;
  return absl::OkStatus();
}

TEST(StatusMacrosTest, ReturnsFirstErrorAndAssignsOnSuccess) {
  int out = 0;
  EXPECT_THAT(UseBoth(-2, &out), StatusIs(absl::StatusCode::kInvalidArgument, "negative"));
  EXPECT_THAT(UseBoth(3, &out), StatusIs(absl::StatusCode::kInvalidArgument, "odd"));
  RILL_EXPECT_OK(UseBoth(8, &out));
  EXPECT_EQ(out, 4);
}

TEST(StatusMacrosTest, AnnotateKeepsCodeAndPrependsContext) {
  EXPECT_THAT(AnnotateStatus(absl::NotFoundError("no x"), "node 'a'"),
              StatusIs(absl::StatusCode::kNotFound, "node 'a': no x"));
  RILL_EXPECT_OK(AnnotateStatus(absl::OkStatus(), "ignored"));
}

TEST(StatusMacrosTest, CodeNamesAreTensorFlows) {
  EXPECT_EQ(StatusCodeName(absl::StatusCode::kInvalidArgument), "InvalidArgument");
  EXPECT_EQ(StatusCodeName(absl::StatusCode::kDeadlineExceeded), "DeadlineExceeded");
  EXPECT_EQ(StatusCodeName(absl::StatusCode::kNotFound), "NotFound");
}

TEST(StatusMatchersTest, StatusIsRejectsWrongCodeOrMessage) {
  absl::Status s = absl::InvalidArgumentError("bad node 'n'");
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'n'")));
  EXPECT_THAT(s, ::testing::Not(StatusIs(absl::StatusCode::kNotFound, HasSubstr("'n'"))));
  EXPECT_THAT(s, ::testing::Not(StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'m'"))));
  EXPECT_THAT(s, ::testing::Not(IsOk()));
}

}  // namespace
}  // namespace rill
