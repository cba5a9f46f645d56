#include "graph/name_index.h"

#include <utility>

#include "absl/hash/hash.h"

namespace rill {

uint32_t NameIndex::HashOf(absl::string_view name) {
  // absl's hash mixes every bit of the name into the 64 bits; their top half is as good as any.
  return static_cast<uint32_t>(absl::Hash<absl::string_view>()(name) >> 32);
}

size_t NameIndex::CapacityFor(size_t n) {
  size_t capacity = 16;
  while (capacity < 2 * n) capacity *= 2;
  return capacity;
}

size_t NameIndex::Probe(absl::string_view name, uint32_t hash, NameOf name_of) const {
  // At most half the slots are full, so every probe reaches an empty one.
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.id < 0 || (s.hash == hash && name_of(s.id) == name)) return i;
  }
}

int NameIndex::Find(absl::string_view name, NameOf name_of) const {
  if (size_ == 0) return -1;
  return slots_[Probe(name, HashOf(name), name_of)].id;
}

std::pair<int, bool> NameIndex::Insert(absl::string_view name, int id, NameOf name_of) {
  if (2 * (size_ + 1) > slots_.size()) {
    Rehash(CapacityFor(size_ + 1), [](int) { return true; });
  }
  const uint32_t hash = HashOf(name);
  Slot& s = slots_[Probe(name, hash, name_of)];
  if (s.id >= 0) return {s.id, false};
  s = Slot{hash, id};
  ++size_;
  return {id, true};
}

bool NameIndex::Erase(absl::string_view name, NameOf name_of) {
  if (size_ == 0) return false;
  size_t hole = Probe(name, HashOf(name), name_of);
  if (slots_[hole].id < 0) return false;
  // Linear probing's deletion without markers: each later entry of the run moves back into the
  // hole when the hole lies on its probe path (from its home slot up to where it is).
  for (size_t j = (hole + 1) & mask_; slots_[j].id >= 0; j = (j + 1) & mask_) {
    const size_t from_home = (j - (slots_[j].hash & mask_)) & mask_;
    const size_t from_hole = (j - hole) & mask_;
    if (from_home >= from_hole) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot();
  --size_;
  return true;
}

void NameIndex::Rehash(size_t capacity, absl::FunctionRef<bool(int)> keep) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot());
  mask_ = capacity - 1;
  size_ = 0;
  for (const Slot& s : old) {
    if (s.id < 0 || !keep(s.id)) continue;
    size_t i = s.hash & mask_;
    while (slots_[i].id >= 0) i = (i + 1) & mask_;
    slots_[i] = s;
    ++size_;
  }
}

void NameIndex::Filter(absl::FunctionRef<bool(int)> keep) {
  // Rebuilt at the size kept: emptying slots in place would leave a table sized for all names.
  size_t kept = 0;
  for (const Slot& s : slots_) kept += s.id >= 0 && keep(s.id) ? 1 : 0;
  Rehash(CapacityFor(kept), keep);
}

void NameIndex::Reserve(size_t n) {
  const size_t capacity = CapacityFor(n);
  if (capacity > slots_.size()) Rehash(capacity, [](int) { return true; });
}

}  // namespace rill
