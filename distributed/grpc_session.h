// GrpcSession: a Session whose devices are the tasks of a cluster (ConfigProto.cluster_def),
// with this process as the master, as TensorFlow's MasterSession (no TensorFlow master needed).
//  - Devices: each task's, from GetStatus (full names /job:worker/replica:0/task:1/device:CPU:0);
//    they appear in ListDevices, the placer and the placement log.
//  - Unqualified device requests (/cpu:0, or none) resolve to the target task: the task whose
//    address is the grpc:// target, or the first task of the first job without a target.
//  - Each Run signature is pruned, placed and partitioned per device as the local session does;
//    feeds and fetches travel in RunGraph (`send`, `recv_key`, TensorFlow's client-terminated
//    _Recv/_Send with rendezvous keys on the target task's device), cross-task edges by RecvTensor
//    between the workers. Partitions are registered on their workers once per signature.
//  - Every RPC has a deadline: RunGraph and RecvTensor the run's timeout
//    (RunOptions.timeout_in_ms, else operation_timeout_in_ms, else one hour), the other calls
//    kControlTimeout (cleanup calls 2 s). A failed partition cancels the others' RunGraph calls;
//    every step ends with CleanupGraph on each task.
//  - Faults: a task that is down is Unavailable naming the task and what to do; a worker that
//    restarted (its graphs and incarnation gone) is Aborted. After either, the next Run asks
//    every task for its devices again and re-registers: the session recovers once the worker is
//    back (state such as variables on the restarted worker is lost, as in TensorFlow).
// Thread-safe like Session.
#ifndef RILL_DISTRIBUTED_GRPC_SESSION_H_
#define RILL_DISTRIBUTED_GRPC_SESSION_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "session/session.h"

namespace rill {
namespace distributed {

// Deadline of the calls other than RunGraph and RecvTensor (GetStatus, RegisterGraph, ...).
inline constexpr absl::Duration kControlTimeout = absl::Seconds(10);

// InvalidArgument for a target that is not grpc://host:port or names no task of the cluster;
// Unavailable (naming the task) when a task does not answer GetStatus.
absl::StatusOr<std::unique_ptr<SessionBackend>> NewGrpcSession(const SessionOptions& options);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_GRPC_SESSION_H_
