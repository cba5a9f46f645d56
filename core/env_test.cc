#include "core/env.h"

#include <cstdlib>
#include <limits>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr char kVar[] = "RILL_ENV_TEST_VARIABLE";

class EnvTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv(kVar); }
  void TearDown() override { unsetenv(kVar); }
  void Set(const char* value) { ASSERT_EQ(setenv(kVar, value, /*overwrite=*/1), 0); }
};

TEST_F(EnvTest, BoolUnsetGivesDefault) {
  EXPECT_THAT(ReadBoolFromEnv(kVar, true), IsOkAndHolds(true));
  EXPECT_THAT(ReadBoolFromEnv(kVar, false), IsOkAndHolds(false));
}

TEST_F(EnvTest, BoolAcceptsTrueSpellings) {
  for (const char* v : {"1", "true", "TRUE", "True", "tRuE"}) {
    Set(v);
    EXPECT_THAT(ReadBoolFromEnv(kVar, false), IsOkAndHolds(true)) << v;
  }
}

TEST_F(EnvTest, BoolAcceptsFalseSpellings) {
  for (const char* v : {"0", "false", "FALSE", "False"}) {
    Set(v);
    EXPECT_THAT(ReadBoolFromEnv(kVar, true), IsOkAndHolds(false)) << v;
  }
}

TEST_F(EnvTest, BoolRejectsOtherValuesNamingVariableAndValue) {
  for (const char* v : {"yes", "2", "", " true", "on"}) {
    Set(v);
    EXPECT_THAT(ReadBoolFromEnv(kVar, true),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr(kVar), HasSubstr(std::string("\"") + v + "\""))))
        << v;
  }
}

TEST_F(EnvTest, Int64UnsetGivesDefault) {
  EXPECT_THAT(ReadInt64FromEnv(kVar, 42), IsOkAndHolds(42));
  EXPECT_THAT(ReadInt64FromEnv(kVar, -7), IsOkAndHolds(-7));
}

TEST_F(EnvTest, Int64ParsesValues) {
  Set("123");
  EXPECT_THAT(ReadInt64FromEnv(kVar, 0), IsOkAndHolds(123));
  Set("-5");
  EXPECT_THAT(ReadInt64FromEnv(kVar, 0), IsOkAndHolds(-5));
  Set(" 17 ");
  EXPECT_THAT(ReadInt64FromEnv(kVar, 0), IsOkAndHolds(17));
  Set("9223372036854775807");
  EXPECT_THAT(ReadInt64FromEnv(kVar, 0), IsOkAndHolds(std::numeric_limits<int64_t>::max()));
  Set("-9223372036854775808");
  EXPECT_THAT(ReadInt64FromEnv(kVar, 0), IsOkAndHolds(std::numeric_limits<int64_t>::min()));
}

TEST_F(EnvTest, Int64RejectsMalformedValuesNamingVariableAndValue) {
  for (const char* v : {"", "abc", "12x", "1.5", "9223372036854775808"}) {
    Set(v);
    EXPECT_THAT(ReadInt64FromEnv(kVar, 3),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr(kVar), HasSubstr(std::string("\"") + v + "\""))))
        << v;
  }
}

TEST_F(EnvTest, StringUnsetGivesDefault) {
  EXPECT_EQ(ReadStringFromEnv(kVar, "fallback"), "fallback");
}

TEST_F(EnvTest, StringReturnsValueVerbatimIncludingEmpty) {
  Set(" some value ");
  EXPECT_EQ(ReadStringFromEnv(kVar, "fallback"), " some value ");
  Set("");
  EXPECT_EQ(ReadStringFromEnv(kVar, "fallback"), "");
}

}  // namespace
}  // namespace rill
