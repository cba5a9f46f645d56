// OpenMpParallelFor covers [0, total) exactly once, in blocks, on more than one thread when the
// work is worth it, inline when it is small, and alone inside another parallel region.
#include "core/openmp_parallel_for.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

std::vector<std::pair<int64_t, int64_t>> Blocks(int threads, int64_t total, int64_t cost,
                                                std::set<std::thread::id>* ids = nullptr) {
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> blocks;
  OpenMpParallelFor(threads, total, cost, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(mu);
    blocks.emplace_back(b, e);
    if (ids != nullptr) ids->insert(std::this_thread::get_id());
  });
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

void ExpectExactCover(const std::vector<std::pair<int64_t, int64_t>>& blocks, int64_t total) {
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks.front().first, 0);
  EXPECT_EQ(blocks.back().second, total);
  for (size_t i = 1; i < blocks.size(); ++i) EXPECT_EQ(blocks[i].first, blocks[i - 1].second);
}

TEST(OpenMpParallelForTest, ExpensiveWorkIsSplitIntoBlocksThatCoverEverythingOnce) {
  const auto blocks = Blocks(2, 1000003, 1000);
#ifdef RILL_TSAN
  EXPECT_EQ(blocks.size(), 1u);  // libgomp is not instrumented: TSan builds run one inline block
#else
  EXPECT_EQ(blocks.size(), 8u);  // 4 blocks per thread
#endif
  ExpectExactCover(blocks, 1000003);
}

TEST(OpenMpParallelForTest, SmallWorkOrOneThreadRunsInlineAsOneBlock) {
  const std::thread::id self = std::this_thread::get_id();
  std::set<std::thread::id> ids;
  auto blocks = Blocks(4, 100, 1, &ids);
  EXPECT_EQ(blocks, (std::vector<std::pair<int64_t, int64_t>>{{0, 100}}));
  EXPECT_EQ(ids, std::set<std::thread::id>{self});
  ids.clear();
  blocks = Blocks(1, 1000000, 1000, &ids);
  EXPECT_EQ(blocks, (std::vector<std::pair<int64_t, int64_t>>{{0, 1000000}}));
  EXPECT_EQ(ids, std::set<std::thread::id>{self});
  EXPECT_TRUE(Blocks(4, 0, 1000).empty());
}

TEST(OpenMpParallelForTest, NestedCallsRunOnTheirThreadAndStillCoverEverything) {
  std::mutex mu;
  int64_t covered = 0;
  OpenMpParallelFor(2, 8, 1 << 20, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      int64_t inner = 0;
      OpenMpParallelFor(2, 5000, 1000, [&](int64_t ib, int64_t ie) { inner += ie - ib; });
      std::lock_guard<std::mutex> lock(mu);
      covered += inner;
    }
  });
  EXPECT_EQ(covered, 8 * 5000);
}

TEST(OpenMpRunBlocksTest, EveryBlockRunsOnceOnItsOwnTeamThread) {
  std::mutex mu;
  std::vector<int64_t> seen;
  std::set<std::thread::id> ids;
  OpenMpRunBlocks(3, [&](int64_t block) {
    std::lock_guard<std::mutex> lock(mu);
    seen.push_back(block);
    ids.insert(std::this_thread::get_id());
  });
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2}));
#ifndef RILL_TSAN
  EXPECT_EQ(ids.size(), 3u);
#endif
  seen.clear();
  OpenMpRunBlocks(0, [&](int64_t block) { seen.push_back(block); });
  EXPECT_TRUE(seen.empty());
}

}  // namespace
}  // namespace rill
