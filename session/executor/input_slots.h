// Where a step keeps the values flowing between nodes: IterationState, one iteration of one frame
// instance (its nodes' input slots, laid out by NodeItem::input_start, and their pending and dead
// counts, by NodeItem::local_id), with the two rules every propagator and the step share:
// DeliverOutput (how a producer's output is written into a consumer's slot), ReadRefInputs (the
// values of references read as the node runs) and FirstMissingInput
// / MissingInputError (which empty slot a ready, live node may not have, and the error naming it).
//
// Threading: an IterationState is shared by the threads of one step. Its pending and dead counts
// are atomics so the simple propagator can update them without a lock; the frame propagator
// updates them (and every other field) under its frame instance's lock. A slot is written before
// its node becomes ready, by whoever made it ready, and read by the thread that runs the node.
#ifndef RILL_SESSION_EXECUTOR_INPUT_SLOTS_H_
#define RILL_SESSION_EXECUTOR_INPUT_SLOTS_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kernels/framework/op_kernel.h"
#include "session/executor/node_items.h"

namespace rill {
namespace executor_internal {

// One iteration's input slots and pending/dead counts.
struct IterationState {
  IterationState(const FrameInfo& info, int64_t iteration)
      : iter(iteration),
        inputs(info.total_inputs),
        pending(info.num_nodes),
        dead_count(info.num_nodes) {
    Reset(info, iteration);
  }
  // Back to a fresh iteration: every input slot empty, the initial pending counts, no deadness.
  void Reset(const FrameInfo& info, int64_t iteration) {
    iter = iteration;
    for (TensorValue& v : inputs) {
      if (v.is_ref() || v.tensor.IsInitialized()) v = TensorValue();
    }
    for (int i = 0; i < info.num_nodes; ++i) {
      pending[i].store(info.initial_pending[i], std::memory_order_relaxed);
      dead_count[i].store(0, std::memory_order_relaxed);
    }
    outstanding_ops = 0;
    outstanding_frame_count = 0;
  }
  int64_t iter;
  std::vector<TensorValue> inputs;  // by NodeItem::input_start
  // By NodeItem::local_id. Atomic for the lock-free (simple) propagation; under the frame's
  // lock otherwise, where relaxed loads and stores are plain moves.
  std::vector<std::atomic<int>> pending;
  std::vector<std::atomic<int>> dead_count;
  int outstanding_ops = 0;          // nodes of this iteration ready or running
  int outstanding_frame_count = 0;  // child frame instances not yet done
};

// Writes one output `out` into a consumer's input slot `slot`: a value is moved on the output's
// last data edge (`last_use`: nothing after this edge reads `out`, which is left empty) and copied
// before it (the tensor's buffer is shared); a reference is copied on every edge and stays a
// reference until its reader runs (ReadRefInputs), as in TensorFlow: a read ordered after an
// Assign by a control edge sees the assigned value.
inline void DeliverOutput(TensorValue* out, bool last_use, TensorValue* slot) {
  if (last_use && !out->is_ref()) {
    *slot = std::move(*out);
  } else {
    *slot = *out;
  }
}

// Replaces each reference in `inputs` that `item` takes by value with the variable's value now,
// as the node is about to run (a deep copy for _Retval, whose fetch is a snapshot). Cheap handle
// copies otherwise; call only for nodes with check_inputs (a producer with reference outputs).
inline void ReadRefInputs(const NodeItem& item, TensorValue* inputs) {
  for (int i = 0; i < item.num_inputs; ++i) {
    TensorValue& v = inputs[i];
    if (!v.is_ref() || item.input_is_ref[i]) continue;
    Tensor value = v.Get();
    if (item.copies_ref_inputs && value.IsInitialized()) {
      absl::StatusOr<Tensor> copy = value.DeepCopy();
      if (copy.ok()) value = *std::move(copy);
    }
    v = TensorValue();
    v.tensor = std::move(value);
  }
}

// The first of a ready, live node's inputs (`inputs`: its slots) that holds no value, or -1.
// Empty slots are allowed for a Merge's dead inputs, and for a ref input (an uninitialized
// variable) when the op allows uninitialized inputs (Assign).
inline int FirstMissingInput(const NodeItem& item, const TensorValue* inputs) {
  for (int i = 0; i < item.num_inputs; ++i) {
    const TensorValue& v = inputs[i];
    if (item.is_merge && !v.is_ref() && !v.tensor.IsInitialized()) continue;  // dead input
    const bool initialized = v.is_ref() ? v.Get().IsInitialized() : v.tensor.IsInitialized();
    if (initialized || (v.is_ref() && item.allows_uninitialized_input)) continue;
    return i;
  }
  return -1;
}

// The error for input `input` of `item` (value `v`) found empty by FirstMissingInput, naming the
// node: TensorFlow's FailedPrecondition "Attempting to use uninitialized value <producer>" when
// the value comes from a variable (a ref), otherwise Internal "Input i of node X from Y has no
// value". `nodes`: every node of the executor, by index.
absl::Status MissingInputError(const std::vector<NodeItem>& nodes, const NodeItem& item, int input,
                               const TensorValue& v);

}  // namespace executor_internal
}  // namespace rill

#endif  // RILL_SESSION_EXECUTOR_INPUT_SLOTS_H_
