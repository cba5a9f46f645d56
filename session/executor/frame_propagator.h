// The frame propagator: how a finished node's outputs reach its consumers in a partition with
// Merge or while loops (TensorFlow's PropagatorState), with TF1's deadness and frame rules.
//
// - Frame instances: every node statically belongs to one frame (NodeItem::frame). At run time a
//   FrameState exists per (parent frame instance, parent iteration, static frame): the root, and
//   one per loop entered from each iteration of its parent. It keeps a ring of up to
//   parallel_iterations live iterations (IterationState: input slots, pending and dead counts).
// - Enter delivers into iteration 0 of its child frame instance (a constant Enter into every
//   iteration, as a loop invariant); NextIteration into the next iteration, deferred while
//   parallel_iterations are live (a dead NextIteration ends the loop); Exit into the parent's
//   iteration (a dead Exit only when the frame instance is done, and only the newest iteration's:
//   earlier ones are the loop going on). Iterations are freed as soon as they and every earlier
//   one are done, so a loop's memory does not grow with its trip count; a frame instance is
//   deleted when its Enters have all arrived and its last iteration is freed.
// - Deadness (ActivateNodes): a node with any dead input (data or control) is dead. A Merge is
//   ready once one data input is live and its control inputs have arrived, and is dead only when
//   every data input is (kMergeNoLiveInputBit); a dead Enter kills the loop's Merge at once. A
//   ControlTrigger is never dead.
//
// Contract: one FramePropagator per step. ScheduleRoots queues the roots in the root frame's
// iteration 0 and counts them there; after that, each node the step pops from a ReadyQueue is
// counted in its (frame, iteration) until the step calls Propagate for it, which delivers its
// outputs, queues the nodes that became ready (counting them) and uncounts it. The root frame is
// never deleted; the step ends when no node is ready or running, and LiveChildFrames() then says
// whether a loop was left unfinished.
//
// Threading: Propagate is called concurrently by the threads of one step. Each frame instance's
// `mu` guards its iterations' pending/dead counts, its iteration bookkeeping and the writes of its
// input slots; a node's input slots are read without the lock once it is ready (every write
// happened before, under the lock that made it ready). `frames_mu_` guards the map of child frame
// instances. A thread holds at most one of these locks at a time (frames_mu_ is never taken under a
// frame's `mu`, nor one frame's `mu` under another's), so they cannot deadlock. A step whose nodes
// all run on one thread (`one_thread`) takes none of these locks (FrameLock).
#ifndef RILL_SESSION_EXECUTOR_FRAME_PROPAGATOR_H_
#define RILL_SESSION_EXECUTOR_FRAME_PROPAGATOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/mutex.h"
#include "kernels/framework/op_kernel.h"
#include "session/executor/input_slots.h"
#include "session/executor/node_items.h"
#include "session/executor/ready_queue.h"

namespace rill {
namespace executor_internal {

// One instance of a static frame: the root, or a loop for one (parent instance, iteration).
struct FrameState {
  // `first`: a reset iteration 0 to reuse (null: a new one).
  FrameState(const FrameInfo* frame_info, FrameState* parent_frame, int64_t iteration_of_parent,
             int max_parallel, std::unique_ptr<IterationState> first = nullptr)
      : info(frame_info),
        parent(parent_frame),
        parent_iter(iteration_of_parent),
        max_parallel_iterations(max_parallel),
        num_pending_inputs(frame_info->num_enters),
        iterations(RingSize(max_parallel)),
        ring_mask(static_cast<int64_t>(iterations.size()) - 1) {
    iterations[0] =
        first != nullptr ? std::move(first) : std::make_unique<IterationState>(*info, 0);
  }
  // At least max_parallel + 1 slots, as TensorFlow's frame state keeps: at most max_parallel
  // consecutive iterations are live, so each has a slot of its own. A power of two so a slot is
  // a mask, not a division.
  static size_t RingSize(int max_parallel) {
    size_t n = 1;
    while (n < static_cast<size_t>(max_parallel) + 1) n <<= 1;
    return n;
  }
  // The live iteration `i`, or nullptr once it was freed.
  IterationState* GetIteration(int64_t i) {
    IterationState* s = iterations[i & ring_mask].get();
    return s != nullptr && s->iter == i ? s : nullptr;
  }

