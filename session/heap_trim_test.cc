#include "session/heap_trim.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(HeapTrimTest, EachCallIsCounted) {
  const int64_t before = HeapTrimCount();
  {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int i = 0; i < 64; ++i) blocks.emplace_back(new char[64 << 10]);
  }
  TrimHeap();
  TrimHeap();
  EXPECT_EQ(HeapTrimCount(), before + 2);
}

}  // namespace
}  // namespace rill
