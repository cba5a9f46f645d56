#include "core/allocator.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <list>
#include <map>
#include <mutex>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rill {

namespace {

// Small host buffers are recycled, by power-of-two size class from 64 bytes to 64 KiB: each
// thread keeps up to kCachedPerClass per class, and passes batches to and from a process-wide
// pool (bounded at kPoolBytesPerClass, 8 MiB, per class), so buffers made on one thread and freed
// on another (a MatMul's output on a pool thread, freed by its consumer on the caller's) come back
// too. In a graph's steady state its outputs then come from the lists instead of glibc, whose
// malloc/free, heap consolidation and page faults of trimmed memory are a visible share of a run
// that allocates many small outputs (the wide benchmark graph's 1000 MatMul outputs). Off under
// AddressSanitizer and MemorySanitizer, whose checks of freed memory need every free to reach the
// C library (on under ThreadSanitizer, which checks the pool's locking).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRecycleSmallBuffers = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kRecycleSmallBuffers = false;
#else
constexpr bool kRecycleSmallBuffers = true;
#endif
#else
constexpr bool kRecycleSmallBuffers = true;
#endif
constexpr size_t kMinClassBytes = 64;
constexpr int kNumClasses = 11;  // 64 B .. 64 KiB
constexpr int kCachedPerClass = 64;
constexpr int kBatch = kCachedPerClass / 2;  // moved to or from the pool at once
constexpr size_t kPoolBytesPerClass = size_t{8} << 20;
constexpr size_t kCacheAlignment = 64;

// The size class of a buffer of `bytes`, or -1 when it is not recycled.
int SizeClass(size_t bytes) {
  if (bytes > (kMinClassBytes << (kNumClasses - 1))) return -1;
  int c = 0;
  while ((kMinClassBytes << c) < bytes) ++c;
  return c;
}

// The process-wide pool. Never destroyed (threads may return buffers while the process exits).
class SharedPool {
 public:
  // Moves up to `n` buffers of class c into `out`; returns how many.
  int Take(int c, void** out, int n) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<void*>& l = lists_[c];
    int moved = 0;
    while (moved < n && !l.empty()) {
      out[moved++] = l.back();
      l.pop_back();
    }
    return moved;
  }
  // Keeps the `n` buffers of class c, freeing those beyond the pool's bound.
  void Put(int c, void* const* in, int n) {
    const size_t cap = kPoolBytesPerClass / (kMinClassBytes << c);
    int kept = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::vector<void*>& l = lists_[c];
      while (kept < n && l.size() < cap) l.push_back(in[kept++]);
    }
    for (int i = kept; i < n; ++i) std::free(in[i]);
  }

 private:
  std::mutex mu_;
  std::vector<void*> lists_[kNumClasses];
};

SharedPool& Pool() {
  static SharedPool* const pool = new SharedPool();
  return *pool;
}

// Set once this thread's cache is destroyed (thread or process exit): later allocations and
// frees on the thread (another thread_local's destructor) go straight to the C library.
thread_local bool t_cache_gone = false;

class SmallBufferCache {
 public:
  ~SmallBufferCache() {
    for (int c = 0; c < kNumClasses; ++c) {
      Pool().Put(c, lists_[c].buffers, lists_[c].count);
      lists_[c].count = 0;
    }
    t_cache_gone = true;
  }
  void* Take(int c) {
    List& l = lists_[c];
    if (l.count == 0) l.count = Pool().Take(c, l.buffers, kBatch);
    return l.count > 0 ? l.buffers[--l.count] : nullptr;
  }
  void Put(int c, void* p) {
    List& l = lists_[c];
    if (l.count == kCachedPerClass) {
      l.count -= kBatch;
      Pool().Put(c, l.buffers + l.count, kBatch);
    }
    l.buffers[l.count++] = p;
  }

 private:
  struct List {
    int count = 0;
    void* buffers[kCachedPerClass];
  };
  List lists_[kNumClasses];
};

SmallBufferCache& ThreadCache() {
  thread_local SmallBufferCache cache;
  return cache;
}