  const FrameInfo* const info;
  FrameState* const parent;  // null for the root
  const int64_t parent_iter;
  const int max_parallel_iterations;
  rill::Mutex mu;
  int num_pending_inputs ABSL_GUARDED_BY(mu);       // Enter deliveries still to come
  int64_t iteration_count ABSL_GUARDED_BY(mu) = 0;  // the newest iteration started
  int num_outstanding_iterations ABSL_GUARDED_BY(mu) = 1;
  // A ring of slots; iteration i lives in slot i & ring_mask.
  std::vector<std::unique_ptr<IterationState>> iterations;
  const int64_t ring_mask;
  // NextIteration outputs waiting for a slot (parallel_iterations reached).
  std::vector<std::pair<int, TensorValue>> next_iter_roots ABSL_GUARDED_BY(mu);
  // Constant Enter values, delivered to every iteration: (node, value, dead).
  std::vector<std::tuple<int, TensorValue, bool>> loop_invariants ABSL_GUARDED_BY(mu);
  std::vector<int> dead_exits ABSL_GUARDED_BY(mu);  // delivered when the frame is done
  // A freed iteration, reset, for the next StartIteration (null: none); see FreeIteration.
  std::unique_ptr<IterationState> spare_iteration ABSL_GUARDED_BY(mu);
};

// A frame instance's lock (or the map's), or none in a step whose nodes all run on one thread
// (FramePropagator's `one_thread`): nobody else touches its frames then.
class ABSL_SCOPED_LOCKABLE FrameLock {
 public:
  FrameLock(rill::Mutex* mu, bool take) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu)
      : mu_(take ? mu : nullptr) {
    if (mu_ != nullptr) mu_->Lock();
  }
  ~FrameLock() ABSL_UNLOCK_FUNCTION() {
    if (mu_ != nullptr) mu_->Unlock();
  }
  FrameLock(const FrameLock&) = delete;
  FrameLock& operator=(const FrameLock&) = delete;

 private:
  rill::Mutex* const mu_;
};

class FramePropagator {
 public:
  // The root frame runs once per step: one iteration, never a next one.
  static constexpr int kRootParallelIterations = 1;

  // `items` must outlive the propagator. `first_root_iteration`: a reset root iteration to reuse
  // (null: a new one). `one_thread`: the step calls Propagate from one thread only (a one-thread
  // runner and no async kernel), so the frames' locks are not taken.
  FramePropagator(const NodeItems& items, std::unique_ptr<IterationState> first_root_iteration,
                  bool one_thread = false)
      : items_(items),
        locking_(!one_thread),
        root_(std::make_unique<FrameState>(&items.frames[0], nullptr, 0, kRootParallelIterations,
                                           std::move(first_root_iteration))) {}

  FrameState* root() const { return root_.get(); }

  // Queues every root of the partition, live, in the root frame's iteration 0 and counts them
  // there. Returns how many it queued.
  int ScheduleRoots(ReadyQueue& ready) {
    FrameLock lock(&root_->mu, locking_);
    for (int id : items_.roots) ready.push_back({id, root_.get(), 0, false});
    const int n = static_cast<int>(ready.size());
    root_->GetIteration(0)->outstanding_ops = n;
    return n;
  }

