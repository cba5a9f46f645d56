#include "core/memory/bfc_allocator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace rill {
namespace {

constexpr size_t kMaxInternalFragmentation = size_t{128} << 20;

}  // namespace

BFCAllocator::BFCAllocator(std::unique_ptr<SubAllocator> sub, size_t limit, bool allow_growth,
                           std::string name)
    : sub_(std::move(sub)), limit_(limit), allow_growth_(allow_growth), name_(std::move(name)) {}

BFCAllocator::~BFCAllocator() {
  rill::MutexLock lock(&mu_);
  for (const auto& [ptr, size] : regions_) sub_->Free(ptr, size);
}

size_t BFCAllocator::RoundedBytes(size_t bytes) {
  const size_t rounded = (bytes + kMinAllocationSize - 1) / kMinAllocationSize * kMinAllocationSize;
  return std::max(rounded, kMinAllocationSize);
}

int BFCAllocator::BinFor(size_t rounded_bytes) {
  size_t units = rounded_bytes / kMinAllocationSize;  // >= 1
  int bin = 0;
  while (units > 1 && bin < kNumBins - 1) {
    units >>= 1;
    ++bin;
  }
  return bin;
}

int64_t BFCAllocator::NewChunk(char* ptr, size_t size) {
  Chunk c;
  c.ptr = ptr;
  c.size = size;
  if (!free_ids_.empty()) {
    const int64_t id = free_ids_.back();
    free_ids_.pop_back();
    chunks_[id] = c;
    return id;
  }
  chunks_.push_back(c);
  return static_cast<int64_t>(chunks_.size()) - 1;
}

void BFCAllocator::InsertFree(int64_t id) {
  const Chunk& c = chunks_[id];
  bins_[BinFor(c.size)].insert({c.size, c.ptr});
  free_by_ptr_[c.ptr] = id;
}

void BFCAllocator::RemoveFree(int64_t id) {
  const Chunk& c = chunks_[id];
  bins_[BinFor(c.size)].erase({c.size, c.ptr});
  free_by_ptr_.erase(c.ptr);
}

int64_t BFCAllocator::FindFit(size_t rounded) {
  for (int b = BinFor(rounded); b < kNumBins; ++b) {
    auto it = bins_[b].lower_bound({rounded, nullptr});
    if (it == bins_[b].end()) continue;
    const int64_t id = free_by_ptr_.at(it->second);
    RemoveFree(id);
    Chunk& c = chunks_[id];
    if (c.size >= 2 * rounded || c.size - rounded >= kMaxInternalFragmentation) {
      // Split: the tail becomes a free chunk after this one.
      const int64_t tail = NewChunk(c.ptr + rounded, c.size - rounded);
      Chunk& head = chunks_[id];  // NewChunk may have grown the vector
      chunks_[tail].prev = id;
      chunks_[tail].next = head.next;
      if (head.next >= 0) chunks_[head.next].prev = tail;
      head.next = tail;
      head.size = rounded;
      InsertFree(tail);
    }
    chunks_[id].in_use = true;
    return id;
  }
  return -1;
}

bool BFCAllocator::Extend(size_t rounded) {
  if (reserved_ >= limit_) return false;
  const size_t available = limit_ - reserved_;
  if (rounded > available) return false;
  size_t size;
  if (!allow_growth_) {
    size = available;  // the whole limit at once (TensorFlow's default)
  } else {
    while (next_region_ < rounded) next_region_ *= 2;
    size = std::min(next_region_, available);
    next_region_ *= 2;
  }
  size = size / kMinAllocationSize * kMinAllocationSize;
  size_t got = 0;
  void* region = sub_->Alloc(kMinAllocationSize, size, &got);
  if (region == nullptr) return false;
  regions_.push_back({region, got});
  reserved_ += got;
  InsertFree(NewChunk(static_cast<char*>(region), got / kMinAllocationSize * kMinAllocationSize));
  return true;
}