// Buffers above the small-buffer classes (over 64 KiB) are kept when freed and handed out again,
// within a bound. glibc serves them from its heap only while they are under its dynamic mmap
// threshold (at most 32 MiB, and only after a first buffer of the size was freed) and gives the
// heap's top back to the kernel past its trim threshold; otherwise a buffer is mapped anew on every
// allocation and each page a run writes into it is a page fault, every run (docs/memory.md,
// "Per-run memory"). Kept here, a block is faulted in once. Blocks are rounded up to whole pages
// (kLargeGranule), at most 4 KiB over the request (1/16 of the smallest such buffer); a request
// takes the smallest kept block of at least its size and at most 1/8 more, so near sizes still
// share blocks.
//
// The bound (docs/memory.md): the kept bytes never exceed the smaller of the cap
// (RILL_CPU_BLOCK_CACHE_MB, default kDefaultCacheMiB) and the most bytes of large blocks the
// process has had in use at once, so the resident set stays within twice the live peak of large
// buffers however the sizes vary. Past the bound the least recently freed blocks go back to the C
// library. A cap of 0 turns the cache off: CpuAllocator then never calls it and allocates large
// buffers of exactly their size, as without the cache. A session releases the cache and keeps
// nothing while it builds a signature after Create/Extend (a bypass), and releases it on Close
// (session/heap_trim.h). Thread-safe (one mutex; large buffers are
// few per run); a block may be freed on another thread than the one that took it.
constexpr size_t kLargeGranule = size_t{4} << 10;
constexpr int64_t kDefaultCacheMiB = 1024;

class LargeBlockCache {
 public:
  explicit LargeBlockCache(int64_t cap_bytes) : cap_(cap_bytes) {}

  // Whether CpuAllocator routes large buffers here (the cap is not 0).
  bool enabled() const { return cap_.load(std::memory_order_relaxed) > 0; }

  // The size of the block kept for a request of `bytes`: whole pages.
  static size_t BlockSize(size_t bytes) {
    return (bytes + kLargeGranule - 1) / kLargeGranule * kLargeGranule;
  }

  // A block of at least `bytes` aligned to `alignment`, or nullptr when out of memory.
  void* Allocate(size_t alignment, size_t bytes) {
    const size_t block = BlockSize(bytes);
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto it = by_size_.lower_bound(block);
           it != by_size_.end() && it->first <= block + block / 8; ++it) {
        void* p = it->second->ptr;
        if (reinterpret_cast<uintptr_t>(p) % alignment != 0) continue;
        kept_ -= it->first;
        TakeLocked(p, it->first);
        lru_.erase(it->second);
        by_size_.erase(it);
        return p;
      }
    }
    void* p = nullptr;
    if (posix_memalign(&p, std::max(alignment, kCacheAlignment), block) != 0) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    TakeLocked(p, block);
    return p;
  }

  // Keeps `p` (from Allocate) for a later request, or frees it past the bound.
  void Free(void* p) {
    std::vector<void*> release;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto live = live_.find(p);
      if (live == live_.end()) {  // not one of ours (a caller broke DeallocateRaw's contract)
        release.push_back(p);
        return FreeAll(release);
      }
      const size_t size = live->second;
      live_.erase(live);
      in_use_ -= size;
      if (bypass_.load(std::memory_order_relaxed) > 0) {
        release.push_back(p);
        return FreeAll(release);
      }
      lru_.push_front({p, size});
      by_size_.emplace(size, lru_.begin());
      kept_ += size;
      const size_t bound = static_cast<size_t>(
          std::min<int64_t>(cap_.load(std::memory_order_relaxed), peak_in_use_));
      while (kept_ > bound) {
        const Entry& oldest = lru_.back();
        auto range = by_size_.equal_range(oldest.size);
        for (auto it = range.first; it != range.second; ++it) {
          if (it->second == std::prev(lru_.end())) {
            by_size_.erase(it);
            break;
          }
        }
        kept_ -= oldest.size;
        release.push_back(oldest.ptr);
        lru_.pop_back();
      }
    }
    FreeAll(release);
  }

  int64_t kept_bytes() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int64_t>(kept_);
  }

  int64_t in_use_bytes() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int64_t>(in_use_);
  }

  // While a bypass is open (BeginBypass without its EndBypass, any thread), freed blocks go
  // straight back to the C library; beginning one releases what is kept.
  void BeginBypass() {
    bypass_.fetch_add(1, std::memory_order_relaxed);
    Release();
  }
  void EndBypass() { bypass_.fetch_sub(1, std::memory_order_relaxed); }

  // Frees every kept block and restarts the peak at the blocks in use.
  void Release() {
    std::vector<void*> release;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ReleaseLocked(&release);
    }
    FreeAll(release);
  }

  // Frees every kept block, sets the cap and forgets the blocks handed out and the peak (tests).
  // A block handed out before and freed after is not recognised by Free and goes to the C
  // library, so a cap changed while blocks are live stays consistent.
  void Reset(int64_t cap_bytes) {
    std::vector<void*> release;
    {
      std::lock_guard<std::mutex> lock(mu_);
      live_.clear();
      in_use_ = 0;
      ReleaseLocked(&release);
      cap_.store(cap_bytes, std::memory_order_relaxed);
    }
    FreeAll(release);
  }

 private:
  struct Entry {
    void* ptr;
    size_t size;
  };

  void ReleaseLocked(std::vector<void*>* release) {
    for (const Entry& e : lru_) release->push_back(e.ptr);
    lru_.clear();
    by_size_.clear();
    kept_ = 0;
    peak_in_use_ = static_cast<int64_t>(in_use_);
  }

  static void FreeAll(const std::vector<void*>& blocks) {
    for (void* q : blocks) std::free(q);
  }

  void TakeLocked(void* p, size_t size) {
    live_[p] = size;
    in_use_ += size;
    peak_in_use_ = std::max(peak_in_use_, static_cast<int64_t>(in_use_));
  }

  std::mutex mu_;
  std::atomic<int64_t> cap_;    // written under mu_; read without it by enabled()
  std::atomic<int> bypass_{0};  // open bypasses
  std::list<Entry> lru_;        // kept blocks, most recently freed first
  std::multimap<size_t, std::list<Entry>::iterator> by_size_;
  absl::flat_hash_map<void*, size_t> live_;  // blocks handed out, by their size
  size_t kept_ = 0;
  size_t in_use_ = 0;
  int64_t peak_in_use_ = 0;
};

