// EventWaiter runs callbacks in queue order after their waits, on its own thread, passes each
// wait's status on, lets callbacks queue more work, and runs everything queued before it is
// destroyed. No GPU needed: the waits here are plain functions.
#include "core/gpu/event_waiter.h"

#include <algorithm>
#include <set>
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
                       waiter.Enqueue([] { return absl::OkStatus(); },
                                      [&](absl::Status) {
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

TEST(EventWaiterTest, WithAPoolCallbacksRunThereEachOnceWithTheirStatus) {
  ThreadPool pool("waiter_test", 2);
  Mutex mu;
  std::vector<int> seen;
  std::set<std::thread::id> threads;
  BlockingCounter all(50);
  {
    EventWaiter waiter("test", &pool);
    for (int i = 0; i < 50; ++i) {
      waiter.Enqueue(
          [i]() -> absl::Status {
            return i % 2 == 0 ? absl::OkStatus() : absl::InternalError("odd");
          },
          [&, i](absl::Status s) {
            {
              MutexLock lock(&mu);
              seen.push_back(s.ok() ? i : -i);
              threads.insert(std::this_thread::get_id());
            }
            all.DecrementCount();
          });
    }
    all.Wait();
  }
  std::sort(seen.begin(), seen.end());
  std::vector<int> expected;
  for (int i = 0; i < 50; ++i) expected.push_back(i % 2 == 0 ? i : -i);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
}

}  // namespace
}  // namespace rill
