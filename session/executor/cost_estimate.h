// What an expensive kernel (OpKernel::IsExpensive) has been seen to cost, so the dispatcher hands
// to another thread only nodes that take longer than the hand-off itself. A MatMul is expensive by
// its kind, but a recurrent step's [16,256] x [256,256] MatMul takes microseconds: handed to
// another inter-op thread every iteration, a loop spends more time waking threads than computing
// (TensorFlow's executor keeps the same kind of per-node running estimate for the same reason).
//
//   if (item.cost.WorthHandingOff()) ...            // dispatch.h
//   item.cost.Record(elapsed_ns);                    // executor.cc, after Compute
//
// The estimate is a moving average of the measured Compute times (each new time weighs 1/8);
// until a first measurement the node counts as worth handing off, as before any estimate.
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
  CostEstimate(const CostEstimate& other) : ns_(other.ns_.load(std::memory_order_relaxed)) {}
  CostEstimate& operator=(const CostEstimate& other) {
    ns_.store(other.ns_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  bool WorthHandingOff() const {
    const int64_t ns = ns_.load(std::memory_order_relaxed);
    return ns < 0 || ns >= kHandOffMinNs;
  }

  void Record(int64_t elapsed_ns) {
    if (elapsed_ns < 0) elapsed_ns = 0;
    const int64_t old = ns_.load(std::memory_order_relaxed);
    ns_.store(old < 0 ? elapsed_ns : old + (elapsed_ns - old) / 8, std::memory_order_relaxed);
  }

  // The current estimate in ns; -1 before the first measurement.
  int64_t nanos() const { return ns_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> ns_{-1};
};

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_COST_ESTIMATE_H_
