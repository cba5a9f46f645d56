#include "core/allocator.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace allocator_internal {
// allocator.cc's test hooks for its large-block cache.
int64_t LargeBlockCacheKeptBytesForTesting();
int64_t LargeBlockCacheInUseBytesForTesting();
int64_t LargeBlockCacheCapFromEnvironmentForTesting();
void ResetLargeBlockCacheForTesting(int64_t cap_bytes);
void ReleaseLargeBlockCache();
void BeginLargeBlockCacheBypass();
void EndLargeBlockCacheBypass();
}  // namespace allocator_internal

namespace {

using allocator_internal::LargeBlockCacheInUseBytesForTesting;
using allocator_internal::LargeBlockCacheKeptBytesForTesting;
using allocator_internal::ResetLargeBlockCacheForTesting;

constexpr size_t kMiB = size_t{1} << 20;
constexpr int64_t kBigCap = int64_t{1} << 30;

TEST(CpuAllocatorTest, CountsBytesPeakAndAllocations) {
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 1000);
  void* q = a.AllocateRaw(64, 24);
  ASSERT_NE(p, nullptr);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_EQ(a.GetStats().bytes_in_use, 1024);
  a.DeallocateRaw(p, 1000);
  AllocatorStats s = a.GetStats();
  EXPECT_EQ(s.bytes_in_use, 24);
  EXPECT_EQ(s.peak_bytes_in_use, 1024);
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.largest_alloc_size, 1000);
  a.DeallocateRaw(q, 24);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
}

TEST(CpuAllocatorTest, ResetPeakRestartsTheHighWaterMarkAtBytesInUse) {
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 1000);
  void* q = a.AllocateRaw(64, 24);
  a.DeallocateRaw(p, 1000);
  a.ResetPeak();
  EXPECT_EQ(a.GetStats().peak_bytes_in_use, 24);
  void* r = a.AllocateRaw(64, 100);
  EXPECT_EQ(a.GetStats().peak_bytes_in_use, 124);
  a.DeallocateRaw(r, 100);
  a.DeallocateRaw(q, 24);
  EXPECT_EQ(a.GetStats().peak_bytes_in_use, 124);
}

TEST(CpuAllocatorTest, LimitTurnsLargeRequestsIntoNull) {
  CpuAllocator a(/*bytes_limit=*/100);
  void* p = a.AllocateRaw(64, 80);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(a.AllocateRaw(64, 40), nullptr);
  EXPECT_EQ(a.GetStats().bytes_in_use, 80);
  a.DeallocateRaw(p, 80);
  void* r = a.AllocateRaw(64, 100);
  EXPECT_NE(r, nullptr);
  a.DeallocateRaw(r, 100);
}

// Small buffers come back from the thread's free list (whole size class: 100 and 128 bytes share
// one), every byte of a class-size request is usable, stronger alignments are honoured, and the
// counters stay exact. AddressSanitizer builds free every buffer, so only the exact-reuse check
// depends on the build.
TEST(CpuAllocatorTest, SmallBuffersAreRecycledWithinTheirSizeClass) {
  CpuAllocator a;
  char* p = static_cast<char*>(a.AllocateRaw(64, 100));
  ASSERT_NE(p, nullptr);
  a.DeallocateRaw(p, 100);
  char* q = static_cast<char*>(a.AllocateRaw(64, 128));
  ASSERT_NE(q, nullptr);
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(q, p);
#endif
  for (int i = 0; i < 128; ++i) q[i] = static_cast<char>(i);  // the whole class is usable
  EXPECT_EQ(a.GetStats().bytes_in_use, 128);
  void* aligned = a.AllocateRaw(4096, 200);
  ASSERT_NE(aligned, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 4096, 0u);
  a.DeallocateRaw(aligned, 200);
  void* again = a.AllocateRaw(64, 256);  // the 4096-aligned buffer may serve it: 256 bytes
  ASSERT_NE(again, nullptr);
  static_cast<char*>(again)[255] = 1;
  a.DeallocateRaw(again, 256);
  a.DeallocateRaw(q, 128);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  EXPECT_EQ(a.GetStats().num_allocs, 4);
}