bool BFCAllocator::ReserveNow() {
  rill::MutexLock lock(&mu_);
  if (allow_growth_ || reserved_ > 0) return true;
  return Extend(kMinAllocationSize);
}

void* BFCAllocator::AllocateRaw(size_t alignment, size_t bytes) {
  (void)alignment;  // every chunk is 256-byte aligned
  const size_t rounded = RoundedBytes(bytes);
  rill::MutexLock lock(&mu_);
  int64_t id = FindFit(rounded);
  if (id < 0 && Extend(rounded)) id = FindFit(rounded);
  if (id < 0) return nullptr;
  const Chunk& c = chunks_[id];
  by_ptr_[c.ptr] = id;
  in_use_ += static_cast<int64_t>(c.size);
  peak_ = std::max(peak_, in_use_);
  ++num_allocs_;
  largest_alloc_ = std::max(largest_alloc_, static_cast<int64_t>(bytes));
  return c.ptr;
}

void BFCAllocator::DeallocateRaw(void* ptr, size_t) {
  if (ptr == nullptr) return;
  rill::MutexLock lock(&mu_);
  auto it = by_ptr_.find(static_cast<char*>(ptr));
  if (it == by_ptr_.end()) return;  // not ours: nothing to do (a programming error upstream)
  int64_t id = it->second;
  by_ptr_.erase(it);
  in_use_ -= static_cast<int64_t>(chunks_[id].size);
  chunks_[id].in_use = false;
  // Coalesce with a free next neighbour, then with a free previous one.
  const int64_t next = chunks_[id].next;
  if (next >= 0 && !chunks_[next].in_use) {
    RemoveFree(next);
    chunks_[id].size += chunks_[next].size;
    chunks_[id].next = chunks_[next].next;
    if (chunks_[id].next >= 0) chunks_[chunks_[id].next].prev = id;
    free_ids_.push_back(next);
  }
  const int64_t prev = chunks_[id].prev;
  if (prev >= 0 && !chunks_[prev].in_use) {
    RemoveFree(prev);
    chunks_[prev].size += chunks_[id].size;
    chunks_[prev].next = chunks_[id].next;
    if (chunks_[prev].next >= 0) chunks_[chunks_[prev].next].prev = prev;
    free_ids_.push_back(id);
    id = prev;
  }
  InsertFree(id);
}

size_t BFCAllocator::LargestFree() const {
  for (int b = kNumBins - 1; b >= 0; --b) {
    if (!bins_[b].empty()) return bins_[b].rbegin()->first;
  }
  return 0;
}

AllocatorStats BFCAllocator::GetStats() const {
  rill::MutexLock lock(&mu_);
  AllocatorStats s;
  s.num_allocs = num_allocs_;
  s.bytes_in_use = in_use_;
  s.peak_bytes_in_use = peak_;
  s.largest_alloc_size = largest_alloc_;
  s.bytes_limit = static_cast<int64_t>(limit_);
  s.bytes_reserved = static_cast<int64_t>(reserved_);
  s.largest_free_block = static_cast<int64_t>(LargestFree());
  return s;
}

std::string BFCAllocator::FragmentationReport() const {
  rill::MutexLock lock(&mu_);
  std::string out = absl::StrCat(name_, ": ", regions_.size(), " region(s), ", reserved_,
                                 " bytes reserved of ", limit_, ", ", in_use_, " in use");
  for (int b = 0; b < kNumBins; ++b) {
    if (bins_[b].empty()) continue;
    size_t total = 0;
    for (const BinKey& k : bins_[b]) total += k.first;
    absl::StrAppend(&out, "\nBin (", kMinAllocationSize << b, "): ", bins_[b].size(),
                    " free chunk(s), ", total, " bytes");
  }
  absl::StrAppend(&out, "\nLargest free chunk: ", LargestFree(), " bytes");
  return out;
}

}  // namespace rill
