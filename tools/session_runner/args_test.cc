#include "tools/session_runner/args.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(ArgsTest, RunsAreSplitByThen) {
  RILL_ASSERT_OK_AND_ASSIGN(
      RunnerArgs a,
      ParseArgs({"session_runner", "--graph=g.pbtxt", "--config=c.pbtxt", "--target=init", "--then",
                 "--feed=x:0=x.npy", "--target=train", "--repeat=200", "--then", "--fetch=w",
                 "--log_device_placement", "--allow_soft_placement"}));
  EXPECT_EQ(a.graph, "g.pbtxt");
  EXPECT_EQ(a.config, "c.pbtxt");
  ASSERT_EQ(a.runs.size(), 3u);
  EXPECT_THAT(a.runs[0].targets, ElementsAre("init"));
  EXPECT_THAT(a.runs[1].feeds, ElementsAre(Pair("x:0", "x.npy")));
  EXPECT_EQ(a.runs[1].repeat, 200);
  EXPECT_THAT(a.runs[2].fetches, ElementsAre("w"));
  EXPECT_TRUE(a.log_device_placement);
  EXPECT_TRUE(a.set_allow_soft_placement);
}

TEST(ArgsTest, BadFlagsNameTheFlag) {
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetc=x"}),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --fetc=x (see --help)"));
  EXPECT_THAT(
      ParseArgs({"r", "--graph=g", "--fetch=x", "--repeat=0"}),
      StatusIs(absl::StatusCode::kInvalidArgument, "--repeat needs a positive integer, got '0'"));
  EXPECT_THAT(ParseArgs({"r", "--fetch=x"}), StatusIs(absl::StatusCode::kInvalidArgument,
                                                      "--graph=FILE is required (see --help)"));
  EXPECT_THAT(
      ParseArgs({"r", "--graph=g", "--feed=x.npy"}),
      StatusIs(absl::StatusCode::kInvalidArgument, "--feed wants NAME[:I]=FILE.npy, got 'x.npy'"));
  // An empty value is a mistake, not "no cluster" or "no TLS": said, not ignored.
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", "--cluster_spec="}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--cluster_spec needs the cluster's tasks (as rill_server's flag), got ''"));
  EXPECT_THAT(
      ParseArgs({"r", "--graph=g", "--fetch=x", "--tls_ca_file="}),
      StatusIs(absl::StatusCode::kInvalidArgument, "--tls_ca_file needs a PEM file, got ''"));
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", "--then", "--repeat=3"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "run 1 has no --fetch or --target; each run needs at least one"));
}

TEST(ArgsTest, BenchmarkRepetitionsFitAnInt) {
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", "--benchmark", "--warmup=1",
                         "--repeat=2147483647"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--repeat=2147483647 with --warmup=1 is more than 2147483647 repetitions"));
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", "--warmup=2147483647", "--benchmark",
                         "--then", "--fetch=y", "--repeat=1"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--repeat=1 with --warmup=2147483647 is more than 2147483647 repetitions"));
  // Without --benchmark the warmup is not run, so only the repeat count counts.
  RILL_EXPECT_OK(ParseArgs({"r", "--graph=g", "--fetch=x", "--warmup=1", "--repeat=2147483647"}));
  RILL_EXPECT_OK(ParseArgs(
      {"r", "--graph=g", "--fetch=x", "--benchmark", "--warmup=1", "--repeat=2147483646"}));
}

TEST(ArgsTest, ListDevicesAloneNeedsNoRun) {
  RILL_ASSERT_OK_AND_ASSIGN(RunnerArgs a, ParseArgs({"r", "--graph=g", "--list_devices"}));
  EXPECT_TRUE(a.runs.empty());
  EXPECT_TRUE(a.list_devices);
}

TEST(ArgsTest, MemoryStatsIsAFlag) {
  RILL_ASSERT_OK_AND_ASSIGN(RunnerArgs a,
                            ParseArgs({"r", "--graph=g", "--memory_stats", "--fetch=y"}));
  EXPECT_TRUE(a.memory_stats);
  RILL_ASSERT_OK_AND_ASSIGN(a, ParseArgs({"r", "--graph=g", "--fetch=y"}));
  EXPECT_FALSE(a.memory_stats);
}

TEST(ArgsTest, SavedModelRunsMayFetchNothingAndCheckpointsNeedAGraph) {
  RILL_ASSERT_OK_AND_ASSIGN(RunnerArgs a, ParseArgs({"r", "--saved_model_dir=m",
                                                     "--signature_def=predict", "--feed=x=x.npy"}));
  EXPECT_EQ(a.saved_model_dir, "m");
  EXPECT_EQ(a.signature_def, "predict");
  ASSERT_EQ(a.runs.size(), 1u);
  EXPECT_TRUE(a.runs[0].fetches.empty());
  EXPECT_THAT(ParseArgs({"r", "--saved_model_dir=m", "--checkpoint=c"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--checkpoint and --save_checkpoint go with --graph")));
  EXPECT_THAT(ParseArgs({"r", "--saved_model_dir=m", "--graph=g"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--graph and --saved_model_dir exclude each other"));
}

TEST(ArgsTest, ControlInputFetchesSuggestTarget) {
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=^bad"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--fetch=^bad: a fetch cannot be a control input '^bad'; to run node "
                       "'bad' without fetching a value use --target=bad"));
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch="}),
              StatusIs(absl::StatusCode::kInvalidArgument, "--fetch needs a tensor name, got ''"));
}

TEST(ArgsTest, BadNumbersAreErrorsNotExceptions) {
  for (const char* bad : {"--repeat=99999999999999999999", "--repeat=-1", "--repeat=",
                          "--repeat=1x", "--warmup=-5", "--warmup=1e3", "--warmup=0x10"}) {
    EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", bad}),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("got '")))
        << bad;
  }
  EXPECT_THAT(ParseArgs({"r", "--graph=g", "--fetch=x", "--repeat=99999999999999999999"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--repeat needs a positive integer, got '99999999999999999999'"));
}

}  // namespace
}  // namespace rill
