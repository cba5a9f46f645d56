#include "distributed/cluster_spec.h"

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

}  // namespace
}  // namespace distributed
}  // namespace rill
