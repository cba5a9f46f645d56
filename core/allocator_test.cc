#include "core/allocator.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

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

}  // namespace
}  // namespace rill
