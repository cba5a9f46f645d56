// BFCAllocator: TensorFlow's best-fit-with-coalescing allocator, device-independent (its memory
// comes from a SubAllocator: GPU memory for GPU devices, host memory in tests).
//   - Requests are rounded up to multiples of 256 bytes; every chunk starts 256-byte aligned.
//   - Free chunks sit in 21 bins by size class (bin b holds sizes in [256 << b, 256 << (b+1)),
//     the last bin everything larger), each ordered by (size, address). A request takes the
//     smallest free chunk that fits, searching from its own size class up (best fit).
//   - A chunk at least twice the request (or leaving 128 MiB or more) is split; the tail goes
//     back to its bin. A freed chunk merges with free neighbours in its region (coalescing).
//   - Regions: with allow_growth false, the first request reserves the whole limit in one region
//     (TensorFlow's default); with allow_growth, regions start at 2 MiB (or the request) and
//     double, never exceeding the limit, and are never returned.
//   - Out of memory is nullptr (callers make ResourceExhausted of it); the allocator stays
//     usable. GetStats reports in use (rounded bytes), peak, reserved, limit, largest free block.
//
//   BFCAllocator a(std::make_unique<HostSubAllocator>(), /*limit=*/1 << 30,
//                  /*allow_growth=*/true, "GPU_0_bfc");
//   void* p = a.AllocateRaw(256, 1000);   // a 1024-byte chunk
//
// Thread-safe: one mutex guards the chunks, bins and stats.
#ifndef RILL_CORE_MEMORY_BFC_ALLOCATOR_H_
#define RILL_CORE_MEMORY_BFC_ALLOCATOR_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "core/allocator.h"
#include "core/memory/sub_allocator.h"
#include "core/mutex.h"

namespace rill {

class BFCAllocator final : public Allocator {
 public:
  static constexpr size_t kMinAllocationSize = 256;
  static constexpr int kNumBins = 21;
  static constexpr size_t kInitialGrowthBytes = size_t{2} << 20;

  BFCAllocator(std::unique_ptr<SubAllocator> sub, size_t limit, bool allow_growth,
               std::string name);
  ~BFCAllocator() override;
  BFCAllocator(const BFCAllocator&) = delete;
  BFCAllocator& operator=(const BFCAllocator&) = delete;

  std::string Name() const override { return name_; }
  // REQUIRES: alignment <= 256.
  void* AllocateRaw(size_t alignment, size_t bytes) override;
  void DeallocateRaw(void* ptr, size_t bytes) override;
  AllocatorStats GetStats() const override;
  // Without allow_growth: takes the whole limit from the sub-allocator now instead of at the
  // first request (TensorFlow's GPU device does so when it is created). False when the memory is
  // not there (nothing is reserved then). True at once with allow_growth or when already done.
  bool ReserveNow();
  // Regions, free chunks per bin and the largest free chunk, for out-of-memory reports.
  std::string FragmentationReport() const;

  static size_t RoundedBytes(size_t bytes);
  static int BinFor(size_t rounded_bytes);

 private:
  struct Chunk {
    char* ptr = nullptr;
    size_t size = 0;  // multiple of 256
    bool in_use = false;
    int64_t prev = -1;  // neighbours in the same region (chunk ids), -1 at the ends
    int64_t next = -1;
  };
  using BinKey = std::pair<size_t, char*>;  // (size, address): best fit, then lowest address

  int64_t NewChunk(char* ptr, size_t size) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void InsertFree(int64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveFree(int64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int64_t FindFit(size_t rounded) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool Extend(size_t rounded) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  size_t LargestFree() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::unique_ptr<SubAllocator> sub_;
  const size_t limit_;
  const bool allow_growth_;
  const std::string name_;

  mutable rill::Mutex mu_;
  std::vector<Chunk> chunks_ ABSL_GUARDED_BY(mu_);        // by id; ids are never reused
  std::vector<int64_t> free_ids_ ABSL_GUARDED_BY(mu_);    // chunk slots to reuse
  std::map<char*, int64_t> by_ptr_ ABSL_GUARDED_BY(mu_);  // in-use chunks by address
  std::array<std::set<BinKey>, kNumBins> bins_ ABSL_GUARDED_BY(mu_);
  std::map<char*, int64_t> free_by_ptr_ ABSL_GUARDED_BY(mu_);  // free chunks by address
  std::vector<std::pair<void*, size_t>> regions_ ABSL_GUARDED_BY(mu_);
  size_t reserved_ ABSL_GUARDED_BY(mu_) = 0;
  size_t next_region_ ABSL_GUARDED_BY(mu_) = kInitialGrowthBytes;
  int64_t in_use_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t peak_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t num_allocs_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t largest_alloc_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace rill

#endif  // RILL_CORE_MEMORY_BFC_ALLOCATOR_H_
