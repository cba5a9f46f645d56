// Cluster specs: TensorFlow's grpc_tensorflow_server flag format
//   "worker|127.0.0.1:2222;127.0.0.1:2223,ps|127.0.0.1:2224"
// (jobs separated by ',', a job's name then '|' then its tasks' host:port separated by ';', task
// index = position) parsed into a ClusterDef, and the lookups the worker and the master need.
// Pure functions; thread-safe.
#ifndef RILL_DISTRIBUTED_CLUSTER_SPEC_H_
#define RILL_DISTRIBUTED_CLUSTER_SPEC_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "proto/cluster.pb.h"

namespace rill {
namespace distributed {

// InvalidArgument naming the part that is wrong (an empty spec, a job without '|', an empty job
// name or address, a job given twice, anything ValidateClusterDef refuses).
absl::StatusOr<ClusterDef> ParseClusterSpec(absl::string_view spec);

// OK for a "host:port" a channel can dial: a port from 1 to 65535 after the last ':', a host
// that is not empty and holds no '/', space or control character. Otherwise InvalidArgument with
// TensorFlow's text (`Could not interpret "<address>" as a host-port pair.`) and `where` (e.g.
// "task 1 of job 'worker' in the cluster_def") with what to change.
absl::Status ValidateHostPort(absl::string_view address, absl::string_view where);

// OK for a ClusterDef whose every task can be named and dialed; InvalidArgument naming the job
// or task otherwise: an empty job name or one a device name cannot hold (TensorFlow's job names:
// a letter, then letters, digits and '_'), a job given twice (TensorFlow's "Duplicate job ID in
// cluster specification: <job>"), a negative task index, an address ValidateHostPort refuses.
// `what` names the source in messages ("the cluster_def", "the cluster spec").
absl::Status ValidateClusterDef(const ClusterDef& cluster, absl::string_view what);

// The task's "host:port"; NotFound naming the job and task (and the jobs there are) when the
// cluster has no such task.
absl::StatusOr<std::string> TaskAddress(const ClusterDef& cluster, absl::string_view job, int task);

// "/job:<job>/replica:0/task:<task>".
std::string TaskName(absl::string_view job, int task);

struct TaskRef {
  std::string job;
  int task = 0;
  std::string address;
};

// Every task, jobs in the cluster's order, tasks by index.
std::vector<TaskRef> ListTasks(const ClusterDef& cluster);

}  // namespace distributed
}  // namespace rill

#endif  // RILL_DISTRIBUTED_CLUSTER_SPEC_H_
