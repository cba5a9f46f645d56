#include "core/mutex.h"

#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(MutexTest, GuardsACounterAcrossThreads) {
  Mutex mu;
  int64_t counter = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        MutexLock lock(&mu);
        ++counter;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counter, 40000);
}

TEST(SharedMutexTest, ReadersShareWritersExclude) {
  SharedMutex mu;
  int value = 0;
  {
    ReaderMutexLock a(&mu);
    ReaderMutexLock b(&mu);  // a second reader does not block
    EXPECT_EQ(value, 0);
  }
  std::thread writer([&] {
    WriterMutexLock lock(&mu);
    value = 7;
  });
  writer.join();
  ReaderMutexLock lock(&mu);
  EXPECT_EQ(value, 7);
}

TEST(CondVarTest, WaitWithTimeoutReportsTimeoutAndWakesOnSignal) {
  Mutex mu;
  CondVar cv;
  bool ready = false;
  {
    MutexLock lock(&mu);
    EXPECT_TRUE(cv.WaitWithTimeout(&mu, absl::Milliseconds(1)));
  }
  std::thread t([&] {
    MutexLock lock(&mu);
    ready = true;
    cv.SignalAll();
  });
  {
    MutexLock lock(&mu);
    while (!ready) cv.Wait(&mu);
  }
  t.join();
  EXPECT_TRUE(ready);
}

TEST(CondVarTest, AnInfiniteTimeoutWaitsForTheSignal) {
  Mutex mu;
  CondVar cv;
  bool ready = false;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    MutexLock lock(&mu);
    ready = true;
    cv.SignalAll();
  });
  int wakeups = 0;
  {
    MutexLock lock(&mu);
    while (!ready) {
      cv.WaitWithTimeout(&mu, absl::InfiniteDuration());
      ++wakeups;
    }
  }
  t.join();
  // Without the cap, wait_for(infinity) returns at once and the loop spins thousands of times.
  EXPECT_LE(wakeups, 3);
}

TEST(NotificationTest, NotifyReleasesEveryWaiter) {
  Notification n;
  EXPECT_FALSE(n.HasBeenNotified());
  EXPECT_FALSE(n.WaitForNotificationWithTimeout(absl::Milliseconds(1)));
  std::vector<std::thread> waiters;
  for (int i = 0; i < 3; ++i) waiters.emplace_back([&] { n.WaitForNotification(); });
  n.Notify();
  for (std::thread& t : waiters) t.join();
  EXPECT_TRUE(n.HasBeenNotified());
  EXPECT_TRUE(n.WaitForNotificationWithTimeout(absl::Milliseconds(1)));
}

TEST(BlockingCounterTest, WaitReturnsAfterEveryDecrement) {
  BlockingCounter counter(3);
  int done = 0;
  Mutex mu;
  std::vector<std::thread> workers;
  for (int i = 0; i < 3; ++i) {
    workers.emplace_back([&] {
      {
        MutexLock lock(&mu);
        ++done;
      }
      counter.DecrementCount();
    });
  }
  counter.Wait();
  {
    MutexLock lock(&mu);
    EXPECT_EQ(done, 3);
  }
  for (std::thread& t : workers) t.join();
}

}  // namespace
}  // namespace rill
