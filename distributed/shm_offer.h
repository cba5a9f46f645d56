// The same-host RecvTensor path's offer (Rill-only; TensorFlow peers never see it). A Rill worker
// receiving a tensor from a Rill worker on the same host offers a shared-memory segment of its
// own (a memfd) in the request's gRPC metadata; the sending worker copies the tensor's bytes into
// that segment instead of the response, and says so in the response's trailing metadata, whose
// message then carries only the dtype and shape (distributed/shm_segments.h receives,
// distributed/shm_writer.h sends; docs/distributed.md). A TensorFlow sender ignores the metadata
// and answers as always; TensorFlow receivers send none, so they get TensorFlow's wire format.
//
//   request metadata  rill-shm-offer: "1 <host id> <pid> <fd> <inode> <token, 16 hex digits>"
//   response trailer  rill-shm-bytes: "<bytes written>"
//
// The host id (the kernel's boot id and the PID namespace) tells whether the sender can open
// /proc/<pid>/fd/<fd> of the receiver; the inode and a random token written at the segment's
// start make sure it opens that very segment. Thread-safe.
#ifndef RILL_DISTRIBUTED_SHM_OFFER_H_
#define RILL_DISTRIBUTED_SHM_OFFER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "core/tensor.h"

namespace rill {
namespace distributed {

inline constexpr char kShmOfferKey[] = "rill-shm-offer";
inline constexpr char kShmBytesKey[] = "rill-shm-bytes";
// Segment layout: the token (8 bytes), the payload's size (8 bytes), then the tensor's bytes.
inline constexpr size_t kShmHeaderBytes = 64;

struct ShmOffer {
  std::string host;
  int64_t pid = 0;
  int fd = -1;
  uint64_t inode = 0;
  uint64_t token = 0;
};

std::string FormatShmOffer(const ShmOffer& offer);
// nullopt for anything that is not a version-1 offer.
std::optional<ShmOffer> ParseShmOffer(const std::string& text);

// "<boot id>/<pid namespace>", or "" where /proc does not tell (then nothing is offered).
const std::string& ShmHostId();

// Process-wide switches (rill_server's --same_host_transfer and --same_host_min_bytes): whether
// this process offers segments when it receives and writes into offered ones when it sends, and
// the smallest tensor (bytes) sent that way; smaller ones stay in the response, where they cost
// less than a segment.
struct ShmSettings {
  bool enabled = true;
  int64_t min_bytes = 256 * 1024;
};
ShmSettings GetShmSettings();
void SetShmSettings(const ShmSettings& settings);

// Whether `value` can travel through a segment: a numeric tensor of at least min_bytes.
bool ShmEligible(const Tensor& value);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_SHM_OFFER_H_
