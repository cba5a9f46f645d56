#include "session/heap_trim.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "gtest/gtest.h"

namespace rill {
namespace {

// How many of the `pages` pages from `start` (page-aligned) are resident; an unmapped range
// (the heap shrunk below it) has none.
int ResidentPages(const char* start, size_t pages) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core(pages);
  if (mincore(const_cast<char*>(start), pages * page, in_core.data()) != 0) {
    EXPECT_EQ(errno, ENOMEM) << std::strerror(errno);
    return 0;
  }
  int resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST(HeapTrimTest, GivesTheFreedHeapPagesBackAndCountsTheCall) {
  // free() itself gives nothing back (no automatic trim), and the block comes from the heap
  // (under the mmap threshold): what the pages show after TrimHeap is its doing.
  ASSERT_EQ(mallopt(M_TRIM_THRESHOLD, 1 << 30), 1);
  ASSERT_EQ(mallopt(M_MMAP_THRESHOLD, 1 << 20), 1);
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  constexpr size_t kBlock = 256 << 10;
  char* block = static_cast<char*>(std::malloc(kBlock));
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, kBlock);
  // Whole pages inside the block, clear of malloc's bookkeeping at its ends.
  const char* start = reinterpret_cast<const char*>(
      (reinterpret_cast<uintptr_t>(block) + 2 * page - 1) / page * page);
  const size_t pages = kBlock / page - 3;
  ASSERT_EQ(ResidentPages(start, pages), static_cast<int>(pages));
  std::free(block);
  ASSERT_EQ(ResidentPages(start, pages), static_cast<int>(pages));
  const int64_t before = HeapTrimCount();
  TrimHeap();
  EXPECT_EQ(ResidentPages(start, pages), 0);
  EXPECT_EQ(HeapTrimCount(), before + 1);
}
#endif

}  // namespace
}  // namespace rill
