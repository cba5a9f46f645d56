// OpenMpParallelFor covers [0, total) exactly once, in blocks, on more than one thread when the
// work is worth it, inline when it is small, and alone inside another parallel region.
#include "core/openmp_parallel_for.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "core/denormal.h"
#include "gtest/gtest.h"

// libgomp's region entry, for a team that no Rill code sets up (as oneDNN's).
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);

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

// Each team thread's flush bits and a product of a subnormal computed there.
struct TeamModes {
  std::mutex mu;
  std::vector<FloatMode> bits;
  std::vector<float> products;
  void Record() {
    volatile float subnormal = 1e-39f, one = 1.0f;  // not folded: x * 1 is x
    const float product = subnormal * one;
    std::lock_guard<std::mutex> lock(mu);
    bits.push_back(ReadFloatMode() & kFlushDenormalBits);
    products.push_back(product);
  }
};

// Runs `fn` with the calling thread's flush bits set to `bits`, then puts its mode back.
template <typename Fn>
void WithFlushBits(FloatMode bits, Fn fn) {
  const FloatMode outer = ReadFloatMode();
  SetFlushDenormalBits(bits);
  fn();
  WriteFloatMode(outer);
}

TEST(OpenMpFloatModeTest, TeamsComputeInTheModeOfTheThreadThatOpensThem) {
#ifdef RILL_TSAN
  GTEST_SKIP() << "no OpenMP teams under TSan";
#endif
  if (kFlushDenormalBits == 0) GTEST_SKIP() << "no flush-to-zero mode on this CPU";
  for (const FloatMode bits : {kFlushDenormalBits, FloatMode{0}, kFlushDenormalBits}) {
    TeamModes parallel_for, run_blocks;
    WithFlushBits(bits, [&] {
      OpenMpParallelFor(2, 1000, 1 << 20, [&](int64_t, int64_t) { parallel_for.Record(); });
      OpenMpRunBlocks(2, [&](int64_t) { run_blocks.Record(); });
    });
    const float want = bits != 0 ? 0.0f : 1e-39f;
    for (TeamModes* t : {&parallel_for, &run_blocks}) {
      ASSERT_GE(t->bits.size(), 2u);
      for (FloatMode b : t->bits) EXPECT_EQ(b, bits);
      for (float p : t->products) EXPECT_EQ(p, want);
    }
  }
}

TEST(OpenMpFloatModeTest, MatchTeamFloatModeGivesWorkersOfOtherRegionsTheCallersMode) {
#ifdef RILL_TSAN
  GTEST_SKIP() << "no OpenMP teams under TSan";
#endif
  if (kFlushDenormalBits == 0) GTEST_SKIP() << "no flush-to-zero mode on this CPU";
  // Workers started while this thread keeps subnormals keep them...
  OpenMpRunBlocks(3, [](int64_t) {});
  TeamModes before, after;
  WithFlushBits(kFlushDenormalBits, [&] {
    GOMP_parallel([](void* t) { static_cast<TeamModes*>(t)->Record(); }, &before, 3, 0);
    // ...until the caller matches them to its mode.
    OpenMpMatchTeamFloatMode(3);
    GOMP_parallel([](void* t) { static_cast<TeamModes*>(t)->Record(); }, &after, 3, 0);
  });
  ASSERT_EQ(before.bits.size(), 3u);
  ASSERT_EQ(after.bits.size(), 3u);
  std::sort(before.bits.begin(), before.bits.end());
  EXPECT_EQ(before.bits, (std::vector<FloatMode>{0, 0, kFlushDenormalBits}));  // the caller's
  EXPECT_EQ(after.bits, std::vector<FloatMode>(3, kFlushDenormalBits));
  EXPECT_EQ(after.products, std::vector<float>(3, 0.0f));
}

}  // namespace
}  // namespace rill
