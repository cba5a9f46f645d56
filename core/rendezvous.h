// Rendezvous: where a step's _Send leaves a tensor and the matching _Recv picks it up, keyed by
// TensorFlow's rendezvous key "<send_device>;<incarnation hex>;<recv_device>;<tensor_name>;0:0".
// Send never blocks; Recv calls `done` when the value arrives or the rendezvous is aborted.
// Implementations are thread-safe (session/local_rendezvous.h).
#ifndef RILL_CORE_RENDEZVOUS_H_
#define RILL_CORE_RENDEZVOUS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/tensor.h"

namespace rill {

class Rendezvous {
 public:
  // `status` is not OK only when the rendezvous was aborted; then `value` is empty.
  // `is_dead` carries TF1 control-flow deadness across devices.
  using DoneCallback =
      std::function<void(const absl::Status& status, const Tensor& value, bool is_dead)>;

  virtual ~Rendezvous() = default;
  // FailedPrecondition if `key` was already sent in this step; the abort status after Abort.
  virtual absl::Status Send(const std::string& key, const Tensor& value, bool is_dead) = 0;
  // Calls `done` exactly once, possibly on another thread.
  virtual void RecvAsync(const std::string& key, DoneCallback done) = 0;
  // Fails every pending and later Recv with `status`.
  virtual void Abort(const absl::Status& status) = 0;
};

// "/job:localhost/replica:0/task:0/device:CPU:0;0000000000000001;/job:...:CPU:1;edge_5_a;0:0"
// (incarnation as 16 lowercase hex digits, TensorFlow's FpToString in Rendezvous::CreateKey: keys
// travel between processes, so a TensorFlow worker must compute the same string).
std::string CreateRendezvousKey(absl::string_view send_device, uint64_t send_incarnation,
                                absl::string_view recv_device, absl::string_view tensor_name);

}  // namespace rill

#endif  // RILL_CORE_RENDEZVOUS_H_
