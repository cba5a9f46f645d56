// rill_server's command line: TensorFlow grpc_tensorflow_server's flags (--cluster_spec,
// --job_name, --task_id) and Rill's own (threads, TLS files, the same-host path). Parsing only:
// what the values name (the cluster spec, the task in it, the TLS files) is checked by the server.
#ifndef RILL_TOOLS_RILL_SERVER_SERVER_FLAGS_H_
#define RILL_TOOLS_RILL_SERVER_SERVER_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "distributed/shm_offer.h"

namespace rill {

extern const char kRillServerUsage[];

struct ServerFlags {
  bool help = false;  // --help or -h: print kRillServerUsage, nothing else is checked
  std::string cluster_spec, job_name;
  int task_id = -1;
  int inter_op_threads = 0;  // 0: one per core
  int intra_op_threads = 0;  // 0: one per core
  std::string tls_ca_file, tls_cert_file, tls_key_file;
  distributed::ShmSettings shm;
};

// `args` without the program name. InvalidArgument naming the flag for an unknown flag, a
// missing required one, or a value that is not what the flag takes: thread counts are 0 (one
// per core) up to the session configs' limit of threads per pool (session/thread_limits.h),
// with that limit's text.
absl::StatusOr<ServerFlags> ParseServerFlags(const std::vector<std::string>& args);

}  // namespace rill

#endif  // RILL_TOOLS_RILL_SERVER_SERVER_FLAGS_H_
