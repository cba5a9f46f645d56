#include "core/thread_pool.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "core/denormal.h"
#include "core/mutex.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(ThreadPoolTest, DefaultNumThreadsIsPositive) {
  EXPECT_GE(DefaultNumThreads(), 1);
  const unsigned hc = std::thread::hardware_concurrency();
  if (hc > 0) {
    EXPECT_EQ(DefaultNumThreads(), static_cast<int>(hc));
  }
}

TEST(ThreadPoolTest, NumThreadsAndName) {
  ThreadPool pool("test", 3);
  EXPECT_EQ(pool.NumThreads(), 3);
  EXPECT_EQ(pool.name(), "test");
  EXPECT_NE(pool.AsEigenThreadPool(), nullptr);
}

TEST(ThreadPoolTest, RunsThousandScheduledTasks) {
  ThreadPool pool("sched", 4);
  constexpr int kTasks = 1000;
  std::atomic<int> counter{0};
  rill::BlockingCounter done(kTasks);
  for (int i = 0; i < kTasks; ++i) {
    pool.Schedule([&] {
      counter.fetch_add(1);
      done.DecrementCount();
    });
  }
  done.Wait();
  EXPECT_EQ(counter.load(), kTasks);
}

TEST(ThreadPoolTest, CurrentThreadIdInsideAndOutside) {
  ThreadPool pool("ids", 4);
  EXPECT_EQ(pool.CurrentThreadId(), -1);
  ThreadPool other("other", 1);
  constexpr int kTasks = 64;
  std::mutex mu;  // std rather than absl: Debian's Abseil is not TSan-instrumented.
  std::vector<int> ids;
  std::vector<int> other_ids;
  rill::BlockingCounter done(kTasks);
  for (int i = 0; i < kTasks; ++i) {
    pool.Schedule([&] {
      const int id = pool.CurrentThreadId();
      const int other_id = other.CurrentThreadId();
      {
        std::lock_guard<std::mutex> lock(mu);
        ids.push_back(id);
        other_ids.push_back(other_id);
      }
      done.DecrementCount();
    });
  }
  done.Wait();
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(ids.size(), static_cast<size_t>(kTasks));
  for (int id : ids) {
    EXPECT_GE(id, 0);
    EXPECT_LT(id, 4);
  }
  for (int id : other_ids) EXPECT_EQ(id, -1);  // A thread of `pool` is not one of `other`'s.
}

TEST(ThreadPoolTest, ThreadsAreNamed) {
  ThreadPool pool("a_rather_long_pool_name", 1);
  rill::Notification done;
  std::mutex mu;  // Only so that ThreadSanitizer sees the hand-over.
  char name[32] = {};
  pool.Schedule([&] {
    {
      std::lock_guard<std::mutex> lock(mu);
      pthread_getname_np(pthread_self(), name, sizeof(name));
    }
    done.Notify();
  });
  done.WaitForNotification();
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_STREQ(name, "rill_a_rather_l");  // 15 characters: Linux's limit.
}

TEST(ThreadPoolTest, ThreadsFlushSubnormalsToZero) {
  // The constructing thread keeps IEEE 754's mode; the pool's threads flush (core/denormal.h).
  if (kFlushDenormalBits == 0) GTEST_SKIP() << "no flush-to-zero mode on this CPU";
  if (!FlushDenormals()) GTEST_SKIP() << "RILL_KEEP_DENORMALS is set";
  const FloatMode outer = ReadFloatMode();
  WriteFloatMode(outer & ~kFlushDenormalBits);
  ThreadPool pool("flush", 1);
  rill::Notification done;
  std::mutex mu;
  FloatMode in_pool = 0;
  float product = -1.0f;
  pool.Schedule([&] {
    {
      std::lock_guard<std::mutex> lock(mu);
      in_pool = ReadFloatMode();
      volatile float subnormal = 1e-39f, one = 1.0f;  // not folded: x * 1 is x
      product = subnormal * one;
    }
    done.Notify();
  });
  done.WaitForNotification();
  const FloatMode here = ReadFloatMode();
  WriteFloatMode(outer);
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(in_pool & kFlushDenormalBits, kFlushDenormalBits);
  EXPECT_EQ(product, 0.0f);
  EXPECT_EQ(here & kFlushDenormalBits, 0u);
}

