#include "core/cancellation.h"

#include <thread>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(CancellationTest, CallbacksRunOnceAndLateRegistrationIsRefused) {
  CancellationManager cm;
  int runs = 0;
  CancellationToken a = cm.RegisterCallback([&] { ++runs; });
  CancellationToken b = cm.RegisterCallback([&] { runs += 10; });
  EXPECT_TRUE(cm.DeregisterCallback(b));
  EXPECT_NE(a, kInvalidCancellationToken);
  cm.StartCancel(absl::DeadlineExceededError("too slow"));
  cm.StartCancel();
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(cm.IsCancelled());
  EXPECT_EQ(cm.status(), absl::DeadlineExceededError("too slow"));
  EXPECT_EQ(cm.RegisterCallback([&] { ++runs; }), kInvalidCancellationToken);
  EXPECT_FALSE(cm.DeregisterCallback(a));
}

TEST(CancellationTest, CancelFromAnotherThreadWakesWaiter) {
  CancellationManager cm;
  rill::Mutex mu;
  rill::CondVar cv;
  bool woken = false;
  cm.RegisterCallback([&] {
    rill::MutexLock l(&mu);
    woken = true;
    cv.SignalAll();
  });
  std::thread t([&] { cm.StartCancel(); });
  {
    rill::MutexLock l(&mu);
    while (!woken) cv.Wait(&mu);
  }
  t.join();
  EXPECT_TRUE(woken);
  EXPECT_EQ(cm.status().code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace rill