// The cap from RILL_CPU_BLOCK_CACHE_MB (MiB, a whole number >= 0), else the default.
int64_t CacheCapFromEnvironment() {
  const char* v = std::getenv("RILL_CPU_BLOCK_CACHE_MB");
  int64_t mib = kDefaultCacheMiB;
  if (v != nullptr && *v != '\0') {
    int64_t parsed = 0;
    if (absl::SimpleAtoi(v, &parsed) && parsed >= 0 && parsed <= (int64_t{1} << 40)) mib = parsed;
  }
  return mib << 20;
}

LargeBlockCache& LargeBlocks() {
  static LargeBlockCache* const cache = new LargeBlockCache(CacheCapFromEnvironment());
  return *cache;
}

// Whether a CpuAllocator buffer of `bytes` goes through LargeBlocks: every buffer above the small
// classes, so that none reaches glibc's mmap threshold, which stays at its 128 KiB start when no
// large chunk is ever freed to it; none when the cap is 0 (off under the sanitizers that check
// freed memory, as the small-buffer lists).
bool IsLarge(size_t bytes) {
  return kRecycleSmallBuffers && SizeClass(bytes) < 0 && LargeBlocks().enabled();
}

}  // namespace

namespace allocator_internal {

int64_t LargeBlockCacheKeptBytesForTesting() { return LargeBlocks().kept_bytes(); }
int64_t LargeBlockCacheInUseBytesForTesting() { return LargeBlocks().in_use_bytes(); }
int64_t LargeBlockCacheCapFromEnvironmentForTesting() { return CacheCapFromEnvironment(); }
void ReleaseLargeBlockCache() { LargeBlocks().Release(); }
void BeginLargeBlockCacheBypass() { LargeBlocks().BeginBypass(); }
void EndLargeBlockCacheBypass() { LargeBlocks().EndBypass(); }
void ResetLargeBlockCacheForTesting(int64_t cap_bytes) { LargeBlocks().Reset(cap_bytes); }

}  // namespace allocator_internal

std::string AllocatorStats::DebugString() const {
  std::string s = absl::StrCat("Limit: ", bytes_limit, "\nInUse: ", bytes_in_use,
                               "\nMaxInUse: ", peak_bytes_in_use, "\nNumAllocs: ", num_allocs,
                               "\nMaxAllocSize: ", largest_alloc_size);
  if (bytes_reserved > 0) {
    absl::StrAppend(&s, "\nReserved: ", bytes_reserved, "\nLargestFreeBlock: ", largest_free_block);
  }
  return s;
}

