#include "tools/rill_server/server_flags.h"

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "core/thread_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> With(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--cluster_spec=worker|127.0.0.1:2222", "--job_name=worker",
                                   "--task_id=0"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(ServerFlagsTest, ParsesEveryFlag) {
  RILL_ASSERT_OK_AND_ASSIGN(
      ServerFlags f, ParseServerFlags(With({"--inter_op_threads=1024", "--intra_op_threads=0",
                                            "--tls_ca_file=ca.pem", "--tls_cert_file=s.pem",
                                            "--tls_key_file=s.key", "--same_host_transfer=false",
                                            "--same_host_min_bytes=0", "--task_index=3"})));
  EXPECT_FALSE(f.help);
  EXPECT_EQ(f.cluster_spec, "worker|127.0.0.1:2222");
  EXPECT_EQ(f.job_name, "worker");
  EXPECT_EQ(f.task_id, 3);
  EXPECT_EQ(f.inter_op_threads, 1024);
  EXPECT_EQ(f.intra_op_threads, 0);
  EXPECT_EQ(f.tls_ca_file, "ca.pem");
  EXPECT_EQ(f.tls_cert_file, "s.pem");
  EXPECT_EQ(f.tls_key_file, "s.key");
  EXPECT_FALSE(f.shm.enabled);
  EXPECT_EQ(f.shm.min_bytes, 0);
  RILL_ASSERT_OK_AND_ASSIGN(ServerFlags help, ParseServerFlags({"--help"}));
  EXPECT_TRUE(help.help);
}

// The session configs' limit and text (session/thread_limits.h), naming the flag.
TEST(ServerFlagsTest, ThreadCountsAreBoundedAsInSessionConfigs) {
  const std::string per_core = absl::StrCat("Use 0 for one thread per core (", DefaultNumThreads(),
                                            " here) or a smaller number");
  EXPECT_THAT(ParseServerFlags(With({"--inter_op_threads=1025"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("--inter_op_threads is 1025; Rill allows at most 1024 "
                                    "threads per pool. ",
                                    per_core)));
  EXPECT_THAT(ParseServerFlags(With({"--intra_op_threads=100000000"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("--intra_op_threads is 100000000; Rill allows at most 1024 "
                                    "threads per pool. ",
                                    per_core)));
  // Past int64: not a number to the parser.
  EXPECT_THAT(ParseServerFlags(With({"--inter_op_threads=99999999999999999999"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("--inter_op_threads is '99999999999999999999'; give 0 for "
                                    "one thread per core (",
                                    DefaultNumThreads(),
                                    " here) or a positive number (--inter_op_threads=N)")));
  for (const char* bad : {"-5", "abc", "", "1.5", "2x"}) {
    EXPECT_THAT(ParseServerFlags(With({absl::StrCat("--intra_op_threads=", bad)})).status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr(absl::StrCat("--intra_op_threads is '", bad, "'; give 0"))))
        << bad;
  }
}

TEST(ServerFlagsTest, OtherBadValuesNameTheirFlag) {
  EXPECT_THAT(ParseServerFlags(With({"--task_id=99999999999"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--task_id is '99999999999'; give the task's index in its job, from 0 "
                       "(--task_id=N)"));
  EXPECT_THAT(ParseServerFlags(With({"--task_id=-1"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--task_id is '-1'")));
  EXPECT_THAT(ParseServerFlags(With({"--same_host_min_bytes=-1"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--same_host_min_bytes is '-1'; give a size in bytes, 0 or more "
                       "(--same_host_min_bytes=N)"));
  EXPECT_THAT(ParseServerFlags(With({"--same_host_transfer=yes"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--same_host_transfer is 'yes'; give true or false"));
  EXPECT_THAT(ParseServerFlags(With({"--threads=4"})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "unknown flag --threads=4"));
  EXPECT_THAT(ParseServerFlags({"--job_name=worker", "--task_id=0"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "--cluster_spec is required"));
  EXPECT_THAT(ParseServerFlags({"--cluster_spec=worker|127.0.0.1:1", "--task_id=0"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "--job_name is required"));
  EXPECT_THAT(ParseServerFlags({"--cluster_spec=worker|127.0.0.1:1", "--job_name=w"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "--task_id is required"));
}

}  // namespace
}  // namespace rill
