#include "tools/session_runner/omp_wait_policy.h"

#include <cstdlib>

#include "gtest/gtest.h"

namespace rill {
namespace {

// A 2-CPU machine, a team of 2, with the given /proc/loadavg runnable counts.
OmpWaitInputs TwoCpus(std::vector<int> runnable) {
  OmpWaitInputs in;
  in.usable_cpus = 2;
  in.team_threads = 2;
  in.runnable = std::move(runnable);
  return in;
}

TEST(OmpWaitPolicyTest, AUsersVariableAlwaysWins) {
  OmpWaitInputs in = TwoCpus({1, 1, 1});
  in.omp_wait_policy = "ACTIVE";
  EXPECT_EQ(ChooseOmpWait(in), OmpWait::kUserSet);
  in.omp_wait_policy = "";  // set, though empty
  EXPECT_EQ(ChooseOmpWait(in), OmpWait::kUserSet);
  in.omp_wait_policy = nullptr;
  in.gomp_spincount = "10000";
  in.rill_omp_wait = "passive";
  EXPECT_EQ(ChooseOmpWait(in), OmpWait::kUserSet);
}

TEST(OmpWaitPolicyTest, RillOmpWaitForcesEitherPolicy) {
  OmpWaitInputs busy = TwoCpus({3, 3, 3});
  busy.rill_omp_wait = "spin";
  EXPECT_EQ(ChooseOmpWait(busy), OmpWait::kSpin);
  busy.rill_omp_wait = "SPIN";
  EXPECT_EQ(ChooseOmpWait(busy), OmpWait::kSpin);
  OmpWaitInputs quiet = TwoCpus({1, 1, 1});
  quiet.rill_omp_wait = "passive";
  EXPECT_EQ(ChooseOmpWait(quiet), OmpWait::kPassive);
  quiet.team_threads = 1;  // forced whatever the team
  quiet.rill_omp_wait = "spin";
  EXPECT_EQ(ChooseOmpWait(quiet), OmpWait::kSpin);
}

TEST(OmpWaitPolicyTest, AutoAndUnknownValuesSample) {
  bool unknown = true;
  OmpWaitInputs quiet = TwoCpus({1, 1, 1});
  EXPECT_EQ(ChooseOmpWait(quiet, &unknown), OmpWait::kSpin);
  EXPECT_FALSE(unknown);
  quiet.rill_omp_wait = "auto";
  EXPECT_EQ(ChooseOmpWait(quiet, &unknown), OmpWait::kSpin);
  EXPECT_FALSE(unknown);
  quiet.rill_omp_wait = "";
  EXPECT_EQ(ChooseOmpWait(quiet, &unknown), OmpWait::kSpin);
  EXPECT_FALSE(unknown);
  quiet.rill_omp_wait = "always";
  EXPECT_EQ(ChooseOmpWait(quiet, &unknown), OmpWait::kSpin);
  EXPECT_TRUE(unknown);
  OmpWaitInputs busy = TwoCpus({2, 2, 2});
  busy.rill_omp_wait = "always";
  EXPECT_EQ(ChooseOmpWait(busy, &unknown), OmpWait::kPassive);
  EXPECT_TRUE(unknown);
}

TEST(OmpWaitPolicyTest, SpinsOnlyWhenTheTeamFitsTheIdleCores) {
  // Only the sampling thread runnable: both cores idle.
  EXPECT_EQ(ChooseOmpWait(TwoCpus({1, 1, 1, 1, 1, 1, 1, 1})), OmpWait::kSpin);
  // One busy loop beside it in every sample: one idle core for a team of two.
  EXPECT_EQ(ChooseOmpWait(TwoCpus({2, 2, 2, 2, 2, 2, 2, 2})), OmpWait::kPassive);
  // A short task seen in one sample of eight (1/8 of a core) fits the slack; in two (1/4), too;
  // in three it does not.
  EXPECT_EQ(ChooseOmpWait(TwoCpus({1, 1, 1, 2, 1, 1, 1, 1})), OmpWait::kSpin);
  EXPECT_EQ(ChooseOmpWait(TwoCpus({1, 2, 1, 2, 1, 1, 1, 1})), OmpWait::kSpin);
  EXPECT_EQ(ChooseOmpWait(TwoCpus({1, 2, 1, 2, 2, 1, 1, 1})), OmpWait::kPassive);
  // A count below one (a sample racing the reader's own switch-out) counts as no other task.
  EXPECT_EQ(ChooseOmpWait(TwoCpus({0, 1, 1, 1})), OmpWait::kSpin);
  // 8 CPUs, a team of 2: up to 6 other runnable tasks leave it room.
  OmpWaitInputs big = TwoCpus({7, 7, 7, 7});
  big.usable_cpus = 8;
  EXPECT_EQ(ChooseOmpWait(big), OmpWait::kSpin);
  big.runnable = {8, 8, 8, 8};
  EXPECT_EQ(ChooseOmpWait(big), OmpWait::kPassive);
  // A team of 8 there needs all of them.
  big.team_threads = 8;
  big.runnable = {1, 1, 1, 1};
  EXPECT_EQ(ChooseOmpWait(big), OmpWait::kSpin);
  big.runnable = {2, 2, 2, 2};
  EXPECT_EQ(ChooseOmpWait(big), OmpWait::kPassive);
}

TEST(OmpWaitPolicyTest, NoTeamMoreThreadsThanCpusOrNoSampleIsPassive) {
  OmpWaitInputs one = TwoCpus({1, 1, 1});
  one.team_threads = 1;
  EXPECT_EQ(ChooseOmpWait(one), OmpWait::kPassive);
  OmpWaitInputs wide = TwoCpus({1, 1, 1});
  wide.team_threads = 3;
  EXPECT_EQ(ChooseOmpWait(wide), OmpWait::kPassive);
  EXPECT_EQ(ChooseOmpWait(TwoCpus({})), OmpWait::kPassive);
}

TEST(OmpWaitPolicyTest, StatShowsRunnableReadsTheStateAfterTheName) {
  EXPECT_TRUE(StatShowsRunnable("1522 (session_runner) R 1 1522 0 0 -1"));
  EXPECT_FALSE(StatShowsRunnable("1523 (session_runner) S 1 1522 0 0 -1"));
  EXPECT_TRUE(StatShowsRunnable("7 (a) S (b)) R 1 7"));  // the last ')' ends the name
  EXPECT_FALSE(StatShowsRunnable("7 (R) S 1 7"));
  EXPECT_FALSE(StatShowsRunnable(""));
  EXPECT_FALSE(StatShowsRunnable("7 (x)"));
}

TEST(OmpWaitPolicyTest, RunnableTasksReadsLoadavgsFourthField) {
  EXPECT_EQ(RunnableTasks("2.04 1.63 1.65 2/229 13002\n"), 2);
  EXPECT_EQ(RunnableTasks("0.00 0.00 0.00 17/1024 1"), 17);
  EXPECT_EQ(RunnableTasks(""), std::nullopt);
  EXPECT_EQ(RunnableTasks("2.04 1.63 1.65"), std::nullopt);
  EXPECT_EQ(RunnableTasks("2.04 1.63 1.65 x/229 13002"), std::nullopt);
  EXPECT_EQ(RunnableTasks("2.04 1.63 1.65 3 13002"), std::nullopt);
}

TEST(OmpWaitPolicyTest, CgroupQuotas) {
  EXPECT_EQ(QuotaFromCpuMax("150000 100000\n"), 1.5);
  EXPECT_EQ(QuotaFromCpuMax("max 100000\n"), std::nullopt);
  EXPECT_EQ(QuotaFromCpuMax(""), std::nullopt);
  EXPECT_EQ(QuotaFromCpuMax("100000 0"), std::nullopt);
  EXPECT_EQ(QuotaFromCfs("-1\n", "100000\n"), std::nullopt);
  EXPECT_EQ(QuotaFromCfs("200000\n", "100000\n"), 2.0);
  EXPECT_EQ(QuotaFromCfs("200000\n", ""), std::nullopt);
}

TEST(OmpWaitPolicyTest, CgroupQuotaFilesFromProcSelfCgroup) {
  EXPECT_EQ(CgroupQuotaFiles("0::/user.slice/app\n"),
            std::vector<std::string>{"/sys/fs/cgroup/user.slice/app/cpu.max"});
  EXPECT_EQ(CgroupQuotaFiles("0::/\n"), std::vector<std::string>{"/sys/fs/cgroup/cpu.max"});
  EXPECT_EQ(CgroupQuotaFiles("4:memory:/a\n2:cpu,cpuacct:/docker/x\n1:name=systemd:/\n0::/\n"),
            (std::vector<std::string>{"/sys/fs/cgroup/cpu,cpuacct/docker/x/cpu.cfs_quota_us",
                                      "/sys/fs/cgroup/cpu.max"}));
  EXPECT_EQ(CgroupQuotaFiles("3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n"),
            std::vector<std::string>{"/sys/fs/cgroup/cpu/cpu.cfs_quota_us"});
  EXPECT_EQ(CgroupQuotaFiles("garbage"), std::vector<std::string>{});
}

TEST(OmpWaitPolicyTest, UsableCpusTakesTheQuotasWholeCpus) {
  EXPECT_EQ(UsableCpus(2, std::nullopt), 2);
  EXPECT_EQ(UsableCpus(8, 1.5), 1);
  EXPECT_EQ(UsableCpus(8, 0.5), 1);
  EXPECT_EQ(UsableCpus(2, 4.0), 2);
  EXPECT_EQ(UsableCpus(0, std::nullopt), 1);
}

// This process's inputs: the variables as set, and samples only when they can matter.
TEST(OmpWaitPolicyTest, ReadsThisProcess) {
  ASSERT_EQ(unsetenv("OMP_WAIT_POLICY"), 0);
  ASSERT_EQ(unsetenv("GOMP_SPINCOUNT"), 0);
  ASSERT_EQ(setenv("RILL_OMP_WAIT", "auto", 1), 0);
  OmpWaitInputs in = ReadOmpWaitInputs(2);
  EXPECT_STREQ(in.rill_omp_wait, "auto");
  EXPECT_GE(in.usable_cpus, 1);
  if (in.usable_cpus >= 2) {
    // All samples, or fewer only when those taken already rule out a spin.
    ASSERT_GE(in.runnable.size(), 1u);
    ASSERT_LE(in.runnable.size(), static_cast<size_t>(kSamples));
    if (in.runnable.size() < static_cast<size_t>(kSamples)) {
      EXPECT_EQ(ChooseOmpWait(in), OmpWait::kPassive);
    }
  } else {
    EXPECT_TRUE(in.runnable.empty());
  }
  EXPECT_TRUE(ReadOmpWaitInputs(1).runnable.empty());
  ASSERT_EQ(setenv("GOMP_SPINCOUNT", "100", 1), 0);
  EXPECT_TRUE(ReadOmpWaitInputs(2).runnable.empty());
  ASSERT_EQ(unsetenv("GOMP_SPINCOUNT"), 0);
  ASSERT_EQ(unsetenv("RILL_OMP_WAIT"), 0);
}

// With a policy set, nothing happens and the call returns (a rerun would end this test).
TEST(OmpWaitPolicyTest, AUsersPolicyIsKept) {
  ASSERT_EQ(setenv("OMP_WAIT_POLICY", "ACTIVE", 1), 0);
  char arg0[] = "omp_wait_policy_test";
  char* argv[] = {arg0, nullptr};
  RerunWithOmpWaitPolicy(2, argv);
  EXPECT_STREQ(std::getenv("OMP_WAIT_POLICY"), "ACTIVE");
  EXPECT_EQ(std::getenv("GOMP_SPINCOUNT"), nullptr);
  ASSERT_EQ(unsetenv("OMP_WAIT_POLICY"), 0);
}

}  // namespace
}  // namespace rill
