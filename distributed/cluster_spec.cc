#include "distributed/cluster_spec.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

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
  RILL_RETURN_IF_ERROR(ValidateClusterDef(cluster, "the cluster spec"));
  return cluster;
}

absl::Status ValidateHostPort(absl::string_view address, absl::string_view where) {
  const size_t colon = address.rfind(':');
  const absl::string_view host =
      colon == absl::string_view::npos ? address : address.substr(0, colon);
  const absl::string_view port =
      colon == absl::string_view::npos ? absl::string_view() : address.substr(colon + 1);
  uint32_t number = 0;
  // Digits only: SimpleAtoi alone would take "2222 " or "+2222".
  bool ok =
      !host.empty() && !port.empty() &&
      std::all_of(port.begin(), port.end(), [](char ch) { return absl::ascii_isdigit(ch); }) &&
      absl::SimpleAtoi(port, &number) && number >= 1 && number <= 65535;
  for (char ch : host) {
    const unsigned char u = static_cast<unsigned char>(ch);
    if (ch == '/' || u <= 0x20 || u == 0x7f) ok = false;
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Could not interpret \"", absl::CEscape(address), "\" as a host-port pair. (", where,
      ": give host:port, a host name or IP address and a port from 1 to 65535)"));
}

absl::Status ValidateClusterDef(const ClusterDef& cluster, absl::string_view what) {
  std::set<std::string> seen;
  for (const JobDef& job : cluster.job()) {
    const std::string& name = job.name();
    if (name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Empty job name in ", what, "; name each job (e.g. worker, ps)"));
    }
    bool valid = absl::ascii_isalpha(name[0]);
    for (char ch : name) valid = valid && (absl::ascii_isalnum(ch) || ch == '_');
    if (!valid) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Job name '", absl::CEscape(name), "' in ", what,
          " cannot be part of a device name (/job:<name>): start it with a letter and use only "
          "letters, digits and '_'"));
    }
    if (!seen.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Duplicate job ID in cluster specification: ", name,
                       " (give each job once in ", what, ", with all its tasks)"));
    }
    for (const auto& [index, address] : job.tasks()) {
      if (index < 0) {
        return absl::InvalidArgumentError(absl::StrCat("Task index ", index, " of job '", name,
                                                       "' in ", what,
                                                       " is negative; tasks are numbered from 0"));
      }
      RILL_RETURN_IF_ERROR(ValidateHostPort(
          address, absl::StrCat("task ", index, " of job '", name, "' in ", what)));
    }
  }
  return absl::OkStatus();
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
