// EventWaiter: one thread that waits, in the order they were queued, for completions the host
// cannot see otherwise (a CUDA event recorded after a copy or a kernel), then runs each one's
// callback with the wait's status. The GPU device uses it so that nothing in the run path blocks
// a caller on the GPU: a _Send's device-to-host copy, say, hands its rendezvous Send to the
// waiter, which makes the consumer ready when the copy is done (TensorFlow's EventMgr, without
// polling: CUDA events made with cudaEventBlockingSync put the thread to sleep).
//
//   EventWaiter waiter("GPU:0");
//   waiter.Enqueue([=] { return SyncOnEvent(event); },
//                  [=](absl::Status s) { rendezvous->Send(key, host_copy, false); });
//
// Waits run one at a time; completions on different streams may finish out of order, which only
// delays a later callback, never loses one. Callbacks run on the waiter's thread or a given pool
// (as TensorFlow's EventMgr hands them to a thread pool) and may enqueue more waits; they must
// not wait for this waiter themselves. The destructor runs everything
// already queued, then joins the thread; an Enqueue after the thread has returned runs its
// callback at once with Cancelled. Thread-safe.
#ifndef RILL_CORE_GPU_EVENT_WAITER_H_
#define RILL_CORE_GPU_EVENT_WAITER_H_

#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "core/mutex.h"
#include "core/thread_pool.h"

namespace rill {

class EventWaiter {
 public:
  using Wait = std::function<absl::Status()>;  // blocks until the completion it waits for
  using Callback = std::function<void(absl::Status)>;

  // `name` names the thread ("rill_wait_" + name, cut to what Linux allows) for debuggers.
  // Callbacks run on `callbacks` when given (not owned; it must outlive the waiter), so the
  // waiter's next wait does not wait for a callback's downstream work (a consumer partition's
  // kernels that a rendezvous Send runs inline); otherwise on the waiter's thread, in order.
  explicit EventWaiter(const std::string& name, ThreadPool* callbacks = nullptr);
  ~EventWaiter();
  EventWaiter(const EventWaiter&) = delete;
  EventWaiter& operator=(const EventWaiter&) = delete;

  void Enqueue(Wait wait, Callback done);

 private:
  void Loop();

  Mutex mu_;
  CondVar cv_;
  std::deque<std::pair<Wait, Callback>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;  // the thread has returned: Enqueue runs `done`
  ThreadPool* const callbacks_;                // Not owned; may be null.
  std::thread thread_;
};

}  // namespace rill

#endif  // RILL_CORE_GPU_EVENT_WAITER_H_
