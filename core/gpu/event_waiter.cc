#include "core/gpu/event_waiter.h"

#include <pthread.h>

namespace rill {

EventWaiter::EventWaiter(const std::string& name, ThreadPool* callbacks) : callbacks_(callbacks) {
  thread_ = std::thread([this, thread_name = ("rill_wait_" + name).substr(0, 15)] {
    pthread_setname_np(pthread_self(), thread_name.c_str());
    Loop();
  });
}

EventWaiter::~EventWaiter() {
  {
    MutexLock lock(&mu_);
    stopping_ = true;
  }
  cv_.SignalAll();
  thread_.join();
}

void EventWaiter::Enqueue(Wait wait, Callback done) {
  {
    MutexLock lock(&mu_);
    if (!stopped_) {
      queue_.emplace_back(std::move(wait), std::move(done));
      cv_.Signal();
      return;
    }
  }
  // The thread is gone (only while the waiter is being destroyed): nothing would ever run it.
  done(absl::CancelledError("the GPU's event waiter has stopped"));
}

void EventWaiter::Loop() {
  for (;;) {
    std::pair<Wait, Callback> item;
    {
      MutexLock lock(&mu_);
      while (queue_.empty() && !stopping_) cv_.Wait(&mu_);
      if (queue_.empty()) {  // stopping, and everything queued has run
        stopped_ = true;
        return;
      }
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    absl::Status s = item.first();
    if (callbacks_ != nullptr) {
      callbacks_->Schedule([done = std::move(item.second), s = std::move(s)]() { done(s); });
    } else {
      item.second(std::move(s));
    }
  }
}

}  // namespace rill
