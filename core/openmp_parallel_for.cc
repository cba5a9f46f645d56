#include "core/openmp_parallel_for.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

#include "core/denormal.h"
#include "core/thread_pool.h"

// libgomp's entry point for a parallel region (what GCC emits for `#pragma omp parallel`),
// called directly so no -fopenmp is needed whichever compiler builds this file.
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);

namespace rill {

void OpenMpParallelFor(int threads, int64_t total, int64_t cost_per_unit,
                       absl::FunctionRef<void(int64_t, int64_t)> fn) {
  if (total <= 0) return;
  const int64_t block = ThreadPool::BlockSize(total, cost_per_unit, threads);
  const int64_t blocks = (total + block - 1) / block;
  if (threads <= 1 || blocks <= 1) {
    fn(0, total);
    return;
  }
#ifdef RILL_TSAN
  fn(0, total);
  return;
#endif
  struct Region {
    absl::FunctionRef<void(int64_t, int64_t)>* fn;
    int64_t total, block, blocks;
    FloatMode flush_bits;
    std::atomic<int64_t> next{0};
  };
  Region region{&fn, total, block, blocks, ReadFloatMode() & kFlushDenormalBits};
  GOMP_parallel(
      [](void* data) {
        Region& r = *static_cast<Region*>(data);
        SetFlushDenormalBits(r.flush_bits);
        for (;;) {
          const int64_t b = r.next.fetch_add(1, std::memory_order_relaxed);
          if (b >= r.blocks) return;
          (*r.fn)(b * r.block, std::min(r.total, (b + 1) * r.block));
        }
      },
      &region, static_cast<unsigned>(std::min<int64_t>(threads, blocks)), /*flags=*/0);
}

void OpenMpRunBlocks(int64_t blocks, absl::FunctionRef<void(int64_t)> fn) {
  if (blocks <= 0) return;
#ifdef RILL_TSAN
  // libgomp is not instrumented: ThreadSanitizer would not see its barriers and would report the
  // blocks' writes as races. Under TSan the blocks run one after another (they are independent).
  for (int64_t b = 0; b < blocks; ++b) fn(b);
  return;
#endif
  if (blocks == 1) {
    fn(0);
    return;
  }
  struct Region {
    absl::FunctionRef<void(int64_t)>* fn;
    int64_t blocks;
    FloatMode flush_bits;
  };
  Region region{&fn, blocks, ReadFloatMode() & kFlushDenormalBits};
  GOMP_parallel(
      [](void* data) {
        const Region& r = *static_cast<const Region*>(data);
        SetFlushDenormalBits(r.flush_bits);
        const int64_t team = omp_get_num_threads();
        for (int64_t b = omp_get_thread_num(); b < r.blocks; b += team) (*r.fn)(b);
      },
      &region, static_cast<unsigned>(blocks), /*flags=*/0);
}

void OpenMpMatchTeamFloatMode(int threads) {
#ifdef RILL_TSAN
  return;  // Rill opens no team under TSan
#endif
  // The workers this thread's teams of up to `matched` threads were last given its mode (libgomp
  // keeps them between regions; workers it starts later inherit the mode of this thread).
  thread_local int matched = 1;
  thread_local FloatMode matched_bits = 0;
  const FloatMode bits = ReadFloatMode() & kFlushDenormalBits;
  if (threads <= 1 || (threads <= matched && bits == matched_bits)) return;
  FloatMode region_bits = bits;
  GOMP_parallel([](void* data) { SetFlushDenormalBits(*static_cast<FloatMode*>(data)); },
                &region_bits, static_cast<unsigned>(threads), /*flags=*/0);
  matched = bits == matched_bits ? std::max(matched, threads) : threads;
  matched_bits = bits;
}

}  // namespace rill
