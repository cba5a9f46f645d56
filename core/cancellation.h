// CancellationManager: one per step. Anything that waits (a _Recv, a blocking kernel) registers a
// callback; StartCancel runs every callback once, so nothing in the step waits forever after an
// error, a timeout or Session::Close.
//
//   CancellationToken t = cm->RegisterCallback([&] { wake_up(); });
//   if (t == kInvalidCancellationToken) { /* already cancelled */ }
//   ...
//   cm->DeregisterCallback(t);
//
// Thread-safe. Callbacks run on the thread that calls StartCancel, without the lock held.
#ifndef RILL_CORE_CANCELLATION_H_
#define RILL_CORE_CANCELLATION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>

#include "absl/status/status.h"
#include "core/mutex.h"

namespace rill {

using CancellationToken = int64_t;
inline constexpr CancellationToken kInvalidCancellationToken = -1;

class CancellationManager {
 public:
  // Runs and drops every registered callback (once); later registrations are refused. `reason`
  // is kept for status() (the first one wins).
  void StartCancel(absl::Status reason = absl::CancelledError("Step was cancelled"));
  bool IsCancelled() const;
  // Why the step was cancelled; OK if it was not.
  absl::Status status() const;
  // Returns kInvalidCancellationToken (and does not keep `callback`) if already cancelled.
  CancellationToken RegisterCallback(std::function<void()> callback);
  // Returns true if the callback was removed before running.
  bool DeregisterCallback(CancellationToken token);

 private:
  mutable rill::Mutex mu_;
  // Written under mu_ (with the callbacks); read without it by IsCancelled, which the executor
  // asks before every node.
  std::atomic<bool> cancelled_{false};
  absl::Status reason_ ABSL_GUARDED_BY(mu_);
  CancellationToken next_token_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<CancellationToken, std::function<void()>> callbacks_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_CORE_CANCELLATION_H_
