// The receiving side of the same-host RecvTensor path (distributed/shm_offer.h): a pool of
// shared-memory segments (memfds named "rill-recv", each mapped once here and kept mapped) that
// RecvTensor calls offer to a Rill sender on this host. A call holds its segment alone; the
// sender grows it when the tensor is larger and writes the bytes, and the receiver copies them
// into an ordinary tensor, so the segment goes back to the pool as soon as the call ends. Only a
// call that completed returns its segment (Take, Keep); after an error or a cancellation the
// sender may still be writing, so the segment is closed instead. At most kMaxIdle segments stay
// in the pool; a segment is never named in the file system, so nothing outlives the process.
// Where the segment cannot be mapped, its bytes are read with pread instead. Thread-safe.
//
//   std::unique_ptr<ShmLease> lease = ShmSegments::Default()->Acquire();   // null: no offer
//   ctx.AddMetadata(kShmOfferKey, lease->offer());
//   ... the trailer says the sender wrote `bytes` ...
//   RILL_ASSIGN_OR_RETURN(Tensor t, lease->Take(dtype, shape));
#ifndef RILL_DISTRIBUTED_SHM_SEGMENTS_H_
#define RILL_DISTRIBUTED_SHM_SEGMENTS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/mutex.h"
#include "core/tensor.h"

namespace rill {
namespace distributed {

class ShmSegments;

// One memfd, its token and this process's mapping of it.
struct ShmSegment {
  ~ShmSegment();
  int fd = -1;
  uint64_t inode = 0;
  uint64_t token = 0;
  void* map = nullptr;
  size_t mapped = 0;
};

// A segment held by one call; returns it to the pool when destroyed after Keep or a successful
// Take, closes it otherwise.
class ShmLease {
 public:
  ShmLease(ShmSegments* pool, std::unique_ptr<ShmSegment> segment, std::string offer);
  ~ShmLease();
  ShmLease(const ShmLease&) = delete;
  ShmLease& operator=(const ShmLease&) = delete;

  // The metadata value offering the segment (FormatShmOffer).
  const std::string& offer() const { return offer_; }
  // The tensor the sender wrote: InvalidArgument naming what is wrong when the segment does not
  // hold exactly the bytes of a `dtype` tensor of `shape` (a sender that did not write it).
  absl::StatusOr<Tensor> Take(DataType dtype, const TensorShape& shape);
  // The call completed without using the segment (the tensor came in the response).
  void Keep() { keep_ = true; }

 private:
  ShmSegments* const pool_;
  bool keep_ = false;
  std::unique_ptr<ShmSegment> segment_;
  const std::string offer_;
};

class ShmSegments {
 public:
  static constexpr int kMaxIdle = 2;
  // The process's pool (never destroyed).
  static ShmSegments* Default();

  // A segment to offer, or null where same-host transfer is off (GetShmSettings), /proc gives no
  // host id, or no memfd can be made.
  std::unique_ptr<ShmLease> Acquire();

  // Tensors taken from segments, and those read with pread because mapping failed.
  int64_t taken() const { return taken_.load(); }
  int64_t read_without_map() const { return read_without_map_.load(); }
  // Test hook: Take behaves as if mmap failed.
  void set_fail_map_for_test(bool fail) { fail_map_ = fail; }

 private:
  friend class ShmLease;
  void Release(std::unique_ptr<ShmSegment> segment);

  Mutex mu_;
  std::vector<std::unique_ptr<ShmSegment>> idle_;
  std::atomic<int64_t> taken_{0};
  std::atomic<int64_t> read_without_map_{0};
  std::atomic<bool> fail_map_{false};
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_SHM_SEGMENTS_H_