  // Moves the finished node `t`'s outputs (`item` is its NodeItem; `is_dead`: every output is
  // dead) to its consumers in the right frame instance and iteration, queues those that became
  // ready, and updates the iteration and frame bookkeeping (TensorFlow's PropagateOutputs).
  void Propagate(const TaggedNode& t, const NodeItem& item, bool is_dead,
                 TensorValueVector& outputs, ReadyQueue& ready) {
    FrameState* frame = t.frame;
    bool frame_done = false;
    if (item.is_enter) {
      FrameState* child = FindOrCreateChildFrame(frame, t.iter, item);
      bool child_done = false;
      {
        FrameLock lock(&child->mu, locking_);
        if (item.is_constant_enter) {
          AddLoopInvariant(child, t.id, outputs[0], is_dead, ready);
        } else {
          ActivateNodes(item, is_dead, child, 0, absl::MakeSpan(outputs), true, ready);
        }
        if (--child->num_pending_inputs == 0) child_done = CleanupIterations(child, 0, ready);
      }
      if (child_done) DeleteFrame(child, ready);
      FrameLock lock(&frame->mu, locking_);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else if (item.is_exit) {
      if (!is_dead) {
        FrameLock lock(&frame->parent->mu, locking_);
        ActivateNodes(item, false, frame->parent, frame->parent_iter, absl::MakeSpan(outputs), true,
                      ready);
      }
      FrameLock lock(&frame->mu, locking_);
      // A dead Exit of the newest iteration is passed on when the frame is done (the loop may
      // be in an untaken branch); those of earlier iterations are just the loop going on.
      if (is_dead && t.iter == frame->iteration_count) frame->dead_exits.push_back(t.id);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else if (item.is_next_iteration) {
      FrameLock lock(&frame->mu, locking_);
      if (is_dead) {
        // The loop ends here: deadness does not flow into the next iteration.
      } else if (t.iter == frame->iteration_count &&
                 frame->num_outstanding_iterations == frame->max_parallel_iterations) {
        frame->next_iter_roots.emplace_back(t.id, std::move(outputs[0]));
      } else {
        if (t.iter == frame->iteration_count) StartIteration(frame, ready);
        ActivateNodes(item, false, frame, t.iter + 1, absl::MakeSpan(outputs), true, ready);
      }
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    } else {
      FrameLock lock(&frame->mu, locking_);
      ActivateNodes(item, is_dead, frame, t.iter, absl::MakeSpan(outputs), true, ready);
      frame_done = DecrementOutstandingOps(frame, t.iter, ready);
    }
    if (frame_done) DeleteFrame(frame, ready);
  }

  // Loop frame instances not yet done.
  size_t LiveChildFrames() {
    FrameLock lock(&frames_mu_, locking_);
    return child_frames_.size();
  }

 private:
  using FrameKey = std::tuple<const FrameState*, int64_t, int>;

  // Delivers a finished node's outputs to its consumers in (frame, iter) and queues those that
  // became ready (TensorFlow's ActivateNodes, including its Merge rules). Walks the node's
  // FlatEdges, which carry what the rules need of each consumer. With `move_last_use` an output's
  // last data edge moves the value into its slot (the node's own outputs, which nobody reads
  // after); without it every edge copies (a loop invariant kept for later iterations).
  void ActivateNodes(const NodeItem& item, bool is_dead, FrameState* frame, int64_t iter,
                     absl::Span<TensorValue> outputs, bool move_last_use, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    TensorValue* inputs = state->inputs.data();
    const int num_values = static_cast<int>(outputs.size());
    for (const FlatEdge& e : item.flat_out) {
      // Under the frame's lock: plain reads and writes of the atomics.
      int pending = state->pending[e.dst_local].load(std::memory_order_relaxed);
      int dead_count = state->dead_count[e.dst_local].load(std::memory_order_relaxed);
      const bool is_control = e.output < 0;
      TensorValue* out = !is_control && e.output < num_values ? &outputs[e.output] : nullptr;
      const bool has_value =
          !is_dead && out != nullptr && (out->is_ref() || out->tensor.IsInitialized());
      bool dst_dead = false;
      bool dst_ready = false;
      bool need_input = has_value;
      if (e.dst_is_merge) {
        if (is_control) {
          pending -= kMergeControlInputStep;
          dst_dead = dead_count == e.dst_num_inputs;
          dst_ready = pending == 0 || (pending == kMergeNoLiveInputBit && dst_dead);
        } else if (has_value) {
          // Only the first live input is used, and it makes the Merge ready once the control
          // inputs are in.
          need_input = (pending & kMergeNoLiveInputBit) != 0;
          dst_ready = pending == kMergeNoLiveInputBit;
          pending &= ~kMergeNoLiveInputBit;
        } else {
          ++dead_count;
          // A dead Enter kills the loop's Merge at once: its NextIteration never comes.
          dst_dead = dead_count == e.dst_num_inputs || item.is_enter;
          dst_ready = pending == kMergeNoLiveInputBit && dst_dead;
        }
      } else {
        if (is_dead || (!is_control && !has_value)) ++dead_count;
        dst_dead = dead_count > 0;
        dst_ready = --pending == 0;
      }
      state->pending[e.dst_local].store(pending, std::memory_order_relaxed);
      state->dead_count[e.dst_local].store(dead_count, std::memory_order_relaxed);
      if (need_input) {
        DeliverOutput(out, move_last_use && e.last_use, inputs + e.input_slot);
      }
      if (dst_ready) {
        if (e.dst_is_control_trigger) dst_dead = false;
        ready.push_back({e.dst, frame, iter, dst_dead});  // counted by the step
        ++state->outstanding_ops;
      }
    }
  }

  FrameState* FindOrCreateChildFrame(FrameState* parent, int64_t parent_iter,
                                     const NodeItem& enter) {
    const FrameKey key(parent, parent_iter, enter.child_frame);
    {
      FrameLock lock(&frames_mu_, locking_);
      auto it = child_frames_.find(key);
      if (it != child_frames_.end()) return it->second.get();
    }
    auto created = std::make_unique<FrameState>(&items_.frames[enter.child_frame], parent,
                                                parent_iter, enter.parallel_iterations);
    FrameState* raw = created.get();
    {
      FrameLock lock(&frames_mu_, locking_);
      auto [it, added] = child_frames_.emplace(key, std::move(created));
      if (!added) return it->second.get();  // another Enter of the same loop was first
    }
    FrameLock lock(&parent->mu, locking_);
    ++parent->GetIteration(parent_iter)->outstanding_frame_count;
    return raw;
  }

  // Records a loop invariant and delivers it to every live iteration.
  void AddLoopInvariant(FrameState* frame, int id, const TensorValue& value, bool is_dead,
                        ReadyQueue& ready) ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    frame->loop_invariants.emplace_back(id, value, is_dead);
    TensorValue& kept = std::get<1>(frame->loop_invariants.back());
    for (int64_t i = frame->iteration_count - frame->num_outstanding_iterations + 1;
         i <= frame->iteration_count; ++i) {
      if (i >= 0 && frame->GetIteration(i) != nullptr) {
        ActivateNodes(items_.nodes[id], is_dead, frame, i, absl::MakeSpan(&kept, 1), false, ready);
      }
    }
  }

  // Opens iteration iteration_count + 1 and delivers the loop invariants to it.
  void StartIteration(FrameState* frame, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    const int64_t next = ++frame->iteration_count;
    ++frame->num_outstanding_iterations;
    // Exits found dead in the previous newest iteration were the loop going on, not the loop
    // being dead: only the last iteration's dead Exits are passed on.
    frame->dead_exits.clear();
    std::unique_ptr<IterationState>& slot = frame->iterations[next & frame->ring_mask];
    if (frame->spare_iteration != nullptr) {
      slot = std::move(frame->spare_iteration);  // reset when it was freed
      slot->iter = next;
    } else {
      slot = std::make_unique<IterationState>(*frame->info, next);
    }
    for (auto& [id, value, dead] : frame->loop_invariants) {
      ActivateNodes(items_.nodes[id], dead, frame, next, absl::MakeSpan(&value, 1), false, ready);
    }
  }

  // One node of (frame, iter) finished; true when that made the whole frame instance done.
  bool DecrementOutstandingOps(FrameState* frame, int64_t iter, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    if (--state->outstanding_ops != 0) return false;
    return CleanupIterations(frame, iter, ready);
  }

  // Frees a done iteration's slot. The first one freed is kept, reset, as the frame instance's
  // spare for its next iteration: a loop running one iteration after another allocates two
  // iterations in all instead of one per iteration. Resetting it now drops the values left in
  // its slots (inputs of nodes that never ran) as freeing it would.
  static void FreeIteration(FrameState* frame, std::unique_ptr<IterationState>& slot)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    if (frame->spare_iteration != nullptr) {
      slot.reset();
      return;
    }
    slot->Reset(*frame->info, -1);
    frame->spare_iteration = std::move(slot);
  }