TEST(ThreadPoolTest, TasksMayScheduleMoreTasks) {
  ThreadPool pool("nested", 2);
  constexpr int kOuter = 50;
  constexpr int kInner = 10;
  rill::BlockingCounter done(kOuter * kInner);
  for (int i = 0; i < kOuter; ++i) {
    pool.Schedule([&] {
      for (int j = 0; j < kInner; ++j) pool.Schedule([&] { done.DecrementCount(); });
    });
  }
  done.Wait();
}

TEST(ThreadPoolTest, DestructorRunsQueuedWorkThenJoins) {
  constexpr int kTasks = 200;
  std::atomic<int> counter{0};
  {
    ThreadPool pool("drain", 2);
    for (int i = 0; i < kTasks; ++i) {
      pool.Schedule([&] {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        counter.fetch_add(1);
      });
    }
  }  // Joins here.
  EXPECT_EQ(counter.load(), kTasks);
}

TEST(ThreadPoolTest, DestructorRunsWorkScheduledByWork) {
  std::atomic<int> counter{0};
  {
    ThreadPool pool("drain2", 2);
    for (int i = 0; i < 20; ++i) {
      pool.Schedule([&] {
        pool.Schedule([&] { counter.fetch_add(1); });
        counter.fetch_add(1);
      });
    }
  }
  EXPECT_EQ(counter.load(), 40);
}

// Runs ParallelFor and checks every index in [0, total) is visited exactly once; returns the
// number of fn calls.
int CheckCoverage(ThreadPool& pool, int64_t total, int64_t cost) {
  std::vector<std::atomic<int>> hits(total);
  std::atomic<int> calls{0};
  pool.ParallelFor(total, cost, [&](int64_t begin, int64_t end) {
    EXPECT_LE(0, begin);
    EXPECT_LT(begin, end);
    EXPECT_LE(end, total);
    calls.fetch_add(1);
    for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
  });
  for (int64_t i = 0; i < total; ++i) {
    EXPECT_EQ(hits[i].load(), 1) << "index " << i << " of " << total << " cost " << cost;
  }
  return calls.load();
}

TEST(ThreadPoolTest, ParallelForCoversEveryIndexOnce) {
  ThreadPool pool("pfor", 4);
  for (int64_t total : {1, 2, 3, 7, 100, 1000, 4097, 100000}) {
    for (int64_t cost : {-1, 0, 1, 10, 1000, 1000000}) {
      CheckCoverage(pool, total, cost);
    }
  }
}

TEST(ThreadPoolTest, ParallelForSplitsExpensiveWork) {
  ThreadPool pool("split", 4);
  const int calls = CheckCoverage(pool, 1000, 100000);
  // kBlocksPerThread (4) blocks for each of the 4 pool threads and the outside caller.
  EXPECT_EQ(calls, 5 * 4);
}

TEST(ThreadPoolTest, ParallelForUsesPoolThreads) {
  ThreadPool pool("spread", 4);
  std::mutex mu;
  std::set<std::thread::id> threads;
  pool.ParallelFor(64, 1000000, [&](int64_t, int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::lock_guard<std::mutex> lock(mu);
    threads.insert(std::this_thread::get_id());
  });
  EXPECT_GT(threads.size(), 1u);
}

TEST(ThreadPoolTest, ParallelForRunsSmallWorkInline) {
  ThreadPool pool("inline", 4);
  std::vector<std::pair<int64_t, int64_t>> calls;  // Inline: no locking needed.
  const std::thread::id caller = std::this_thread::get_id();
  pool.ParallelFor(100, 1, [&](int64_t begin, int64_t end) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    calls.emplace_back(begin, end);
  });
  EXPECT_THAT(calls, ::testing::ElementsAre(std::make_pair(int64_t{0}, int64_t{100})));
}

