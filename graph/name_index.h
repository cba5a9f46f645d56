// NameIndex: an index of unique names, each standing for an int id, that stores 8 bytes per name
// (the id and a 32-bit hash of the name) and reads the names themselves from the caller, through
// a function from id to name. For the name indexes of large graphs: a table of strings is several
// times larger, and at a million names its random probes miss the caches and the TLB on most
// lookups; filling it copies every name, and copying it copies them again.
//
//   NameIndex index;
//   auto name_of = [&](int id) -> absl::string_view { return names[id]; };
//   index.Insert("a", 7, name_of);   // {7, true}; {7, false} when "a" is already there
//   index.Find("a", name_of);        // 7; -1 when absent
//   index.Erase("a", name_of);       // true when it was there
//
// `name_of` must give, for every id in the index, the name it was inserted with; it is called only
// for ids whose stored hash matches the name looked for. A copy of an index holds the same ids and
// hashes: it serves any name source that gives the same names for the same ids (a copied Graph,
// whose nodes keep their ids). Ids are >= 0.
//
// The table is one array of (hash, id) slots, probed linearly from the slot the hash picks and
// kept at most half full: a lookup or an insert reads one cache line, rarely two (a table that
// keeps its control bytes apart from its slots reads two, which at a million names are two
// misses). Growing and Filter move the stored hashes and read no name. Cost: O(1) expected per
// call. Not thread-safe for writes; const methods may run concurrently.
#ifndef RILL_GRAPH_NAME_INDEX_H_
#define RILL_GRAPH_NAME_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"

namespace rill {

class NameIndex {
 public:
  using NameOf = absl::FunctionRef<absl::string_view(int)>;

  // The id of `name`, or -1.
  int Find(absl::string_view name, NameOf name_of) const;
  // Adds `name` as `id` unless the name is present: {the name's id, whether it was added}.
  // REQUIRES: id >= 0.
  std::pair<int, bool> Insert(absl::string_view name, int id, NameOf name_of);
  // Fetches the memory a Find or Insert of `name` reads first into the cache, without waiting: a
  // hint for code about to look up many names, called some lookups ahead.
  void Prefetch(absl::string_view name) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[HashOf(name) & mask_]);
  }
  // Removes `name`; false when it was absent.
  bool Erase(absl::string_view name, NameOf name_of);
  // Keeps the ids for which `keep(id)` is true, without reading any name (for removing many
  // names at once, or names whose source is gone).
  void Filter(absl::FunctionRef<bool(int)> keep);
  // Room for `n` names in all without growing.
  void Reserve(size_t n);
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t hash = 0;
    int32_t id = -1;  // -1: empty
  };
  static uint32_t HashOf(absl::string_view name);
  // The number of slots that holds `n` names at most half full: a power of two, at least 16.
  static size_t CapacityFor(size_t n);
  // The index of `name`'s slot, or of the empty slot where its probe ended.
  size_t Probe(absl::string_view name, uint32_t hash, NameOf name_of) const;
  // Moves every entry into a table of `capacity` slots (a power of two above 2 * size()).
  void Rehash(size_t capacity, absl::FunctionRef<bool(int)> keep);

  std::vector<Slot> slots_;  // empty, or a power of two of them
  size_t mask_ = 0;          // slots_.size() - 1
  size_t size_ = 0;
};

}  // namespace rill

#endif  // RILL_GRAPH_NAME_INDEX_H_
