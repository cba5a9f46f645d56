// Rill's synchronization primitives: Mutex, SharedMutex, their scoped locks, CondVar, Notification
// and BlockingCounter.
//
// Why not absl::Mutex: Rill links the system's Abseil, which is not built with ThreadSanitizer, so
// absl::Mutex's futex-based happens-before edges are invisible to TSan and every field it guards
// reads as a race. These types sit on the C++ standard library's pthread-based primitives, which
// TSan intercepts whether or not the library was instrumented, so `--config=tsan` sees every lock.
// They keep Abseil's thread-safety annotations (ABSL_GUARDED_BY and friends work on them).
//
// Thread safety: every type here is safe to use from any number of threads, as its purpose says.
#ifndef RILL_CORE_MUTEX_H_
#define RILL_CORE_MUTEX_H_

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace rill {

// An exclusive lock (std::mutex). constexpr-constructible, so a namespace-scope Mutex needs no
// dynamic initialization.
class ABSL_LOCKABLE Mutex {
 public:
  constexpr Mutex() noexcept = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  bool TryLock() ABSL_EXCLUSIVE_TRYLOCK_FUNCTION(true) { return mu_.try_lock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// A reader-writer lock (std::shared_mutex): variables take it shared to read and exclusive to
// assign, so concurrent reads of one variable do not serialize.
class ABSL_LOCKABLE SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() { mu_.lock_shared(); }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds `mu` exclusively for the scope; `mu` is a Mutex or a SharedMutex.
template <typename M>
class ABSL_SCOPED_LOCKABLE BasicMutexLock {
 public:
  explicit BasicMutexLock(M* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~BasicMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  BasicMutexLock(const BasicMutexLock&) = delete;
  BasicMutexLock& operator=(const BasicMutexLock&) = delete;

 private:
  M* const mu_;
};
using MutexLock = BasicMutexLock<Mutex>;
using WriterMutexLock = BasicMutexLock<SharedMutex>;

// Holds a SharedMutex shared for the scope.
class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReaderLock();
  }
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  SharedMutex* const mu_;
};

// A condition variable bound to a Mutex the caller holds.
class CondVar {
 public:
  // Releases `mu`, waits for a signal (or a spurious wakeup) and takes `mu` again.
  void Wait(Mutex* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // As Wait, but gives up after `timeout`; returns true when it timed out. Waits of more than a
  // day return after a day (reporting a timeout): std::condition_variable::wait_for overflows on
  // an infinite duration and would return at once, turning a caller's wait loop into a spin.
  // Callers loop on their own deadline, so the cap is invisible to them.
  bool WaitWithTimeout(Mutex* mu, absl::Duration timeout) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    const std::cv_status s =
        cv_.wait_for(lock, absl::ToChronoNanoseconds(std::min(timeout, absl::Hours(24))));
    lock.release();
    return s == std::cv_status::timeout;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

// A one-shot event: Notify() once, any number of threads wait for it.
class Notification {
 public:
  Notification() = default;
  Notification(const Notification&) = delete;
  Notification& operator=(const Notification&) = delete;

  void Notify() {
    MutexLock lock(&mu_);
    notified_ = true;
    cv_.SignalAll();
  }
  bool HasBeenNotified() const {
    MutexLock lock(&mu_);
    return notified_;
  }
  void WaitForNotification() const {
    MutexLock lock(&mu_);
    while (!notified_) cv_.Wait(&mu_);
  }
  // Returns whether the notification came within `timeout`.
  bool WaitForNotificationWithTimeout(absl::Duration timeout) const {
    const absl::Time deadline = absl::Now() + timeout;
    MutexLock lock(&mu_);
    while (!notified_) {
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) break;
      cv_.WaitWithTimeout(&mu_, left);
    }
    return notified_;
  }

 private:
  mutable Mutex mu_;
  mutable CondVar cv_;
  bool notified_ ABSL_GUARDED_BY(mu_) = false;
};

// Counts down from `initial`; Wait() returns once DecrementCount() was called that many times.
class BlockingCounter {
 public:
  explicit BlockingCounter(int initial) : count_(initial) {}
  BlockingCounter(const BlockingCounter&) = delete;
  BlockingCounter& operator=(const BlockingCounter&) = delete;

  void DecrementCount() {
    MutexLock lock(&mu_);
    if (--count_ == 0) cv_.SignalAll();
  }
  void Wait() {
    MutexLock lock(&mu_);
    while (count_ > 0) cv_.Wait(&mu_);
  }

 private:
  Mutex mu_;
  CondVar cv_;
  int count_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_CORE_MUTEX_H_