CpuAllocator* CpuAllocator::Default() {
  static CpuAllocator* const allocator = new CpuAllocator();
  return allocator;
}

void* CpuAllocator::AllocateRaw(size_t alignment, size_t bytes) {
  const int64_t n = static_cast<int64_t>(bytes);
  if (bytes_limit_ > 0) {
    int64_t now = bytes_in_use_.load(std::memory_order_relaxed);
    do {
      if (now + n > bytes_limit_) return nullptr;
    } while (!bytes_in_use_.compare_exchange_weak(now, now + n, std::memory_order_relaxed));
  } else {
    bytes_in_use_.fetch_add(n, std::memory_order_relaxed);
  }
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  void* ptr = nullptr;
  const int size_class = kRecycleSmallBuffers ? SizeClass(bytes) : -1;
  if (size_class >= 0) {
    // Every small buffer has its class's full size, so any of them can serve the class later.
    if (alignment <= kCacheAlignment) {
      ptr = AllocateHostBlock(bytes);
    } else if (posix_memalign(&ptr, alignment, kMinClassBytes << size_class) != 0) {
      ptr = nullptr;
    }
    if (ptr == nullptr) {
      bytes_in_use_.fetch_sub(n, std::memory_order_relaxed);
      return nullptr;
    }
  } else if (IsLarge(bytes)) {
    ptr = LargeBlocks().Allocate(alignment, bytes);
    if (ptr == nullptr) {
      bytes_in_use_.fetch_sub(n, std::memory_order_relaxed);
      return nullptr;
    }
  } else if (posix_memalign(&ptr, alignment, bytes == 0 ? alignment : bytes) != 0) {
    bytes_in_use_.fetch_sub(n, std::memory_order_relaxed);
    return nullptr;
  }
  num_allocs_.fetch_add(1, std::memory_order_relaxed);
  const int64_t in_use = bytes_in_use_.load(std::memory_order_relaxed);
  int64_t peak = peak_bytes_in_use_.load(std::memory_order_relaxed);
  while (in_use > peak && !peak_bytes_in_use_.compare_exchange_weak(peak, in_use)) {
  }
  int64_t largest = largest_alloc_size_.load(std::memory_order_relaxed);
  while (n > largest && !largest_alloc_size_.compare_exchange_weak(largest, n)) {
  }
  return ptr;
}

void CpuAllocator::DeallocateRaw(void* ptr, size_t bytes) {
  if (ptr == nullptr) return;
  // Small buffers all have their class's full size and at least kCacheAlignment, which is what
  // a request served from the lists may ask for, so the class depends on the size alone.
  if (IsLarge(bytes)) {
    LargeBlocks().Free(ptr);
  } else {
    FreeHostBlock(ptr, bytes);
  }
  bytes_in_use_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed);
}

void* AllocateHostBlock(size_t bytes) {
  const int size_class = kRecycleSmallBuffers ? SizeClass(bytes) : -1;
  if (size_class < 0) return std::malloc(bytes == 0 ? 1 : bytes);
  void* ptr = t_cache_gone ? nullptr : ThreadCache().Take(size_class);
  if (ptr == nullptr && posix_memalign(&ptr, kCacheAlignment, kMinClassBytes << size_class) != 0) {
    return nullptr;
  }
  return ptr;
}

void FreeHostBlock(void* block, size_t bytes) {
  if (block == nullptr) return;
  const int size_class = kRecycleSmallBuffers ? SizeClass(bytes) : -1;
  if (size_class < 0 || t_cache_gone) {
    std::free(block);
  } else {
    ThreadCache().Put(size_class, block);
  }
}

AllocatorStats CpuAllocator::GetStats() const {
  AllocatorStats s;
  s.num_allocs = num_allocs_.load();
  s.bytes_in_use = bytes_in_use_.load();
  s.peak_bytes_in_use = peak_bytes_in_use_.load();
  s.largest_alloc_size = largest_alloc_size_.load();
  s.bytes_limit = bytes_limit_;
  return s;
}

}  // namespace rill