TEST(ThreadPoolTest, OneThreadPoolAndAnOutsideCallerAreTwoWorkers) {
  // The caller runs blocks too, so a one-thread pool is a helper beside it: two workers (the
  // same count intra_op_parallelism_threads uses, where the kernel's own thread is one of them).
  ThreadPool pool("single", 1);
  EXPECT_EQ(pool.ParallelismForCaller(), 2);
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> calls;
  pool.ParallelFor(1000000, 1000000, [&](int64_t begin, int64_t end) {
    std::lock_guard<std::mutex> lock(mu);
    calls.emplace_back(begin, end);
  });
  std::sort(calls.begin(), calls.end());
  ASSERT_EQ(calls.size(), 8u);  // 2 workers x 4 blocks each
  EXPECT_EQ(calls.front().first, 0);
  EXPECT_EQ(calls.back().second, 1000000);
  for (size_t i = 1; i < calls.size(); ++i) EXPECT_EQ(calls[i].first, calls[i - 1].second);
}

TEST(ThreadPoolTest, ParallelForFromTheOnlyPoolThreadRunsInline) {
  ThreadPool pool("single", 1);
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::vector<std::pair<int64_t, int64_t>> calls;
  int parallelism = 0;
  pool.Schedule([&] {
    parallelism = pool.ParallelismForCaller();
    const std::thread::id self = std::this_thread::get_id();
    pool.ParallelFor(1000000, 1000000, [&](int64_t begin, int64_t end) {
      EXPECT_EQ(std::this_thread::get_id(), self);
      calls.emplace_back(begin, end);
    });
    std::lock_guard<std::mutex> lock(mu);
    done = true;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(mu);
  cv.wait(lock, [&] { return done; });
  EXPECT_EQ(parallelism, 1);
  EXPECT_THAT(calls, ::testing::ElementsAre(std::make_pair(int64_t{0}, int64_t{1000000})));
}

TEST(ThreadPoolTest, ParallelForNothingToDo) {
  ThreadPool pool("empty", 2);
  int calls = 0;
  pool.ParallelFor(0, 100, [&](int64_t, int64_t) { ++calls; });
  pool.ParallelFor(-5, 100, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ThreadPoolTest, NestedParallelForFromEveryPoolThreadDoesNotDeadlock) {
  ThreadPool pool("deep", 2);
  constexpr int kOuter = 8;
  std::atomic<int64_t> sum{0};
  rill::BlockingCounter done(kOuter);
  for (int i = 0; i < kOuter; ++i) {
    pool.Schedule([&] {
      pool.ParallelFor(1000, 100000,
                       [&](int64_t begin, int64_t end) { sum.fetch_add(end - begin); });
      done.DecrementCount();
    });
  }
  done.Wait();
  EXPECT_EQ(sum.load(), kOuter * 1000);
}

TEST(ThreadPoolDeathTest, ZeroThreadsIsFatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(ThreadPool("bad", 0), "needs at least one thread, got 0");
}

TEST(ThreadPoolTest, CreateRefusesFewerThanOneThread) {
  EXPECT_THAT(ThreadPool::Create("none", 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Thread pool \"none\" needs at least one thread, got 0")));
}

// Issue 26 item 10: a pool the process cannot start is ResourceExhausted, not std::system_error.
// The child process limits its address space so that 1,024 thread stacks cannot be mapped.
TEST(ThreadPoolTest, CreateSaysWhenTheProcessCannotStartTheThreads) {
#ifdef RILL_TSAN
  GTEST_SKIP() << "skipped under ThreadSanitizer: its shadow memory cannot live under an "
                  "address-space limit (the default and ASan builds run this test)";
#endif
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    rlimit limit;
    getrlimit(RLIMIT_AS, &limit);
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    limit.rlim_cur = static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + (rlim_t{256} << 20);
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(2);
    absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Create("huge", 1024);
    if (pool.ok()) _exit(3);
    const bool right = pool.status().code() == absl::StatusCode::kResourceExhausted &&
                       absl::StrContains(pool.status().message(),
                                         "Could not start thread pool \"huge\" of 1024 threads");
    _exit(right ? 0 : 4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ThreadPoolTest, CreateStartsAWorkingPool) {
  RILL_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ThreadPool> pool, ThreadPool::Create("made", 3));
  EXPECT_EQ(pool->NumThreads(), 3);
  std::atomic<int> ran{0};
  pool->ParallelFor(1000, 100000, [&](int64_t b, int64_t e) { ran += static_cast<int>(e - b); });
  EXPECT_EQ(ran.load(), 1000);
}

}  // namespace
}  // namespace rill
