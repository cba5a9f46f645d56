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
// whose nodes keep their ids). Cost: O(1) expected per call. Not thread-safe for writes; const
// methods may run concurrently.
#ifndef RILL_GRAPH_NAME_INDEX_H_
#define RILL_GRAPH_NAME_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"

namespace rill {

class NameIndex {
 public:
  using NameOf = absl::FunctionRef<absl::string_view(int)>;

  // The id of `name`, or -1.
  int Find(absl::string_view name, NameOf name_of) const;
  // Adds `name` as `id` unless the name is present: {the name's id, whether it was added}.
  std::pair<int, bool> Insert(absl::string_view name, int id, NameOf name_of);
  // Fetches the memory a Find or Insert of `name` reads first into the cache, without waiting: a
  // hint for code about to look up many names, called some lookups ahead.
  void Prefetch(absl::string_view name) const { set_.prefetch(Key{name, HashOf(name), nullptr}); }
  // Removes `name`; false when it was absent.
  bool Erase(absl::string_view name, NameOf name_of);
  // Keeps the ids for which `keep(id)` is true, without reading any name (for removing many
  // names at once, or names whose source is gone).
  void Filter(absl::FunctionRef<bool(int)> keep);
  // Room for `n` names in all without rehashing.
  void Reserve(size_t n) { set_.reserve(n); }
  size_t size() const { return set_.size(); }

 private:
  struct Entry {
    uint32_t hash;
    int32_t id;
  };
  // A name looked for, with its hash and where the stored ids' names come from.
  struct Key {
    absl::string_view name;
    uint32_t hash;
    const NameOf* name_of;  // null in a Prefetch, which compares nothing
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Entry& e) const { return e.hash; }
    size_t operator()(const Key& k) const { return k.hash; }
  };
  struct Eq {
    using is_transparent = void;
    bool operator()(const Entry& a, const Entry& b) const { return a.id == b.id; }
    bool operator()(const Entry& e, const Key& k) const {
      return e.hash == k.hash && (*k.name_of)(e.id) == k.name;
    }
    bool operator()(const Key& k, const Entry& e) const { return (*this)(e, k); }
  };
  static uint32_t HashOf(absl::string_view name);

  absl::flat_hash_set<Entry, Hash, Eq> set_;
};

}  // namespace rill

#endif  // RILL_GRAPH_NAME_INDEX_H_
