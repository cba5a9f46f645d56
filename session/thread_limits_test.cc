#include "session/thread_limits.h"

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "core/thread_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(ThreadLimitsTest, AllowsUpTo1024ThreadsPerPool) {
  RILL_EXPECT_OK(CheckThreadsPerPool("--inter_op_threads", 1024));
  RILL_EXPECT_OK(CheckThreadsPerPool("--inter_op_threads", 0));
  RILL_EXPECT_OK(CheckThreadsPerPool("--inter_op_threads", -1));
  EXPECT_THAT(CheckThreadsPerPool("--inter_op_threads", 1025),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("--inter_op_threads is 1025; Rill allows at most 1024 threads "
                                    "per pool. Use 0 for one thread per core (",
                                    DefaultNumThreads(), " here) or a smaller number")));
  EXPECT_THAT(CheckThreadsPerPool("ConfigProto.intra_op_parallelism_threads", int64_t{1} << 40),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::StartsWith("ConfigProto.intra_op_parallelism_threads is "
                                             "1099511627776; Rill allows at most 1024")));
}

}  // namespace
}  // namespace rill
