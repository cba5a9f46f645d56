#include "distributed/cluster_spec.h"

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

TEST(ClusterSpecTest, ParsesTensorFlowsFlagFormat) {
  RILL_ASSERT_OK_AND_ASSIGN(ClusterDef c,
                            ParseClusterSpec("worker|127.0.0.1:2222;127.0.0.1:2223,ps|h:1"));
  ASSERT_EQ(c.job_size(), 2);
  EXPECT_EQ(c.job(0).name(), "worker");
  EXPECT_EQ(c.job(0).tasks().at(1), "127.0.0.1:2223");
  RILL_ASSERT_OK_AND_ASSIGN(std::string a, TaskAddress(c, "ps", 0));
  EXPECT_EQ(a, "h:1");
  std::vector<TaskRef> tasks = ListTasks(c);
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[1].job, "worker");
  EXPECT_EQ(tasks[1].task, 1);
  EXPECT_EQ(tasks[2].address, "h:1");
  EXPECT_EQ(TaskName("worker", 1), "/job:worker/replica:0/task:1");
}

TEST(ClusterSpecTest, BadSpecsAndMissingTasks) {
  EXPECT_THAT(ParseClusterSpec("").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, testing::HasSubstr("is empty")));
  EXPECT_THAT(ParseClusterSpec("worker").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       testing::HasSubstr("Invalid job specification in the cluster spec: "
                                          "'worker'")));
  EXPECT_THAT(ParseClusterSpec("worker|a:1;").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       testing::HasSubstr("Task 1 of job 'worker' has an empty address")));
  EXPECT_THAT(
      ParseClusterSpec("w|a:1,w|b:2").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, testing::HasSubstr("Job 'w' appears twice")));
  RILL_ASSERT_OK_AND_ASSIGN(ClusterDef c, ParseClusterSpec("worker|a:1"));
  EXPECT_THAT(TaskAddress(c, "worker", 3).status(),
              StatusIs(absl::StatusCode::kNotFound,
                       "The cluster has no task 3 in job 'worker' (it has 1 tasks)"));
  EXPECT_THAT(TaskAddress(c, "ps", 0).status(),
              StatusIs(absl::StatusCode::kNotFound, "The cluster has no job 'ps' (jobs: worker)"));
}

// Addresses a channel cannot dial and jobs a device name cannot hold are refused with TensorFlow's
// texts where it has them (its ValidateHostPortPair and channel-spec checks), in a ClusterDef
// from a config as in a --cluster_spec flag.
TEST(ClusterSpecTest, AddressesJobsAndTaskIndicesAreValidated) {
  for (const char* bad :
       {"127.0.0.1:abc", "127.0.0.1", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:0", ":2222",
        "a/b:1", "127.0.0. 1:2222", "h:+5", "127.0.0.1:2222 ", "h: 2222"}) {
    EXPECT_THAT(
        ParseClusterSpec(absl::StrCat("worker|a:1;", bad)).status(),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 absl::StrCat("Could not interpret \"", bad,
                              "\" as a host-port pair. (task 1 of job 'worker' in the cluster "
                              "spec: give host:port, a host name or IP address and a port from 1 "
                              "to 65535)")))
        << bad;
  }
  EXPECT_THAT(ValidateHostPort(std::string("127.0.0.1\0:2222", 15), "x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       testing::HasSubstr("Could not interpret \"127.0.0.1\\000:2222\"")));
  for (const char* good : {"127.0.0.1:1", "localhost:65535", "[::1]:2222", "h-1.example:80"}) {
    RILL_EXPECT_OK(ValidateHostPort(good, "x"));
  }
  EXPECT_THAT(ParseClusterSpec("wor/ker|a:1").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Job name 'wor/ker' in the cluster spec cannot be part of a device name "
                       "(/job:<name>): start it with a letter and use only letters, digits and "
                       "'_'"));
  ClusterDef c;
  JobDef* w = c.add_job();
  w->set_name("worker");
  (*w->mutable_tasks())[0] = "a:1";
  RILL_EXPECT_OK(ValidateClusterDef(c, "the cluster_def"));
  JobDef* again = c.add_job();
  again->set_name("worker");
  (*again->mutable_tasks())[1] = "b:1";
  EXPECT_THAT(ValidateClusterDef(c, "the cluster_def"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Duplicate job ID in cluster specification: worker (give each job once in "
                       "the cluster_def, with all its tasks)"));
  again->set_name("");
  EXPECT_THAT(ValidateClusterDef(c, "the cluster_def"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Empty job name in the cluster_def; name each job (e.g. worker, ps)"));
  again->set_name("ps");
  (*again->mutable_tasks())[-1] = "c:1";
  EXPECT_THAT(ValidateClusterDef(c, "the cluster_def"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Task index -1 of job 'ps' in the cluster_def is negative; tasks are "
                       "numbered from 0"));
}

}  // namespace
}  // namespace distributed
}  // namespace rill