TEST(CpuAllocatorTest, ZeroBytesGivesDistinctPointer) {
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 0);
  EXPECT_NE(p, nullptr);
  a.DeallocateRaw(p, 0);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
}

TEST(CpuAllocatorTest, ConcurrentUseKeepsExactCounts) {
  CpuAllocator a;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) a.DeallocateRaw(a.AllocateRaw(64, 128), 128);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  EXPECT_EQ(a.GetStats().num_allocs, 4000);
}

// Buffers made on one thread and freed on another go through the shared pool: no buffer is ever
// handed to two owners (each owner's pattern survives until it frees the buffer), and the counts
// stay exact.
TEST(CpuAllocatorTest, BuffersFreedOnAnotherThreadAreReusedSafely) {
  CpuAllocator a;
  constexpr int kBuffers = 2000;
  std::vector<char*> made(kBuffers);
  std::thread producer([&] {
    for (int i = 0; i < kBuffers; ++i) {
      made[i] = static_cast<char*>(a.AllocateRaw(64, 4096));
      std::memset(made[i], i % 251, 4096);
    }
  });
  producer.join();
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      for (int i = t; i < kBuffers; i += 4) {
        // Free one made elsewhere, then own a fresh one for a while.
        for (int j = 0; j < 4096; j += 512) ASSERT_EQ(made[i][j], static_cast<char>(i % 251));
        a.DeallocateRaw(made[i], 4096);
        char* mine = static_cast<char*>(a.AllocateRaw(64, 4000));
        std::memset(mine, 100 + t, 4000);
        for (int j = 0; j < 4000; j += 500) ASSERT_EQ(mine[j], static_cast<char>(100 + t));
        a.DeallocateRaw(mine, 4000);
      }
    });
  }
  for (auto& w : workers) w.join();
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  EXPECT_EQ(a.GetStats().num_allocs, 2 * kBuffers);
}

TEST(HostBlockTest, BlocksAreUsableAcrossThreadsAndOutsideTheStatistics) {
  const AllocatorStats before = CpuAllocator::Default()->GetStats();
  constexpr int kBlocks = 3000;  // more than a thread keeps, so the shared pool is used too
  std::vector<char*> made(kBlocks);
  std::thread producer([&] {
    for (int i = 0; i < kBlocks; ++i) {
      made[i] = static_cast<char*>(AllocateHostBlock(56));
      ASSERT_NE(made[i], nullptr);
      ASSERT_EQ(reinterpret_cast<uintptr_t>(made[i]) % alignof(std::max_align_t), 0u);
      std::memset(made[i], i % 251, 56);
    }
  });
  producer.join();
  std::thread consumer([&] {
    for (int i = 0; i < kBlocks; ++i) {
      ASSERT_EQ(made[i][55], static_cast<char>(i % 251));
      FreeHostBlock(made[i], 56);
    }
  });
  consumer.join();
  // Larger than the recycled classes: plain malloc.
  void* big = AllocateHostBlock(size_t{1} << 20);
  ASSERT_NE(big, nullptr);
  FreeHostBlock(big, size_t{1} << 20);
  const AllocatorStats after = CpuAllocator::Default()->GetStats();
  EXPECT_EQ(after.num_allocs, before.num_allocs);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
}

// HostBlockAllocator as std::allocate_shared uses it (rebound to the control block's type).
TEST(HostBlockTest, AllocateSharedWorksThroughHostBlockAllocator) {
  auto p = std::allocate_shared<std::pair<int64_t, int64_t>>(
      HostBlockAllocator<std::pair<int64_t, int64_t>>(), 3, 4);
  std::shared_ptr<std::pair<int64_t, int64_t>> q = p;
  EXPECT_EQ(q->first + q->second, 7);
  EXPECT_EQ(p.use_count(), 2);
}

