// What an expensive kernel (OpKernel::IsExpensive) has been seen to cost, so the dispatcher hands
// to another thread only nodes that take longer than the hand-off itself. A MatMul is expensive by
// its kind, but a recurrent step's [16,256] x [256,256] MatMul takes microseconds: handed to
// another inter-op thread every iteration, a loop spends more time waking threads than computing
// (TensorFlow's executor keeps the same kind of per-node running estimate for the same reason).
//
//   if (item.cost.WorthHandingOff()) ...            // dispatch.h
//   item.cost.Record(elapsed_ns);                    // executor.cc, after Compute
//
// The estimate: the first measured Compute time, replaced outright by the second (a kernel's
// first run pays one-time costs: oneDNN's JIT and primitive creation, first-touch page faults,
// cold caches; a TextCNN's 2 us Conv1D took 1,235 us on its first run, 11 on its second), then a
// moving average that goes half the way to a faster time and an eighth of the way to a slower
// one. A kernel is at its fastest once its first runs are over, so the estimate gets there
// within a few runs; with a symmetric 1/8 average ~30 runs would pass before that first run was
// forgotten, each handing a sub-millisecond model's nodes between threads at several times their
// steady cost. A kernel that became slower (a bigger batch) still crosses the threshold after a
// few runs, and one preempted run moves the estimate little.
// Until a first measurement the node counts as worth handing off.
// Timing a run costs two clock reads, as much as a scalar Add's whole Compute: once the estimate
// is learned and well below the threshold (under a quarter of it), only one run in kSampleEvery
// is timed (ShouldMeasure). A kernel that became slow is then still seen within kSampleEvery runs,
// and from a quarter of the threshold on every run is timed again.
//
// Threading: any thread running the node records, any thread dispatching reads; relaxed atomics
// (a stale or lost update only moves one dispatch decision, never a result).
#ifndef RILL_SESSION_EXECUTOR_COST_ESTIMATE_H_
#define RILL_SESSION_EXECUTOR_COST_ESTIMATE_H_

#include <atomic>
#include <cstdint>

namespace rill {
namespace executor_internal {

class CostEstimate {
 public:
  // Below this a node runs on the thread that made it ready: waking an inter-op thread and
  // moving its inputs' cache lines costs a few microseconds at best, tens when it sleeps.
  static constexpr int64_t kHandOffMinNs = 20000;

  CostEstimate() = default;
  // Copyable so NodeItem stays movable; a copy starts from the value read.
  CostEstimate(const CostEstimate& other)
      : ns_(other.ns_.load(std::memory_order_relaxed)),
        runs_(other.runs_.load(std::memory_order_relaxed)) {}
  CostEstimate& operator=(const CostEstimate& other) {
    ns_.store(other.ns_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    runs_.store(other.runs_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  // Runs of a node whose estimate is below kSampleBelowNs, timed one in this many.
  static constexpr int kSampleEvery = 16;
  static constexpr int64_t kSampleBelowNs = kHandOffMinNs / 4;

  // Whether the run about to start should be timed and recorded (see the file comment). Counts
  // the runs it skips.
  bool ShouldMeasure() {
    if (runs_.load(std::memory_order_relaxed) < 2 ||
        ns_.load(std::memory_order_relaxed) >= kSampleBelowNs) {
      return true;
    }
    const int skipped = skipped_.load(std::memory_order_relaxed);
    if (skipped + 1 < kSampleEvery) {
      skipped_.store(skipped + 1, std::memory_order_relaxed);
      return false;
    }
    skipped_.store(0, std::memory_order_relaxed);
    return true;
  }

  bool WorthHandingOff() const {
    const int64_t ns = ns_.load(std::memory_order_relaxed);
    return ns < 0 || ns >= kHandOffMinNs;
  }

  void Record(int64_t elapsed_ns) {
    if (elapsed_ns < 0) elapsed_ns = 0;
    const int64_t old = ns_.load(std::memory_order_relaxed);
    const int runs = runs_.load(std::memory_order_relaxed);
    int64_t next;
    if (runs < 2) {
      next = elapsed_ns;  // the first time, then the second in its place
      runs_.store(runs + 1, std::memory_order_relaxed);
    } else if (elapsed_ns < old) {
      next = old - (old - elapsed_ns) / 2;
    } else {
      next = old + (elapsed_ns - old) / 8;
    }
    ns_.store(next, std::memory_order_relaxed);
  }

  // The current estimate in ns; -1 before the first measurement.
  int64_t nanos() const { return ns_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> ns_{-1};
  std::atomic<int> runs_{0};     // measurements taken, counted up to 2
  std::atomic<int> skipped_{0};  // runs ShouldMeasure skipped since the last one it timed
};

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_COST_ESTIMATE_H_
