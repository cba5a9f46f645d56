#include "session/thread_limits.h"

#include "absl/strings/str_cat.h"
#include "core/thread_pool.h"

namespace rill {

absl::Status CheckThreadsPerPool(absl::string_view what, int64_t threads) {
  if (threads <= kMaxThreadsPerPool) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " is ", threads, "; Rill allows at most ", kMaxThreadsPerPool,
                   " threads per pool. Use 0 for one thread per core (", DefaultNumThreads(),
                   " here) or a smaller number"));
}

}  // namespace rill
