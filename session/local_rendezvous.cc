#include "session/local_rendezvous.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rill {

LocalRendezvous::~LocalRendezvous() { Abort(absl::CancelledError("Rendezvous destroyed")); }

absl::Status LocalRendezvous::Send(const std::string& key, const Tensor& value, bool is_dead) {
  DoneCallback waiter;
  {
    rill::MutexLock lock(&mu_);
    if (!abort_status_.ok()) return abort_status_;
    Item& item = table_[key];
    if (item.has_value) {
      return absl::FailedPreconditionError(absl::StrCat("Send of an already sent tensor: ", key));
    }
    if (item.waiters.empty()) {
      item.has_value = true;
      item.value = value;
      item.is_dead = is_dead;
      return absl::OkStatus();
    }
    waiter = std::move(item.waiters.front());
    item.waiters.pop_front();
    if (item.waiters.empty()) table_.erase(key);
  }
  waiter(absl::OkStatus(), value, is_dead);
  return absl::OkStatus();
}

void LocalRendezvous::RecvAsync(const std::string& key, DoneCallback done) {
  Tensor value;
  bool is_dead = false;
  absl::Status status;
  {
    rill::MutexLock lock(&mu_);
    if (!abort_status_.ok()) {
      status = abort_status_;
    } else {
      auto it = table_.find(key);
      if (it == table_.end() || !it->second.has_value) {
        table_[key].waiters.push_back(std::move(done));
        return;
      }
      value = std::move(it->second.value);
      is_dead = it->second.is_dead;
      table_.erase(it);
    }
  }
  done(status, value, is_dead);
}

void LocalRendezvous::Abort(const absl::Status& status) {
  std::vector<DoneCallback> waiters;
  {
    rill::MutexLock lock(&mu_);
    if (!abort_status_.ok()) return;
    abort_status_ = status.ok() ? absl::CancelledError("Rendezvous aborted") : status;
    for (auto& [key, item] : table_) {
      for (auto& w : item.waiters) waiters.push_back(std::move(w));
    }
    table_.clear();
  }
  for (auto& w : waiters) w(status, Tensor(), false);
}

}  // namespace rill
