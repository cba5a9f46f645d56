// The nodes ready to run on one thread of a step: TaggedNode (a node made ready in one iteration
// of one frame instance, with its deadness) and ReadyQueue, first in first out.
//
// Contract: propagators push the nodes a finished node made ready; the dispatcher (dispatch.h)
// pops them in order, runs them here or hands a run of them to another thread (MoveFrontTo).
// ReadyQueue::root_completed batches the step's count of finished root-frame nodes (see below).
//
// Threading: a ReadyQueue belongs to one thread at a time (a local of the function running
// nodes, or moved into one runner closure); it is not synchronized.
#ifndef RILL_SESSION_EXECUTOR_READY_QUEUE_H_
#define RILL_SESSION_EXECUTOR_READY_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rill {
namespace executor_internal {

struct FrameState;  // frame_propagator.h

// A node made ready in a frame instance's iteration.
struct TaggedNode {
  int id;
  FrameState* frame;
  int64_t iter;
  bool is_dead;
};

// A vector and a read index: no allocation once warm, unlike a deque's chunks. Emptying it
// rewinds it; a long-lived queue drops its consumed front now and then (kCompactAfterPopped).
class ReadyQueue {
 public:
  // A queue that never empties (a loop's thread always has its next node queued, a wide graph's
  // keeps finding work) drops its consumed front once this many nodes were popped and they are at
  // least half of the vector: the vector stays within twice its live size (or twice this bound),
  // so a recurrent loop's queue stays a few hundred bytes in the L1 cache instead of growing
  // through fresh memory and copying itself at each growth. An erase moves fewer nodes than were
  // popped since the last one, so its cost per pop stays bounded.
  static constexpr size_t kCompactAfterPopped = 32;

  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  void push_back(const TaggedNode& t) { items_.push_back(t); }
  TaggedNode pop_front() {
    TaggedNode t = items_[head_++];
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAfterPopped && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return t;
  }
  // Moves the next `n` nodes to be popped (n <= size()) to the back of `dst`, in order.
  void MoveFrontTo(ReadyQueue& dst, size_t n) {
    dst.items_.insert(dst.items_.end(), items_.begin() + static_cast<std::ptrdiff_t>(head_),
                      items_.begin() + static_cast<std::ptrdiff_t>(head_ + n));
    head_ += n;
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    }
  }
  // Calls fn on queued nodes in order while it returns true.
  template <typename Fn>
  void ForEachWhile(Fn&& fn) const {
    for (size_t i = head_; i < items_.size() && fn(items_[i]); ++i) {
    }
  }
  // Every queued node, in order (for handing a whole batch over).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (size_t i = head_; i < items_.size(); ++i) fn(items_[i]);
  }
  // Consumed slots still held at the front (for tests of the compaction).
  size_t consumed_for_test() const { return head_; }

  // Root-frame nodes finished by this queue's thread and not yet added to the step's count (one
  // atomic add per run of work instead of one per node). The step adds them before any
  // decrement that could end the step, and before an async kernel starts (its completion runs
  // elsewhere); a queue's last finished node otherwise always makes that decrement, since a node
  // that makes others ready leaves them in this queue.
  int root_completed = 0;

 private:
  std::vector<TaggedNode> items_;
  size_t head_ = 0;
};

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_READY_QUEUE_H_
