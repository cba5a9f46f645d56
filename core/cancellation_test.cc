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
  absl::Mutex mu;
  bool woken = false;
  cm.RegisterCallback([&] {
    absl::MutexLock l(&mu);
    woken = true;
  });
  std::thread t([&] { cm.StartCancel(); });
  {
    absl::MutexLock l(&mu);
    mu.Await(absl::Condition(&woken));
  }
  t.join();
  EXPECT_TRUE(woken);
  EXPECT_EQ(cm.status().code(), absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace rill
