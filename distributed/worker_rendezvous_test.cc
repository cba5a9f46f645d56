#include "distributed/worker_rendezvous.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace distributed {
namespace {

constexpr char kLocalKey[] =
    "/job:worker/replica:0/task:0/device:CPU:0;1f;/job:worker/replica:0/task:0/device:CPU:0;"
    "edge_1_a;0:0";
constexpr char kRemoteKey[] =
    "/job:worker/replica:0/task:1/device:CPU:0;2a;/job:worker/replica:0/task:0/device:CPU:0;"
    "edge_2_b;0:0";

TEST(WorkerRendezvousTest, ParsesTensorFlowKeys) {
  RILL_ASSERT_OK_AND_ASSIGN(ParsedKey k, ParseRendezvousKey(kRemoteKey));
  EXPECT_EQ(k.send_job, "worker");
  EXPECT_EQ(k.send_task, 1);
  EXPECT_EQ(k.send_incarnation, 0x2au);
  EXPECT_EQ(k.tensor_name, "edge_2_b");
  EXPECT_THAT(ParseRendezvousKey("a;b").status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rendezvous key: a;b"));
}

TEST(WorkerRendezvousTest, LocalKeysMeetHereRemoteKeysAreFetched) {
  std::string fetched;
  WorkerRendezvous r(7, "worker", 0,
                     [&](const std::string& job, int task, int64_t step, const std::string& key,
                         CancellationManager*, Rendezvous::DoneCallback done) {
                       fetched = absl::StrCat(job, ":", task, ":", step);
                       done(absl::OkStatus(), Tensor::Scalar<float>(2.5f), false);
                     });
  RILL_ASSERT_OK(r.Send(kLocalKey, Tensor::Scalar<float>(1.5f), false));
  float local = 0, remote = 0;
  r.RecvAsync(kLocalKey, [&](const absl::Status& s, const Tensor& v, bool) {
    ASSERT_TRUE(s.ok());
    local = v.flat<float>()[0];
  });
  r.RecvAsync(kRemoteKey, [&](const absl::Status& s, const Tensor& v, bool) {
    ASSERT_TRUE(s.ok());
    remote = v.flat<float>()[0];
  });
  EXPECT_EQ(local, 1.5f);
  EXPECT_EQ(remote, 2.5f);
  EXPECT_EQ(fetched, "worker:1:7");
}

TEST(WorkerRendezvousTest, AbortFailsWaitersAndLaterRemoteRecvs) {
  int remote_calls = 0;
  WorkerRendezvous r(1, "worker", 0,
                     [&](const std::string&, int, int64_t, const std::string&, CancellationManager*,
                         Rendezvous::DoneCallback) { ++remote_calls; });
  absl::Status waited;
  r.RecvAsync(kLocalKey, [&](const absl::Status& s, const Tensor&, bool) { waited = s; });
  r.Abort(absl::AbortedError("step failed"));
  EXPECT_THAT(waited, StatusIs(absl::StatusCode::kAborted, "step failed"));
  absl::Status later;
  r.RecvAsync(kRemoteKey, [&](const absl::Status& s, const Tensor&, bool) { later = s; });
  EXPECT_THAT(later, StatusIs(absl::StatusCode::kAborted, "step failed"));
  EXPECT_EQ(remote_calls, 0);
}

}  // namespace
}  // namespace distributed
}  // namespace rill
