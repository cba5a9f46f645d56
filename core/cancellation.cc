#include "core/cancellation.h"

#include <utility>

namespace rill {

void CancellationManager::StartCancel(absl::Status reason) {
  std::map<CancellationToken, std::function<void()>> callbacks;
  {
    rill::MutexLock lock(&mu_);
    if (cancelled_.load(std::memory_order_relaxed)) return;
    cancelled_.store(true, std::memory_order_release);
    reason_ = std::move(reason);
    callbacks.swap(callbacks_);
  }
  for (auto& [token, cb] : callbacks) cb();
}

bool CancellationManager::IsCancelled() const { return cancelled_.load(std::memory_order_acquire); }

absl::Status CancellationManager::status() const {
  rill::MutexLock lock(&mu_);
  return reason_;
}

CancellationToken CancellationManager::RegisterCallback(std::function<void()> callback) {
  rill::MutexLock lock(&mu_);
  if (cancelled_) return kInvalidCancellationToken;
  CancellationToken t = next_token_++;
  callbacks_.emplace(t, std::move(callback));
  return t;
}

bool CancellationManager::DeregisterCallback(CancellationToken token) {
  rill::MutexLock lock(&mu_);
  return callbacks_.erase(token) > 0;
}

}  // namespace rill
