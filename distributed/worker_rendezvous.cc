#include "distributed/worker_rendezvous.h"

#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device_name.h"

namespace rill {
namespace distributed {

absl::StatusOr<ParsedKey> ParseRendezvousKey(const std::string& key) {
  std::vector<std::string> parts = absl::StrSplit(key, ';');
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat("Invalid rendezvous key: ", key));
  };
  if (parts.size() != 5) return bad();
  ParsedKey out;
  out.send_device = parts[0];
  out.recv_device = parts[2];
  out.tensor_name = parts[3];
  if (!absl::SimpleHexAtoi(parts[1], &out.send_incarnation)) return bad();
  absl::StatusOr<DeviceName> dev = ParseDeviceName(parts[0]);
  if (!dev.ok() || !dev->has_job || !dev->has_task) return bad();
  out.send_job = dev->job;
  out.send_task = dev->task;
  return out;
}

WorkerRendezvous::WorkerRendezvous(int64_t step_id, std::string job, int task,
                                   RemoteRecv remote_recv)
    : step_id_(step_id), job_(std::move(job)), task_(task), remote_recv_(std::move(remote_recv)) {}

absl::Status WorkerRendezvous::Send(const std::string& key, const Tensor& value, bool is_dead) {
  return local_.Send(key, value, is_dead);
}

void WorkerRendezvous::RecvAsync(const std::string& key, DoneCallback done) {
  absl::StatusOr<ParsedKey> parsed = ParseRendezvousKey(key);
  if (!parsed.ok()) {
    done(parsed.status(), Tensor(), false);
    return;
  }
  if ((parsed->send_job == job_ && parsed->send_task == task_) || !remote_recv_) {
    local_.RecvAsync(key, std::move(done));
    return;
  }
  if (cancel_.IsCancelled()) {
    done(cancel_.status(), Tensor(), false);
    return;
  }
  remote_recv_(parsed->send_job, parsed->send_task, step_id_, key, &cancel_, std::move(done));
}

void WorkerRendezvous::Abort(const absl::Status& status) {
  local_.Abort(status);
  cancel_.StartCancel(status);
}

}  // namespace distributed
}  // namespace rill