// Buffers over 64 KiB are kept when freed and handed out again (no new pages to fault in): the
// same block for the same size, or a size at most 1/8 smaller.
TEST(CpuAllocatorLargeBlocksTest, AFreedBlockServesTheNextRequestOfItsSize) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 3 * kMiB);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, 3 * kMiB);
  a.DeallocateRaw(p, 3 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{3 * kMiB});
  void* q = a.AllocateRaw(64, 3 * kMiB - 5000);  // the 3 MiB block is within 1/8 of it
  EXPECT_EQ(q, p);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  EXPECT_EQ(a.GetStats().bytes_in_use, int64_t{3 * kMiB - 5000});  // what was asked for
  a.DeallocateRaw(q, 3 * kMiB - 5000);
  void* r = a.AllocateRaw(64, 2 * kMiB);  // 3 MiB is more than 1/8 over 2 MiB: a new block
  EXPECT_NE(r, p);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{3 * kMiB});
  a.DeallocateRaw(r, 2 * kMiB);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

TEST(CpuAllocatorLargeBlocksTest, ABlockFreedOnAnotherThreadIsReused) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 2 * kMiB);
  std::thread([&] { a.DeallocateRaw(p, 2 * kMiB); }).join();
  void* q = a.AllocateRaw(64, 2 * kMiB);
  EXPECT_EQ(q, p);
  a.DeallocateRaw(q, 2 * kMiB);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

// What is kept never exceeds the most bytes of large blocks in use at once: sizes that change
// from run to run cannot grow the process.
TEST(CpuAllocatorLargeBlocksTest, KeptBytesStayWithinThePeakInUse) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* x = a.AllocateRaw(64, 3 * kMiB);
  a.DeallocateRaw(x, 3 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{3 * kMiB});
  void* y = a.AllocateRaw(64, 5 * kMiB);  // the kept 3 MiB cannot serve it; peak in use 5 MiB
  a.DeallocateRaw(y, 5 * kMiB);
  // 3 + 5 MiB would pass the 5 MiB peak: the least recently freed (3 MiB) is released.
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{5 * kMiB});
  void* z = a.AllocateRaw(64, 5 * kMiB);
  EXPECT_EQ(z, y);
  a.DeallocateRaw(z, 5 * kMiB);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

TEST(CpuAllocatorLargeBlocksTest, TheCapReleasesTheLeastRecentlyFreed) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(int64_t{4 * kMiB});
  CpuAllocator a;
  void* x = a.AllocateRaw(64, 3 * kMiB);
  void* y = a.AllocateRaw(64, 3 * kMiB);
  a.DeallocateRaw(x, 3 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{3 * kMiB});
  a.DeallocateRaw(y, 3 * kMiB);  // 6 MiB > the 4 MiB cap: x goes back to the C library
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{3 * kMiB});
  void* z = a.AllocateRaw(64, 3 * kMiB);
  EXPECT_EQ(z, y);
  a.DeallocateRaw(z, 3 * kMiB);
  ResetLargeBlockCacheForTesting(0);  // a cap of 0 keeps nothing
  void* w = a.AllocateRaw(64, 3 * kMiB);
  a.DeallocateRaw(w, 3 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

TEST(CpuAllocatorLargeBlocksTest, AlignmentIsHonoured) {
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* p = a.AllocateRaw(64, 2 * kMiB);
  a.DeallocateRaw(p, 2 * kMiB);
  void* q = a.AllocateRaw(4096, 2 * kMiB);  // the kept block only if it is 4096-aligned
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 4096, 0u);
  a.DeallocateRaw(q, 2 * kMiB);
  ResetLargeBlockCacheForTesting(kBigCap);
}

// Every buffer above the small classes (64 KiB) is kept, rounded up to whole 4 KiB pages, and
// ReleaseLargeBlockCache (what a session calls after creation and on Close) gives all kept blocks
// back.
TEST(CpuAllocatorLargeBlocksTest, BuffersOver64KiBAreKeptInWholePagesUntilReleased) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* small = a.AllocateRaw(64, 64 << 10);  // the small classes' largest: not kept here
  a.DeallocateRaw(small, 64 << 10);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 0);
  void* p = a.AllocateRaw(64, 65600);  // 16.02 pages: 17 pages
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 17 * 4096);
  void* w = a.AllocateRaw(64, 72 << 10);  // 18 pages exactly
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 17 * 4096 + (72 << 10));
  a.DeallocateRaw(w, 72 << 10);
  a.DeallocateRaw(p, 65600);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 17 * 4096 + (72 << 10));
  void* q = a.AllocateRaw(64, (64 << 10) + 1);  // 17 pages: the 65,600-byte request's block
  EXPECT_EQ(q, p);
  a.DeallocateRaw(q, (64 << 10) + 1);
  void* v = a.AllocateRaw(64, 72 << 10);  // the 17-page block is too small: the 18-page one
  EXPECT_EQ(v, w);
  a.DeallocateRaw(v, 72 << 10);
  void* r = a.AllocateRaw(64, (1 << 20) + 1);  // 257 pages
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 257 * 4096);
  a.DeallocateRaw(r, (1 << 20) + 1);
  allocator_internal::ReleaseLargeBlockCache();
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

