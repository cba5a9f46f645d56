#include "core/registration_errors.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(RegistrationErrorsTest, ACollectorKeepsTheFirstErrorInsteadOfAborting) {
  RegistrationErrorCollector collector;
  EXPECT_THAT(collector.status(), IsOk());
  ReportRegistrationError(absl::AlreadyExistsError("Op 'Foo' is already registered"), "op");
  ReportRegistrationError(absl::InvalidArgumentError("second"), "kernel");
  EXPECT_THAT(collector.status(),
              StatusIs(absl::StatusCode::kAlreadyExists, "Op 'Foo' is already registered"));
}

TEST(RegistrationErrorsTest, WithoutACollectorAnErrorEndsTheProcessNamingIt) {
  EXPECT_DEATH(ReportRegistrationError(absl::InvalidArgumentError("bad spec 'x: flaot'"), "op"),
               "Fatal op registration error: INVALID_ARGUMENT: bad spec 'x: flaot'");
}

TEST(RegistrationErrorsTest, CollectorsFollowOneAnother) {
  { RegistrationErrorCollector first; }
  RegistrationErrorCollector second;
  EXPECT_THAT(second.status(), IsOk());
}

}  // namespace
}  // namespace rill
