// LocalRendezvous: the per-step, in-process Rendezvous. Send never blocks; RecvAsync calls back at
// once when the value is there, else when it arrives. Abort fails every waiting and later Recv, so
// no Recv waits forever after a failed step. Same-host transfers share the tensor's buffer (no
// copy). Thread-safe.
#ifndef RILL_SESSION_LOCAL_RENDEZVOUS_H_
#define RILL_SESSION_LOCAL_RENDEZVOUS_H_

#include <deque>
#include <map>
#include <string>

#include "core/mutex.h"
#include "core/rendezvous.h"

namespace rill {

class LocalRendezvous final : public Rendezvous {
 public:
  LocalRendezvous() = default;
  ~LocalRendezvous() override;  // aborts anything still waiting

  absl::Status Send(const std::string& key, const Tensor& value, bool is_dead) override;
  void RecvAsync(const std::string& key, DoneCallback done) override;
  void Abort(const absl::Status& status) override;

 private:
  struct Item {
    bool has_value = false;
    Tensor value;
    bool is_dead = false;
    std::deque<DoneCallback> waiters;
  };
  rill::Mutex mu_;
  absl::Status abort_status_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, Item> table_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_SESSION_LOCAL_RENDEZVOUS_H_