// RILL_CPU_BLOCK_CACHE_MB=0: large buffers do not pass through the cache at all (their exact size
// from the C library, nothing kept), also for blocks taken from it before the cap changed.
TEST(CpuAllocatorLargeBlocksTest, ACapOfZeroBypassesTheCache) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* before = a.AllocateRaw(64, 65600);
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 17 * 4096);
  ResetLargeBlockCacheForTesting(0);
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 0);
  void* p = a.AllocateRaw(64, 65600);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, 65600);
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 0);
  a.DeallocateRaw(p, 65600);
  a.DeallocateRaw(before, 65600);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  void* q = a.AllocateRaw(64, 3 * kMiB);
  a.DeallocateRaw(q, 3 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  // Blocks taken while the cache was off and freed after it is on go to the C library.
  void* off = a.AllocateRaw(64, 2 * kMiB);
  ResetLargeBlockCacheForTesting(kBigCap);
  a.DeallocateRaw(off, 2 * kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

// A bypass (what a session opens while it builds a signature after Create) releases what is kept
// and keeps nothing until it ends, also for blocks taken before it; nested bypasses count.
TEST(CpuAllocatorLargeBlocksTest, ABypassKeepsNothingUntilItEnds) {
#if !defined(__SANITIZE_ADDRESS__)
  ResetLargeBlockCacheForTesting(kBigCap);
  CpuAllocator a;
  void* p = a.AllocateRaw(64, kMiB);
  void* q = a.AllocateRaw(64, kMiB);
  a.DeallocateRaw(p, kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{kMiB});
  allocator_internal::BeginLargeBlockCacheBypass();
  allocator_internal::BeginLargeBlockCacheBypass();
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  void* r = a.AllocateRaw(64, kMiB);
  a.DeallocateRaw(r, kMiB);
  a.DeallocateRaw(q, kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);
  EXPECT_EQ(LargeBlockCacheInUseBytesForTesting(), 0);
  allocator_internal::EndLargeBlockCacheBypass();
  void* s = a.AllocateRaw(64, kMiB);
  a.DeallocateRaw(s, kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), 0);  // one bypass is still open
  allocator_internal::EndLargeBlockCacheBypass();
  void* t = a.AllocateRaw(64, kMiB);
  a.DeallocateRaw(t, kMiB);
  EXPECT_EQ(LargeBlockCacheKeptBytesForTesting(), int64_t{kMiB});
  EXPECT_EQ(a.GetStats().bytes_in_use, 0);
  ResetLargeBlockCacheForTesting(kBigCap);
#endif
}

TEST(CpuAllocatorLargeBlocksTest, CapFromTheEnvironment) {
  auto cap_for = [](const char* v) {
    setenv("RILL_CPU_BLOCK_CACHE_MB", v, 1);
    const int64_t cap = allocator_internal::LargeBlockCacheCapFromEnvironmentForTesting();
    unsetenv("RILL_CPU_BLOCK_CACHE_MB");
    return cap;
  };
  EXPECT_EQ(cap_for("7"), int64_t{7} << 20);
  EXPECT_EQ(cap_for("0"), 0);
  EXPECT_EQ(cap_for(""), int64_t{1024} << 20);  // the default
  EXPECT_EQ(cap_for("-1"), int64_t{1024} << 20);
  EXPECT_EQ(cap_for("12x"), int64_t{1024} << 20);
  EXPECT_EQ(allocator_internal::LargeBlockCacheCapFromEnvironmentForTesting(), int64_t{1024} << 20);
}

}  // namespace
}  // namespace rill
