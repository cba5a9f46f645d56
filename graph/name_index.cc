#include "graph/name_index.h"

#include <utility>

#include "absl/hash/hash.h"

namespace rill {

uint32_t NameIndex::HashOf(absl::string_view name) {
  // absl's hash mixes every bit of the name into the 64 bits; their top half is as good as any.
  return static_cast<uint32_t>(absl::Hash<absl::string_view>()(name) >> 32);
}

int NameIndex::Find(absl::string_view name, NameOf name_of) const {
  auto it = set_.find(Key{name, HashOf(name), &name_of});
  return it == set_.end() ? -1 : it->id;
}

std::pair<int, bool> NameIndex::Insert(absl::string_view name, int id, NameOf name_of) {
  const uint32_t hash = HashOf(name);
  bool added = false;
  auto it = set_.lazy_emplace(Key{name, hash, &name_of}, [&](const auto& construct) {
    added = true;
    construct(Entry{hash, id});
  });
  return {it->id, added};
}

bool NameIndex::Erase(absl::string_view name, NameOf name_of) {
  return set_.erase(Key{name, HashOf(name), &name_of}) > 0;
}

void NameIndex::Filter(absl::FunctionRef<bool(int)> keep) {
  // Rebuilt at the size kept: erasing in place would leave a table sized for all the names.
  size_t kept = 0;
  for (const Entry& e : set_) kept += keep(e.id) ? 1 : 0;
  absl::flat_hash_set<Entry, Hash, Eq> rebuilt;
  rebuilt.reserve(kept);
  for (const Entry& e : set_) {
    if (keep(e.id)) rebuilt.insert(e);
  }
  set_ = std::move(rebuilt);
}

}  // namespace rill