  bool IsIterationDone(FrameState* frame, int64_t iter) ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    IterationState* state = frame->GetIteration(iter);
    if (state == nullptr || state->outstanding_ops != 0 || state->outstanding_frame_count != 0) {
      return false;
    }
    // Iteration 0 also waits for every Enter; later ones for the iteration before them.
    return iter == 0 ? frame->num_pending_inputs == 0 : frame->GetIteration(iter - 1) == nullptr;
  }

  // Frees done iterations from `iter` on (starting deferred ones as slots free up); true when
  // the frame instance is done. The root frame is never freed here (the step ends instead).
  bool CleanupIterations(FrameState* frame, int64_t iter, ReadyQueue& ready)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(frame->mu) {
    if (frame == root_.get()) return false;
    for (int64_t i = iter; i <= frame->iteration_count && IsIterationDone(frame, i); ++i) {
      FreeIteration(frame, frame->iterations[i & frame->ring_mask]);
      --frame->num_outstanding_iterations;
      if (!frame->next_iter_roots.empty()) {
        StartIteration(frame, ready);
        for (auto& [id, value] : frame->next_iter_roots) {
          ActivateNodes(items_.nodes[id], false, frame, frame->iteration_count,
                        absl::MakeSpan(&value, 1), true, ready);
        }
        frame->next_iter_roots.clear();
      }
    }
    return frame->num_pending_inputs == 0 && frame->num_outstanding_iterations == 0;
  }

