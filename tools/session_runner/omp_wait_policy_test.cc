#include "tools/session_runner/omp_wait_policy.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(OmpWaitPolicyTest, OnlyAnEnvironmentWithoutAPolicyIsRerun) {
  EXPECT_TRUE(NeedsPassiveWaitPolicy(nullptr, nullptr));
  EXPECT_FALSE(NeedsPassiveWaitPolicy("ACTIVE", nullptr));
  EXPECT_FALSE(NeedsPassiveWaitPolicy("PASSIVE", nullptr));
  EXPECT_FALSE(NeedsPassiveWaitPolicy(nullptr, "10000"));
  EXPECT_FALSE(NeedsPassiveWaitPolicy("", nullptr));
}

// With a policy set, nothing happens and the call returns (a rerun would end this test).
TEST(OmpWaitPolicyTest, AUsersPolicyIsKept) {
  ASSERT_EQ(setenv("OMP_WAIT_POLICY", "ACTIVE", 1), 0);
  char arg0[] = "omp_wait_policy_test";
  char* argv[] = {arg0, nullptr};
  RerunWithPassiveWaitPolicy(argv);
  EXPECT_STREQ(std::getenv("OMP_WAIT_POLICY"), "ACTIVE");
}

}  // namespace
}  // namespace rill
