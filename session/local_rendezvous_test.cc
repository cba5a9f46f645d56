#include "session/local_rendezvous.h"

#include <thread>

#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(LocalRendezvousTest, SendThenRecvSharesTheBuffer) {
  LocalRendezvous r;
  Tensor t = Tensor::Scalar<float>(3);
  RILL_ASSERT_OK(r.Send("k", t, false));
  bool called = false;
  r.RecvAsync("k", [&](const absl::Status& s, const Tensor& v, bool dead) {
    RILL_EXPECT_OK(s);
    EXPECT_TRUE(v.SharesBufferWith(t));
    EXPECT_FALSE(dead);
    called = true;
  });
  EXPECT_TRUE(called);
}

TEST(LocalRendezvousTest, RecvBeforeSendWaitsAndDeadnessTravels) {
  LocalRendezvous r;
  rill::Notification done;
  r.RecvAsync("k", [&](const absl::Status& s, const Tensor& v, bool dead) {
    RILL_EXPECT_OK(s);
    EXPECT_EQ(v.flat<int32_t>()[0], 7);
    EXPECT_TRUE(dead);
    done.Notify();
  });
  std::thread sender([&] { RILL_EXPECT_OK(r.Send("k", Tensor::Scalar<int32_t>(7), true)); });
  done.WaitForNotification();
  sender.join();
}

TEST(LocalRendezvousTest, DoubleSendIsFailedPrecondition) {
  LocalRendezvous r;
  RILL_ASSERT_OK(r.Send("k", Tensor::Scalar<int32_t>(1), false));
  EXPECT_THAT(r.Send("k", Tensor::Scalar<int32_t>(1), false),
              StatusIs(absl::StatusCode::kFailedPrecondition, "Send of an already sent tensor: k"));
}

TEST(LocalRendezvousTest, AbortFailsWaitingAndLaterRecvs) {
  LocalRendezvous r;
  absl::Status first, second;
  r.RecvAsync("k", [&](const absl::Status& s, const Tensor&, bool) { first = s; });
  r.Abort(absl::InternalError("node x failed"));
  r.RecvAsync("j", [&](const absl::Status& s, const Tensor&, bool) { second = s; });
  EXPECT_THAT(first, StatusIs(absl::StatusCode::kInternal, "node x failed"));
  EXPECT_THAT(second, StatusIs(absl::StatusCode::kInternal, "node x failed"));
  EXPECT_THAT(r.Send("k", Tensor::Scalar<int32_t>(1), false),
              StatusIs(absl::StatusCode::kInternal, "node x failed"));
}

}  // namespace
}  // namespace rill
