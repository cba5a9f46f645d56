#include "core/allocator.h"

#include <cstdint>
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
// counters stay exact. Sanitizer builds free every buffer, so only the exact-reuse check depends
// on the build.
TEST(CpuAllocatorTest, SmallBuffersAreRecycledWithinTheirSizeClass) {
  CpuAllocator a;
  char* p = static_cast<char*>(a.AllocateRaw(64, 100));
  ASSERT_NE(p, nullptr);
  a.DeallocateRaw(p, 100);
  char* q = static_cast<char*>(a.AllocateRaw(64, 128));
  ASSERT_NE(q, nullptr);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !defined(RILL_TSAN)
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

}  // namespace
}  // namespace rill