  // A done frame instance: passes its dead Exits on to the parent iteration, frees it, and
  // frees the parent too when that was the parent's last work, and so on up: a loop (no
  // recursion), however deep the frames nest.
  void DeleteFrame(FrameState* frame, ReadyQueue& ready) {
    while (frame != nullptr) frame = DeleteOneFrame(frame, ready);
  }

  // DeleteFrame's step: returns the parent when it is done too, else null.
  FrameState* DeleteOneFrame(FrameState* frame, ReadyQueue& ready) {
    FrameState* parent = frame->parent;
    const int64_t parent_iter = frame->parent_iter;
    std::vector<int> dead_exits;
    {
      FrameLock lock(&frame->mu, locking_);
      dead_exits.swap(frame->dead_exits);
    }
    bool parent_done = false;
    {
      FrameLock lock(&parent->mu, locking_);
      for (int id : dead_exits) {
        ActivateNodes(items_.nodes[id], true, parent, parent_iter, {}, true, ready);
      }
      IterationState* state = parent->GetIteration(parent_iter);
      --state->outstanding_frame_count;
      if (state->outstanding_ops == 0 && state->outstanding_frame_count == 0) {
        parent_done = CleanupIterations(parent, parent_iter, ready);
      }
    }
    {
      FrameLock lock(&frames_mu_, locking_);
      child_frames_.erase(FrameKey(parent, parent_iter, frame->info - items_.frames.data()));
    }
    return parent_done ? parent : nullptr;
  }

  const NodeItems& items_;
  const bool locking_;  // false: one thread, no locks (see the constructor)
  const std::unique_ptr<FrameState> root_;
  rill::Mutex frames_mu_;
  absl::flat_hash_map<FrameKey, std::unique_ptr<FrameState>> child_frames_
      ABSL_GUARDED_BY(frames_mu_);
};

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_FRAME_PROPAGATOR_H_
