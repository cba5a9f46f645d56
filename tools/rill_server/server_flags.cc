#include "tools/rill_server/server_flags.h"

#include <cstdint>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/thread_pool.h"
#include "session/thread_limits.h"

namespace rill {

const char kRillServerUsage[] =
    "usage: rill_server --cluster_spec=JOB|HOST:PORT;HOST:PORT[,JOB|...] --job_name=JOB "
    "--task_id=N\n"
    "  [--inter_op_threads=N] [--intra_op_threads=N] threads of each pool, 0 (the default) for "
    "one per core, at most 1024\n"
    "  [--tls_cert_file=PEM --tls_key_file=PEM] serve over TLS with this certificate and key\n"
    "  [--tls_ca_file=PEM] verify the other tasks' certificates with this CA (TLS to them)\n"
    "  [--same_host_transfer=true|false] tensors between Rill tasks on this host through shared\n"
    "    memory (default true; Rill-only, docs/distributed.md)\n"
    "  [--same_host_min_bytes=N] smallest tensor sent that way (default 262144)\n";

namespace {

absl::Status Bad(absl::string_view flag, absl::string_view value, absl::string_view want) {
  return absl::InvalidArgumentError(
      absl::StrCat(flag, " is '", value, "'; give ", want, " (", flag, "=N)"));
}

absl::StatusOr<int> ParseThreads(absl::string_view flag, const std::string& value) {
  int64_t n = 0;
  const std::string want = absl::StrCat("0 for one thread per core (", DefaultNumThreads(),
                                        " here) or a positive number");
  if (!absl::SimpleAtoi(value, &n) || n < 0) return Bad(flag, value, want);
  RILL_RETURN_IF_ERROR(CheckThreadsPerPool(flag, n));
  return static_cast<int>(n);
}

}  // namespace

absl::StatusOr<ServerFlags> ParseServerFlags(const std::vector<std::string>& args) {
  ServerFlags flags;
  for (const std::string& a : args) {
    auto take = [&](const char* flag, std::string* out) {
      std::string prefix = absl::StrCat(flag, "=");
      if (!absl::StartsWith(a, prefix)) return false;
      *out = a.substr(prefix.size());
      return true;
    };
    std::string v;
    if (take("--cluster_spec", &flags.cluster_spec) || take("--job_name", &flags.job_name) ||
        take("--tls_ca_file", &flags.tls_ca_file) ||
        take("--tls_cert_file", &flags.tls_cert_file) ||
        take("--tls_key_file", &flags.tls_key_file)) {
      continue;
    }
    if (take("--task_id", &v) || take("--task_index", &v)) {
      if (!absl::SimpleAtoi(v, &flags.task_id) || flags.task_id < 0) {
        return Bad("--task_id", v, "the task's index in its job, from 0");
      }
      continue;
    }
    if (take("--inter_op_threads", &v)) {
      RILL_ASSIGN_OR_RETURN(flags.inter_op_threads, ParseThreads("--inter_op_threads", v));
      continue;
    }
    if (take("--intra_op_threads", &v)) {
      RILL_ASSIGN_OR_RETURN(flags.intra_op_threads, ParseThreads("--intra_op_threads", v));
      continue;
    }
    if (take("--same_host_transfer", &v)) {
      if (v != "true" && v != "false") {
        return absl::InvalidArgumentError(
            absl::StrCat("--same_host_transfer is '", v, "'; give true or false"));
      }
      flags.shm.enabled = v == "true";
      continue;
    }
    if (take("--same_host_min_bytes", &v)) {
      if (!absl::SimpleAtoi(v, &flags.shm.min_bytes) || flags.shm.min_bytes < 0) {
        return Bad("--same_host_min_bytes", v, "a size in bytes, 0 or more");
      }
      continue;
    }
    if (a == "--help" || a == "-h") {
      flags.help = true;
      return flags;
    }
    return absl::InvalidArgumentError(absl::StrCat("unknown flag ", a));
  }
  if (flags.cluster_spec.empty()) return absl::InvalidArgumentError("--cluster_spec is required");
  if (flags.job_name.empty()) return absl::InvalidArgumentError("--job_name is required");
  if (flags.task_id < 0) return absl::InvalidArgumentError("--task_id is required");
  return flags;
}

}  // namespace rill
