// EventWaiter runs callbacks in queue order after their waits, on its own thread, passes each
// wait's status on, lets callbacks queue more work, and runs everything queued before it is
// destroyed. No GPU needed: the waits here are plain functions.
#include "core/gpu/event_waiter.h"

#include <string>
#include <thread>
#include <vector>

#include "core/mutex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(EventWaiterTest, CallbacksRunInOrderOnTheWaitersThreadWithTheWaitsStatus) {
  Mutex mu;
  std::vector<std::string> log;
  std::thread::id callback_thread;
  Notification done;
  {
    EventWaiter waiter("test");
    waiter.Enqueue([] { return absl::OkStatus(); },
                   [&](absl::Status s) {
                     MutexLock lock(&mu);
                     log.push_back("first " + s.ToString());
                     callback_thread = std::this_thread::get_id();
                   });
    waiter.Enqueue([] { return absl::InternalError("cudaErrorLaunchFailure"); },
                   [&](absl::Status s) {
                     MutexLock lock(&mu);
                     log.push_back("second " + s.ToString());
                     done.Notify();
                   });
    done.WaitForNotification();
  }
  EXPECT_THAT(log, ::testing::ElementsAre("first OK", "second INTERNAL: cudaErrorLaunchFailure"));
  EXPECT_NE(callback_thread, std::this_thread::get_id());
}

TEST(EventWaiterTest, CallbacksMayQueueMoreAndTheDestructorRunsEverythingQueued) {
  Mutex mu;
  int ran = 0;
  {
    EventWaiter waiter("test");
    for (int i = 0; i < 100; ++i) {
      waiter.Enqueue([] { return absl::OkStatus(); },
                     [&](absl::Status) {
                       waiter.Enqueue([] { return absl::OkStatus(); }, [&](absl::Status) {
                         MutexLock lock(&mu);
                         ++ran;
                       });
                       MutexLock lock(&mu);
                       ++ran;
                     });
    }
  }  // the destructor drains the queue, including what callbacks added
  EXPECT_EQ(ran, 200);
}

}  // namespace
}  // namespace rill
