// The most threads one pool may have, for session configs (ConfigProto's inter- and intra-op
// counts and session_inter_op_thread_pool) and for rill_server's thread flags alike: a mistyped or
// hostile count must not make a process of a million threads (tests/fuzz:config_proto_fuzzer: a
// pool of that many takes seconds to start and join). Far above what any machine here can use.
#ifndef RILL_SESSION_THREAD_LIMITS_H_
#define RILL_SESSION_THREAD_LIMITS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace rill {

inline constexpr int kMaxThreadsPerPool = 1024;

// InvalidArgument "<what> is <threads>; Rill allows at most 1024 threads per pool. Use 0 for one
// thread per core (N here) or a smaller number" when `threads` is above kMaxThreadsPerPool; OK
// otherwise (a negative count's meaning is the caller's to check). `what` names the setting
// ("ConfigProto.inter_op_parallelism_threads", "--inter_op_threads").
absl::Status CheckThreadsPerPool(absl::string_view what, int64_t threads);

}  // namespace rill

#endif  // RILL_SESSION_THREAD_LIMITS_H_
