// WorkerRendezvous: one step's rendezvous on a worker. Keys whose sending device is on this task
// (TensorFlow's key "<send_device>;<incarnation>;<recv_device>;<tensor_name>;0:0") meet in a
// LocalRendezvous; a Recv of a key sent by another task is fetched from that task with
// RecvTensor by `remote_recv` (the worker passes its WorkerClients). Abort fails waiting and later
// Recvs, local and remote, and cancels the RecvTensor calls in flight. Thread-safe.
#ifndef RILL_DISTRIBUTED_WORKER_RENDEZVOUS_H_
#define RILL_DISTRIBUTED_WORKER_RENDEZVOUS_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "core/cancellation.h"
#include "core/rendezvous.h"
#include "session/local_rendezvous.h"

namespace rill {
namespace distributed {

struct ParsedKey {
  std::string send_device;
  uint64_t send_incarnation = 0;
  std::string recv_device;
  std::string tensor_name;
  std::string send_job;  // from send_device
  int send_task = 0;
};

// InvalidArgument "Invalid rendezvous key: <key>" for a key that is not five ';'-separated parts
// with a parseable sending device and hex incarnation.
absl::StatusOr<ParsedKey> ParseRendezvousKey(const std::string& key);

class WorkerRendezvous final : public Rendezvous {
 public:
  // Fetches `key` from task (job, task) for `step_id`, calling `done` once; `cancel` is cancelled
  // when the step is aborted.
  using RemoteRecv =
      std::function<void(const std::string& job, int task, int64_t step_id, const std::string& key,
                         CancellationManager* cancel, DoneCallback done)>;

  WorkerRendezvous(int64_t step_id, std::string job, int task, RemoteRecv remote_recv);

  absl::Status Send(const std::string& key, const Tensor& value, bool is_dead) override;
  void RecvAsync(const std::string& key, DoneCallback done) override;
  void Abort(const absl::Status& status) override;
  // The local table only (what RecvTensor serves to other tasks).
  void RecvLocal(const std::string& key, DoneCallback done) { local_.RecvAsync(key, done); }

 private:
  const int64_t step_id_;
  const std::string job_;
  const int task_;
  const RemoteRecv remote_recv_;
  LocalRendezvous local_;
  CancellationManager cancel_;
};

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_WORKER_RENDEZVOUS_H_
