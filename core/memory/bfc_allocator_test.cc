#include "core/memory/bfc_allocator.h"

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

// Regions carved from one fixed, 256-aligned buffer with a byte budget (a fake device), so
// addresses are predictable and exhaustion is real.
class FakeRegions final : public SubAllocator {
 public:
  explicit FakeRegions(size_t budget) : buffer_(budget + 256), budget_(budget) {}
  void* Alloc(size_t, size_t bytes, size_t* received) override {
    if (used_ + bytes > budget_) return nullptr;
    char* base =
        reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buffer_.data()) + 255) / 256 * 256);
    void* p = base + used_;
    used_ += bytes;
    *received = bytes;
    ++regions;
    return p;
  }
  void Free(void*, size_t) override {}
  int regions = 0;

 private:
  std::vector<char> buffer_;
  size_t budget_;
  size_t used_ = 0;
};

std::unique_ptr<BFCAllocator> Make(size_t limit, bool growth, FakeRegions** fake = nullptr) {
  auto sub = std::make_unique<FakeRegions>(limit);
  if (fake != nullptr) *fake = sub.get();
  return std::make_unique<BFCAllocator>(std::move(sub), limit, growth, "test_bfc");
}

TEST(BFCAllocatorTest, RoundsTo256AndBinsByPowerOfTwo) {
  EXPECT_EQ(BFCAllocator::RoundedBytes(1), 256u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(256), 256u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(257), 512u);
  EXPECT_EQ(BFCAllocator::BinFor(256), 0);
  EXPECT_EQ(BFCAllocator::BinFor(768), 1);
  EXPECT_EQ(BFCAllocator::BinFor(1024), 2);
  EXPECT_EQ(BFCAllocator::BinFor(size_t{1} << 40), BFCAllocator::kNumBins - 1);
  auto a = Make(1 << 20, false);
  void* p = a->AllocateRaw(64, 1);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  EXPECT_EQ(a->GetStats().bytes_in_use, 256);
  a->DeallocateRaw(p, 1);
}

TEST(BFCAllocatorTest, WithoutGrowthTheLimitIsReservedAtFirstUse) {
  FakeRegions* fake = nullptr;
  auto a = Make(1 << 20, false, &fake);
  EXPECT_EQ(a->GetStats().bytes_reserved, 0);
  void* p = a->AllocateRaw(256, 1000);
  EXPECT_EQ(a->GetStats().bytes_reserved, 1 << 20);
  EXPECT_EQ(fake->regions, 1);
  a->DeallocateRaw(p, 1000);
}

TEST(BFCAllocatorTest, ReserveNowTakesTheWholeLimitOnceWithoutCountingAnAllocation) {
  FakeRegions* fake = nullptr;
  auto a = Make(1 << 20, false, &fake);
  EXPECT_TRUE(a->ReserveNow());
  EXPECT_TRUE(a->ReserveNow());
  EXPECT_EQ(fake->regions, 1);
  AllocatorStats stats = a->GetStats();
  EXPECT_EQ(stats.bytes_reserved, 1 << 20);
  EXPECT_EQ(stats.largest_free_block, 1 << 20);
  EXPECT_EQ(stats.num_allocs, 0);
  EXPECT_EQ(stats.peak_bytes_in_use, 0);
  void* p = a->AllocateRaw(256, 1000);
  EXPECT_EQ(fake->regions, 1);
  a->DeallocateRaw(p, 1000);
}

TEST(BFCAllocatorTest, ReserveNowFailsCleanlyWhenTheMemoryIsNotThere) {
  // The sub-allocator has half of the limit: nothing is reserved, and the allocator still
  // serves nothing rather than crashing.
  auto sub = std::make_unique<FakeRegions>(1 << 19);
  BFCAllocator a(std::move(sub), 1 << 20, /*allow_growth=*/false, "test_bfc");
  EXPECT_FALSE(a.ReserveNow());
  EXPECT_EQ(a.GetStats().bytes_reserved, 0);
  EXPECT_EQ(a.AllocateRaw(256, 1000), nullptr);
  // With growth, nothing is reserved up front.
  auto grow = Make(1 << 20, true);
  EXPECT_TRUE(grow->ReserveNow());
  EXPECT_EQ(grow->GetStats().bytes_reserved, 0);
}

