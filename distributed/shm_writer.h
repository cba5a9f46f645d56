// The sending side of the same-host RecvTensor path (distributed/shm_offer.h): copies a tensor's
// bytes into the segment a receiver on this host offered. The segment is opened through
// /proc/<pid>/fd/<fd> of the receiver, checked (its inode, a memfd named rill-recv, the token at
// its start), grown when the tensor is larger, and mapped; the mapping is kept for the next
// tensor to the same segment, since mapping 100 MB anew costs more than copying it. Mappings are
// dropped when their receiver process is gone, when they were not used for kIdleSeconds, past
// kMaxMappings (the least recently used), and on Sweep(true). Thread-safe; one segment is
// written by one call at a time (its receiver's).
#ifndef RILL_DISTRIBUTED_SHM_WRITER_H_
#define RILL_DISTRIBUTED_SHM_WRITER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/mutex.h"
#include "core/tensor.h"
#include "distributed/shm_offer.h"

namespace rill {
namespace distributed {

class ShmWriter {
 public:
  static constexpr int kMaxMappings = 4;
  static constexpr int kIdleSeconds = 10;
  // The process's writer (never destroyed).
  static ShmWriter* Default();

  // Writes `value` (ShmEligible) into the offered segment. FailedPrecondition when the offer is
  // from another host or the segment cannot be opened or is not the one offered (the caller then
  // sends the tensor in the response); Internal when growing it fails (out of memory).
  absl::Status Write(const ShmOffer& offer, const Tensor& value);

  // Drops the mappings of receivers that are gone or idle too long (all of them with `all`).
  void Sweep(bool all = false);

  int64_t written() const { return written_.load(); }
  int mappings();

 private:
  struct Mapping {
    ~Mapping();
    void* map = nullptr;
    size_t size = 0;
    absl::Time last_use;
  };
  using Key = std::pair<int64_t, uint64_t>;  // receiver pid, segment token
  absl::Status Open(const ShmOffer& offer, size_t need, std::shared_ptr<Mapping>* out);

  Mutex mu_;
  std::map<Key, std::shared_ptr<Mapping>> mappings_;
  absl::Time last_sweep_;
  std::atomic<int64_t> written_{0};
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_SHM_WRITER_H_
