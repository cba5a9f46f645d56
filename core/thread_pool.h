// ThreadPool: a named pool of worker threads over Eigen's work-stealing NonBlockingThreadPool
// (Eigen::ThreadPoolTempl), the pool TensorFlow uses for inter- and intra-op parallelism.
//
//   ThreadPool pool("inter_op", DefaultNumThreads());
//   pool.Schedule([] { RunNode(); });
//   pool.ParallelFor(n, /*cost_per_unit=*/50, [&](int64_t begin, int64_t end) {
//     for (int64_t i = begin; i < end; ++i) out[i] = f(in[i]);
//   });
//
// Thread safety: all methods are thread-safe and may be called from pool threads (a pool thread
// may Schedule more work or run a nested ParallelFor). The destructor must not run concurrently
// with other calls, nor on one of the pool's own threads.
// Ownership: the pool owns its threads and the closures it has been given until they have run.
#ifndef RILL_CORE_THREAD_POOL_H_
#define RILL_CORE_THREAD_POOL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace Eigen {
class ThreadPoolInterface;
}  // namespace Eigen

namespace rill {

// std::thread::hardware_concurrency(), or 1 when the runtime cannot tell.
int DefaultNumThreads();

class ThreadPool {
 public:
  // Starts `num_threads` worker threads (RILL_CHECK-fails, i.e. aborts, if num_threads < 1).
  // `name` is for diagnostics: threads are named "rill_<name>" (truncated to Linux's 15
  // characters). The threads flush subnormal floats to zero (core/denormal.h), as TensorFlow's
  // pool threads do.
  ThreadPool(std::string name, int num_threads);

  // A pool for a count that comes from input (a session's config): InvalidArgument for fewer
  // than one thread; ResourceExhausted, naming the pool and the thread that could not start,
  // when the process cannot start that many threads (a memory or thread limit) — the
  // constructor would throw std::system_error from inside Eigen's pool instead. The threads are
  // tried before the pool is made, so no half-made pool is left behind.
  static absl::StatusOr<std::unique_ptr<ThreadPool>> Create(std::string name, int num_threads);

  // Runs every closure already scheduled (including any they schedule in turn), then joins the
  // threads. Blocks until that is done.
  ~ThreadPool();

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Queues `fn` to run once on some pool thread and returns at once; no ordering between closures
  // is promised. `fn` must not throw. When called on a pool thread the closure goes to that
  // thread's own queue (LIFO, stealable by the others), otherwise to a random thread's queue. If
  // the chosen queue is full (1024 entries) `fn` runs inline in the caller before Schedule
  // returns. Must not be called after the destructor has started, except from pool threads.
  void Schedule(std::function<void()> fn);

  // Calls fn(begin, end) on disjoint blocks [begin, end) that together cover [0, total) exactly
  // once, in parallel over the pool, and returns when every call has returned. `cost_per_unit` is
  // an estimate of the cost of one index in CPU cycles (as in TensorFlow: ~1 per simple arithmetic
  // op, ~10-100s for a cache miss or small loop); it sets the block size so that a block is worth
  // scheduling. Values below 1 count as 1. Runs fn(0, total) inline on the caller when total is
  // small (total * cost_per_unit below ~10k cycles), when ParallelismForCaller() is 1 (a
  // one-thread pool called from its own thread), or when only one block results. Does nothing when
  // total <= 0. The calling thread executes blocks too, so a nested ParallelFor on a busy pool
  // cannot deadlock. `fn` may run concurrently on several threads and must be safe for that; it is
  // not used after ParallelFor returns.
  void ParallelFor(int64_t total, int64_t cost_per_unit,
                   const std::function<void(int64_t begin, int64_t end)>& fn);
  // True when ParallelFor would run [0, total) inline as one block because the work is too small
  // to be worth scheduling (whatever the pool size), so callers can skip building the
  // std::function (a heap allocation for most lambdas) on hot paths.
  static bool TooSmallToSplit(int64_t total, int64_t cost_per_unit) {
    return total <= kMinCostPerBlock / (cost_per_unit < 1 ? 1 : cost_per_unit);
  }
  // Target cost of one ParallelFor block, in cycles: below this, scheduling costs more than it
  // saves.
  static constexpr int64_t kMinCostPerBlock = 10000;
  // The block size ParallelFor uses for `total` units of `cost_per_unit` over `workers` threads:
  // blocks worth kMinCostPerBlock, at most kBlocksPerThread (4) per worker.
  static int64_t BlockSize(int64_t total, int64_t cost_per_unit, int64_t workers);

  // Number of worker threads.
  int NumThreads() const;

  // Threads that a ParallelFor called from the current thread runs blocks on: the pool's threads,
  // plus the caller itself when it is not one of them. Kernels size their splits by this.
  int ParallelismForCaller() const { return NumThreads() + (CurrentThreadId() < 0 ? 1 : 0); }

  // Index in [0, NumThreads()) of the calling thread within this pool, or -1 if the caller is not
  // one of this pool's threads.
  int CurrentThreadId() const;

  const std::string& name() const { return name_; }

  // The underlying Eigen pool, e.g. for Eigen::ThreadPoolDevice in kernels. Owned by this object.
  Eigen::ThreadPoolInterface* AsEigenThreadPool() const;

 private:
  class Impl;
  const std::string name_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rill

#endif  // RILL_CORE_THREAD_POOL_H_