TEST(BFCAllocatorTest, BestFitSplitAndCoalesce) {
  auto a = Make(64 * 1024, false);
  // Carve the region into A(1K) B(4K) C(1K) D(2K) E(1K) rest, then free B and D.
  void* A = a->AllocateRaw(256, 1024);
  void* B = a->AllocateRaw(256, 4096);
  void* C = a->AllocateRaw(256, 1024);
  void* D = a->AllocateRaw(256, 2048);
  void* E = a->AllocateRaw(256, 1024);
  a->DeallocateRaw(B, 4096);
  a->DeallocateRaw(D, 2048);
  // 1.5K fits B (4K) and D (2K): best fit takes D, the smaller one, without splitting it.
  void* F = a->AllocateRaw(256, 1536);
  EXPECT_EQ(F, D);
  EXPECT_EQ(a->GetStats().bytes_in_use, 1024 + 1024 + 2048 + 1024);
  // 1K takes B (the only fitting chunk below the rest) and splits it: the 3K tail stays free.
  void* G = a->AllocateRaw(256, 1024);
  EXPECT_EQ(G, B);
  void* H = a->AllocateRaw(256, 3072);
  EXPECT_EQ(H, static_cast<char*>(B) + 1024);
  // Free everything in an awkward order: the region is one free chunk again.
  for (void* p : {C, A, H, E, G, F}) a->DeallocateRaw(p, 0);
  const AllocatorStats s = a->GetStats();
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.largest_free_block, 64 * 1024);
}

TEST(BFCAllocatorTest, ExhaustionAndFragmentationLeaveItUsable) {
  auto a = Make(8 * 1024, false);
  std::vector<void*> blocks;
  for (int i = 0; i < 8; ++i) blocks.push_back(a->AllocateRaw(256, 1024));
  EXPECT_EQ(a->AllocateRaw(256, 1), nullptr);  // full
  // Free every other block: 4K free in total, but no 2K hole.
  for (int i = 0; i < 8; i += 2) a->DeallocateRaw(blocks[i], 1024);
  AllocatorStats s = a->GetStats();
  EXPECT_EQ(s.bytes_in_use, 4 * 1024);
  EXPECT_EQ(s.largest_free_block, 1024);
  EXPECT_EQ(a->AllocateRaw(256, 2048), nullptr);
  EXPECT_NE(a->FragmentationReport().find("4 free chunk(s), 4096 bytes"), std::string::npos)
      << a->FragmentationReport();
  void* small = a->AllocateRaw(256, 1000);  // still usable
  EXPECT_NE(small, nullptr);
  EXPECT_EQ(a->GetStats().peak_bytes_in_use, 8 * 1024);
}

TEST(BFCAllocatorTest, GrowthAddsDoublingRegionsUpToTheLimit) {
  FakeRegions* fake = nullptr;
  auto a = Make(16 << 20, true, &fake);
  void* p = a->AllocateRaw(256, 1000);
  EXPECT_EQ(a->GetStats().bytes_reserved, 2 << 20);
  void* q = a->AllocateRaw(256, 3 << 20);  // does not fit the first region: a 4 MiB one
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(fake->regions, 2);
  EXPECT_EQ(a->GetStats().bytes_reserved, 6 << 20);
  void* r = a->AllocateRaw(256, 9 << 20);  // 16 MiB would pass the limit: the remaining 10 MiB
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(a->GetStats().bytes_reserved, 16 << 20);
  EXPECT_EQ(a->AllocateRaw(256, 2 << 20), nullptr);  // nothing left to reserve
  for (void* x : {p, q, r}) a->DeallocateRaw(x, 0);
  EXPECT_EQ(a->GetStats().bytes_reserved, 16 << 20);  // regions are never returned
}

TEST(BFCAllocatorTest, ConcurrentAllocationsBalance) {
  BFCAllocator a(std::make_unique<HostSubAllocator>(), 64 << 20, /*allow_growth=*/false,
                 "host_bfc");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&a, t] {
      std::vector<void*> mine;
      for (int i = 0; i < 500; ++i) {
        mine.push_back(a.AllocateRaw(256, 256 * (1 + (i * 7 + t) % 13)));
        if (i % 3 == 2) {
          a.DeallocateRaw(mine.front(), 0);
          mine.erase(mine.begin());
        }
      }
      for (void* p : mine) a.DeallocateRaw(p, 0);
    });
  }
  for (std::thread& t : threads) t.join();
  const AllocatorStats s = a.GetStats();
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.num_allocs, 4 * 500);
  EXPECT_EQ(s.largest_free_block, 64 << 20);  // every chunk coalesced back into the region
}

}  // namespace
}  // namespace rill
