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
// name or address, a job given twice).
absl::StatusOr<ClusterDef> ParseClusterSpec(absl::string_view spec);

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
