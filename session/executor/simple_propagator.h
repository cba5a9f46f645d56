// The simple propagator: how a finished node's outputs reach its consumers in a partition
// without Merge or loops (NodeItems::simple), TensorFlow's SimplePropagatorState. Every node runs
// once, in iteration 0 of the root frame, so the consumers' pending and dead counts are atomics
// and no lock is taken. Also RootIterationPool, which recycles such a partition's root iteration
// across steps.
//
// Contract (PropagateLockFree): walks the finished node's FlatEdges once; each data edge either
// writes the output into the consumer's slot (moved on the output's last edge, copied before)
// or, when the output is unset or the producer dead, raises the consumer's dead count; a control
// edge raises it only when the producer is dead. The thread that takes a consumer's pending count
// to zero pushes it on its ReadyQueue, dead when any input was dead (a ControlTrigger never is).
// Deadness still flows here: a dead _Recv, or a Switch whose Merge is in another partition.
//
// Threading: PropagateLockFree is called concurrently by the threads of one step for different
// producers. A consumer's dead count is raised (relaxed) before its pending count drops
// (acq_rel), so the thread that takes the count to zero sees every dead flag and every slot
// written before the other decrements. RootIterationPool is thread-safe.
#ifndef RILL_SESSION_EXECUTOR_SIMPLE_PROPAGATOR_H_
#define RILL_SESSION_EXECUTOR_SIMPLE_PROPAGATOR_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "core/mutex.h"
#include "kernels/framework/op_kernel.h"
#include "session/executor/input_slots.h"
#include "session/executor/node_items.h"
#include "session/executor/ready_queue.h"

namespace rill {
namespace executor_internal {

// Delivers `item`'s outputs (`is_dead`: the node was dead, so every output is) into `root`, the
// step's root iteration, and pushes the consumers that became ready, tagged with `root_frame`, on
// `ready`. `nodes`: every node of the executor, by index. Outputs may be moved out of `outputs`.
inline void PropagateLockFree(const std::vector<NodeItem>& nodes, const NodeItem& item,
                              bool is_dead, TensorValueVector& outputs, IterationState* root,
                              FrameState* root_frame, ReadyQueue& ready) {
  TensorValue* inputs = root->inputs.data();
  const int num_values = static_cast<int>(outputs.size());
  for (const FlatEdge& e : item.flat_out) {
    if (e.output < 0) {  // a control edge carries deadness only
      if (is_dead) root->dead_count[e.dst_local].fetch_add(1, std::memory_order_relaxed);
    } else {
      TensorValue* out = e.output < num_values ? &outputs[e.output] : nullptr;
      if (!is_dead && out != nullptr && (out->is_ref() || out->tensor.IsInitialized())) {
        DeliverOutput(out, e.last_use, inputs + e.input_slot);
      } else {
        root->dead_count[e.dst_local].fetch_add(1, std::memory_order_relaxed);
      }
    }
    if (root->pending[e.dst_local].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      const bool dst_dead = !e.dst_is_control_trigger &&
                            root->dead_count[e.dst_local].load(std::memory_order_relaxed) > 0;
      ready.push_back({e.dst, root_frame, 0, dst_dead});  // counted by the step
    }
  }
}

// Root iterations of finished steps of a simple executor, emptied and reset, so a step does not
// allocate and construct its input slots anew. One per executor; a step takes one when it starts
// and gives it back when it ends.
class RootIterationPool {
 public:
  // Spare root iterations kept: one per step running concurrently on the executor is enough to
  // allocate nothing in steady state; a burst of more concurrent steps allocates, and the extras
  // are freed when they end rather than held for the executor's life.
  static constexpr size_t kMaxSpare = 4;

  // A reset root iteration, or null when none is spare.
  std::unique_ptr<IterationState> Take() {
    rill::MutexLock lock(&mu_);
    if (spare_.empty()) return nullptr;
    std::unique_ptr<IterationState> iteration = std::move(spare_.back());
    spare_.pop_back();
    return iteration;
  }
  // Resets `iteration` (outside the lock) to `root`'s initial state and keeps it, unless
  // kMaxSpare are kept already (then it is freed, also outside the lock).
  void Give(std::unique_ptr<IterationState> iteration, const FrameInfo& root) {
    iteration->Reset(root, 0);
    rill::MutexLock lock(&mu_);
    if (spare_.size() < kMaxSpare) spare_.push_back(std::move(iteration));
  }
  size_t size() const {
    rill::MutexLock lock(&mu_);
    return spare_.size();
  }

 private:
  mutable rill::Mutex mu_;
  std::vector<std::unique_ptr<IterationState>> spare_ ABSL_GUARDED_BY(mu_);
};

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_SIMPLE_PROPAGATOR_H_
