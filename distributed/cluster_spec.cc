#include "distributed/cluster_spec.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace rill {
namespace distributed {

absl::StatusOr<ClusterDef> ParseClusterSpec(absl::string_view spec) {
  if (spec.empty()) {
    return absl::InvalidArgumentError(
        "The cluster spec is empty; give it as job|host:port;host:port,job|host:port "
        "(e.g. worker|127.0.0.1:2222;127.0.0.1:2223)");
  }
  ClusterDef cluster;
  std::set<std::string> seen;
  for (absl::string_view job_spec : absl::StrSplit(spec, ',')) {
    std::vector<absl::string_view> parts = absl::StrSplit(job_spec, '|');
    if (parts.size() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid job specification in the cluster spec: '", job_spec,
                       "'; expected job_name|host:port;host:port"));
    }
    if (parts[0].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Empty job name in the cluster spec: '", job_spec, "'"));
    }
    if (!seen.insert(std::string(parts[0])).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Job '", parts[0], "' appears twice in the cluster spec"));
    }
    JobDef* job = cluster.add_job();
    job->set_name(std::string(parts[0]));
    int index = 0;
    for (absl::string_view address : absl::StrSplit(parts[1], ';')) {
      if (address.empty()) {
        return absl::InvalidArgumentError(absl::StrCat("Task ", index, " of job '", parts[0],
                                                       "' has an empty address in the cluster "
                                                       "spec; give host:port"));
      }
      (*job->mutable_tasks())[index++] = std::string(address);
    }
  }
  return cluster;
}

absl::StatusOr<std::string> TaskAddress(const ClusterDef& cluster, absl::string_view job,
                                        int task) {
  std::vector<std::string> jobs;
  for (const JobDef& j : cluster.job()) {
    jobs.push_back(j.name());
    if (j.name() != job) continue;
    auto it = j.tasks().find(task);
    if (it == j.tasks().end()) {
      return absl::NotFoundError(absl::StrCat("The cluster has no task ", task, " in job '", job,
                                              "' (it has ", j.tasks_size(), " tasks)"));
    }
    return it->second;
  }
  return absl::NotFoundError(
      absl::StrCat("The cluster has no job '", job, "' (jobs: ", absl::StrJoin(jobs, ", "), ")"));
}

std::string TaskName(absl::string_view job, int task) {
  return absl::StrCat("/job:", job, "/replica:0/task:", task);
}

std::vector<TaskRef> ListTasks(const ClusterDef& cluster) {
  std::vector<TaskRef> out;
  for (const JobDef& j : cluster.job()) {
    std::map<int, std::string> sorted(j.tasks().begin(), j.tasks().end());
    for (const auto& [index, address] : sorted) out.push_back({j.name(), index, address});
  }
  return out;
}

}  // namespace distributed
}  // namespace rill
